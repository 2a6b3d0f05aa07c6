"""Queries for booking: schedules, active claims, derived document versions.

Each loader is one query whatever the number of counselors, so computing a month of free
slots costs a fixed number of round trips.
"""

from datetime import date, datetime

from sqlalchemy import text, update
from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import (
    Counselor,
    CounselorException,
    CounselorHours,
    DocumentVersion,
    SlotClaim,
)


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


async def claims_between(
    session: AsyncSession, *, clinic_id: str, start: datetime, end: datetime, now: datetime
) -> list[SlotClaim]:
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.clinic_id == clinic_id)
        .where(col(SlotClaim.active))
        .where(_live(now))  # type: ignore[arg-type]
        .where(col(SlotClaim.start) < end)
        .where(col(SlotClaim.blocked_until) > start)
    )
    return list(rows.all())


async def overlapping_claim(
    session: AsyncSession,
    *,
    counselor_id: str,
    start: datetime,
    blocked_until: datetime,
    now: datetime,
) -> SlotClaim | None:
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.counselor_id == counselor_id)
        .where(col(SlotClaim.active))
        .where(_live(now))  # type: ignore[arg-type]
        .where(col(SlotClaim.start) < blocked_until)
        .where(col(SlotClaim.blocked_until) > start)
        .limit(1)
    )
    return rows.first()


async def active_claim_of(session: AsyncSession, *, appointment_id: str) -> SlotClaim | None:
    rows = await session.exec(
        select(SlotClaim)
        .where(SlotClaim.appointment_id == appointment_id)
        .where(col(SlotClaim.active))
    )
    return rows.first()


async def release_expired_holds(session: AsyncSession, *, counselor_id: str, now: datetime) -> None:
    """Expired holds stop blocking at once (the sweeper job also clears them later)."""
    await session.exec(
        update(SlotClaim)
        .where(col(SlotClaim.counselor_id) == counselor_id)
        .where(col(SlotClaim.active))
        .where(col(SlotClaim.kind) == "hold")
        .where(col(SlotClaim.expires_at) <= now)
        .values(active=False)
    )


BUMP = text(
    "INSERT INTO document_versions (path, version) VALUES (:path, 1) "
    "ON CONFLICT (path) DO UPDATE SET version = document_versions.version + 1 "
    "RETURNING version"
)


async def bump_version(session: AsyncSession, *, path: str) -> int:
    """Add one to a derived document's version and return it (one atomic statement)."""
    result = await session.execute(BUMP, {"path": path})
    return int(result.scalar_one())


async def version_of(session: AsyncSession, *, path: str) -> int:
    row = await session.get(DocumentVersion, path)
    return row.version if row else 0
