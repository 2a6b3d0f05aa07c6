"""appointment-create (the user's one open appointment), appointment-consent and
appointments-mine (the person's appointments, realtime/booking/mine.py).

The user record's `appointmentId` names the person's latest appointment, open or ended: a
person whose appointment ended (cancelled, completed, no_show, expired) still sees it, and
`appointment-create` then opens a new one, maybe from a copy of its answers
(realtime/booking/rebook.py); the old ones stay as they were.
"""

from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import StringConstraints

from realtime.booking.access import own_appointment
from realtime.booking.mine import summary
from realtime.booking.rebook import Answers, copied_answers, ended_source
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.entry import require_active, resolve_entry
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.link_scope import visible
from realtime.paths import appointment_path, user_path
from realtime.rules import require_identity
from realtime.state import AppState
from realtime.text import OneLine
from storage.documents import mark_changed
from storage.models import Appointment, User
from storage.repo_appointments import add_appointment, appointments_of, open_appointment
from storage.repo_catalog import get_service
from storage.repo_users import get_user, lock_user, new_id
from storage.types import iso, utcnow


class AppointmentCreate(Input):
    clinicId: Id | None = None
    serviceId: Id | None = None
    # An ended appointment of the caller's whose answers the new one starts with.
    copyFrom: Id | None = None


@callable_function("appointment-create", AppointmentCreate)
async def appointment_create(context: CallContext, request: AppointmentCreate) -> dict[str, Any]:
    """Idempotent: the user row is locked, so two racing calls find one appointment (a
    repeated call finds the one its first made). `copyFrom` is checked first: another
    person's appointment is refused, and so is one still open."""
    who = require_identity(context.identity)
    state = context.state
    path_of_user = user_path(who.uid)
    async with changing(state, path_of_user) as change, state.db.write() as session:
        user = await lock_user(session, user_id=who.uid)
        if user is None:
            raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
        source = await ended_source(session, who, request.copyFrom) if request.copyFrom else None
        existing = await open_appointment(session, user_id=user.id)
        if existing is not None:
            return {"appointmentId": existing.id}
        appointment = await _new_appointment(session, state, user, request, source)
        user.appointment_id = appointment.id
        mark_changed(user, utcnow())
        change.row(path_of_user, user)
    return {"appointmentId": appointment.id}


async def _new_appointment(
    session: Any,
    state: AppState,
    user: User,
    request: AppointmentCreate,
    source: Appointment | None,
) -> Appointment:
    """A draft at the clinic and service the call names, else the copied appointment's,
    else those the person came in with."""
    entry = await resolve_entry(
        session,
        clinic_id=request.clinicId or (source and source.clinic_id) or user.entry_clinic_id,
        service_id=request.serviceId or (source and source.service_id) or user.entry_service_id,
        default_clinic_id=state.settings.default_clinic_id,
    )
    now = utcnow()
    answers = Answers(intake={}, patient_role=None)
    service = await get_service(session, service_id=entry.service_id)
    assert service is not None  # resolve_entry found it offered
    require_active(service)
    if source is not None:
        today = now.astimezone(ZoneInfo(entry.clinic.timezone)).date()
        answers = copied_answers(source, category=service.category, today=today)
    appointment = Appointment(
        id=new_id(),
        user_id=user.id,
        clinic_id=entry.clinic.id,
        service_id=entry.service_id,
        timezone=entry.clinic.timezone,
        locale=user.locale,
        intake=answers.intake,
        patient_role=answers.patient_role,
        copied_from=source.id if source is not None else None,
        created=now,
        updated=now,
    )
    await add_appointment(session, appointment=appointment)
    return appointment


class AppointmentConsent(Input):
    appointmentId: Id
    version: Annotated[OneLine, StringConstraints(max_length=32)]


@callable_function("appointment-consent", AppointmentConsent)
async def appointment_consent(context: CallContext, request: AppointmentConsent) -> dict[str, Any]:
    """Record consent to the handling of health and genetic information (owner only).

    Giving the same version again keeps the first time; a version other than the service's
    current consent text is refused.
    """
    who = require_identity(context.identity)
    state = context.state
    path = appointment_path(request.appointmentId)
    async with changing(state, path) as change, state.db.write() as session:
        row = await own_appointment(session, who, request.appointmentId)
        service = await get_service(session, service_id=row.service_id)
        assert service is not None
        if request.version != service.consent_version:
            raise FunctionError(
                "INVALID_ARGUMENT",
                "This consent text is not the current one; reload the page.",
                {"fields": {"version": "Not the current consent version."}},
            )
        if row.consent and row.consent.get("version") == request.version:
            return {"givenAt": row.consent["givenAt"]}
        now = utcnow()
        row.consent = {"version": request.version, "givenAt": iso(now)}
        mark_changed(row, now)
        change.row(path, row)
    return {"givenAt": row.consent["givenAt"]}


class AppointmentsMine(Input):
    pass


@callable_function("appointments-mine", AppointmentsMine, authorize_first=True)
async def appointments_mine(context: CallContext, data: Any) -> dict[str, Any]:
    """The caller's own appointments, newest first (docs/protocol.md, "My appointments").
    Nobody else's ever: the query is by the caller's uid alone. An erased account has none
    (its rows stay de-identified for the law, not for reading)."""
    who = require_identity(context.identity)
    validated(AppointmentsMine, data)
    async with context.state.db.read() as session:
        user = await get_user(session, user_id=who.uid)
        if user is None or user.erased_at is not None:
            return {"appointments": []}
        rows = await appointments_of(session, user_id=who.uid)
        # A mail link's session reads its one appointment (realtime/link_scope.py).
        shown = visible(who, [row.id for row in rows])
        rows = [row for row in rows if row.id in shown]
        services = {}
        for row in rows:
            if row.service_id not in services:
                service = await get_service(session, service_id=row.service_id)
                assert service is not None  # a foreign key
                services[row.service_id] = service
    return {"appointments": [summary(row, services[row.service_id]) for row in rows]}
