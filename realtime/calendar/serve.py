"""GET /calendar/{key}.ics: a counselor's calendar feed (docs/protocol.md, "Counselor calendar
feeds").

The key in the address is the only credential (calendar services send no other): a key that
is malformed, unknown or rotated away answers the same 404 as any unknown path, and every
request counts against the client address's limit before anything is looked up. A hit is
not audited: the feed holds no health data, and subscribers fetch it every hour or so.
"""

import hashlib

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from realtime.booking.notify import counselor_locale
from realtime.calendar.feed import MAX_EVENTS, FeedBooking, feed_calendar, window
from realtime.calendar.keys import hash_key, same_hash, well_formed
from realtime.errors import FunctionError
from realtime.ratelimit import enforce
from realtime.state import AppState
from storage.repo_calendar import feed_bookings, feed_by_key_hash
from storage.repo_catalog import get_clinic
from storage.types import utcnow

CONTENT_TYPE = "text/calendar; charset=utf-8"
NOT_FOUND = FunctionError("NOT_FOUND", "Not found.")


def _error(error: FunctionError) -> Response:
    return JSONResponse(error.to_wire(), status_code=error.http_status)


async def _feed(state: AppState, key: str) -> bytes | None:
    """The feed of the key's counselor, or None for a key that opens none."""
    if not well_formed(key):
        return None
    async with state.db.read() as session:
        found = await feed_by_key_hash(session, key_hash=hash_key(key))
        if found is None or not same_hash(found[0].key_hash, key):
            return None
        _feed_row, counselor = found
        clinic = await get_clinic(session, clinic_id=counselor.clinic_id)
        if clinic is None:
            return None
        since, until = window(utcnow())
        rows = await feed_bookings(
            session, counselor_id=counselor.id, since=since, until=until, limit=MAX_EVENTS
        )
    return feed_calendar(
        counselor=counselor,
        clinic=clinic,
        locale=counselor_locale(counselor),
        bookings=[FeedBooking(*row) for row in rows],
        public_url=state.settings.public_url,
    )


async def calendar_feed(request: Request) -> Response:
    state: AppState = request.app.state.app
    address = request.client.host if request.client else "unknown"
    try:
        await enforce(
            state.limiter,
            {f"calendar-feed:{address}": state.settings.calendar_feeds_per_ip},
            window_seconds=state.settings.rate_limit_window_seconds,
        )
    except FunctionError as exc:
        return _error(exc)
    body = await _feed(state, request.path_params["key"])
    if body is None:
        return _error(NOT_FOUND)
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {
        "ETag": etag,
        # Private: the address is a secret; shared caches must not keep it.
        "Cache-Control": "private, max-age=0, must-revalidate",
        "Content-Disposition": 'inline; filename="calendar.ics"',
    }
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=CONTENT_TYPE, headers=headers)
