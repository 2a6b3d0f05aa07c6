"""What the person sees of their own appointments (docs/protocol.md, "My appointments"): the
summary `appointments-mine` lists, and the span an appointment's time covers (its .ics
event, realtime/calendar/appointment.py, says the same).

A summary carries no intake, consent or payment-provider identifiers: only what the "My
booking" screen shows. The join link is given while the appointment is confirmed, never
after (a cancelled or past meeting is not to be joined).
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from realtime.booking.schedule import local_time
from storage.models import Appointment, Service
from storage.types import iso

# The keys of the payment record (appointment.payment) a summary repeats; the rest
# (checkout session and payment intent ids, the checkout URL, the held slot) stays inside.
PAYMENT_SUMMARY_KEYS = (
    "amount",
    "currency",
    "status",
    "refundAmount",
    "receiptUrl",
)


@dataclass(frozen=True)
class Span:
    """An appointment's time: start and end in the clinic's zone (aware datetimes)."""

    start: datetime
    end: datetime


def span_of(row: Appointment, service: Service) -> Span | None:
    """The time the appointment holds or held (its `date` and `time` in its `timezone`, for
    the service's session length); None when it has none or it cannot be read."""
    if not row.date or not row.time or not row.timezone:
        return None
    try:
        zone = ZoneInfo(row.timezone)
        start = local_time(date.fromisoformat(row.date), time.fromisoformat(row.time), zone)
    except (ValueError, ZoneInfoNotFoundError):
        return None
    if start is None:
        return None
    return Span(start, start + timedelta(minutes=service.session_minutes))


def payment_summary(payment: dict[str, Any] | None) -> dict[str, Any] | None:
    """The payment as the person reads it (PAYMENT_SUMMARY_KEYS present in the record), or
    None when nothing was ever charged or offered."""
    if not payment or payment.get("amount") is None:
        return None
    return {key: payment[key] for key in PAYMENT_SUMMARY_KEYS if payment.get(key) is not None}


def summary(row: Appointment, service: Service) -> dict[str, Any]:
    """One entry of `appointments-mine`."""
    span = span_of(row, service)
    return {
        "id": row.id,
        "clinicId": row.clinic_id,
        "serviceId": row.service_id,
        "status": row.status,
        "date": row.date,
        "time": row.time,
        "timezone": row.timezone,
        "personTimezone": row.person_timezone,
        "start": span.start.isoformat() if span else None,
        "end": span.end.isoformat() if span else None,
        "counselorId": row.counselor_id,
        "payment": payment_summary(row.payment),
        "cancellation": row.cancellation,
        "joinUrl": row.join_url if row.status == "confirmed" else None,
        "created": iso(row.created),
    }
