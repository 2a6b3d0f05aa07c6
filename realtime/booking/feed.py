"""The clinic's live bookings feed: who holds, submits, pays, confirms or cancels, as it happens.

No intake data: ids, status, time and counselor only (staff open the appointment itself,
which is audit-logged by its rules, for anything more).
"""

from typing import Any

from storage.db import AsyncSession
from storage.repo_appointments import clinic_feed
from storage.types import iso

FEED_SIZE = 200


async def feed_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    rows = await clinic_feed(session, clinic_id=clinic_id, limit=FEED_SIZE)
    return {
        "bookings": [
            {
                "appointmentId": a.id,
                "serviceId": a.service_id,
                "status": a.status,
                "date": a.date,
                "time": a.time,
                "timezone": a.timezone,
                "counselorId": a.counselor_id,
                "holdExpiresAt": iso(a.hold_expires_at),
                "payment": (a.payment or {}).get("status"),
                "updated": iso(a.updated),
            }
            for a in rows
        ]
    }
