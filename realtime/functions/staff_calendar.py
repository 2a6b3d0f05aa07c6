"""staff-calendarFeed-read and staff-calendarFeed-rotate: a counselor's private calendar feed
(docs/protocol.md, "Counselor calendar feeds").

Who may: a counselor for their own feed; the clinic_admin for any counselor of their clinic
(realtime/rules.py `require_staff`, then `may_act_on` with the counselor's clinic and id).
Authorized before the input is validated, like every staff call: a `counselorId` that is not
one of the caller's is refused alike whether it exists or not.

Only a key's hash is stored, so the address is shown once, in the reply of the rotation that
made it; reading says whether there is one. A rotation commits the new hash in place of the
old one, so the old address answers 404 from then on; it is audited (`calendarFeed.rotate`):
a feed shows the clinic's bookings and join links to whoever holds its address.
"""

from typing import Any

from realtime import audit
from realtime.booking.access import staff_counselor
from realtime.calendar.keys import feed_url, hash_key, new_key
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import invalid_field
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.identity import Identity
from realtime.rules import require_staff
from storage.db import AsyncSession
from storage.models import Counselor
from storage.repo_calendar import feed_of, replace_feed_key
from storage.types import iso, utcnow


class CalendarFeedInput(Input):
    # A counselor's own by default; a clinic_admin names the counselor.
    counselorId: Id | None = None


async def _counselor(session: AsyncSession, who: Identity, data: Any) -> Counselor:
    """The counselor whose feed the call is about, authorized from the raw input: a
    counselor's own (named or not), or for a clinic_admin one of their clinic."""
    named = raw(data, "counselorId")
    if named is None and who.counselor_id is not None:
        named = who.counselor_id
    if named is None and who.is_admin:
        # Authorized for the whole clinic; which counselor is the input's to say.
        validated(CalendarFeedInput, data)
        raise invalid_field("counselorId", "Name the counselor.")
    counselor = await staff_counselor(session, who, named)
    validated(CalendarFeedInput, data)
    return counselor


@callable_function("staff-calendarFeed-read", CalendarFeedInput, authorize_first=True)
async def calendar_feed_read(context: CallContext, data: Any) -> dict[str, Any]:
    """Whether the counselor has a feed, and since when (never its address: see above)."""
    who = require_staff(context.identity)
    async with context.state.db.read() as session:
        counselor = await _counselor(session, who, data)
        feed = await feed_of(session, counselor_id=counselor.id)
    return {
        "counselorId": counselor.id,
        "exists": feed is not None,
        "created": iso(feed.created) if feed is not None else None,
        "url": None,
    }


@callable_function("staff-calendarFeed-rotate", CalendarFeedInput, authorize_first=True)
async def calendar_feed_rotate(context: CallContext, data: Any) -> dict[str, Any]:
    """A new feed address for the counselor; the one before stops working at this commit."""
    state = context.state
    who = require_staff(context.identity)
    key = new_key()
    async with changing(state) as change, state.db.write() as session:
        counselor = await _counselor(session, who, data)
        feed = await replace_feed_key(
            session, counselor_id=counselor.id, key_hash=hash_key(key), at=utcnow(), by=who.uid
        )
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=counselor.clinic_id,
            action=audit.CALENDAR_FEED_ROTATE,
            detail={"counselorId": counselor.id},
            address=context.client_ip,
        )
    return {
        "counselorId": counselor.id,
        "exists": True,
        "created": iso(feed.created),
        "url": feed_url(state.settings.public_url, key),
    }
