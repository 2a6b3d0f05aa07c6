"""The appointment a call may act on, locked for its transaction, and its catalog rows."""

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from realtime.changes import Change, changing
from realtime.errors import no_access
from realtime.identity import Identity
from realtime.paths import appointment_path
from realtime.rules import DocMeta, may_act_on, require_staff
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Appointment, Clinic, Counselor, Service
from storage.repo_appointments import get_appointment
from storage.repo_booking import get_counselor
from storage.repo_catalog import get_clinic, get_service

RAW_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the Id of realtime/functions/inputs.py


def raw_id(value: object) -> str | None:
    """A staff call's raw id, when it has the form of an id (None: it names nothing)."""
    return value if isinstance(value, str) and RAW_ID.fullmatch(value) else None


async def own_appointment(session: AsyncSession, who: Identity, appointment_id: str) -> Appointment:
    """The caller's own appointment, locked (PERMISSION_DENIED for any other)."""
    row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
    if row is None or row.user_id != who.uid:
        raise no_access()
    return row


async def clinic_appointment(
    session: AsyncSession, who: Identity | None, appointment_id: object, *, for_update: bool
) -> Appointment:
    """An appointment staff may act on (realtime/rules.py `require_staff`, `may_act_on`): a
    client PERMISSION_DENIED, staff before the second factor UNAUTHENTICATED, an appointment
    of another clinic, another counselor's or none PERMISSION_DENIED. `appointment_id` may be
    the raw, unvalidated value of a staff call: anything that is not an id is refused alike."""
    staff = require_staff(who)
    known = raw_id(appointment_id)
    row = None
    if known is not None:
        row = await get_appointment(session, appointment_id=known, for_update=for_update)
    if row is None or not may_act_on(staff, row):
        raise no_access()
    return row


async def staff_counselor(session: AsyncSession, who: Identity, counselor_id: object) -> Counselor:
    """A counselor staff may act for (`may_act_on`): a counselor themself, or any counselor
    of a clinic_admin's clinic. `counselor_id` may be a call's raw, unvalidated value: another
    clinic's counselor, another counselor, an unknown id and a non-id are refused alike."""
    known = raw_id(counselor_id)
    counselor = await get_counselor(session, counselor_id=known) if known else None
    if counselor is None or not may_act_on(
        who, DocMeta(owner_uid=None, clinic_id=counselor.clinic_id, counselor_id=counselor.id)
    ):
        raise no_access()
    return counselor


@asynccontextmanager
async def staff_write(
    state: AppState, who: Identity | None, appointment_id: object
) -> AsyncIterator[tuple[Change, AsyncSession, Appointment, Identity]]:
    """A staff write on the appointment a call names by its raw, unvalidated id: the
    document's lock, the write path's Change, the transaction, the row (locked and
    authorized by `clinic_appointment`) and the caller, before the caller validates the rest
    of its input."""
    known = raw_id(appointment_id)
    paths = [appointment_path(known)] if known is not None else []
    async with changing(state, *paths) as change, state.db.write() as session:
        row = await clinic_appointment(session, who, appointment_id, for_update=True)
        yield change, session, row, require_staff(who)


async def catalog_of(session: AsyncSession, row: Appointment) -> tuple[Clinic, Service]:
    """The clinic and service of an appointment (both exist: foreign keys)."""
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    service = await get_service(session, service_id=row.service_id)
    assert clinic is not None and service is not None
    return clinic, service
