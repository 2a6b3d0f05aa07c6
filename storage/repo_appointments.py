"""Queries on appointments."""

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment

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
