"""appointment-hold: keep a chosen time for a person while they finish their booking.

A time that is not free in the cached months is refused without a write transaction (most
refusals: someone holds it); one that is goes to the database, whose constraint decides
between racers (the rules: realtime/booking/holds.py). A refusal names the nearest free
times. The derived documents' versions are raised inside the hold's own transaction
(`version_in`): they become visible with the hold, to every process at once.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from realtime.booking.access import own_appointment
from realtime.booking.holds import HoldBudget, HoldLimit, SlotTaken, attempt_of, place_hold
from realtime.booking.publish import ClaimChange, version_in
from realtime.booking.schedule import Slot, pregnancy_window
from realtime.booking.sessions import autocommit
from realtime.booking.vacancies import Calendar, calendar, months_between
from realtime.changes import Change, Claims, changing
from realtime.days import ISO_DAY
from realtime.entry import require_active
from realtime.errors import FunctionError, no_access
from realtime.identity import Identity
from realtime.paths import appointment_path
from realtime.state import AppState
from realtime.writable import CONSENT_MESSAGE
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.models import Appointment, Clinic, Service
from storage.repo_booking import claim_times_of
from storage.types import iso, utcnow

ALTERNATIVES = 3
ALTERNATIVE_DAYS = timedelta(days=3)  # alternatives come from the chosen day and 3 either side
ANY_COUNSELOR = "any"
TAKEN_MESSAGE = "This time has just been taken. Please choose another."
NOT_MOVABLE_MESSAGE = "This appointment can no longer change its time."
HOLD_LIMIT_MESSAGE = (
    "This booking has kept a time on hold for as long as allowed. Please confirm it before "
    "the hold ends, or choose a time again later."
)


def pregnancy_days(service: Service, appointment: Appointment | None) -> tuple[date, date] | None:
    """The days the pregnancy allows for this service, from the intake's expected date."""
    if service.gestation_min_weeks is None or service.gestation_max_weeks is None:
        return None
    edd = (
        ((appointment.intake or {}).get("currentPregnancy") or {}).get("edd")
        if appointment
        else None
    )
    if not isinstance(edd, str) or not ISO_DAY.fullmatch(edd):
        return None
    return pregnancy_window(
        date.fromisoformat(edd), service.gestation_min_weeks, service.gestation_max_weeks
    )


class Refused(Exception):
    """The time cannot be held: ABORTED on the wire, with the nearest free times."""

    def __init__(self, alternatives: list[dict[str, object]]) -> None:
        super().__init__("refused")
        self.alternatives = alternatives


@dataclass(frozen=True)
class Choice:
    """What a hold asks for, and the free times around it (from the month cache)."""

    row: Appointment
    clinic: Clinic
    service: Service
    start: datetime
    day: date
    near: Calendar
    now: datetime

    def slots(self, row: Appointment, first_day: date, last_day: date) -> list[Slot]:
        """Free slots between the days as this appointment sees them (its own hold does
        not block them)."""
        return self.near.slots(
            now=self.now,
            first_day=first_day,
            last_day=last_day,
            window=pregnancy_days(self.service, row),
            ignore_appointment_id=row.id,
        )

    def offered(self, row: Appointment) -> Slot | None:
        """The slot at `start` as this appointment sees it."""
        slots = self.slots(row, self.day, self.day)
        return next((s for s in slots if s.start == self.start), None)

    def alternatives(self, taken: str | None = None) -> list[dict[str, object]]:
        """The nearest free times of the chosen day and 3 either side; `taken`: the counselor
        the database just refused at `start` (a claim the cached months do not show yet)."""
        first, last = self.day - ALTERNATIVE_DAYS, self.day + ALTERNATIVE_DAYS
        if taken is None:
            nearest = self.near.nearest(
                self.start,
                ALTERNATIVES,
                now=self.now,
                first_day=first,
                last_day=last,
                window=pregnancy_days(self.service, self.row),
                ignore_appointment_id=self.row.id,
            )
            return [slot.to_wire() for slot in nearest]
        slots = self.slots(self.row, first, last)
        return _nearest(_without(slots, taken, self.start, self.service), self.start)


