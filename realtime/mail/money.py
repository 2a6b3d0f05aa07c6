"""Amounts of money in mails, written as each language writes them (babel, CLDR data):
an amount is stored in the currency's smallest unit, as Stripe counts it."""

from babel.numbers import format_currency, get_currency_precision


def format_amount(amount: int, currency: str, locale: str) -> str:
    """16500 JPY -> "￥16,500" (ja) / "¥16,500" (en); 1050 USD -> "$10.50"."""
    code = currency.upper()
    return format_currency(amount / 10 ** get_currency_precision(code), code, locale=locale)
