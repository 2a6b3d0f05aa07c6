"""Free slots from weekly hours, dated exceptions and the claims already made.

Pure functions: the caller loads counselors' hours, exceptions and active claims with a
fixed number of queries (whatever the number of counselors) and passes them in.

Rules:
- "A day" is a calendar day in the clinic's timezone, whatever the browser's zone.
- Slots start on a grid of STEP_MINUTES from the start of a working window and last the
  service's session; a slot is free for a counselor when it fits in one of their windows of
  that day and its time plus the service's buffer overlaps no active claim of theirs.
- Minimum notice and booking horizon come from the service; a date window (the pregnancy's)
  can narrow the days further.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

STEP_MINUTES = 30
DAYS_PER_PREGNANCY = 280


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

    def to_wire(self) -> dict[str, object]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "counselorIds": list(self.counselor_ids),
        }


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


def _windows(
    day: date,
    counselor_id: str,
    hours: dict[tuple[str, int], list[WeeklyHours]],
    changes: dict[tuple[str, date], list[DatedChange]],
) -> list[tuple[time, time]]:
    dated = changes.get((counselor_id, day), [])
    if any(change.kind == "off" for change in dated):
        return []
    windows = [(h.start, h.end) for h in hours.get((counselor_id, day.weekday()), [])]
    windows += [(c.start, c.end) for c in dated if c.kind == "extra" and c.start and c.end]
    return sorted(windows)


def _free(busy: list[Busy], start: datetime, blocked_until: datetime) -> bool:
    return not any(b.start < blocked_until and start < b.blocked_until for b in busy)


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
) -> list[Slot]:
    """Slots with at least one free counselor, in time order."""
    zone = ZoneInfo(timezone)
    today = now.astimezone(zone).date()
    earliest = now + timedelta(hours=rules.min_notice_hours)
    last = min(last_day, today + timedelta(days=rules.horizon_days))
    first = first_day
    if window is not None:
        first, last = max(first, window[0]), min(last, window[1])
    by_weekday: dict[tuple[str, int], list[WeeklyHours]] = defaultdict(list)
    for h in hours:
        by_weekday[(h.counselor_id, h.weekday)].append(h)
    by_day: dict[tuple[str, date], list[DatedChange]] = defaultdict(list)
    for c in changes:
        by_day[(c.counselor_id, c.day)].append(c)
    busy_of: dict[str, list[Busy]] = defaultdict(list)
    for b in busy:
        busy_of[b.counselor_id].append(b)
    ids = sorted(set(counselor_ids))
    free: dict[datetime, list[str]] = defaultdict(list)
    day = first
    while day <= last:
        for counselor_id in ids:
            for start_at, end_at in _windows(day, counselor_id, by_weekday, by_day):
                _add_free_starts(
                    free,
                    day,
                    start_at,
                    end_at,
                    zone,
                    rules,
                    earliest,
                    busy_of[counselor_id],
                    counselor_id,
                )
        day += timedelta(days=1)
    return [
        Slot(start=start, end=start + rules.session, counselor_ids=tuple(free[start]))
        for start in sorted(free)
    ]


def _add_free_starts(
    free: dict[datetime, list[str]],
    day: date,
    start_at: time,
    end_at: time,
    zone: ZoneInfo,
    rules: ServiceRules,
    earliest: datetime,
    busy: list[Busy],
    counselor_id: str,
) -> None:
    """Walk the window on the wall clock; a wall time that does not exist (DST) is skipped."""
    step = timedelta(minutes=STEP_MINUTES)
    wall = datetime.combine(day, start_at)
    wall_end = datetime.combine(day, end_at)
    while wall + rules.session <= wall_end:
        cursor = local_time(day, wall.time(), zone)
        if (
            cursor is not None
            and cursor >= earliest
            and _free(busy, cursor, cursor + rules.session + rules.buffer)
        ):
            free[cursor].append(counselor_id)
        wall += step
