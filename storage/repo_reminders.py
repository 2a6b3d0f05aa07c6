"""Queries of the reminder mails (realtime/booking/reminders.py): which booked times are due
a reminder, and the rows that claim each reminder once.

A reminder is keyed by (appointment, offset, start) (unique index
uq_reminders_appointment_offset_start): a row inserted twice, by another node or a rerun,
raises `storage.errors.Conflict`.
"""

from datetime import datetime

from sqlmodel import col, exists, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, Clinic, Reminder, SlotClaim


async def reminder_offsets_by_clinic(session: AsyncSession) -> list[tuple[str, list[int]]]:
    """(clinic id, reminder offsets in minutes) of every clinic, as stored."""
    rows = await session.exec(select(Clinic.id, Clinic.reminder_offsets).order_by(Clinic.id))
    return [(clinic_id, list(offsets or [])) for clinic_id, offsets in rows.all()]


async def due_reminders(
    session: AsyncSession,
    *,
    clinic_id: str,
    offset_minutes: int,
    after: datetime,
    until: datetime,
    limit: int,
) -> list[tuple[str, datetime]]:
    """(appointment id, start) of the clinic's confirmed bookings starting in (after, until]
    that have no reminder row for `offset_minutes` at that start, soonest first.

    The claims are found through their clinic (index ix_slot_claims_clinic_id), the missing
    row through the unique index of reminders (appointment, offset, start)."""
    claimed = exists().where(
        col(Reminder.appointment_id) == col(SlotClaim.appointment_id),
        col(Reminder.offset_minutes) == offset_minutes,
        col(Reminder.start) == col(SlotClaim.start),
    )
    rows = await session.exec(
        select(SlotClaim.appointment_id, SlotClaim.start)
        .join(Appointment, col(Appointment.id) == col(SlotClaim.appointment_id))
        .where(SlotClaim.clinic_id == clinic_id)
        .where(col(SlotClaim.active))
        .where(SlotClaim.kind == "booking")
        .where(col(SlotClaim.start) > after)
        .where(col(SlotClaim.start) <= until)
        .where(Appointment.status == "confirmed")
        .where(~claimed)
        .order_by(col(SlotClaim.start))
        .limit(limit)
    )
    return list(rows.all())


async def claimed_offsets(
    session: AsyncSession, *, appointment_id: str, start: datetime
) -> set[int]:
    """The offsets whose reminder of this start has been claimed (sent, or passed over)."""
    rows = await session.exec(
        select(Reminder.offset_minutes)
        .where(Reminder.appointment_id == appointment_id)
        .where(Reminder.start == start)
    )
    return set(rows.all())


async def claim_reminders(
    session: AsyncSession,
    *,
    appointment_id: str,
    start: datetime,
    offsets: list[int],
    at: datetime,
) -> None:
    """Insert the rows of these offsets in the caller's transaction; a row that exists
    already raises `storage.errors.Conflict` (the caller drops the transaction)."""
    for offset in offsets:
        session.add(
            Reminder(appointment_id=appointment_id, offset_minutes=offset, start=start, sent_at=at)
        )
    await session.flush()
