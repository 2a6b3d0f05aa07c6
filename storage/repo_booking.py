"""Queries for booking: schedules, active claims, derived document versions.

Each loader is one query whatever the number of counselors, so computing a month of free
slots costs a fixed number of round trips.
"""

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Select, String, bindparam, literal, text, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import and_, col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from storage.models import (
    Appointment,
    Clinic,
    ClinicService,
    Counselor,
    CounselorException,
    CounselorHours,
    DocumentVersion,
    Service,
    SlotClaim,
)
from storage.statements import Statements


def _first_look_statement(months: int) -> Select[Any]:
    """Built once per number of months (bound parameters `appointment_ids`, `month0`, ...):
    building a statement costs more than running it."""
    versions = [
        sa_select(col(DocumentVersion.version))
        .where(
            col(DocumentVersion.path)
            == literal("vacancies/", String)
            + col(Appointment.clinic_id)
            + "/"
            + col(Appointment.service_id)
            + "/"
            + bindparam(f"month{index}", type_=String)
        )
        .scalar_subquery()
        for index in range(months)
    ]
    return (
        sa_select(Appointment, Clinic, Service, *versions)
        .join(Clinic, col(Clinic.id) == Appointment.clinic_id)
        .join(Service, col(Service.id) == Appointment.service_id)
        .where(col(Appointment.id).in_(bindparam("appointment_ids", expanding=True)))
    )


MAX_LOOK_MONTHS = 3
# Any: sqlmodel's typed `exec` knows no select of entities plus subqueries.
_FIRST_LOOKS: list[Any] = [_first_look_statement(m) for m in range(MAX_LOOK_MONTHS + 1)]

Look = tuple[Appointment, Clinic, Service, dict[str, int]]


async def first_looks(
    session: AsyncSession, *, appointment_ids: Sequence[str], months: Sequence[str]
) -> dict[str, Look]:
    """Appointments by id with their clinic and service, and the versions of their service's
    month documents `vacancies/{clinicId}/{serviceId}/{month}` for `months` (0 when never
    raised; at most MAX_LOOK_MONTHS), in one statement: the first look of holds."""
    parameters: dict[str, Any] = {f"month{index}": month for index, month in enumerate(months)}
    parameters["appointment_ids"] = list(appointment_ids)
    rows = await session.exec(_FIRST_LOOKS[len(months)], params=parameters)
    return {
        row[0].id: (
            row[0],
            row[1],
            row[2],
            {month: int(row[3 + index] or 0) for index, month in enumerate(months)},
        )
        for row in rows.all()
    }


async def catalog_of(
    session: AsyncSession, *, clinic_id: str
) -> tuple[Clinic, list[Service]] | None:
    """A clinic and the services it offers (by id), in one statement."""
    rows = await session.exec(
        select(Clinic, Service)
        .join(ClinicService, col(ClinicService.clinic_id) == Clinic.id)
        .join(Service, col(Service.id) == ClinicService.service_id)
        .where(col(Clinic.id) == clinic_id)
        .order_by(col(Service.id))
    )
    found = rows.all()
    if not found:
        return None
    return found[0][0], [row[1] for row in found]


async def counselors_of(session: AsyncSession, *, clinic_id: str) -> list[Counselor]:
    rows = await session.exec(
        select(Counselor).where(Counselor.clinic_id == clinic_id).order_by(Counselor.id)
    )
    return list(rows.all())


async def hours_of(session: AsyncSession, *, clinic_id: str) -> list[CounselorHours]:
    rows = await session.exec(
        select(CounselorHours)
        .join(Counselor, col(Counselor.id) == CounselorHours.counselor_id)
        .where(Counselor.clinic_id == clinic_id)
    )
    return list(rows.all())


async def exceptions_of(
    session: AsyncSession, *, clinic_id: str, first_day: date, last_day: date
) -> list[CounselorException]:
    rows = await session.exec(
        select(CounselorException)
        .join(Counselor, col(Counselor.id) == CounselorException.counselor_id)
        .where(Counselor.clinic_id == clinic_id)
        .where(col(CounselorException.day) >= first_day)
        .where(col(CounselorException.day) <= last_day)
    )
    return list(rows.all())


