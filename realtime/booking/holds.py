"""Holds and bookings of a counselor's time: the concurrency rules, enforced by the database.

Rules (each is tested in tests/test_booking*.py):
1. Two active claims of one counselor never overlap, buffer included. PostgreSQL enforces it
   with an exclusion constraint; SQLite serialises writers (BEGIN IMMEDIATE) and checks for
   an overlap before inserting; both have a unique index on (counselor, start) among active
   claims. Two processes racing for one slot: exactly one insert commits, the other gets
   SlotTaken (ABORTED on the wire).
2. An appointment has at most one active claim (unique index). A newer hold releases the
   older one in the same transaction; if the newer one fails, the older one stays (the
   transaction is rolled back as a whole).
3. Holding the slot one already holds renews it (a new expiry), nothing else.
4. An expired hold no longer blocks anyone: the hold transaction deactivates the counselor's
   expired holds before inserting, and the expire-holds job clears the rest.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, Service, SlotClaim
from storage.repo_booking import active_claim_of, overlapping_claim, release_before_hold


class SlotTaken(Exception):
    """The time is held or booked by someone else."""


@dataclass(frozen=True)
class HoldResult:
    claim: SlotClaim
    released: SlotClaim | None  # the appointment's previous hold, if it moved


async def place_hold(
    session: AsyncSession,
    *,
    appointment: Appointment,
    service: Service,
    counselor_id: str,
    start: datetime,
    expires_at: datetime,
    now: datetime,
    check_overlap: bool,
    savepoint: bool = True,
) -> HoldResult:
    """Three statements on PostgreSQL (the appointment's claim, the release, the insert):
    the older hold and the counselor's expired holds go in one UPDATE. The insert runs in a
    savepoint so that the caller's transaction survives SlotTaken; `savepoint=False` (two
    round trips fewer) when the caller abandons its transaction on SlotTaken anyway."""
    existing = await active_claim_of(session, appointment_id=appointment.id)
    if (
        existing is not None
        and existing.kind == "hold"
        and existing.counselor_id == counselor_id
        and existing.start == start
    ):
        existing.expires_at = expires_at
        return HoldResult(existing, None)
    await release_before_hold(
        session,
        appointment_id=appointment.id,
        counselor_id=counselor_id,
        now=now,
    )
    if existing is not None:
        set_committed_value(existing, "active", False)  # as the UPDATE left it
    end = start + timedelta(minutes=service.session_minutes)
    blocked_until = end + timedelta(minutes=service.buffer_minutes)
    if check_overlap and await overlapping_claim(
        session, counselor_id=counselor_id, start=start, blocked_until=blocked_until, now=now
    ):
        raise SlotTaken
    claim = SlotClaim(
        appointment_id=appointment.id,
        counselor_id=counselor_id,
        clinic_id=appointment.clinic_id,
        service_id=appointment.service_id,
        start=start,
        end=end,
        blocked_until=blocked_until,
        kind="hold",
        expires_at=expires_at,
        created=now,
    )
    try:
        if savepoint:
            async with session.begin_nested():
                session.add(claim)
                await session.flush()
        else:
            session.add(claim)
            await session.flush()
    except IntegrityError:
        raise SlotTaken from None
    return HoldResult(claim, existing)
