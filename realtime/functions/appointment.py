"""appointment-create (the user's one open appointment) and appointment-consent."""

from typing import Annotated, Any

from pydantic import StringConstraints

from realtime.booking.access import own_appointment
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function
from realtime.entry import resolve_entry
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.paths import appointment_path, user_path
from realtime.rules import require_identity
from realtime.state import AppState
from realtime.text import OneLine
from storage.documents import mark_changed
from storage.models import Appointment, User
from storage.repo_appointments import add_appointment, open_appointment
from storage.repo_catalog import get_service
from storage.repo_users import lock_user, new_id
from storage.types import iso, utcnow


class AppointmentCreate(Input):
    clinicId: Id | None = None
    serviceId: Id | None = None


@callable_function("appointment-create", AppointmentCreate)
async def appointment_create(context: CallContext, request: AppointmentCreate) -> dict[str, Any]:
    """Idempotent: the user row is locked, so two racing calls find one appointment."""
    who = require_identity(context.identity)
    state = context.state
    path_of_user = user_path(who.uid)
    async with changing(state, path_of_user) as change, state.db.write() as session:
        user = await lock_user(session, user_id=who.uid)
        if user is None:
            raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
        existing = await open_appointment(session, user_id=user.id)
        if existing is not None:
            return {"appointmentId": existing.id}
        appointment = await _new_appointment(session, state, user, request)
        user.appointment_id = appointment.id
        mark_changed(user, utcnow())
        change.row(path_of_user, user)
    return {"appointmentId": appointment.id}


async def _new_appointment(
    session: Any, state: AppState, user: User, request: AppointmentCreate
) -> Appointment:
    entry = await resolve_entry(
        session,
        clinic_id=request.clinicId or user.entry_clinic_id,
        service_id=request.serviceId or user.entry_service_id,
        default_clinic_id=state.settings.default_clinic_id,
    )
    now = utcnow()
    appointment = Appointment(
        id=new_id(),
        user_id=user.id,
        clinic_id=entry.clinic.id,
        service_id=entry.service_id,
        timezone=entry.clinic.timezone,
        locale=user.locale,
        intake={},
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
