"""The bookings window: a clinic's bookings of chosen days, followed as document changes.

`clinics/{clinicId}/bookings/{from}/{to}` (docs/protocol.md, "The bookings window"). The
subscribe answers with the window's bookings; afterwards each committed change pushes only
what it did (`added`, `modified`, `removed`), never the list again.

Streams. Changes are numbered and pushed per clinic day and audience, a *day stream*
(realtime/paths.py `day_stream`): the clinic's whole day for its clinic_admins (audience
EVERYONE), and each counselor's own bookings of that day for that counselor. A window's
subscriber joins the streams of its days for its audience only, so a counselor's socket is
never in a room that carries another counselor's row, and a change of a day outside the
window reaches nobody following it. Each stream has its own version in
`document_versions`, raised by one for each change that touched it: a subscriber that sees
a version other than the one after the version it holds for that day missed a push and
subscribes again.

Once per change. The entries of a change are computed once from the rows the transaction
committed (realtime/changes.py: the Appointment rows it recorded, with where each stood
before when the write moved it), grouped per stream, and each stream gets one push,
whatever the number of subscribers.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, NamedTuple

from realtime.booking.feed import window_entry
from realtime.days import parse_day
from realtime.errors import invalid_field
from realtime.paths import EVERYONE, day_stream, feed_path
from storage.db import AsyncSession
from storage.models import Appointment
from storage.repo_appointments import clinic_window
from storage.repo_booking import versions_of

# The longest window, in days (both ends included): two months of a board.
MAX_WINDOW_DAYS = 62
TOO_LONG = f"A window spans at most {MAX_WINDOW_DAYS} days."
BACKWARDS = "The window must not end before it begins."

ChangeType = Literal["added", "modified", "removed"]


def window_days(first: str, last: str) -> list[str]:
    """The days of a window path's `{from}`/`{to}`, each YYYY-MM-DD; INVALID_ARGUMENT
    naming `from` or `to` for a malformed, out-of-range, backwards or too long window."""
    start, end = parse_day(first, "from"), parse_day(last, "to")
    if end < start:
        raise invalid_field("to", BACKWARDS)
    length = (end - start).days + 1
    if length > MAX_WINDOW_DAYS:
        raise invalid_field("to", TOO_LONG)
    return [(start + timedelta(days=n)).isoformat() for n in range(length)]


def window_streams(clinic_id: str, audience: str, days: Iterable[str]) -> list[str]:
    return [day_stream(clinic_id, audience, day) for day in days]


async def window_data(
    session: AsyncSession, *, clinic_id: str, first: str, last: str, audience: str
) -> tuple[dict[str, Any], int]:
    """The window's document and version, for `audience`.

    The versions are read before the rows: a change committed in between is then in the
    rows and pushed again with a version after the one read, and applying it again changes
    nothing (an entry carries the booking as it is). Read the other way round, a change's
    version could be counted while its rows are not seen, and its push dropped."""
    days = window_days(first, last)
    streams = window_streams(clinic_id, audience, days)
    versions = await versions_of(session, paths=streams)
    rows = await clinic_window(
        session,
        clinic_id=clinic_id,
        first=days[0],
        last=days[-1],
        counselor_id=None if audience == EVERYONE else audience,
    )
    day_versions = {day: versions.get(stream, 0) for day, stream in zip(days, streams, strict=True)}
    data = {
        "bookings": [window_entry(a) for a in rows],
        "days": day_versions,
    }
    return data, sum(day_versions.values())


class Position(NamedTuple):
    """Where a booking stands in the feed: its clinic day and counselor."""

    day: str
    counselor_id: str


def position_of(a: Appointment) -> Position | None:
    """None: the appointment holds no time (a draft without a hold, a lapsed hold)."""
    if a.counselor_id is None or a.date is None:
        return None
    return Position(a.date, a.counselor_id)


@dataclass(frozen=True)
class Moved:
    """One appointment a change wrote: the row as committed, and where it stood before."""

    row: Appointment
    was: Position | None


def _entry(kind: ChangeType, row: Appointment) -> dict[str, Any]:
    if kind == "removed":
        return {"type": kind, "appointmentId": row.id}
    return {"type": kind, "appointmentId": row.id, "doc": window_entry(row)}


class Stream(NamedTuple):
    """One day stream: a clinic day as one audience reads it."""

    clinic_id: str
    audience: str
    day: str

    @property
    def key(self) -> str:
        """Its room and the key of its version."""
        return day_stream(self.clinic_id, self.audience, self.day)

    def push(self, version: int, changes: list[dict[str, Any]]) -> dict[str, Any]:
        """The `changes` event of this stream (docs/protocol.md, "The bookings window")."""
        return {
            "path": feed_path(self.clinic_id),
            "day": self.day,
            "counselorId": None if self.audience == EVERYONE else self.audience,
            "version": version,
            "changes": changes,
        }


def stream_changes(clinic_id: str, moved: Iterable[Moved]) -> dict[Stream, list[dict[str, Any]]]:
    """The entries each day stream gets for a change, computed once (pure).

    In a stream the booking is now in: `modified` when it was in that stream before, else
    `added`; in a stream it was in and has left (another day, another counselor, no time
    any more): `removed`."""
    out: dict[Stream, list[dict[str, Any]]] = {}
    for item in moved:
        now = position_of(item.row)
        before = _streams(clinic_id, item.was)
        after = _streams(clinic_id, now)
        for stream in after:
            out.setdefault(stream, []).append(
                _entry("modified" if stream in before else "added", item.row)
            )
        for stream in before:
            if stream not in after:
                out.setdefault(stream, []).append(_entry("removed", item.row))
    return out


def _streams(clinic_id: str, position: Position | None) -> list[Stream]:
    if position is None:
        return []
    return [
        Stream(clinic_id, EVERYONE, position.day),
        Stream(clinic_id, position.counselor_id, position.day),
    ]
