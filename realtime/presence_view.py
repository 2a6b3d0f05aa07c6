"""The staff's presence document: which clients are online now, and on which step.

The whole document is computed with the counselor of each entry's appointment (null: no time
held yet), so that a counselor reads the entries of their own appointments only; the field is
not part of the wire document (`presence_for` takes it out for every reader).
"""

from datetime import timedelta
from typing import Any

from realtime.paths import EVERYONE
from storage.db import AsyncSession
from storage.repo_presence import seen_since_with_counselors
from storage.types import iso, utcnow

# A socket row not seen for this long no longer counts (its node may have died).
STALE_AFTER = timedelta(minutes=15)


async def presence_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    rows = await seen_since_with_counselors(
        session, clinic_id=clinic_id, since=utcnow() - STALE_AFTER
    )
    online: dict[str, dict[str, Any]] = {}
    for row, counselor_id in rows:  # newest first: one entry per appointment, its latest step
        online.setdefault(
            row.appointment_id,
            {
                "appointmentId": row.appointment_id,
                "step": row.step,
                "since": iso(row.connected_at),
                "lastSeen": iso(row.last_seen),
                "counselorId": counselor_id,
            },
        )
    return {"online": list(online.values())}


COUNSELOR = "counselorId"


def presence_for(data: dict[str, Any], audience: str) -> dict[str, Any]:
    """The presence document as one audience reads it: a counselor, the people of their
    own appointments only; nobody the entries' counselors."""
    return {
        "online": [
            {key: value for key, value in entry.items() if key != COUNSELOR}
            for entry in data["online"]
            if audience == EVERYONE or entry[COUNSELOR] == audience
        ]
    }
