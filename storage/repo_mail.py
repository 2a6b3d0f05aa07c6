"""Queries on the mail outbox: claims of delivery attempts (realtime/mail/delivery.py) and
the development outbox's listing."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import OutboxMail


def _claimable(now: datetime, states: Sequence[str]) -> ColumnElement[bool]:
    """In one of `states`, due, and not held by a node's unexpired lease."""
    return and_(
        col(OutboxMail.delivery).in_(states),
        col(OutboxMail.next_attempt_at) <= now,
        or_(col(OutboxMail.claimed_until).is_(None), col(OutboxMail.claimed_until) < now),
    )


async def claim_mail(
    session: AsyncSession,
    *,
    outbox_id: int,
    now: datetime,
    states: Sequence[str],
    until: datetime,
) -> OutboxMail | None:
    """The row, now held until `until`, if it is claimable; None otherwise (one conditional
    UPDATE: of two racing claims exactly one gets the row)."""
    result = await session.execute(
        update(OutboxMail)
        .where(col(OutboxMail.id) == outbox_id, _claimable(now, states))
        .values(claimed_until=until)
        .returning(OutboxMail)
        .execution_options(synchronize_session=False)
    )
    row: OutboxMail | None = result.scalars().first()
    return row


async def record_attempt(
    session: AsyncSession,
    *,
    outbox_id: int | None,
    delivery: str,
    attempts: int,
    next_attempt_at: datetime | None,
    last_error: str | None,
) -> None:
    """Store an attempt's outcome on the row and let go of its claim."""
    await session.execute(
        update(OutboxMail)
        .where(col(OutboxMail.id) == outbox_id)
        .values(
            delivery=delivery,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            claimed_until=None,
            last_error=last_error,
        )
        .execution_options(synchronize_session=False)
    )


async def due_mail_ids(
    session: AsyncSession, *, now: datetime, states: Sequence[str], limit: int
) -> list[int]:
    """Ids of claimable mails, the longest due first."""
    rows = await session.exec(
        select(OutboxMail.id)
        .where(_claimable(now, states))
        .order_by(col(OutboxMail.next_attempt_at))
        .limit(limit)
    )
    return [outbox_id for outbox_id in rows.all() if outbox_id is not None]


async def latest_mails(session: AsyncSession, *, to: str | None, limit: int) -> list[OutboxMail]:
    """The newest mails, to one address if given (the development outbox)."""
    query = select(OutboxMail).order_by(col(OutboxMail.sent_at).desc(), col(OutboxMail.id).desc())
    if to is not None:
        query = query.where(OutboxMail.to == to)
    return list((await session.exec(query.limit(limit))).all())


async def add_mail(session: AsyncSession, *, mail: OutboxMail) -> int:
    """Queue a mail in the caller's transaction; its outbox id."""
    session.add(mail)
    await session.flush()
    assert mail.id is not None
    return mail.id
