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
5. Holds do not last forever (docs/protocol.md "Booking"). A booking attempt starts with the
   appointment's first hold; its holds, renewals and moves to other times included, end at
   most HOLD_TOTAL_MINUTES after that start (a hold's expiry is cut there). A hold that would
   end at once, or a renewal that would not end later than the hold it renews, is refused
   (HoldLimit: ABORTED, `details.reason` "holdLimit"). The attempt ends once the appointment
   has held nothing for HOLD_COOLOFF_MINUTES; the next hold starts a new one. Only
   `appointment-hold` is capped: an open checkout extends the hold past the cap (the payment
   flow, realtime/payments), and that time counts as held for the cool-off. The attempt is
   derived from the appointment's claims (`attempt_of`), so nothing else is stored.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from storage.db import AsyncSession
from storage.models import Appointment, Service, SlotClaim
from storage.repo_booking import (
    active_claim_of,
    insert_claim,
    note_released,
    overlapping_claim,
    release_before_hold,
)


class SlotTaken(Exception):
    """The time is held or booked by someone else."""


class HoldLimit(Exception):
    """The booking attempt has kept times on hold for as long as it may (rule 5)."""

    def __init__(self, retry_after: datetime) -> None:
        super().__init__("hold limit")
        self.retry_after = retry_after  # when a new attempt may start, if nothing is held


@dataclass(frozen=True)
class HoldBudget:
    """The booking attempt a hold belongs to (rule 5): its holds end by `ends_by`; once
    nothing is held, a new attempt may start at `retry_after`."""

    ends_by: datetime
    retry_after: datetime


def attempt_of(
    claims: Sequence[tuple[datetime, datetime | None]],
    *,
    now: datetime,
    total: timedelta,
    cooloff: timedelta,
) -> HoldBudget:
    """The budget of a hold placed `now`, from the appointment's claims ((created, expires),
    oldest first). Claims follow on in one attempt while each starts less than `cooloff`
    after everything before it ended; a released claim counts as held until its expiry
    (an overestimate by at most one hold)."""
    start = held_until = now  # no claims: this hold starts an attempt
    for index, (created, expires) in enumerate(claims):
        end = max(created, expires or created)  # a booking has no expiry
        if index == 0 or created >= held_until + cooloff:
            start, held_until = created, end
        else:
            held_until = max(held_until, end)
    if now >= held_until + cooloff:
        start = held_until = now  # nothing held for the cool-off: a new attempt
    return HoldBudget(start + total, held_until + cooloff)


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
    budget: HoldBudget | None = None,
) -> HoldResult:
    """Three statements on PostgreSQL (the appointment's claim, the release, the insert):
    the older hold and the counselor's expired holds go in one UPDATE. The insert runs in a
    savepoint so that the caller's transaction survives SlotTaken; `savepoint=False` (two
    round trips fewer) when the caller abandons its transaction on SlotTaken anyway.
    With a `budget` (rule 5) the expiry is cut at its end, or HoldLimit is raised."""
    existing = await active_claim_of(session, appointment_id=appointment.id)
    renews = (
        existing is not None
        and existing.kind == "hold"
        and existing.counselor_id == counselor_id
        and existing.start == start
    )
    if budget is not None:
        expires_at = min(expires_at, budget.ends_by)
        renewed_to = existing.expires_at if renews and existing is not None else None
        if expires_at <= now or (renewed_to is not None and expires_at <= renewed_to):
            raise HoldLimit(budget.retry_after)
    if renews and existing is not None:
        existing.expires_at = expires_at
        return HoldResult(existing, None)
    await release_before_hold(
        session,
        appointment_id=appointment.id,
        counselor_id=counselor_id,
        now=now,
    )
    if existing is not None:
        note_released(existing)  # as the UPDATE left it
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
    if not await insert_claim(session, claim=claim, savepoint=savepoint):
        raise SlotTaken
    return HoldResult(claim, existing)
