"""How each kind of live document is read from and written to storage.

`users/{uid}` and `appointments/{id}` are rows with a version column. `vacancies/...`
and `clinics/{id}/bookings` are derived views that the booking issue computes; until
then they exist for nobody and stay at version 0.
"""

from dataclasses import dataclass
from typing import Any, Protocol

from sqlmodel.ext.asyncio.session import AsyncSession

from realtime.rules import DocMeta
from storage.models import Appointment, User
from storage.repo_appointments import get_appointment
from storage.types import iso


@dataclass
class Loaded:
    """A stored document: its row (None for derived views), rule facts, wire data, version."""

    row: User | Appointment | None
    meta: DocMeta
    data: dict[str, Any] | None
    version: int


class Collection(Protocol):
    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None: ...


def user_data(user: User) -> dict[str, Any]:
    return {
        "appointmentId": user.appointment_id,
        "locale": user.locale,
        "updated": iso(user.updated),
        "userAgent": user.user_agent,
        "version": user.app_version,
    }


def appointment_data(appointment: Appointment) -> dict[str, Any]:
    a = appointment
    return {
        "id": a.id,
        "clinicId": a.clinic_id,
        "serviceId": a.service_id,
        "status": a.status,
        "patientRole": a.patient_role,
        "date": a.date,
        "time": a.time,
        "timezone": a.timezone,
        "counselorId": a.counselor_id,
        "locale": a.locale,
        "holdExpiresAt": iso(a.hold_expires_at),
        "joinUrl": a.join_url,
        "agreedToTerms": a.agreed_to_terms,
        "consent": a.consent,
        "payment": a.payment,
        "created": iso(a.created),
        "updated": iso(a.updated),
        "intake": a.intake,
    }


def document_data(row: User | Appointment) -> dict[str, Any]:
    return user_data(row) if isinstance(row, User) else appointment_data(row)


class Users:
    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        user = await session.get(User, params["uid"], with_for_update=for_update)
        if user is None:
            return None
        return Loaded(
            user, DocMeta(owner_uid=user.id, clinic_id=None), user_data(user), user.version
        )


class Appointments:
    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        row = await get_appointment(session, appointment_id=params["id"], for_update=for_update)
        if row is None:
            return None
        meta = DocMeta(owner_uid=row.user_id, clinic_id=row.clinic_id)
        return Loaded(row, meta, appointment_data(row), row.version)


class NotYetComputed:
    """A derived view whose contents arrive with the booking issue."""

    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        return None


COLLECTIONS: dict[str, Collection] = {
    "users": Users(),
    "appointments": Appointments(),
    "vacancies": NotYetComputed(),
    "clinics": NotYetComputed(),
}
