"""What an appointment is charged, in one place.

The amount is fixed when its first checkout is made (`payment.amount` and `.currency`, as
the provider's session says: realtime/functions/payments.py): a later change of the
service's price (`service-update`) never alters an appointment already waiting for its
payment, nor what its receipts, refunds and mails say. Before any checkout, the service's
current price applies.
"""

from storage.models import Appointment, Service

Price = tuple[int | None, str | None]  # amount in the currency's smallest unit, currency


def fixed_price(row: Appointment, service: Service) -> Price:
    payment = row.payment or {}
    amount, currency = payment.get("amount"), payment.get("currency")
    if isinstance(amount, int) and isinstance(currency, str):
        return amount, currency
    return service.price_amount, service.price_currency


def same_price(amount: object, currency: object, price: Price) -> bool:
    """Whether a checkout's `amount_total` and `currency` are the price (currency in any
    case: the provider writes it in small letters)."""
    return (
        price[0] is not None
        and amount == price[0]
        and str(currency or "").lower() == (price[1] or "").lower()
    )
