"""appointment-create: the user's one open appointment (PROTOCOL section 4)."""

from typing import Any

from realtime.dispatch import CallContext, callable_function
from realtime.documents import push_row
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.rules import require_identity
from storage.models import Appointment, User
from storage.repo_appointments import open_appointment
from storage.repo_catalog import clinic_offers, get_clinic
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
            appointment = await _new_appointment(session, user, request)
            user.appointment_id = appointment.id
            user.updated = utcnow()
            user.version += 1
        await push_row(state, user_path, user)
    return {"appointmentId": appointment.id}


async def _new_appointment(session: Any, user: User, request: AppointmentCreate) -> Appointment:
    clinic_id = request.clinicId or user.entry_clinic_id
    service_id = request.serviceId or user.entry_service_id
    if clinic_id is None or service_id is None:
        raise FunctionError("INVALID_ARGUMENT", "Choose a clinic and a service first.")
    clinic = await get_clinic(session, clinic_id=clinic_id)
    if clinic is None:
        raise FunctionError("NOT_FOUND", "No such clinic.")
    service_id = clinic.service_aliases.get(service_id, service_id)
    if not await clinic_offers(session, clinic_id=clinic.id, service_id=service_id):
        raise FunctionError("NOT_FOUND", "The clinic does not offer this service.")
    now = utcnow()
    appointment = Appointment(
        id=new_id(),
        user_id=user.id,
        clinic_id=clinic.id,
        service_id=service_id,
        timezone=clinic.timezone,
        locale=user.locale,
        intake={},
        created=now,
        updated=now,
    )
    session.add(appointment)
    await session.flush()
    return appointment
