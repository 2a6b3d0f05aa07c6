"""Queries on payment events: each provider event is applied once."""

from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import ProcessedPaymentEvent


async def record_event(
    session: AsyncSession, *, event_id: str, event_type: str, at: datetime
) -> None:
    """Store an event's id in the transaction of its effects; an id stored already raises
    `storage.errors.Conflict` (the event was applied: the caller drops the transaction)."""
    session.add(ProcessedPaymentEvent(id=event_id, type=event_type, received=at))
    await session.flush()
