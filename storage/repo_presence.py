"""Queries on presence rows: one per socket of a client with an open appointment."""

from datetime import datetime

from sqlalchemy import delete
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, Presence


async def seen_since(session: AsyncSession, *, clinic_id: str, since: datetime) -> list[Presence]:
    """The clinic's presence rows seen after `since`, newest first."""
    rows = await session.exec(
        select(Presence)
        .where(Presence.clinic_id == clinic_id)
        .where(col(Presence.last_seen) > since)
        .order_by(col(Presence.last_seen).desc())
    )
    return list(rows.all())


async def seen_since_with_counselors(
    session: AsyncSession, *, clinic_id: str, since: datetime
) -> list[tuple[Presence, str | None]]:
    """`seen_since`, each row with its appointment's counselor (None: no time held)."""
    rows = await session.exec(
        select(Presence, Appointment.counselor_id)
        .join(Appointment, col(Appointment.id) == col(Presence.appointment_id), isouter=True)
        .where(Presence.clinic_id == clinic_id)
        .where(col(Presence.last_seen) > since)
        .order_by(col(Presence.last_seen).desc())
    )
    return [(row, counselor_id) for row, counselor_id in rows.all()]


async def add_presence(
    session: AsyncSession,
    *,
    sid: str,
    session_id: int,
    clinic_id: str,
    appointment_id: str,
    at: datetime,
) -> None:
    session.add(
        Presence(
            sid=sid,
            session_id=session_id,
            clinic_id=clinic_id,
            appointment_id=appointment_id,
            connected_at=at,
            last_seen=at,
        )
    )


async def set_step(
    session: AsyncSession, *, sid: str, step: str | None, at: datetime
) -> tuple[str, bool] | None:
    """Write a socket's step and when it was seen; its clinic and whether the step changed
    (None: the socket has no row)."""
    row = await session.get(Presence, sid)
    if row is None:
        return None
    changed = row.step != step
    row.step, row.last_seen = step, at
    return row.clinic_id, changed


async def remove_presence(session: AsyncSession, *, sid: str) -> str | None:
    """Delete a socket's row; its clinic (None: it had none)."""
    row = await session.get(Presence, sid)
    if row is None:
        return None
    clinic_id = row.clinic_id
    await session.delete(row)
    return clinic_id


async def forget_sessions(session: AsyncSession, *, session_ids: list[int]) -> None:
    """Delete the rows of sockets of ended sessions."""
    await session.execute(delete(Presence).where(col(Presence.session_id).in_(session_ids)))


async def forget_stale(session: AsyncSession, *, seen_before: datetime) -> set[str]:
    """Delete the rows not seen since `seen_before`; the clinics they were in."""
    result = await session.execute(
        delete(Presence)
        .where(col(Presence.last_seen) < seen_before)
        .returning(col(Presence.clinic_id))
    )
    return {row[0] for row in result.all()}
