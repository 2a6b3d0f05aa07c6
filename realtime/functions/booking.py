"""vacancies-read, appointment-hold, appointment-updateStatus, appointment-cancel,
sendEmail-counselor (docs/protocol.md, "Booking"). Concurrency rules: realtime/booking/holds.py."""

import asyncio
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import ConfigDict, Field, StringConstraints

from realtime.booking.confirm import confirm_booking
from realtime.booking.holds import HoldBudget, HoldLimit, SlotTaken, attempt_of, place_hold
from realtime.booking.notify import booking_mails
from realtime.booking.publish import (
    ClaimChange,
    Versioned,
    advance,
    committed,
    publish_claim_change,
    publish_feed,
    publish_versioned,
    version_in,
)
from realtime.booking.schedule import Slot, pregnancy_window
from realtime.booking.sessions import autocommit
from realtime.booking.status import STAFF_OUTCOMES, transition
from realtime.booking.vacancies import Calendar, calendar, months_between, vacancies_answer
from realtime.collections import document_data
from realtime.days import OUT_OF_RANGE, in_range
from realtime.dispatch import CallContext, callable_function
from realtime.documents import push_row
from realtime.errors import FunctionError, invalid_field
from realtime.functions.inputs import Id, Input
from realtime.identity import Identity
from realtime.intake.validate import missing_answers
from realtime.mail.outbox import Queued
from realtime.paths import appointment_path, user_path
from realtime.ratelimit import enforce
from realtime.rules import require_identity
from realtime.state import AppState
from realtime.text import MultiLine
from realtime.writable import CONSENT_MESSAGE
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.models import Appointment, Clinic, Service
from storage.repo_appointments import get_appointment, open_appointment
from storage.repo_booking import active_claim_of, claim_times_of
from storage.repo_catalog import get_clinic, get_service
from storage.repo_users import lock_user, revoke_user_sessions
from storage.types import iso, utcnow

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_RANGE_DAYS = 62
ALTERNATIVES = 3
ALTERNATIVE_DAYS = timedelta(days=3)  # alternatives come from the chosen day and 3 either side
ANY_COUNSELOR = "any"
HOLD_LIMIT_MESSAGE = (
    "This booking has kept a time on hold for as long as allowed. Please confirm it before "
    "the hold ends, or choose a time again later."
)
Day = Annotated[str, StringConstraints(pattern=ISO_DAY.pattern)]


