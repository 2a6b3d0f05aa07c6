"""Queries for counselors' schedules and the clinic's holidays (docs/protocol.md, "Schedules").

Every loader is one query whatever the number of counselors. A change is guarded by a
compare-and-set of its version (`claim_schedule` / `claim_holidays`): the UPDATE's WHERE
names the version the edit was made against, so of two writers racing with the same version
on any number of nodes exactly one updates the row, and the other finds nothing to update.
"""

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, update
from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import (
    Appointment,
    Clinic,
    ClinicHoliday,
    Counselor,
    CounselorException,
    CounselorHours,
    SlotClaim,
    User,
)


async def holidays_between(
    session: AsyncSession, *, clinic_id: str, first_day: date, last_day: date | None = None
) -> list[tuple[date, str]]:
    """(day, name) of the clinic's holidays from `first_day` (to `last_day`, when given), by
    date. Columns, not rows: a replacement inserts rows of the same keys in the session."""
    query = (
        select(col(ClinicHoliday.day), col(ClinicHoliday.name))
        .where(ClinicHoliday.clinic_id == clinic_id)
        .where(col(ClinicHoliday.day) >= first_day)
    )
    if last_day is not None:
        query = query.where(col(ClinicHoliday.day) <= last_day)
    return list((await session.exec(query.order_by(col(ClinicHoliday.day)))).all())


async def clinic_counselors(
    session: AsyncSession, *, clinic_id: str, counselor_id: str | None = None
) -> list[Counselor]:
    """The clinic's counselors by id, or the one named (none when it is not the clinic's)."""
    query = select(Counselor).where(Counselor.clinic_id == clinic_id)
    if counselor_id is not None:
        query = query.where(Counselor.id == counselor_id)
    return list((await session.exec(query.order_by(col(Counselor.id)))).all())


async def weekly_of(session: AsyncSession, *, counselor_ids: Sequence[str]) -> list[CounselorHours]:
    rows = await session.exec(
        select(CounselorHours)
        .where(col(CounselorHours.counselor_id).in_(list(counselor_ids)))
        .order_by(col(CounselorHours.weekday), col(CounselorHours.start))
    )
    return list(rows.all())


async def exceptions_from(
    session: AsyncSession, *, counselor_ids: Sequence[str], first_day: date
) -> list[CounselorException]:
    """The counselors' dated exceptions from `first_day` on (the past ones stay, unshown)."""
    rows = await session.exec(
        select(CounselorException)
        .where(col(CounselorException.counselor_id).in_(list(counselor_ids)))
        .where(col(CounselorException.day) >= first_day)
        .order_by(col(CounselorException.day), col(CounselorException.start))
    )
    return list(rows.all())


async def claim_schedule(
    session: AsyncSession, *, counselor_id: str, version: int, languages: list[str] | None
) -> bool:
    """Raise the counselor's schedule version from `version` (and set `languages` when
    given) in one statement; False when the version was not `version` any more."""
    values: dict[str, Any] = {"schedule_version": version + 1}
    if languages is not None:
        values["languages"] = languages
    result = await session.exec(
        update(Counselor)
        .where(col(Counselor.id) == counselor_id)
        .where(col(Counselor.schedule_version) == version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)


async def claim_holidays(session: AsyncSession, *, clinic_id: str, version: int) -> bool:
    """Raise the clinic's holidays version from `version`; False when it was not that."""
    result = await session.exec(
        update(Clinic)
        .where(col(Clinic.id) == clinic_id)
        .where(col(Clinic.holidays_version) == version)
        .values(holidays_version=version + 1)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)


async def replace_weekly(
    session: AsyncSession, *, counselor_id: str, windows: Sequence[CounselorHours]
) -> None:
    await session.exec(
        delete(CounselorHours).where(col(CounselorHours.counselor_id) == counselor_id)
    )
    session.add_all(windows)


async def replace_exceptions(
    session: AsyncSession,
    *,
    counselor_id: str,
    first_day: date,
    exceptions: Sequence[CounselorException],
) -> None:
    """The counselor's exceptions from `first_day` on replaced by `exceptions`."""
    await session.exec(
        delete(CounselorException)
        .where(col(CounselorException.counselor_id) == counselor_id)
        .where(col(CounselorException.day) >= first_day)
    )
    session.add_all(exceptions)


async def replace_holidays(
    session: AsyncSession, *, clinic_id: str, first_day: date, days: Sequence[ClinicHoliday]
) -> None:
    """The clinic's holidays from `first_day` on replaced by `days`."""
    await session.exec(
        delete(ClinicHoliday)
        .where(col(ClinicHoliday.clinic_id) == clinic_id)
        .where(col(ClinicHoliday.day) >= first_day)
    )
    await session.flush()  # the deletes before the inserts of the same (clinic, day) keys
    session.add_all(days)


Booked = tuple[SlotClaim, Appointment, str]  # the claim, its appointment, the account's address


async def booked_from(
    session: AsyncSession, *, clinic_id: str, counselor_id: str | None, now: datetime
) -> list[Booked]:
    """The active claims (holds not yet expired, and bookings) of the clinic, or of one of
    its counselors, that end after `now`, with their appointments, by start."""
    query = (
        select(SlotClaim, Appointment, User.email)
        .join(Appointment, col(Appointment.id) == SlotClaim.appointment_id)
        .join(User, col(User.id) == Appointment.user_id)
        .where(col(SlotClaim.active))
        .where(SlotClaim.clinic_id == clinic_id)
        .where(col(SlotClaim.end) > now)
        .where(or_(col(SlotClaim.expires_at).is_(None), col(SlotClaim.expires_at) > now))
    )
    if counselor_id is not None:
        query = query.where(SlotClaim.counselor_id == counselor_id)
    rows = await session.exec(query.order_by(col(SlotClaim.start)))
    return [(claim, appointment, str(email)) for claim, appointment, email in rows.all()]