def _live(now: datetime) -> object:
    """Active claims that still count: bookings, and holds not yet expired."""
    return or_(col(SlotClaim.expires_at).is_(None), col(SlotClaim.expires_at) > now)


def _claims_blocking(start: datetime, end: datetime, now: datetime) -> SelectOfScalar[SlotClaim]:
    """Claims that still count and block part of [start, end): one definition for what the
    vacancies leave out and what a hold may not overlap, so the two cannot disagree."""
    return (
        select(SlotClaim)
        .where(col(SlotClaim.active))
        .where(_live(now))  # type: ignore[arg-type]
        .where(col(SlotClaim.start) < end)
        .where(col(SlotClaim.blocked_until) > start)
    )


async def claims_between(
    session: AsyncSession, *, clinic_id: str, start: datetime, end: datetime, now: datetime
) -> list[SlotClaim]:
    query = _claims_blocking(start, end, now).where(SlotClaim.clinic_id == clinic_id)
    return list((await session.exec(query)).all())


async def overlapping_claim(
    session: AsyncSession,
    *,
    counselor_id: str,
    start: datetime,
    blocked_until: datetime,
    now: datetime,
) -> SlotClaim | None:
    query = _claims_blocking(start, blocked_until, now).where(
        SlotClaim.counselor_id == counselor_id
    )
    return (await session.exec(query.limit(1))).first()


async def active_claim_of(session: AsyncSession, *, appointment_id: str) -> SlotClaim | None:
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.appointment_id == appointment_id)
        .where(col(SlotClaim.active))
    )
    return rows.first()


async def last_booked_claim_of(session: AsyncSession, *, appointment_id: str) -> SlotClaim | None:
    """The appointment's latest booked time, active or released (a cancelled booking's mails
    still name the time it had)."""
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.appointment_id == appointment_id)
        .where(SlotClaim.kind == "booking")
        .order_by(col(SlotClaim.created).desc(), col(SlotClaim.id).desc())
        .limit(1)
    )
    return rows.first()


async def holds_ended(session: AsyncSession, *, now: datetime, limit: int) -> list[str]:
    """Ids of appointments whose hold ended by `now`, the oldest first (the candidates of
    expire-holds; index ix_appointments_hold_expires_at). Read from the appointment, not its
    claim: a newer hold of the same counselor may have released the claim already
    (`release_before_hold`), and the appointment must still be told its time is gone."""
    rows = await session.exec(
        select(Appointment.id)
        .where(col(Appointment.hold_expires_at) <= now)
        .order_by(col(Appointment.hold_expires_at))
        .limit(limit)
    )
    return list(rows.all())


async def last_hold_of(session: AsyncSession, *, appointment_id: str) -> SlotClaim | None:
    """The appointment's newest hold, active or released (index
    ix_slot_claims_appointment_created)."""
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.appointment_id == appointment_id)
        .where(SlotClaim.kind == "hold")
        .order_by(col(SlotClaim.created).desc())
        .limit(1)
    )
    return rows.first()


async def claim_times_of(
    session: AsyncSession, *, appointment_id: str, since: datetime
) -> list[tuple[datetime, datetime | None]]:
    """(created, expires_at) of the appointment's claims, active or not, created since
    `since` or still held then, oldest first (index ix_slot_claims_appointment_created)."""
    rows = await session.exec(
        select(SlotClaim.created, SlotClaim.expires_at)
        .where(SlotClaim.appointment_id == appointment_id)
        .where(or_(col(SlotClaim.created) >= since, col(SlotClaim.expires_at) >= since))
        .order_by(col(SlotClaim.created))
    )
    return list(rows.all())


