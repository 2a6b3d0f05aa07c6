"""Queries on the waitlist (waitlist_entries: one entry per appointment)."""

from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, WaitlistEntry

# How many of the first in line one freed time looks at: those who cannot take it (a
# time held already, a pregnancy window, a row busy in another write) are passed over.
CANDIDATES = 20


async def entry_of(session: AsyncSession, *, appointment_id: str) -> WaitlistEntry | None:
    rows = await session.exec(
        select(WaitlistEntry).where(WaitlistEntry.appointment_id == appointment_id)
    )
    return rows.first()


async def add_entry(session: AsyncSession, *, entry: WaitlistEntry) -> None:
    session.add(entry)
    await session.flush()


async def first_in_line(
    session: AsyncSession,
    *,
    clinic_id: str,
    service_id: str,
    day: str,
    counselor_id: str,
    excluding: str,
) -> list[WaitlistEntry]:
    """Waiting entries whose days hold `day` (YYYY-MM-DD, clinic zone) and who asked for
    `counselor_id` or anyone, oldest first (ix_waitlist_clinic_status_created)."""
    rows = await session.exec(
        select(WaitlistEntry)
        .where(WaitlistEntry.clinic_id == clinic_id)
        .where(WaitlistEntry.status == "waiting")
        .where(WaitlistEntry.service_id == service_id)
        .where(col(WaitlistEntry.first_day) <= day)
        .where(col(WaitlistEntry.last_day) >= day)
        .where(
            or_(
                col(WaitlistEntry.counselor_id).is_(None),
                WaitlistEntry.counselor_id == counselor_id,
            )
        )
        .where(WaitlistEntry.appointment_id != excluding)
        .order_by(col(WaitlistEntry.created), col(WaitlistEntry.id))
        .limit(CANDIDATES)
    )
    return list(rows.all())


async def lock_if_free(session: AsyncSession, *, appointment_id: str) -> Appointment | None:
    """The appointment locked for this transaction, or None when another transaction holds
    its row (PostgreSQL: SKIP LOCKED). A freed time is offered inside the transaction that
    frees it, which already locks the freeing appointment: waiting here for a second row
    could deadlock with a write of that second appointment which waits on the freed claim.
    SQLite serialises writers, so the row is simply read."""
    rows = await session.exec(
        select(Appointment)
        .where(Appointment.id == appointment_id)
        .with_for_update(skip_locked=True)
    )
    return rows.first()
