"""The currencies a service may be priced in: those Stripe charges in, written once here
(https://docs.stripe.com/currencies), with how many decimals their smallest unit has.

A price is stored as an integer in the currency's smallest unit, as Stripe takes it: 16500
JPY is ¥16,500 (JPY has no minor unit, "zero-decimal"), 1050 USD is $10.50. For the
three-decimal currencies Stripe takes only amounts whose last digit is 0.
"""

from typing import Final

ZERO_DECIMAL: Final = frozenset(
    "BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF".split()  # noqa: SIM905
)
THREE_DECIMAL: Final = frozenset("BHD JOD KWD OMR TND".split())  # noqa: SIM905
STRIPE_CURRENCIES: Final = frozenset(
    """
    USD AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD
    BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP
    GEL GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR ISK JMD JOD JPY KES KGS KHR KMF KRW
    KWD KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MUR MVR MWK MXN MYR MZN NAD
    NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SEK
    SGD SHP SLE SOS SRD STD SZL THB TJS TND TOP TRY TTD TWD TZS UAH UGX UYU UZS VND VUV WST
    XAF XCD XOF XPF YER ZAR ZMW
    """.split()  # noqa: SIM905
)
# Stripe's largest amount in any currency's smallest unit (eight digits).
MAX_AMOUNT: Final = 99_999_999


def decimals(currency: str) -> int:
    """Digits of the minor unit: 0 for JPY, 3 for KWD, 2 for the rest."""
    code = currency.upper()
    return 0 if code in ZERO_DECIMAL else 3 if code in THREE_DECIMAL else 2