async def release_before_hold(
    session: AsyncSession, *, appointment_id: str, counselor_id: str, now: datetime
) -> None:
    """Before a new hold, in one statement: the appointment's active claim (a newer hold
    releases the older) and the counselor's expired holds (they stop blocking at once;
    expire-holds, which finds them by their appointment's `hold_expires_at`, then ends
    those appointments' holds: realtime/jobs.py)."""
    await session.exec(
        update(SlotClaim)
        .where(col(SlotClaim.active))
        .where(
            or_(
                col(SlotClaim.appointment_id) == appointment_id,
                and_(
                    col(SlotClaim.counselor_id) == counselor_id,
                    col(SlotClaim.kind) == "hold",
                    col(SlotClaim.expires_at) <= now,
                ),
            )
        )
        .values(active=False)
        .execution_options(synchronize_session=False)
    )


def note_released(claim: SlotClaim) -> None:
    """Mark a loaded claim inactive as `release_before_hold` left it in the database (without
    a write of its own)."""
    set_committed_value(claim, "active", False)


async def insert_claim(session: AsyncSession, *, claim: SlotClaim, savepoint: bool) -> bool:
    """Insert a claim; False if a constraint refused it (the time is taken). In a savepoint
    the caller's transaction survives a refusal; without one (a round trip fewer each way)
    the caller abandons its transaction on a refusal."""
    try:
        if savepoint:
            async with session.begin_nested():
                session.add(claim)
                await session.flush()
        else:
            session.add(claim)
            await session.flush()
    except IntegrityError:
        return False
    return True


BUMP = text(
    "INSERT INTO document_versions (path, version) VALUES (:path, 1) "
    "ON CONFLICT (path) DO UPDATE SET version = document_versions.version + 1 "
    "RETURNING version"
)


async def bump_version(session: AsyncSession, *, path: str) -> int:
    """Add one to a derived document's version and return it (one atomic statement)."""
    result = await session.execute(BUMP, {"path": path})
    return int(result.scalar_one())


async def bump_versions(session: AsyncSession, *, paths: Sequence[str]) -> dict[str, int]:
    """Add one to the version of each derived document in one statement; the new versions.

    Rows are taken in path order, so two transactions raising overlapping sets cannot
    deadlock (PostgreSQL locks the rows of a multi-row upsert in the order of its VALUES).
    """
    ordered = sorted(set(paths))
    if not ordered:
        return {}
    table = DocumentVersion.__table__  # type: ignore[attr-defined]
    dialect = session.get_bind().dialect.name
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    statement = (
        insert(table)
        .values([{"path": path, "version": 1} for path in ordered])
        .on_conflict_do_update(index_elements=["path"], set_={"version": table.c.version + 1})
        .returning(table.c.path, table.c.version)
    )
    result = await session.exec(statement)
    return {str(path): int(version) for path, version in result.all()}


async def versions_of(session: AsyncSession, *, paths: Sequence[str]) -> dict[str, int]:
    """Current versions of derived documents (0 for one never raised), in one query."""
    rows = await session.exec(
        select(DocumentVersion.path, DocumentVersion.version).where(
            col(DocumentVersion.path).in_(list(paths))
        )
    )
    found = {path: version for path, version in rows.all()}
    return {path: found.get(path, 0) for path in paths}


def _version_at(name: str) -> Any:
    return (
        sa_select(col(DocumentVersion.version))
        .where(col(DocumentVersion.path) == bindparam(name, type_=String))
        .scalar_subquery()
        .label(name)
    )


_TWO_VERSIONS: Any = sa_select(_version_at("first"), _version_at("second"))


def two_versions(statements: Statements, *, first: str, second: str) -> tuple[int, int]:
    """The versions of two derived documents (0 for one never raised), in one statement (a
    month document's read: its own and its clinic's catalog, realtime/collections.py)."""
    row = statements.row(_TWO_VERSIONS, {"first": first, "second": second}) or {}
    return int(row.get("first") or 0), int(row.get("second") or 0)


async def version_of(session: AsyncSession, *, path: str) -> int:
    row = await session.get(DocumentVersion, path)
    return row.version if row else 0


async def get_counselor(session: AsyncSession, *, counselor_id: str) -> Counselor | None:
    return await session.get(Counselor, counselor_id)