def _without(slots: list[Slot], counselor_id: str, start: datetime, service: Service) -> list[Slot]:
    """`slots` with the counselor busy over a session and buffer from `start`."""
    span = timedelta(minutes=service.session_minutes + service.buffer_minutes)
    kept = []
    for slot in slots:
        if (
            counselor_id in slot.counselor_ids
            and slot.start < start + span
            and start < slot.start + span
        ):
            ids = tuple(c for c in slot.counselor_ids if c != counselor_id)
            if ids:
                kept.append(Slot(slot.start, slot.end, ids))
        else:
            kept.append(slot)
    return kept


def _nearest(slots: list[Slot], start: datetime) -> list[dict[str, object]]:
    ranked = sorted(slots, key=lambda s: abs((s.start - start).total_seconds()))
    return [s.to_wire() for s in ranked[:ALTERNATIVES]]


async def _choice(state: AppState, who: Identity, appointment_id: str, start: datetime) -> Choice:
    """Read-only first look: whose appointment, may it move, and the months around the
    chosen day. One statement when those months are cached (no lock, no transaction)."""

    def admit(row: Appointment) -> None:
        if row.user_id != who.uid:
            raise no_access()
        _require_movable(row)

    return await first_look(state, appointment_id, start, admit)


async def first_look(
    state: AppState, appointment_id: str, start: datetime, admit: Callable[[Appointment], None]
) -> Choice:
    """The first look of a hold or a move (realtime/booking/reschedule.py): `admit` refuses
    an appointment the caller may not act on, or one that may not change its time."""
    # The chosen day, in whatever zone the clinic has, is within a day of the UTC one: these
    # months cover it and the alternatives' days either side.
    months = months_between(
        start.date() - ALTERNATIVE_DAYS - timedelta(days=2),
        start.date() + ALTERNATIVE_DAYS + timedelta(days=2),
    )
    look = await state.caches.looks.get(appointment_id, months)
    if look is None:
        raise no_access()
    admit(look.row)
    row, clinic, service = look.row, look.clinic, look.service
    day = start.astimezone(ZoneInfo(clinic.timezone)).date()
    now = utcnow()
    # The months are cached at those versions (no session), unless someone changed them.
    async with autocommit(state.db) as session:
        near = await calendar(
            session,
            cache=state.caches.months,
            clinic=clinic,
            service=service,
            first_day=day - ALTERNATIVE_DAYS,
            last_day=day + ALTERNATIVE_DAYS,
            now=now,
            versions=look.versions,
        )
    return Choice(row, clinic, service, start, day, near, now)


def _counselor(offered: Slot | None, requested: str) -> str | None:
    if offered is None:
        return None
    if requested == ANY_COUNSELOR:
        return offered.counselor_ids[0]
    return requested if requested in offered.counselor_ids else None


def _require_movable(row: Appointment) -> None:
    """Only a draft may change its time, and a hold takes a counselor's time only for a
    person who has begun in earnest (consent is the booking's first step), refused as intake
    answers are (realtime/writable.py)."""
    if row.status != "draft":
        raise FunctionError("ABORTED", NOT_MOVABLE_MESSAGE)
    if not row.consent:
        raise FunctionError(
            "INVALID_ARGUMENT",
            CONSENT_MESSAGE,
            {"fields": {"consent": CONSENT_MESSAGE}, "codes": {"consent": "consentRequired"}},
        )


async def _budget(
    state: AppState, session: AsyncSession, appointment_id: str, now: datetime
) -> HoldBudget:
    """The booking attempt this hold belongs to (rule 5 of realtime/booking/holds.py), from
    the appointment's claims recent enough to be part of an attempt still running: one
    attempt's claims are made within HOLD_TOTAL_MINUTES, and its last one ends at most a
    checkout (with its grace) later. A claim kept longer, by checkouts made again and again,
    is still read (it is held within the look-back), which makes the attempt older, not
    newer."""
    settings = state.settings
    total = timedelta(minutes=settings.hold_total_minutes)
    cooloff = timedelta(minutes=settings.hold_cooloff_minutes)
    look_back = (
        total
        + cooloff
        + timedelta(minutes=settings.checkout_session_minutes + settings.payment_grace_minutes)
    )
    claims = await claim_times_of(session, appointment_id=appointment_id, since=now - look_back)
    return attempt_of(claims, now=now, total=total, cooloff=cooloff)


