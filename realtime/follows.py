"""Which Socket.IO rooms a socket joins to follow a document (docs/protocol.md, "Live
documents": audiences).

A document is pushed to the room named by its path, except the clinics' staff documents,
filtered per reader (realtime/rules.py `audience`):
- `clinics/{id}/bookings` and `.../presence`: a clinic_admin joins the path's room (every
  row); a counselor joins their own copy's room (`audience_room`), never the path's;
- `clinics/{id}/bookings/{from}/{to}`: the window's path (kept only to count and forget
  what the socket follows; nothing is pushed there) and the day streams of its days for the
  reader's audience (realtime/booking/feed_window.py).

Which room is whose is decided here from the identity alone, after the rules allowed the
read: a counselor cannot name another audience's room, as internal rooms hold a character
no document path may.
"""

from realtime.booking.feed_window import window_days, window_streams
from realtime.errors import FunctionError
from realtime.identity import Identity
from realtime.paths import audience_room, is_day_stream
from realtime.rules import Match, audience, match

WINDOW = "clinics/{clinicId}/bookings/{first}/{last}"
AUDIENCE_ROOMS = ("clinics/{clinicId}/bookings", "clinics/{clinicId}/presence")


def reader_params(who: Identity | None, found: Match) -> dict[str, str]:
    """The path's parameters, with the reader's `audience` for a document filtered per
    reader (call after the rules allowed the read)."""
    if who is None or not found.rule.filtered:
        return found.params
    return {**found.params, "audience": audience(who)}


def rooms_of(who: Identity, found: Match) -> list[str]:
    """The rooms that carry a document's pushes for this reader (the window's days are
    validated here: INVALID_ARGUMENT before any room is joined)."""
    if not found.rule.filtered:
        return [found.path]
    reader = audience(who)
    if found.rule.pattern == WINDOW:
        days = window_days(found.params["first"], found.params["last"])
        return [found.path, *window_streams(found.params["clinicId"], reader, days)]
    if who.is_admin:
        return [found.path]
    return [audience_room(found.path, reader)]


def is_internal(room: str) -> bool:
    """A day stream: joined for a window, not a document the socket counts as followed."""
    return is_day_stream(room)


def is_window(room: str) -> bool:
    """A followed window's own room (a valid window: it was joined)."""
    try:
        return match(room).rule.pattern == WINDOW
    except FunctionError:  # an audience room: not a path
        return False
