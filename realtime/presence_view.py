"""The staff's presence document: which clients are online now, and on which step."""

from datetime import timedelta
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Presence
from storage.types import iso, utcnow

# A socket row not seen for this long no longer counts (its node may have died).
STALE_AFTER = timedelta(minutes=15)


async def presence_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    rows = await session.exec(
        select(Presence)
        .where(Presence.clinic_id == clinic_id)
        .where(col(Presence.last_seen) > utcnow() - STALE_AFTER)
        .order_by(col(Presence.last_seen).desc())
    )
    online: dict[str, dict[str, Any]] = {}
    for row in rows.all():  # newest first: one entry per appointment, its latest step
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
