"""The clinic's live bookings feed: who holds, submits, pays, confirms or cancels, as it happens.

No intake data: ids, status, time and counselor only (staff open the appointment itself,
which is audit-logged by its rules, for anything more).

Two documents carry it (docs/protocol.md, "Live documents" and "The bookings window"): the
v1 `clinics/{clinicId}/bookings`, the whole list of the last FEED_SIZE changed bookings,
and the window `clinics/{clinicId}/bookings/{from}/{to}`, the bookings of those days whose
later changes are pushed one by one (realtime/booking/feed_window.py). Both are filtered
per reader: a counselor reads the rows of their own appointments only.
"""

from datetime import datetime
from typing import Any, Protocol

from realtime.booking.refunds import refund_reply
from realtime.paths import EVERYONE
from storage.db import AsyncSession
from storage.models import Appointment
from storage.repo_appointments import clinic_feed
from storage.types import iso

FEED_SIZE = 200


class Booked(Protocol):
    """What a feed entry reads of an appointment: a row, or the narrow rows of the window's
    query (storage/repo_appointments.py WINDOW_COLUMNS)."""

    @property
    def id(self) -> str: ...
    @property
    def service_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def date(self) -> str | None: ...
    @property
    def time(self) -> str | None: ...
    @property
    def timezone(self) -> str | None: ...
    @property
    def counselor_id(self) -> str | None: ...
    @property
    def hold_expires_at(self) -> datetime | None: ...
    @property
    def payment(self) -> dict[str, Any] | None: ...


def window_entry(a: Booked) -> dict[str, Any]:
    """A booking as the window carries it: every field changes only with a push (no
    `updated`, which an intake save moves without touching the booking)."""
    return {
        "appointmentId": a.id,
        "serviceId": a.service_id,
        "status": a.status,
        "date": a.date,
        "time": a.time,
        "timezone": a.timezone,
        "counselorId": a.counselor_id,
        "holdExpiresAt": iso(a.hold_expires_at),
        "payment": (a.payment or {}).get("status"),
        # A cancel's refund: {"status", "amount", "currency", "share"} (refunds.py), or null.
        "refund": refund_reply(a.payment),
    }


def feed_entry(a: Appointment) -> dict[str, Any]:
    """A booking of the v1 feed: the window's fields and when it last changed."""
    return {**window_entry(a), "updated": iso(a.updated)}


async def feed_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    rows = await clinic_feed(session, clinic_id=clinic_id, limit=FEED_SIZE)
    return {"bookings": [feed_entry(a) for a in rows]}


def feed_for(data: dict[str, Any], audience: str) -> dict[str, Any]:
    """The v1 feed as one audience reads it: a counselor, the clinic's list filtered to
    their own rows."""
    if audience == EVERYONE:
        return data
    return {"bookings": [row for row in data["bookings"] if row["counselorId"] == audience]}
