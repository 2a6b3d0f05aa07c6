"""What of an appointment is forgotten, by account-erase and by the retention purge alike
(docs/security.md, "Erasure and retention"): the answers and every personal field go; the
booking (service, clinic, counselor, day and time, status) and the payment's accounting
facts stay, for the records the law asks a clinic to keep.
"""

from typing import Any, Final

from realtime.contract import APPOINTMENT_STATUSES
from storage.models import Appointment
from storage.repo_appointments import OPEN_STATUSES

# An appointment in one of these states is over: its intake is kept for the retention period.
ENDED_STATUSES: Final[tuple[str, ...]] = tuple(
    status for status in APPOINTMENT_STATUSES if status not in OPEN_STATUSES
)

# What a payment record keeps: the amount and state, and the provider's ids that a refund or
# the accounting needs. Anything else (the checkout's address, a receipt link, the slot it
# was for, a name or address a provider might add) is dropped. The refund's own facts
# (`refundId`, `refundReason`, an amount refunded...) start with "refund" and stay.
PAYMENT_KEPT: Final[frozenset[str]] = frozenset(
    {"status", "amount", "currency", "paymentIntent", "sessionId", "earlierSessionIds", "attempt"}
)
# What a cancellation record keeps: when, and who cancelled; never the reason's free text.
CANCELLATION_KEPT: Final[frozenset[str]] = frozenset({"at", "by"})
# What a consent record keeps: which text was agreed to and when (and its withdrawal).
CONSENT_KEPT: Final[frozenset[str]] = frozenset({"version", "givenAt", "withdrawnAt"})


def _kept(record: dict[str, Any] | None, keys: frozenset[str]) -> dict[str, Any] | None:
    if record is None:
        return None
    return {key: value for key, value in record.items() if key in keys}


def kept_payment(payment: dict[str, Any] | None) -> dict[str, Any] | None:
    if payment is None:
        return None
    return {
        key: value
        for key, value in payment.items()
        if key in PAYMENT_KEPT or key.startswith("refund")
    }


def deidentify(row: Appointment) -> bool:
    """Forget the appointment's answers and personal fields; True when anything changed (the
    caller then marks the row changed and pushes it)."""
    before = _personal(row)
    row.intake = {}
    row.patient_role = None
    row.person_timezone = None
    row.join_url = None
    row.waitlist = None
    row.consent = _kept(row.consent, CONSENT_KEPT)
    row.cancellation = _kept(row.cancellation, CANCELLATION_KEPT)
    row.payment = kept_payment(row.payment)
    return _personal(row) != before


def _personal(row: Appointment) -> tuple[Any, ...]:
    return (
        row.intake,
        row.patient_role,
        row.person_timezone,
        row.join_url,
        row.waitlist,
        row.consent,
        row.cancellation,
        row.payment,
    )
