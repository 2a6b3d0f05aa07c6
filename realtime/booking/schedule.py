"""Free slots from weekly hours, dated exceptions and the claims already made.

Pure functions and values: the caller loads counselors' hours, exceptions and active claims
with a fixed number of queries (whatever the number of counselors) and passes them in.

Rules:
- "A day" is a calendar day in the clinic's timezone, whatever the browser's zone.
- Slots start on a grid of STEP_MINUTES from the start of a working window and last the
  service's session; a slot is free for a counselor when it fits in one of their windows of
  that day and its time plus the service's buffer overlaps no active claim of theirs.
- A clinic holiday (`closed`) is a day off for every counselor, whatever their hours.
- Minimum notice and booking horizon come from the service; a date window (the pregnancy's)
  can narrow the days further.

How it is computed (`FreeTimes`), so that 200 counselors over a month cost a few
milliseconds rather than half a second (docs/benchmarks.md, "Booking"):
- counselors with the same windows on a day form one group, whose grid of local start times
  is computed once per day (zone conversions included) and shared by its members;
- each claim marks the few starts it blocks (found by bisection in the day's grid) instead
  of every start scanning every claim;
- what depends on the moment of asking (notice, horizon) or on the person (pregnancy
  window, their own hold) is applied when the slots are read (`FreeTimes.select`), so one
  computation serves every reader (realtime/booking/slot_cache.py).
"""

import copy
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from itertools import chain
from typing import Any, TypedDict, Unpack
from zoneinfo import ZoneInfo

STEP_MINUTES = 30
DAYS_PER_PREGNANCY = 280
# Wall-clock arithmetic (start + session + buffer on an aware time, as the rules define a
# slot's span) and absolute time differ by at most a DST shift: bisection bounds leave
# this much room, and every candidate is then checked exactly.
DST_SLACK = timedelta(hours=3)

Windows = tuple[tuple[time, time], ...]


@dataclass(frozen=True)
class WeeklyHours:
    counselor_id: str
    weekday: int  # 0 Monday
    start: time
    end: time


@dataclass(frozen=True)
class DatedChange:
    counselor_id: str
    day: date
    kind: str  # off | extra
    start: time | None = None
    end: time | None = None


@dataclass(frozen=True)
class Busy:
    counselor_id: str
    start: datetime
    blocked_until: datetime
    # Whose claim it is: that person's own hold does not block them (moving a hold).
    appointment_id: str | None = None

    def blocks(self, start: datetime, span: timedelta) -> bool:
        """Does this claim overlap a slot starting at `start` (span: session + buffer)?"""
        return self.start < start + span and start < self.blocked_until


@dataclass(frozen=True)
class ServiceRules:
    session_minutes: int
    buffer_minutes: int
    min_notice_hours: int
    horizon_days: int

    @property
    def session(self) -> timedelta:
        return timedelta(minutes=self.session_minutes)

    @property
    def buffer(self) -> timedelta:
        return timedelta(minutes=self.buffer_minutes)


@dataclass(frozen=True)
class Slot:
    start: datetime  # aware, in the clinic's timezone
    end: datetime
    counselor_ids: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        return wire_slot(self.start, self.end, self.counselor_ids)


def wire_slot(start: datetime, end: datetime, counselor_ids: tuple[str, ...]) -> dict[str, Any]:
    """A slot as docs/protocol.md, "Booking", writes it. `counselorIds` stays a tuple: JSON
    writes it as an array, and python-socketio's scan of a payload for binary parts does not walk
    into tuples (at 200 counselors a month holds 60,000 ids)."""
    return {"start": start.isoformat(), "end": end.isoformat(), "counselorIds": counselor_ids}


def local_time(day: date, at: time, zone: ZoneInfo) -> datetime | None:
    """`day` at `at` in `zone`, or None when that wall time does not exist (DST gap)."""
    moment = datetime.combine(day, at, tzinfo=zone)
    back = moment.astimezone(UTC).astimezone(zone)
    return moment if back.replace(tzinfo=None) == moment.replace(tzinfo=None) else None


