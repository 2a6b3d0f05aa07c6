"""The staff's presence document: which clients are online now, and on which step."""

from datetime import timedelta
from typing import Any

from storage.db import AsyncSession
from storage.repo_presence import seen_since
from storage.types import iso, utcnow

# A socket row not seen for this long no longer counts (its node may have died).
STALE_AFTER = timedelta(minutes=15)


async def presence_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    rows = await seen_since(session, clinic_id=clinic_id, since=utcnow() - STALE_AFTER)
    online: dict[str, dict[str, Any]] = {}
    for row in rows:  # newest first: one entry per appointment, its latest step
        online.setdefault(
            row.appointment_id,
            {
                "appointmentId": row.appointment_id,
                "step": row.step,
                "since": iso(row.connected_at),
                "lastSeen": iso(row.last_seen),
            },
        )
    return {"online": list(online.values())}
