"""What a cancel gives back, by the service's cancellation policy (realtime/booking/policy.py
does the arithmetic), and how the appointment's `payment` records it.

Only what was actually paid is refunded: the payment's `amount` and `currency` (written when
the checkout session was made and checked against the service's price when it was paid) while
its `status` is `paid`. The person's cancel gets the policy's share; the clinic's cancel always
the whole amount. A share of nothing issues no refund and is recorded as `not_refunded`.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from realtime.booking.policy import CancellationPolicy
from realtime.mail.money import format_amount
from storage.models import Service
from storage.types import iso

# payment.status of a cancelled paid appointment.
REFUND_PENDING: Final = "refund_pending"  # asked for; the API call is made after the commit
REFUNDED: Final = "refunded"
NOT_REFUNDED: Final = "not_refunded"  # the policy gives nothing back

# payment.refundReason of a refund the person's own cancel made.
CANCELLED_BY_PERSON: Final = "cancelled_by_person"


@dataclass(frozen=True)
class Paid:
    """What a payment took: the smallest currency unit, the ISO code in capitals."""

    amount: int
    currency: str
    payment_intent: str


def paid_of(payment: dict[str, Any] | None) -> Paid | None:
    """The money an appointment's payment holds now, None when nothing is paid (no payment,
    not yet paid, or already refunded)."""
    payment = payment or {}
    amount, currency, intent = (
        payment.get("amount"),
        payment.get("currency"),
        payment.get("paymentIntent"),
    )
    if payment.get("status") != "paid" or not isinstance(amount, int) or amount <= 0:
        return None
    if not isinstance(currency, str) or not currency or not isinstance(intent, str) or not intent:
        return None
    return Paid(amount, currency.upper(), intent)


@dataclass(frozen=True)
class Quote:
    """What a cancel made `now` would give back."""

    paid: Paid | None
    share: int  # percent of the amount paid
    amount: int  # smallest currency unit; 0 when nothing was paid or the share is 0
    free_until: datetime | None  # None when the appointment holds no time

    @property
    def currency(self) -> str | None:
        return self.paid.currency if self.paid else None

    def reply(self) -> dict[str, Any]:
        """appointment-cancelQuote's reply (docs/protocol.md, "Cancelling and refunds")."""
        refund = {"amount": self.amount, "currency": self.currency} if self.paid else None
        return {"refund": refund, "freeUntil": iso(self.free_until), "share": self.share}


def person_quote(
    payment: dict[str, Any] | None, service: Service, start: datetime | None, now: datetime
) -> Quote:
    """The person's cancel: the policy's share of what was paid, from the booked `start`.
    Without a booked start (a hold only, nothing booked) the share is the whole."""
    policy = CancellationPolicy.of(service)
    paid = paid_of(payment)
    if start is None:
        return Quote(paid, 100, paid.amount if paid else 0, None)
    share = policy.refund_share(start, now)
    amount = policy.refund_of(paid.amount, start, now) if paid else 0
    return Quote(paid, share, amount, policy.free_until(start))


def clinic_quote(payment: dict[str, Any] | None) -> Quote:
    """The clinic's cancel: everything paid comes back."""
    paid = paid_of(payment)
    return Quote(paid, 100, paid.amount if paid else 0, None)


def record(payment: dict[str, Any], quote: Quote, reason: str) -> dict[str, Any]:
    """The payment after a cancel of a paid appointment: the refund asked for
    (`refund_pending`, made after the commit) or none by policy (`not_refunded`)."""
    return {
        **payment,
        "status": REFUND_PENDING if quote.amount > 0 else NOT_REFUNDED,
        "refundAmount": quote.amount,
        "refundShare": quote.share,
        "refundReason": reason,
    }


def refund_reply(payment: dict[str, Any] | None) -> dict[str, Any] | None:
    """The `refund` of appointment-cancel's reply: what the cancel recorded, None when
    nothing had been paid."""
    payment = payment or {}
    if payment.get("status") not in (REFUND_PENDING, REFUNDED, NOT_REFUNDED):
        return None
    return {
        "status": payment["status"],
        "amount": payment.get("refundAmount"),
        "currency": str(payment.get("currency", "")).upper() or None,
        "share": payment.get("refundShare"),
    }


def refund_facts(payment: dict[str, Any] | None, locale: str) -> dict[str, Any] | None:
    """What the person's cancellation mail says comes back (templates `_refund_facts`): the
    amount written for `locale`, the share, and whether it is the whole; None when the
    cancel refunds nothing because nothing was paid."""
    payment = payment or {}
    if payment.get("refundReason") != CANCELLED_BY_PERSON:
        return None
    amount, share, currency = (
        payment.get("refundAmount"),
        payment.get("refundShare"),
        payment.get("currency"),
    )
    if not isinstance(amount, int) or not isinstance(share, int) or not currency:
        return None
    return {
        "amount": format_amount(amount, str(currency), locale) if amount else "",
        "share": share,
        "full": share == 100,
    }