def pregnancy_window(edd: date, min_weeks: int, max_weeks: int) -> tuple[date, date]:
    """Days on which the gestational age is within [min_weeks, max_weeks]."""
    conception_base = edd - timedelta(days=DAYS_PER_PREGNANCY)
    return conception_base + timedelta(weeks=min_weeks), conception_base + timedelta(
        weeks=max_weeks
    )


def _same_claim(a: Busy, b: Busy) -> bool:
    return (a.appointment_id, a.counselor_id, a.start) == (
        b.appointment_id,
        b.counselor_id,
        b.start,
    )


def _days(first: date, last: date) -> Iterable[date]:
    day = first
    while day <= last:
        yield day
        day += timedelta(days=1)


class Hours:
    """Who works when: weekly windows, dated changes (a day off, extra hours) and the
    clinic's holidays (`closed`: a day off for every counselor, whatever their hours). The
    one reading of a schedule, for free slots and for the bookings a change strands
    (realtime/booking/schedule_conflicts.py)."""

    def __init__(
        self,
        hours: Iterable[WeeklyHours],
        changes: Iterable[DatedChange],
        closed: Iterable[date] = (),
    ) -> None:
        self._weekly: dict[tuple[str, int], list[tuple[time, time]]] = defaultdict(list)
        for h in hours:
            self._weekly[(h.counselor_id, h.weekday)].append((h.start, h.end))
        self.changes = list(changes)
        self._dated: dict[tuple[str, date], list[DatedChange]] = defaultdict(list)
        for c in self.changes:
            self._dated[(c.counselor_id, c.day)].append(c)
        self.closed = frozenset(closed)

    def weekly_windows(self, counselor_id: str, weekday: int) -> Windows:
        return tuple(sorted(set(self._weekly.get((counselor_id, weekday), []))))

    def windows(self, day: date, counselor_id: str) -> Windows:
        """A counselor's working windows of `day`: none on a clinic holiday or a day off;
        else the weekly ones plus the day's extra hours."""
        if day in self.closed:
            return ()
        dated = self._dated.get((counselor_id, day), [])
        if any(change.kind == "off" for change in dated):
            return ()
        found = set(self._weekly.get((counselor_id, day.weekday()), []))
        found.update((c.start, c.end) for c in dated if c.kind == "extra" and c.start and c.end)
        return tuple(sorted(found))


class Reader(TypedDict, total=False):
    """Which days, and whose view of them, a reading of a FreeTimes is for (the keyword
    arguments of `FreeTimes.select`, passed on unchanged by `slots`, `nearest` and `wire`)."""

    first_day: date | None
    last_day: date | None
    window: tuple[date, date] | None
    ignore_appointment_id: str | None


@dataclass(frozen=True)
class Selection:
    """What one reader sees of a FreeTimes: a range of its starts, plus the changes their
    own hold makes (starts where a counselor is free for them only)."""

    lo: int
    hi: int
    patched: dict[int, tuple[str, ...]]  # index -> counselors, for starts already listed
    added: list[tuple[datetime, tuple[str, ...]]]  # starts listed for this reader only