def _day(value: str, field: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise invalid_field(field, "Dates are YYYY-MM-DD.") from None
    if not in_range(day):
        raise invalid_field(field, OUT_OF_RANGE)
    return day


def _moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise FunctionError(
            "INVALID_ARGUMENT",
            "start must be ISO-8601 with an offset.",
            {"fields": {"start": "ISO-8601 with an offset"}},
        )
    if not in_range(moment.date()):  # checked before any arithmetic can overflow
        raise FunctionError("INVALID_ARGUMENT", OUT_OF_RANGE, {"fields": {"start": OUT_OF_RANGE}})
    return moment.astimezone(UTC)


def _window(service: Service, appointment: Appointment | None) -> tuple[date, date] | None:
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


# vacancies-read -------------------------------------------------------------------------


class VacanciesRead(Input):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    clinicId: Id
    serviceId: Id
    from_: Day = Field(alias="from")
    to: Day


@callable_function("vacancies-read", VacanciesRead)
async def vacancies_read(context: CallContext, request: VacanciesRead) -> dict[str, Any]:
    who = require_identity(context.identity)
    first, last = _day(request.from_, "from"), _day(request.to, "to")
    if last < first or (last - first).days > MAX_RANGE_DAYS:
        raise invalid_field("to", f"Ask for at most {MAX_RANGE_DAYS} days, from before to.")
    state = context.state
    async with autocommit(state.db) as session:  # reads that need no snapshot
        found = await state.caches.catalogs.get(session, request.clinicId)
        if found is None:
            raise FunctionError("NOT_FOUND", "No such clinic.")
        clinic, services = found
        wanted = clinic.service_aliases.get(request.serviceId, request.serviceId)
        service = next((s for s in services if s.id == wanted), None)
        if service is None:
            raise FunctionError("NOT_FOUND", "The clinic does not offer this service.")
        mine = None  # the person's appointment matters only to a pregnancy window
        if service.gestation_min_weeks is not None and service.gestation_max_weeks is not None:
            own = await open_appointment(session, user_id=who.uid)
            mine = own if own and own.service_id == service.id else None
        now = utcnow()
        months = await calendar(
            session,
            cache=state.caches.months,
            clinic=clinic,
            service=service,
            first_day=first,
            last_day=last,
            now=now,
        )
    slots = months.wire(now=now, first_day=first, last_day=last, window=_window(service, mine))
    return vacancies_answer(clinic.timezone, slots)


# appointment-hold -----------------------------------------------------------------------


class AppointmentHold(Input):
    appointmentId: Id
    start: Annotated[str, StringConstraints(max_length=40)]
    counselorId: Id  # or "any": the server picks a free counselor


@dataclass
class Booked:
    """What a transaction on an appointment did, to push and mail after its commit."""

    appointment: Appointment
    moments: list[datetime]
    mails: list[Queued]
    change: ClaimChange | None = None  # what it did to the claims, when it changed them
    versioned: Versioned | None = None  # its documents, when versioned in its transaction


async def _owned(session: AsyncSession, who: Identity, appointment_id: str) -> Appointment:
    row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
    if row is None or row.user_id != who.uid:
        raise FunctionError("PERMISSION_DENIED", "You do not have access to this document.")
    return row


async def _catalog(session: AsyncSession, row: Appointment) -> tuple[Clinic, Service]:
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    service = await get_service(session, service_id=row.service_id)
    assert clinic is not None and service is not None
    return clinic, service


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

    def offered(self, row: Appointment) -> Slot | None:
        """The slot at `start` as this appointment sees it (its own hold does not block it)."""
        slots = self.near.slots(
            now=self.now,
            first_day=self.day,
            last_day=self.day,
            window=_window(self.service, row),
            ignore_appointment_id=row.id,
        )
        return next((s for s in slots if s.start == self.start), None)

    def alternatives(self, taken: str | None = None) -> list[dict[str, object]]:
        """The nearest free times of the chosen day and 3 either side; `taken`: the counselor
        the database just refused at `start` (a claim the cached months do not show yet)."""
        first, last = self.day - ALTERNATIVE_DAYS, self.day + ALTERNATIVE_DAYS
        window = _window(self.service, self.row)
        if taken is None:
            nearest = self.near.nearest(
                self.start,
                ALTERNATIVES,
                now=self.now,
                first_day=first,
                last_day=last,
                window=window,
                ignore_appointment_id=self.row.id,
            )
            return [slot.to_wire() for slot in nearest]
        slots = self.near.slots(
            now=self.now,
            first_day=first,
            last_day=last,
            window=window,
            ignore_appointment_id=self.row.id,
        )
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


async def _choice(state: AppState, who: Identity, request: AppointmentHold) -> Choice:
    """Read-only first look: whose appointment, may it move, and the months around the
    chosen day. One statement when those months are cached (no lock, no transaction)."""
    start = _moment(request.start)
    # The chosen day, in whatever zone the clinic has, is within a day of the UTC one: these
    # months cover it and the alternatives' days either side.
    months = months_between(
        start.date() - ALTERNATIVE_DAYS - timedelta(days=2),
        start.date() + ALTERNATIVE_DAYS + timedelta(days=2),
    )
    look = await state.caches.looks.get(request.appointmentId, months)
    if look is None or look.row.user_id != who.uid:
        raise FunctionError("PERMISSION_DENIED", "You do not have access to this document.")
    row, clinic, service = look.row, look.clinic, look.service
    if row.status != "draft":
        raise FunctionError("ABORTED", "This appointment can no longer change its time.")
    _require_consent(row)
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


def _require_consent(row: Appointment) -> None:
    """A hold takes a counselor's time: only for a person who has begun in earnest (consent
    is the booking's first step), refused as intake answers are (realtime/writable.py)."""
    if not row.consent:
        raise FunctionError(
            "INVALID_ARGUMENT",
            CONSENT_MESSAGE,
            {"fields": {"consent": CONSENT_MESSAGE}, "codes": {"consent": "consentRequired"}},
        )


async def _limit_holds(context: CallContext, who: Identity) -> None:
    """Holds per user and per client IP in the rate-limit window (RESOURCE_EXHAUSTED): every
    call counts, refused or not, as every call costs the database work."""
    state, settings = context.state, context.state.settings
    window = settings.rate_limit_window_seconds
    await asyncio.gather(
        enforce(
            state.limiter,
            f"hold-user:{who.uid}",
            limit=settings.holds_per_user,
            window_seconds=window,
        ),
        enforce(
            state.limiter,
            f"hold-ip:{context.client_ip or 'unknown'}",
            limit=settings.holds_per_ip,
            window_seconds=window,
        ),
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


async def _hold(state: AppState, who: Identity, request: AppointmentHold) -> Booked:
    """A time that is not free in the cached months is refused without a write transaction
    (most refusals: someone holds it); one that is goes to the database, whose constraint
    decides between racers."""
    choice = await _choice(state, who, request)
    if _counselor(choice.offered(choice.row), request.counselorId) is None:
        raise Refused(choice.alternatives())
    clinic, service, start = choice.clinic, choice.service, choice.start
    async with state.db.write() as session:
        row = await _owned(session, who, request.appointmentId)
        if row.status != "draft":
            raise FunctionError("ABORTED", "This appointment can no longer change its time.")
        _require_consent(row)  # again under the lock: the day's purge may have cleared it
        counselor_id = _counselor(choice.offered(row), request.counselorId)
        if counselor_id is None:
            raise Refused(choice.alternatives())
        now = utcnow()
        expires_at = now + timedelta(minutes=state.settings.hold_minutes)
        try:
            held = await place_hold(
                session,
                appointment=row,
                service=service,
                counselor_id=counselor_id,
                start=start,
                expires_at=expires_at,
                now=now,
                check_overlap=state.db.sqlite,
                savepoint=False,  # refused: the whole transaction is rolled back
                budget=await _budget(state, session, row.id, now),
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
        row.counselor_id = counselor_id
        row.date, row.time = local.strftime("%Y-%m-%d"), local.strftime("%H:%M")
        row.hold_expires_at = held.claim.expires_at  # cut by the budget, maybe
        mark_changed(row, now)
        moments = [start] + ([held.released.start] if held.released else [])
        versioned = await version_in(
            state, session, clinic_id=clinic.id, moments=moments, service_id=service.id
        )
    return Booked(row, moments, [], ClaimChange.of(held.claim, held.released), versioned)


@callable_function("appointment-hold", AppointmentHold)
async def appointment_hold(context: CallContext, request: AppointmentHold) -> dict[str, Any]:
    who = require_identity(context.identity)
    state = context.state
    await _limit_holds(context, who)
    path = appointment_path(request.appointmentId)
    try:
        async with state.publisher.ordered(path):
            booked = await _hold(state, who, request)
            if booked.versioned is None:
                committed(state, booked.appointment.clinic_id, booked.change)
            else:  # the cached months move to the versions raised with the hold
                advance(state, booked.versioned, booked.change)
            await push_row(state, path, booked.appointment)
    except Refused as refused:
        raise FunctionError(
            "ABORTED",
            "This time has just been taken. Please choose another.",
            {"alternatives": refused.alternatives},
        ) from None
    if booked.versioned is not None:
        await publish_versioned(state, booked.versioned)
    else:
        await publish_claim_change(
            state,
            clinic_id=booked.appointment.clinic_id,
            moments=booked.moments,
            service_id=booked.appointment.service_id,
            change=booked.change,
        )
    return {"holdExpiresAt": iso(booked.appointment.hold_expires_at)}


# appointment-updateStatus -----------------------------------------------------------------


class UpdateStatus(Input):
    appointmentId: Id
    status: Literal["submitted", "completed", "no_show"]


async def _submit(state: AppState, who: Identity, appointment_id: str) -> Booked:
    async with state.db.write() as session:
        row = await _owned(session, who, appointment_id)
        clinic, service = await _catalog(session, row)
        if row.status != "draft":
            transition(row.status, "confirmed")  # refuses with the statuses named
        missing = missing_answers(document_data(row), service.category)
        if missing:
            raise FunctionError(
                "INVALID_ARGUMENT", "Some information is missing.", {"missing": missing}
            )
        if not row.agreed_to_terms:
            raise FunctionError(
                "INVALID_ARGUMENT",
                "To proceed with booking your appointment, please review and agree to the "
                "Terms of Service.",
                {"codes": {"agreedToTerms": "terms"}},
            )
        now = utcnow()
        claim = await active_claim_of(session, appointment_id=row.id)
        if (
            claim is None
            or claim.kind != "hold"
            or claim.expires_at is None
            or claim.expires_at <= now
        ):
            raise FunctionError("ABORTED", "Your hold has expired. Please choose a time again.")
        mails: list[Queued] = []
        if service.price_amount:
            row.status = transition(row.status, "pending_payment")
        else:
            mails = await confirm_booking(state, session, row, clinic, service, claim)
        mark_changed(row, now)
    return Booked(row, [], mails)


async def _set_outcome(state: AppState, who: Identity, appointment_id: str, status: str) -> Booked:
    async with state.db.write() as session:
        row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
        if row is None or not who.is_staff_of(row.clinic_id):
            raise FunctionError("PERMISSION_DENIED", "You do not have access to this document.")
        row.status = transition(row.status, status)
        mark_changed(row, utcnow())
    return Booked(row, [], [])


@callable_function("appointment-updateStatus", UpdateStatus)
async def appointment_update_status(context: CallContext, request: UpdateStatus) -> dict[str, Any]:
    who = require_identity(context.identity)
    state = context.state
    path = appointment_path(request.appointmentId)
    async with state.publisher.ordered(path):
        if request.status == "submitted":
            booked = await _submit(state, who, request.appointmentId)
        else:
            assert request.status in STAFF_OUTCOMES
            booked = await _set_outcome(state, who, request.appointmentId, request.status)
        await push_row(state, path, booked.appointment)
    for queued in booked.mails:
        state.mailer.deliver(queued)
    await publish_feed(state, clinic_id=booked.appointment.clinic_id)
    return {"status": booked.appointment.status}


# appointment-cancel ------------------------------------------------------------------------


class AppointmentCancel(Input):
    appointmentId: Id
    reason: Annotated[MultiLine, StringConstraints(max_length=1000)]


@callable_function("appointment-cancel", AppointmentCancel)
async def appointment_cancel(context: CallContext, request: AppointmentCancel) -> dict[str, Any]:
    """Cancel, free the slot for everyone, sign the person out everywhere, mail them."""
    who = require_identity(context.identity)
    state = context.state
    path = appointment_path(request.appointmentId)
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            row = await _owned(session, who, request.appointmentId)
            clinic, service = await _catalog(session, row)
            now = utcnow()
            row.status = transition(row.status, "cancelled")
            row.cancellation = {"reason": request.reason, "at": iso(now)}
            claim = await active_claim_of(session, appointment_id=row.id)
            moments: list[datetime] = []
            mails: list[Queued] = []
            freed: ClaimChange | None = None
            if claim is not None:
                claim.active = False
                moments.append(claim.start)
                freed = ClaimChange.of(removed=claim)
                if claim.kind == "booking" or row.join_url:
                    mails = await booking_mails(
                        state.mailer,
                        session,
                        "cancelled",
                        row,
                        clinic,
                        service,
                        claim.counselor_id,
                        claim.start,
                        claim.end,
                    )
            row.hold_expires_at = None
            mark_changed(row, now)
            user = await lock_user(session, user_id=row.user_id)
            assert user is not None
            user.appointment_id = None
            mark_changed(user, now)
            ended = await revoke_user_sessions(session, user_id=row.user_id, at=now)
        committed(state, row.clinic_id, freed)
        await push_row(state, path, row)
    await push_row(state, user_path(user.id), user)
    for queued in mails:
        state.mailer.deliver(queued)
    if moments:
        await publish_claim_change(
            state,
            clinic_id=row.clinic_id,
            moments=moments,
            service_id=row.service_id,
            change=freed,
        )
    else:
        await publish_feed(state, clinic_id=row.clinic_id)
    for session_id in ended:
        state.publisher.end_session_after_reply(session_id)
    return {"status": "cancelled"}


# sendEmail-counselor -----------------------------------------------------------------------


class CounselorMail(Input):
    appointmentId: Id


@callable_function("sendEmail-counselor", CounselorMail)
async def send_counselor_mail(context: CallContext, request: CounselorMail) -> dict[str, Any]:
    """Staff: send the counselor's notification of a confirmed appointment again."""
    who = require_identity(context.identity)
    state = context.state
    async with state.db.write() as session:
        row = await get_appointment(session, appointment_id=request.appointmentId)
        if row is None or not who.is_staff_of(row.clinic_id):
            raise FunctionError("PERMISSION_DENIED", "You do not have access to this document.")
        claim = await active_claim_of(session, appointment_id=row.id)
        if row.status != "confirmed" or claim is None:
            raise FunctionError("ABORTED", "Only a confirmed appointment has a counselor to tell.")
        clinic, service = await _catalog(session, row)
        queued = (
            await booking_mails(
                state.mailer,
                session,
                "confirmed",
                row,
                clinic,
                service,
                claim.counselor_id,
                claim.start,
                claim.end,
            )
        )[1:]
    for mail in queued:
        state.mailer.deliver(mail)
    return {"sent": True}
