"""Queries on appointments."""

from datetime import datetime
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, Counselor

# An appointment in one of these states is the user's open appointment.
OPEN_STATUSES = ("draft", "pending_payment", "confirmed")


async def open_appointment(session: AsyncSession, *, user_id: str) -> Appointment | None:
    return (
        await session.exec(
            select(Appointment)
            .where(Appointment.user_id == user_id)
            .where(col(Appointment.status).in_(OPEN_STATUSES))
            .order_by(col(Appointment.created).desc())
            .limit(1)
        )
    ).first()


async def get_appointment(
    session: AsyncSession, *, appointment_id: str, for_update: bool = False
) -> Appointment | None:
    query = select(Appointment).where(Appointment.id == appointment_id)
    if for_update:
        query = query.with_for_update()
    return (await session.exec(query)).first()


async def clinic_feed(session: AsyncSession, *, clinic_id: str, limit: int) -> list[Appointment]:
    """The clinic's appointments that hold or held a time, most recently changed first."""
    rows = await session.exec(
        select(Appointment)
        .where(Appointment.clinic_id == clinic_id)
        .where(col(Appointment.counselor_id).is_not(None))
        .order_by(col(Appointment.updated).desc())
        .limit(limit)
    )
    return list(rows.all())


# What the bookings window reads of an appointment: never its intake or consent (a window
# holds thousands of rows; loading whole rows made its snapshot several times slower).
WINDOW_COLUMNS = [
    col(Appointment.id),
    col(Appointment.service_id),
    col(Appointment.status),
    col(Appointment.date),
    col(Appointment.time),
    col(Appointment.timezone),
    col(Appointment.counselor_id),
    col(Appointment.hold_expires_at),
    col(Appointment.payment),
]


async def clinic_window(
    session: AsyncSession, *, clinic_id: str, first: str, last: str, counselor_id: str | None
) -> list[Any]:
    """The clinic's appointments holding or having held a time on the days `first`..`last`
    (YYYY-MM-DD in the clinic's zone, both included; such strings sort as days do), of one
    counselor when given, by day and time: rows of WINDOW_COLUMNS, read by attribute."""
    # Any: sqlmodel's typed `exec` knows no select of nine columns.
    query: Any = (
        sa_select(*WINDOW_COLUMNS)
        .where(col(Appointment.clinic_id) == clinic_id)
        .where(col(Appointment.counselor_id).is_not(None))
        .where(col(Appointment.date) >= first)
        .where(col(Appointment.date) <= last)
    )
    if counselor_id is not None:
        query = query.where(Appointment.counselor_id == counselor_id)
    query = query.order_by(col(Appointment.date), col(Appointment.time), col(Appointment.id))
    return list((await session.exec(query)).all())


async def clinic_counselor_ids(session: AsyncSession, *, clinic_id: str) -> list[str]:
    """The ids of the clinic's counselors (the audiences of its staff documents)."""
    rows = await session.exec(select(Counselor.id).where(Counselor.clinic_id == clinic_id))
    return list(rows.all())


async def lock_appointment(session: AsyncSession, *, appointment_id: str) -> Appointment | None:
    """The appointment, its row locked for the transaction (FOR UPDATE; BEGIN IMMEDIATE on
    SQLite locks the file)."""
    return await session.get(Appointment, appointment_id, with_for_update=True)


async def drafts_changed_before(
    session: AsyncSession, *, before: datetime, limit: int
) -> list[str]:
    """Ids of drafts last changed before `before` (the candidates of purge-intake)."""
    rows = await session.exec(
        select(Appointment.id)
        .where(Appointment.status == "draft")
        .where(col(Appointment.updated) < before)
        .limit(limit)
    )
    return list(rows.all())


async def with_payment(session: AsyncSession, *, limit: int) -> list[Appointment]:
    """Appointments that have a payment record (the candidates of reconciliation)."""
    rows = await session.exec(
        select(Appointment).where(col(Appointment.payment).is_not(None)).limit(limit)
    )
    return list(rows.all())


async def add_appointment(session: AsyncSession, *, appointment: Appointment) -> None:
    """Insert a new appointment (flushed: its row exists for what follows in the transaction)."""
    session.add(appointment)
    await session.flush()


# The most appointments `appointments-mine` lists: a person books a handful in a lifetime;
# the cap only keeps one reply small whatever the table holds.
MAX_MINE = 100


async def appointments_of(session: AsyncSession, *, user_id: str) -> list[Appointment]:
    """The user's appointments, newest first (created, then id for a stable order)."""
    rows = await session.exec(
        select(Appointment)
        .where(Appointment.user_id == user_id)
        .order_by(col(Appointment.created).desc(), col(Appointment.id).desc())
        .limit(MAX_MINE)
    )
    return list(rows.all())
