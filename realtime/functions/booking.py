"""vacancies-read, appointment-hold, appointment-updateStatus, appointment-cancel,
sendEmail-counselor (PROTOCOL section 4). Concurrency rules: realtime/booking/holds.py."""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import ConfigDict, Field, StringConstraints
from sqlmodel.ext.asyncio.session import AsyncSession

from realtime.booking.confirm import confirm_booking
from realtime.booking.holds import SlotTaken, place_hold
from realtime.booking.notify import booking_mails
from realtime.booking.publish import publish_claim_change, publish_feed
from realtime.booking.schedule import Slot, pregnancy_window
from realtime.booking.status import STAFF_OUTCOMES, transition
from realtime.booking.vacancies import compute_slots
from realtime.collections import appointment_data
from realtime.dispatch import CallContext, callable_function
from realtime.documents import mark_changed, push_row
from realtime.entry import resolve_entry
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.intake.validate import missing_answers
from realtime.mail.outbox import Queued
from realtime.rules import require_identity
from realtime.state import AppState
from storage.models import Appointment, Clinic, Service, User
from storage.repo_appointments import get_appointment, open_appointment
from storage.repo_booking import active_claim_of
from storage.repo_catalog import get_clinic, get_service
from storage.repo_users import Identity, revoke_user_sessions
from storage.types import iso, utcnow

ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_RANGE_DAYS = 62
ALTERNATIVES = 3
ANY_COUNSELOR = "any"
Day = Annotated[str, StringConstraints(pattern=ISO_DAY.pattern)]


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise FunctionError("INVALID_ARGUMENT", "Dates are YYYY-MM-DD.") from None


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
    if not isinstance(edd, str) or not ISO_DAY.match(edd):
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
    first, last = _day(request.from_), _day(request.to)
    if last < first or (last - first).days > MAX_RANGE_DAYS:
        raise FunctionError(
            "INVALID_ARGUMENT", f"Ask for at most {MAX_RANGE_DAYS} days, from before to."
        )
    async with context.state.db.read() as session:
        entry = await resolve_entry(
            session,
            clinic_id=request.clinicId,
            service_id=request.serviceId,
            default_clinic_id=None,
        )
        service = await get_service(session, service_id=entry.service_id)
        assert service is not None
        own = await open_appointment(session, user_id=who.uid)
        mine = own if own and own.service_id == service.id else None
        slots = await compute_slots(
            session,
            clinic=entry.clinic,
            service=service,
            first_day=first,
            last_day=last,
            now=utcnow(),
            window=_window(service, mine),
        )
    return {"timezone": entry.clinic.timezone, "slots": [s.to_wire() for s in slots]}


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


async def _day_slots(
    session: AsyncSession,
    clinic: Clinic,
    service: Service,
    row: Appointment,
    day: date,
    *,
    spread_days: int = 0,
) -> list[Slot]:
    return await compute_slots(
        session,
        clinic=clinic,
        service=service,
        first_day=day - timedelta(days=spread_days),
        last_day=day + timedelta(days=spread_days),
        now=utcnow(),
        window=_window(service, row),
        ignore_appointment_id=row.id,
    )


def _nearest(slots: list[Slot], start: datetime) -> list[dict[str, object]]:
    ranked = sorted(slots, key=lambda s: abs((s.start - start).total_seconds()))
    return [s.to_wire() for s in ranked[:ALTERNATIVES]]


async def _hold(state: AppState, who: Identity, request: AppointmentHold) -> Booked:
    start = _moment(request.start)
    async with state.db.write() as session:
        row = await _owned(session, who, request.appointmentId)
        if row.status != "draft":
            raise FunctionError("ABORTED", "This appointment can no longer change its time.")
        clinic, service = await _catalog(session, row)
        day = start.astimezone(ZoneInfo(clinic.timezone)).date()
        offered = next(
            (s for s in await _day_slots(session, clinic, service, row, day) if s.start == start),
            None,
        )
        counselor_id = request.counselorId
        if counselor_id == ANY_COUNSELOR and offered is not None:
            counselor_id = offered.counselor_ids[0]
        if offered is None or counselor_id not in offered.counselor_ids:
            raise SlotTaken
        now = utcnow()
        expires_at = now + timedelta(minutes=state.settings.hold_minutes)
        held = await place_hold(
            session,
            appointment=row,
            service=service,
            counselor_id=counselor_id,
            start=start,
            expires_at=expires_at,
            now=now,
            check_overlap=state.db.sqlite,
        )
        local = start.astimezone(ZoneInfo(clinic.timezone))
        row.counselor_id = counselor_id
        row.date, row.time = local.strftime("%Y-%m-%d"), local.strftime("%H:%M")
        row.hold_expires_at = expires_at
        mark_changed(row, now)
    moments = [start] + ([held.released.start] if held.released else [])
    return Booked(row, moments, [])


@callable_function("appointment-hold", AppointmentHold)
async def appointment_hold(context: CallContext, request: AppointmentHold) -> dict[str, Any]:
    who = require_identity(context.identity)
    state = context.state
    path = f"appointments/{request.appointmentId}"
    try:
        async with state.publisher.ordered(path):
            booked = await _hold(state, who, request)
            await push_row(state, path, booked.appointment)
    except SlotTaken:
        raise FunctionError(
            "ABORTED",
            "This time has just been taken. Please choose another.",
            {"alternatives": await _alternatives(state, who, request)},
        ) from None
    await publish_claim_change(
        state, clinic_id=booked.appointment.clinic_id, moments=booked.moments
    )
    return {"holdExpiresAt": iso(booked.appointment.hold_expires_at)}


async def _alternatives(
    state: AppState, who: Identity, request: AppointmentHold
) -> list[dict[str, object]]:
    start = _moment(request.start)
    async with state.db.read() as session:
        row = await get_appointment(session, appointment_id=request.appointmentId)
        if row is None or row.user_id != who.uid:
            return []
        clinic, service = await _catalog(session, row)
        day = start.astimezone(ZoneInfo(clinic.timezone)).date()
        return _nearest(await _day_slots(session, clinic, service, row, day, spread_days=3), start)


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
        missing = missing_answers(appointment_data(row), service.category)
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
    path = f"appointments/{request.appointmentId}"
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
    reason: Annotated[str, StringConstraints(max_length=1000)]


@callable_function("appointment-cancel", AppointmentCancel)
async def appointment_cancel(context: CallContext, request: AppointmentCancel) -> dict[str, Any]:
    """Cancel, free the slot for everyone, sign the person out everywhere, mail them."""
    who = require_identity(context.identity)
    state = context.state
    path = f"appointments/{request.appointmentId}"
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
            if claim is not None:
                claim.active = False
                moments.append(claim.start)
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
            user = await session.get(User, row.user_id, with_for_update=True)
            assert user is not None
            user.appointment_id, user.updated, user.version = None, now, user.version + 1
            ended = await revoke_user_sessions(session, user_id=row.user_id, at=now)
        await push_row(state, path, row)
    await push_row(state, f"users/{user.id}", user)
    for queued in mails:
        state.mailer.deliver(queued)
    if moments:
        await publish_claim_change(state, clinic_id=row.clinic_id, moments=moments)
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