class FreeTimes:
    """Every free start of a range of days, before notice, horizon and the person's window
    and own hold: those are applied by `select`, per reader."""

    def __init__(
        self,
        *,
        timezone: str,
        first_day: date,
        last_day: date,
        rules: ServiceRules,
        counselor_ids: Iterable[str],
        hours: Iterable[WeeklyHours],
        changes: Iterable[DatedChange],
        busy: Iterable[Busy],
        closed: Iterable[date] = (),
    ) -> None:
        self.timezone = timezone
        self.zone = ZoneInfo(timezone)
        self.first_day, self.last_day = first_day, last_day
        self.rules = rules
        self.session = rules.session
        self.span = rules.session + rules.buffer
        self.hours = Hours(hours, changes, closed)
        changed_on: dict[date, set[str]] = defaultdict(set)
        for c in self.hours.changes:
            changed_on[c.day].add(c.counselor_id)
        self._busy_of: dict[str, list[Busy]] = defaultdict(list)
        self.own: dict[str, Busy] = {}  # appointment id -> its claim
        for b in busy:
            self._busy_of[b.counselor_id].append(b)
            if b.appointment_id is not None:
                self.own[b.appointment_id] = b
        self._grids: dict[tuple[date, time, time], tuple[datetime, ...]] = {}
        # Parallel lists, in time order: start, its day (ordinal), its free counselors.
        self.starts: list[datetime] = []
        self.days: list[int] = []
        self.counselors: list[tuple[str, ...]] = []
        self._wire: list[dict[str, Any]] | None = None
        self._build(sorted(set(counselor_ids)), changed_on)

    # -- building -----------------------------------------------------------------------

    def windows(self, day: date, counselor_id: str) -> Windows:
        return self.hours.windows(day, counselor_id)

    def _grid(self, day: date, start_at: time, end_at: time) -> tuple[datetime, ...]:
        """Start times of one window: a grid on the wall clock; a wall time that does not
        exist (DST) is skipped."""
        key = (day, start_at, end_at)
        found = self._grids.get(key)
        if found is None:
            step = timedelta(minutes=STEP_MINUTES)
            wall = datetime.combine(day, start_at)
            wall_end = datetime.combine(day, end_at)
            starts = []
            while wall + self.session <= wall_end:
                cursor = local_time(day, wall.time(), self.zone)
                if cursor is not None:
                    starts.append(cursor)
                wall += step
            found = self._grids[key] = tuple(starts)
        return found

    def grid(self, day: date, windows: Windows) -> tuple[datetime, ...]:
        if len(windows) == 1:
            return self._grid(day, *windows[0])
        return tuple(sorted({s for w in windows for s in self._grid(day, *w)}))

    def _build(self, ids: list[str], changed_on: dict[date, set[str]]) -> None:
        self._changed_on = changed_on
        self._weekly_groups: dict[int, dict[Windows, list[str]]] = {}
        for weekday in range(7):
            groups: dict[Windows, list[str]] = defaultdict(list)
            for cid in ids:
                windows = self.hours.weekly_windows(cid, weekday)
                if windows:
                    groups[windows].append(cid)
            self._weekly_groups[weekday] = groups
        claims_on: dict[date, list[Busy]] = defaultdict(list)
        for claim in chain.from_iterable(self._busy_of.values()):
            for day in self._claim_days(claim):
                claims_on[day].append(claim)
        for day in _days(self.first_day, self.last_day):
            starts, counselors = self._day(day, claims_on.get(day, []))
            self.starts += starts
            self.days += [day.toordinal()] * len(starts)
            self.counselors += counselors

    def _claim_days(self, claim: Busy) -> Iterable[date]:
        """The computed days whose starts `claim` may block."""
        first = (claim.start - self.span - DST_SLACK).astimezone(self.zone).date()
        last = (claim.blocked_until + DST_SLACK).astimezone(self.zone).date()
        return _days(max(first, self.first_day), min(last, self.last_day))

    def _regroup(
        self, day: date, weekly: dict[Windows, list[str]], changed: set[str]
    ) -> dict[Windows, list[str]]:
        groups: dict[Windows, list[str]] = defaultdict(list)
        for windows, members in weekly.items():
            kept = [cid for cid in members if cid not in changed]
            if kept:
                groups[windows] = kept
        for cid in sorted(changed):
            windows = self.windows(day, cid)
            if windows:
                groups[windows].append(cid)
                groups[windows].sort()
        return groups

    def _day(self, day: date, claims: list[Busy]) -> tuple[list[datetime], list[tuple[str, ...]]]:
        """The free starts of one day and their counselors, given the claims near it."""
        if day in self.hours.closed:
            return [], []
        groups = self._weekly_groups[day.weekday()]
        if day in self._changed_on:
            groups = self._regroup(day, groups, self._changed_on[day])
        free: dict[datetime, list[tuple[str, ...]]] = defaultdict(list)
        for windows, members in groups.items():
            starts = self.grid(day, windows)
            if not starts:
                continue
            everyone = tuple(members)
            blocked: dict[int, set[str]] = defaultdict(set)
            if claims:
                present = set(members)
                for claim in claims:
                    if claim.counselor_id not in present:
                        continue
                    lo = bisect_left(starts, claim.start - self.span - DST_SLACK)
                    hi = bisect_left(starts, claim.blocked_until + DST_SLACK)
                    for index in range(lo, hi):
                        if claim.blocks(starts[index], self.span):
                            blocked[index].add(claim.counselor_id)
            for index, start in enumerate(starts):
                taken = blocked.get(index)
                if taken is None:
                    free[start].append(everyone)
                else:
                    left = tuple(cid for cid in everyone if cid not in taken)
                    if left:
                        free[start].append(left)
        ordered = sorted(free)
        return ordered, [
            parts[0] if len(parts) == 1 else tuple(sorted(set(chain.from_iterable(parts))))
            for parts in (free[start] for start in ordered)
        ]

    def with_claims(self, *, added: Iterable[Busy], removed: Iterable[Busy]) -> "FreeTimes":
        """A copy in which the `removed` claims no longer block and the `added` ones do;
        only the days they touch are computed again (a hold's change, applied to the month
        computed before it: realtime/booking/slot_cache.py `SlotCache.advance`). Idempotent:
        a claim already counted, or already gone, changes nothing."""
        added, removed = list(added), list(removed)
        new = copy.copy(self)
        new._busy_of = defaultdict(list, {cid: list(found) for cid, found in self._busy_of.items()})
        new.own = dict(self.own)
        for claim in removed:
            mine = new._busy_of.get(claim.counselor_id, [])
            mine[:] = [b for b in mine if not _same_claim(b, claim)]
            held = new.own.get(claim.appointment_id or "")
            if held is not None and _same_claim(held, claim):
                del new.own[claim.appointment_id or ""]
        for claim in added:
            mine = new._busy_of[claim.counselor_id]
            if not any(_same_claim(b, claim) for b in mine):
                mine.append(claim)
            if claim.appointment_id is not None:
                new.own[claim.appointment_id] = claim
        touched = sorted({day for claim in added + removed for day in self._claim_days(claim)})
        if not touched:
            return new
        every = list(chain.from_iterable(new._busy_of.values()))
        new.starts, new.days = list(self.starts), list(self.days)
        new.counselors = list(self.counselors)
        new._wire = None if self._wire is None else list(self._wire)
        for day in reversed(touched):  # from the end: earlier positions stay valid
            near = [b for b in every if day in set(self._claim_days(b))]
            starts, counselors = new._day(day, near)
            lo = bisect_left(new.days, day.toordinal())
            hi = bisect_right(new.days, day.toordinal())
            new.starts[lo:hi] = starts
            new.days[lo:hi] = [day.toordinal()] * len(starts)
            new.counselors[lo:hi] = counselors
            if new._wire is not None:
                new._wire[lo:hi] = [
                    wire_slot(start, start + self.session, ids)
                    for start, ids in zip(starts, counselors, strict=True)
                ]
        return new

    # -- reading ------------------------------------------------------------------------

    def select(
        self,
        *,
        now: datetime,
        first_day: date | None = None,
        last_day: date | None = None,
        window: tuple[date, date] | None = None,
        ignore_appointment_id: str | None = None,
    ) -> Selection:
        """The starts a reader may book at `now`: within [first_day, last_day] (default:
        all computed days), the service's notice and horizon, and `window`; with the claim
        of `ignore_appointment_id` not blocking."""
        today = now.astimezone(self.zone).date()
        earliest = now + timedelta(hours=self.rules.min_notice_hours)
        first = max(first_day or self.first_day, self.first_day)
        last = min(
            last_day or self.last_day,
            self.last_day,
            today + timedelta(days=self.rules.horizon_days),
        )
        if window is not None:
            first, last = max(first, window[0]), min(last, window[1])
        lo = max(bisect_left(self.days, first.toordinal()), bisect_left(self.starts, earliest))
        hi = max(lo, bisect_right(self.days, last.toordinal()))
        own = self.own.get(ignore_appointment_id) if ignore_appointment_id else None
        patched: dict[int, tuple[str, ...]] = {}
        added: list[tuple[datetime, tuple[str, ...]]] = []
        if own is not None and first <= last:
            for start in self._freed_by(own, first, last):
                if start < earliest:
                    continue
                index = bisect_left(self.starts, start)
                if index < len(self.starts) and self.starts[index] == start:
                    if lo <= index < hi:
                        current = patched.get(index, self.counselors[index])
                        if own.counselor_id not in current:
                            patched[index] = tuple(sorted((*current, own.counselor_id)))
                else:
                    added.append((start, (own.counselor_id,)))
        return Selection(lo, hi, patched, added)

    def _freed_by(self, own: Busy, first: date, last: date) -> list[datetime]:
        """Starts of `first`..`last` where only `own` keeps its counselor from a slot."""
        cid = own.counselor_id
        # By value, not identity: a renewal's change brings an equal Busy (`with_claims`).
        others = [b for b in self._busy_of.get(cid, []) if not _same_claim(b, own)]
        begin = (own.start - self.span - DST_SLACK).astimezone(self.zone).date()
        end = (own.blocked_until + DST_SLACK).astimezone(self.zone).date()
        freed = []
        for day in _days(max(begin, first), min(end, last)):
            for start in self.grid(day, self.windows(day, cid)):
                if own.blocks(start, self.span) and not any(
                    b.blocks(start, self.span) for b in others
                ):
                    freed.append(start)
        return freed

    def slots(self, *, now: datetime, **reader: Unpack[Reader]) -> list[Slot]:
        """Slots with at least one free counselor, in time order (arguments: `select`)."""
        chosen = self.select(now=now, **reader)
        found = [
            Slot(start, start + self.session, chosen.patched.get(index, self.counselors[index]))
            for index, start in enumerate(self.starts[chosen.lo : chosen.hi], start=chosen.lo)
        ]
        if chosen.added:
            found += [Slot(s, s + self.session, ids) for s, ids in chosen.added]
            found.sort(key=lambda slot: slot.start)
        return found

    def nearest(
        self, start: datetime, count: int, *, now: datetime, **reader: Unpack[Reader]
    ) -> list[Slot]:
        """The `count` slots nearest to `start` (the earlier first on a tie), nearest first:
        found by bisection, without building the other slots (a refused hold's alternatives)."""
        chosen = self.select(now=now, **reader)
        if chosen.patched or chosen.added:  # the reader's own hold changes the list: rare
            found = self.slots(now=now, **reader)
            return sorted(found, key=lambda slot: abs(slot.start - start))[:count]
        right = bisect_left(self.starts, start, chosen.lo, chosen.hi)
        left = right - 1
        picked: list[int] = []
        while len(picked) < count and (left >= chosen.lo or right < chosen.hi):
            if right >= chosen.hi or (
                left >= chosen.lo and start - self.starts[left] <= self.starts[right] - start
            ):
                picked.append(left)
                left -= 1
            else:
                picked.append(right)
                right += 1
        return [
            Slot(self.starts[i], self.starts[i] + self.session, self.counselors[i]) for i in picked
        ]

    def wire(self, *, now: datetime, **reader: Unpack[Reader]) -> list[dict[str, Any]]:
        """As `slots`, in the wire form; the common case is a slice of dicts built once
        (shared by every reader: never change them)."""
        if self._wire is None:
            self._wire = [
                wire_slot(start, start + self.session, ids)
                for start, ids in zip(self.starts, self.counselors, strict=True)
            ]
        chosen = self.select(now=now, **reader)
        found = self._wire[chosen.lo : chosen.hi]
        if not chosen.patched and not chosen.added:
            return found
        for index, ids in chosen.patched.items():
            start = self.starts[index]
            found[index - chosen.lo] = wire_slot(start, start + self.session, ids)
        if chosen.added:
            found += [wire_slot(s, s + self.session, ids) for s, ids in chosen.added]
            found.sort(key=lambda slot: datetime.fromisoformat(slot["start"]))
        return found


def free_slots(
    *,
    timezone: str,
    first_day: date,
    last_day: date,
    now: datetime,
    rules: ServiceRules,
    counselor_ids: Iterable[str],
    hours: Iterable[WeeklyHours],
    changes: Iterable[DatedChange],
    busy: Iterable[Busy],
    window: tuple[date, date] | None = None,
    ignore_appointment_id: str | None = None,
    closed: Iterable[date] = (),
) -> list[Slot]:
    """Slots with at least one free counselor, in time order."""
    return FreeTimes(
        timezone=timezone,
        first_day=first_day,
        last_day=last_day,
        rules=rules,
        counselor_ids=counselor_ids,
        hours=hours,
        changes=changes,
        busy=busy,
        closed=closed,
    ).slots(now=now, window=window, ignore_appointment_id=ignore_appointment_id)
