"""Scheduled work, run by every node in a loop (each job is idempotent and row-locked).

- purge-intake: answers of an appointment that was not submitted are kept only until the
  end of the day (clinic timezone) of their last change (spec section 4).
- expire-holds: holds past their expiry stop being held; the appointment forgets its time
  and every calendar gets the slot back.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, time
from zoneinfo import ZoneInfo

from sqlmodel import col, select

from realtime.booking.publish import publish_claim_change
from realtime.documents import push_row
from realtime.presence import check_sessions, forget_stale_presence
from realtime.state import AppState
from storage.models import Appointment, SlotClaim
from storage.repo_booking import active_claim_of

log = logging.getLogger(__name__)
BATCH = 500


def start_of_day(now: datetime, timezone: str) -> datetime:
    zone = ZoneInfo(timezone)
    return datetime.combine(now.astimezone(zone).date(), time(0), tzinfo=zone)


def _holds_answers(row: Appointment) -> bool:
    return bool(row.intake) or row.consent is not None or row.patient_role is not None


async def purge_intake(state: AppState, now: datetime) -> int:
    """Clear the answers of drafts last changed before today in their clinic's timezone."""
    async with state.db.read() as session:
        candidates = (
            await session.exec(
                select(Appointment.id)
                .where(Appointment.status == "draft")
                .where(col(Appointment.updated) < now)
                .limit(BATCH)
            )
        ).all()
    purged = 0
    for appointment_id in candidates:
        path = f"appointments/{appointment_id}"
        async with state.publisher.ordered(path):
            async with state.db.write() as session:
                row = await session.get(Appointment, appointment_id, with_for_update=True)
                if (
                    row is None
                    or row.status != "draft"
                    or not _holds_answers(row)
                    or row.updated is None
                    or row.updated >= start_of_day(now, row.timezone or "UTC")
                ):
                    continue
                row.intake = {}
                row.consent = None
                row.patient_role = None
                row.agreed_to_terms = False
                row.updated = now
                row.version += 1
            await push_row(state, path, row)
            purged += 1
    if purged:
        log.info("purge-intake cleared %s unsubmitted appointment(s)", purged)
    return purged


async def expire_holds(state: AppState, now: datetime) -> int:
    async with state.db.read() as session:
        expired = (
            await session.exec(
                select(SlotClaim.appointment_id)
                .where(col(SlotClaim.active))
                .where(SlotClaim.kind == "hold")
                .where(col(SlotClaim.expires_at) <= now)
                .limit(BATCH)
            )
        ).all()
    released = 0
    for appointment_id in expired:
        path = f"appointments/{appointment_id}"
        async with state.publisher.ordered(path):
            async with state.db.write() as session:
                row = await session.get(Appointment, appointment_id, with_for_update=True)
                claim = await active_claim_of(session, appointment_id=appointment_id)
                if (
                    row is None
                    or claim is None
                    or claim.kind != "hold"
                    or claim.expires_at is None
                    or claim.expires_at > now
                ):
                    continue
                claim.active = False
                if row.status == "draft":
                    row.counselor_id = row.date = row.time = row.hold_expires_at = None
                row.updated = now
                row.version += 1
            await push_row(state, path, row)
        await publish_claim_change(state, clinic_id=row.clinic_id, moments=[claim.start])
        released += 1
    return released


Job = Callable[[AppState, datetime], Awaitable[int]]
# Run by every node every JOB_INTERVAL_SECONDS.
SCHEDULED: dict[str, Job] = {
    "purge-intake": purge_intake,
    "expire-holds": expire_holds,
    "forget-presence": forget_stale_presence,
}
# Also runnable at a set time through POST /dev/jobs/{name} (development and tests).
# Session checks have their own, faster loop (realtime/presence.py).
JOBS: dict[str, Job] = {**SCHEDULED, "expire-sessions": check_sessions}


async def run_forever(state: AppState, interval_seconds: float) -> None:
    """The scheduler loop of one node; a failing job is logged and tried next round."""
    while True:
        for name, job in SCHEDULED.items():
            try:
                await job(state, datetime.now().astimezone())
            except Exception:
                log.exception("job %s failed", name)
        await asyncio.sleep(interval_seconds)