@dataclass(frozen=True)
class Held:
    """A hold placed or renewed: the appointment as written, the end its renewals may reach
    (the attempt's budget, rule 5 of realtime/booking/holds.py) and the server's clock then
    (so that a client counts down without trusting its own clock)."""

    row: Appointment
    ends_by: datetime
    now: datetime


async def hold_time(
    state: AppState,
    who: Identity,
    *,
    appointment_id: str,
    start: datetime,
    counselor: str,
    person_zone: str | None = None,
) -> Held:
    """Hold `start` with `counselor` (or "any") for the caller's draft; ABORTED with the
    nearest free times when it cannot be held. `person_zone` (a known IANA zone, or None to
    keep the one recorded) is the person's own, for their mails."""
    try:
        choice = await _choice(state, who, appointment_id, start)
        require_active(choice.service)  # a hold is new; the look read the row as it is now
        if _counselor(choice.offered(choice.row), counselor) is None:
            # Most refusals under contention: decided from the cached months, before any
            # lock or transaction is taken.
            raise Refused(choice.alternatives())
        async with changing(state, appointment_path(appointment_id)) as change:
            return await _hold(state, who, choice, start, counselor, change, person_zone)
    except Refused as refused:
        raise FunctionError(
            "ABORTED", TAKEN_MESSAGE, {"alternatives": refused.alternatives}
        ) from None


async def _hold(
    state: AppState,
    who: Identity,
    choice: Choice,
    start: datetime,
    counselor: str,
    change: Change,
    person_zone: str | None,
) -> Held:
    """The hold in one transaction, under the appointment's lock: the database's
    constraint decides between racers for a time the cache showed free."""
    clinic, service = choice.clinic, choice.service
    async with state.db.write() as session:
        row = await own_appointment(session, who, choice.row.id)
        _require_movable(row)  # again under the lock: the day's purge may have cleared it
        counselor_id = _counselor(choice.offered(row), counselor)
        if counselor_id is None:
            raise Refused(choice.alternatives())
        now = utcnow()
        budget = await _budget(state, session, row.id, now)
        try:
            held = await place_hold(
                session,
                appointment=row,
                service=service,
                counselor_id=counselor_id,
                start=start,
                expires_at=now + timedelta(minutes=state.settings.hold_minutes),
                now=now,
                check_overlap=state.db.sqlite,
                savepoint=False,  # refused: the whole transaction is rolled back
                budget=budget,
            )
        except SlotTaken:
            raise Refused(choice.alternatives(taken=counselor_id)) from None
        except HoldLimit as limit:
            raise FunctionError(
                "ABORTED",
                HOLD_LIMIT_MESSAGE,
                {"reason": "holdLimit", "retryAfter": iso(limit.retry_after)},
            ) from None
        local = start.astimezone(ZoneInfo(clinic.timezone))
        change.moving(row)  # its bookings window tells the day it leaves
        row.counselor_id = counselor_id
        row.date, row.time = local.strftime("%Y-%m-%d"), local.strftime("%H:%M")
        row.hold_expires_at = held.claim.expires_at  # cut by the budget, maybe
        if person_zone is not None:
            row.person_timezone = person_zone
        mark_changed(row, now)
        moments = [start] + ([held.released.start] if held.released else [])
        versioned = await version_in(
            state, session, clinic_id=clinic.id, moments=moments, service_id=service.id
        )
        change.row(appointment_path(row.id), row)
        change.claims_changed(
            Claims(
                clinic.id,
                moments,
                service.id,
                ClaimChange.of(held.claim, held.released),
                versioned,
            )
        )
    return Held(row, budget.ends_by, now)
