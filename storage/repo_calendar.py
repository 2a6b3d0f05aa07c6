"""Queries of counselors' calendar feeds (docs/protocol.md, "Counselor calendar feeds"): the
feed keys (their hashes only; the key itself never reaches storage) and the bookings a feed
lists."""

from datetime import datetime

from sqlalchemy import delete
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, Counselor, CounselorCalendarFeed, Service, SlotClaim

# The statuses a feed lists: booked times that took place or are to come. A cancelled one
# leaves the feed (its claim is released too); no_show and expired were never attended.
LISTED_STATUSES = ("confirmed", "completed")


async def feed_of(session: AsyncSession, *, counselor_id: str) -> CounselorCalendarFeed | None:
    """The counselor's feed, if one was ever made."""
    return await session.get(CounselorCalendarFeed, counselor_id)


async def feed_by_key_hash(
    session: AsyncSession, *, key_hash: str
) -> tuple[CounselorCalendarFeed, Counselor] | None:
    """The feed whose key hashes to `key_hash`, with its counselor (unique index lookup)."""
    row = (
        await session.exec(
            select(CounselorCalendarFeed, Counselor)
            .join(Counselor, col(Counselor.id) == CounselorCalendarFeed.counselor_id)
            .where(CounselorCalendarFeed.key_hash == key_hash)
        )
    ).first()
    return (row[0], row[1]) if row is not None else None


async def replace_feed_key(
    session: AsyncSession, *, counselor_id: str, key_hash: str, at: datetime, by: str
) -> CounselorCalendarFeed:
    """The counselor's feed key becomes this one: the row is locked, then its hash replaced
    (or the row made), so the earlier key stops answering once this commits."""
    feed = await session.get(CounselorCalendarFeed, counselor_id, with_for_update=True)
    if feed is None:
        feed = CounselorCalendarFeed(
            counselor_id=counselor_id, key_hash=key_hash, created=at, created_by=by
        )
        session.add(feed)
    else:
        feed.key_hash, feed.created, feed.created_by = key_hash, at, by
    await session.flush()
    return feed


async def drop_feed(session: AsyncSession, *, counselor_id: str) -> bool:
    """The counselor's feed is deleted (its address answers 404 once this commits); whether
    there was one."""
    result = await session.execute(
        delete(CounselorCalendarFeed)
        .where(col(CounselorCalendarFeed.counselor_id) == counselor_id)
        .returning(col(CounselorCalendarFeed.counselor_id))
    )
    return result.first() is not None


async def feed_bookings(
    session: AsyncSession, *, counselor_id: str, since: datetime, until: datetime, limit: int
) -> list[tuple[Appointment, SlotClaim, Service]]:
    """The counselor's booked times starting in [since, until) whose appointment is confirmed
    or completed, earliest first, at most `limit` (index ix_slot_claims_counselor_active_time)."""
    rows = await session.exec(
        select(Appointment, SlotClaim, Service)
        .join(SlotClaim, col(SlotClaim.appointment_id) == Appointment.id)
        .join(Service, col(Service.id) == Appointment.service_id)
        .where(SlotClaim.counselor_id == counselor_id)
        .where(col(SlotClaim.active))
        .where(SlotClaim.kind == "booking")
        .where(col(SlotClaim.start) >= since)
        .where(col(SlotClaim.start) < until)
        .where(col(Appointment.status).in_(LISTED_STATUSES))
        .order_by(col(SlotClaim.start))
        .limit(limit)
    )
    return [(appointment, claim, service) for appointment, claim, service in rows.all()]
