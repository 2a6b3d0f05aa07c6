"""Free times of a month, computed once per version of the month's document, per application.

Readers of one month of one service: every subscriber of `vacancies/...` (a subscribe reads
twice), `vacancies-read`, a hold's check of the chosen time and the alternatives of a
refused one, and the push after each change. Computed afresh for each of them, the same
month was computed hundreds of times between two changes (docs/benchmarks.md, "Booking").

Coherent across processes: after every committed change of a claim, the process that made
it raises the version of each month document the claim can touch (realtime/booking/
publish.py), in `document_versions`. A reader first reads the current versions (one query for
every month it needs), then uses an entry only when it was computed at that version or a
later one. The version is read before the data are loaded, so an entry never holds data
older than its version says. An entry is also dropped:
- when a hold it counts expires (`valid_until`): an expired hold stops blocking at once,
  before the expire-holds job raises the version;
- after MAX_AGE_SECONDS: a schedule or holiday change made through the server raises the
  versions of the months it touches in its own transaction (realtime/functions/schedule.py),
  so readers recompute at once; an edit made in the database directly reaches them within
  this time.
What depends on the moment (minimum notice, horizon) or on the person (pregnancy window, their
own hold not blocking them) is applied per read (`FreeTimes.select`), never cached.

The process that changes a claim moves its entries to the new version itself (`advance`): the
hold's own change applied to the month it had, only the days it touches computed again, so
the push after a hold and the next hold's look need no new computation.

Bounded: at most CAPACITY months (least recently used dropped first); concurrent readers of a
month that is missing wait for one computation instead of each making their own.
"""

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from realtime.booking.schedule import Busy, FreeTimes

CAPACITY = 64  # months of services: one clinic's 4 services over 3 months need 12
MAX_AGE_SECONDS = 60.0

Key = tuple[str, str, str]  # clinic id, service id, YYYY-MM


@dataclass(frozen=True)
class Computed:
    """What a loader returns: the free times and when the first hold they count expires."""

    times: FreeTimes
    valid_until: datetime | None


@dataclass(frozen=True)
class Entry:
    version: int
    computed: Computed
    born: float  # time.monotonic() when computed from the database (kept by `advance`)


class SlotCache:
    """The months of one application and its database (built by create_app, held on
    AppState: `state.caches.months`)."""

    def __init__(self, capacity: int = CAPACITY, max_age: float = MAX_AGE_SECONDS) -> None:
        self.capacity = capacity
        self.max_age = max_age
        self._entries: OrderedDict[Key, Entry] = OrderedDict()
        self._locks: dict[Key, asyncio.Lock] = {}
        self.hits = 0
        self.misses = 0

    def _fresh(self, key: Key, version: int, now: datetime) -> FreeTimes | None:
        entry = self._entries.get(key)
        if entry is None or entry.version < version:
            return None
        valid_until = entry.computed.valid_until
        if (valid_until is not None and now >= valid_until) or (
            time.monotonic() - entry.born > self.max_age
        ):
            return None
        self._entries.move_to_end(key)
        return entry.computed.times

    async def get(
        self,
        key: Key,
        *,
        version: int,
        now: datetime,
        load: Callable[[], Awaitable[Computed]],
    ) -> FreeTimes:
        """The free times of `key` at `version` or later; `load` computes them when missing
        (called after `version` was read, so that its data are at least that new)."""
        found = self._fresh(key, version, now)
        if found is not None:
            self.hits += 1
            return found
        lock = self._locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                found = self._fresh(key, version, now)
                if found is not None:
                    self.hits += 1
                    return found
                self.misses += 1
                computed = await load()
                self._store(key, Entry(version, computed, time.monotonic()))
                return computed.times
        finally:
            if key not in self._entries and not lock.locked():
                self._locks.pop(key, None)  # a month nobody keeps (failed, or dropped)

    def advance(
        self,
        key: Key,
        *,
        version: int,
        now: datetime,
        added: Sequence[Busy],
        removed: Sequence[Busy],
        expires_at: datetime | None,
    ) -> bool:
        """Apply a change of claims this process has just committed, and whose bump gave
        `version`, to the entry of the version before: only the days it touches are computed
        again, and no query is made. Done only when the entry is exactly one version behind
        (no other change was numbered in between) and still fresh; otherwise the next reader
        computes the month. A change committed elsewhere but numbered later is not in the
        result; its own, later, version makes readers compute the month again."""
        entry = self._entries.get(key)
        if entry is None or entry.version != version - 1:
            return False
        if self._fresh(key, entry.version, now) is None:
            return False
        times = entry.computed.times.with_claims(added=added, removed=removed)
        ends = [end for end in (entry.computed.valid_until, expires_at) if end is not None]
        self._store(key, Entry(version, Computed(times, min(ends, default=None)), entry.born))
        return True

    def committed(
        self,
        clinic_id: str,
        *,
        now: datetime,
        added: Sequence[Busy],
        removed: Sequence[Busy],
        expires_at: datetime | None,
    ) -> None:
        """A change of claims this process has just committed, applied at once to the
        clinic's cached months at their current versions (their data may be newer than their
        version says, never older). Holds racing for the time just taken are then refused
        from the cache instead of by the database, in the moments before the versions are
        raised (under load, publishing can lag the commit by a long way). `advance` applies
        the same change again, harmlessly, when the version is raised."""
        for key, entry in list(self._entries.items()):
            if key[0] != clinic_id or self._fresh(key, entry.version, now) is None:
                continue
            times = entry.computed.times.with_claims(added=added, removed=removed)
            ends = [end for end in (entry.computed.valid_until, expires_at) if end is not None]
            self._entries[key] = Entry(
                entry.version, Computed(times, min(ends, default=None)), entry.born
            )

    def _store(self, key: Key, entry: Entry) -> None:
        held = self._entries.get(key)
        if held is not None and held.version > entry.version:
            return  # a newer one arrived meanwhile (a reader that waited on another lock)
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            dropped, _ = self._entries.popitem(last=False)
            lock = self._locks.get(dropped)
            if lock is not None and not lock.locked():
                del self._locks[dropped]

    def __len__(self) -> int:
        return len(self._entries)
