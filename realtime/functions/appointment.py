"""appointment-create: the user's one open appointment (PROTOCOL section 4)."""

from typing import Any

from realtime.dispatch import CallContext, callable_function
from realtime.documents import push_row
from realtime.entry import resolve_entry
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.rules import require_identity
from realtime.state import AppState
from storage.models import Appointment, User
from storage.repo_appointments import open_appointment
from storage.repo_users import new_id
from storage.types import utcnow


class AppointmentCreate(Input):
    clinicId: Id | None = None
    serviceId: Id | None = None


@callable_function("appointment-create", AppointmentCreate)
async def appointment_create(context: CallContext, request: AppointmentCreate) -> dict[str, Any]:
    """Idempotent: the user row is locked, so two racing calls find one appointment."""
    who = require_identity(context.identity)
    state = context.state
    user_path = f"users/{who.uid}"
    async with state.publisher.ordered(user_path):
        async with state.db.write() as session:
            user = await session.get(User, who.uid, with_for_update=True)
            if user is None:
                raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
            existing = await open_appointment(session, user_id=user.id)
            if existing is not None:
                return {"appointmentId": existing.id}
            appointment = await _new_appointment(session, state, user, request)
            user.appointment_id = appointment.id
            user.updated = utcnow()
            user.version += 1
        await push_row(state, user_path, user)
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
    session.add(appointment)
    await session.flush()
    return appointment
