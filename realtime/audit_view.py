"""The clinic's audit live document, `clinics/{clinicId}/audit` (docs/protocol.md, "Live
documents"): only which entry is the newest, so that an open audit screen knows when to read
the log again through `staff-audit-read` (which is itself audited). The entries never travel
in the document: following it reveals that something was recorded, not what.

Reads of the log (`audit.read`) do not move it: two audit screens open at once would otherwise
re-read each other's reads without end.
"""

from typing import Any

from realtime.audit import AUDIT_READ
from storage.db import AsyncSession
from storage.repo_audit import latest_entry
from storage.types import iso


async def audit_data(session: AsyncSession, *, clinic_id: str) -> dict[str, Any]:
    entry = await latest_entry(session, clinic_id=clinic_id, leaving_out=AUDIT_READ)
    if entry is None:
        return {"latestId": None, "latestAt": None}
    return {"latestId": entry.id, "latestAt": iso(entry.at)}
