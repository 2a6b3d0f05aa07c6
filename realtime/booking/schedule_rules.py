"""What a schedule edit may hold (docs/protocol.md, "Schedules"): pure checks of weekly
windows, dated exceptions and clinic holidays, before anything is written.

Every problem found is reported at once, each under its dotted path (`weekly.3.end`) with
an English message in `details.fields` and a rule name in `details.codes` (the client words
the rule in the person's language: client/src/locales/*/staff.json). Nothing is saved when
one is found: the caller checks first, then writes.

Times are wall times `HH:MM` of the clinic's zone on a 5-minute grid; a window lies within
one day (it cannot cross midnight: 22:00-02:00 is two windows on two days), so its end is
after its start. Windows of one day may neither overlap nor touch (09:00-12:00 and
12:00-15:00 are one window, 09:00-15:00, written once), and each is at least as long as the
shortest session of the clinic's services (a shorter one could never hold a booking).
"""

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, time
from typing import Protocol

from realtime.booking.schedule import DatedChange, WeeklyHours
from realtime.days import ISO_DAY, in_range
from realtime.errors import FunctionError

GRID_MINUTES = 5
MAX_WINDOWS_A_DAY = 7
MAX_EXCEPTIONS = 366
MAX_HOLIDAYS = 366
YEARS_AHEAD = 2
HHMM = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")

# Rule name -> the English message (the client has each rule's text in both languages).
MESSAGES = {
    "time": "Times are HH:MM, from 00:00 to 23:55.",
    "grid": f"Times are on a {GRID_MINUTES}-minute grid.",
    "order": "A window must end after it starts, on the same day (not past midnight).",
    "short": "A window must be at least as long as the shortest session ({minutes} minutes).",
    "overlap": "Windows of one day must not overlap or touch.",
    "tooMany": f"At most {MAX_WINDOWS_A_DAY} windows a day.",
    "weekday": "The weekday is 0 (Monday) to 6 (Sunday).",
    "date": "Dates are YYYY-MM-DD.",
    "past": "The date is before today.",
    "tooFar": f"The date is more than {YEARS_AHEAD} years ahead.",
    "offWithTimes": "A day off has no times.",
    "extraWithoutTimes": "Extra hours need a start and an end.",
    "duplicate": "This date is given twice.",
}


class Refusal(FunctionError):
    """INVALID_ARGUMENT naming every field at fault, with its rule."""

    def __init__(self, problems: dict[str, tuple[str, str]]) -> None:
        super().__init__(
            "INVALID_ARGUMENT",
            "The schedule is not valid.",
            {
                "fields": {path: message for path, (_code, message) in problems.items()},
                "codes": {path: code for path, (code, _message) in problems.items()},
            },
        )


@dataclass
class Problems:
    found: dict[str, tuple[str, str]] = field(default_factory=dict)

    def add(self, path: str, code: str, **values: object) -> None:
        self.found.setdefault(path, (code, MESSAGES[code].format(**values)))

    def raise_any(self) -> None:
        if self.found:
            raise Refusal(self.found)


class WindowIn(Protocol):
    @property
    def start(self) -> str | None: ...
    @property
    def end(self) -> str | None: ...


class WeeklyIn(WindowIn, Protocol):
    @property
    def weekday(self) -> int: ...


class ExceptionIn(WindowIn, Protocol):
    @property
    def date(self) -> str: ...
    @property
    def kind(self) -> str: ...


class HolidayIn(Protocol):
    @property
    def date(self) -> str: ...


def latest_day(today: date) -> date:
    """The last day an exception or holiday may fall on: YEARS_AHEAD years from today."""
    try:
        return today.replace(year=today.year + YEARS_AHEAD)
    except ValueError:  # 29 February
        return today.replace(year=today.year + YEARS_AHEAD, day=28)


def _time(value: str | None, path: str, problems: Problems) -> time | None:
    found = HHMM.fullmatch(value or "")
    if found is None:
        problems.add(path, "time")
        return None
    at = time(int(found.group(1)), int(found.group(2)))
    if at.minute % GRID_MINUTES:
        problems.add(path, "grid")
        return None
    return at


def _minutes(at: time) -> int:
    return at.hour * 60 + at.minute


def _window(
    window: WindowIn, path: str, shortest: int, problems: Problems
) -> tuple[time, time] | None:
    start = _time(window.start, f"{path}.start", problems)
    end = _time(window.end, f"{path}.end", problems)
    if start is None or end is None:
        return None
    if end <= start:
        problems.add(f"{path}.end", "order")
        return None
    if _minutes(end) - _minutes(start) < shortest:
        problems.add(f"{path}.end", "short", minutes=shortest)
        return None
    return start, end


def _apart(windows: Sequence[tuple[str, tuple[time, time]]], problems: Problems) -> None:
    """Windows of one day (path, (start, end)): none overlapping or touching another."""
    latest: time | None = None  # the latest end among the windows before
    for path, (start, end) in sorted(windows, key=lambda item: item[1]):
        if latest is not None and start <= latest:
            problems.add(f"{path}.start", "overlap")
        latest = end if latest is None else max(latest, end)


def weekly_hours(
    counselor_id: str, windows: Sequence[WeeklyIn], *, shortest: int, problems: Problems
) -> list[WeeklyHours]:
    """The weekly windows as stored, once every one passed (the caller raises problems)."""
    by_day: dict[int, list[tuple[str, tuple[time, time]]]] = defaultdict(list)
    for index, window in enumerate(windows):
        path = f"weekly.{index}"
        if not 0 <= window.weekday <= 6:
            problems.add(f"{path}.weekday", "weekday")
            continue
        found = _window(window, path, shortest, problems)
        if found is not None:
            by_day[window.weekday].append((path, found))
    for day in by_day.values():
        if len(day) > MAX_WINDOWS_A_DAY:
            problems.add("weekly", "tooMany")
        _apart(day, problems)
    return [
        WeeklyHours(counselor_id, weekday, start, end)
        for weekday, day in sorted(by_day.items())
        for _path, (start, end) in sorted(day, key=lambda item: item[1])
    ]


def _day(value: str, path: str, today: date, problems: Problems) -> date | None:
    """A day from today to YEARS_AHEAD years ahead."""
    try:
        day = date.fromisoformat(value) if ISO_DAY.fullmatch(value) else None
    except ValueError:
        day = None
    if day is None or not in_range(day):
        problems.add(path, "date")
        return None
    if day < today:
        problems.add(path, "past")
        return None
    if day > latest_day(today):
        problems.add(path, "tooFar")
        return None
    return day


def dated_changes(
    counselor_id: str,
    exceptions: Sequence[ExceptionIn],
    *,
    weekly: Sequence[WeeklyHours],
    today: date,
    shortest: int,
    problems: Problems,
) -> list[DatedChange]:
    """The exceptions as stored: a day off (no times) or extra hours, one kind a date; extra
    windows apart from one another and from the `weekly` windows of their weekday."""
    found: list[DatedChange] = []
    kinds: dict[date, str] = {}
    extras: dict[date, list[tuple[str, tuple[time, time]]]] = defaultdict(list)
    for index, exception in enumerate(exceptions):
        path = f"exceptions.{index}"
        day = _day(exception.date, f"{path}.date", today, problems)
        if exception.kind == "off" and (exception.start is not None or exception.end is not None):
            problems.add(f"{path}.start", "offWithTimes")
            continue
        if exception.kind == "extra" and (exception.start is None or exception.end is None):
            problems.add(f"{path}.start", "extraWithoutTimes")
            continue
        window = None if exception.kind == "off" else _window(exception, path, shortest, problems)
        if day is None or (exception.kind == "extra" and window is None):
            continue
        if kinds.setdefault(day, exception.kind) != exception.kind or (
            exception.kind == "off" and any(c.day == day for c in found)
        ):
            problems.add(f"{path}.date", "duplicate")
            continue
        if window is not None:
            extras[day].append((path, window))
        found.append(DatedChange(counselor_id, day, exception.kind, *(window or (None, None))))
    usual: dict[int, list[tuple[time, time]]] = defaultdict(list)
    for hours in weekly:
        usual[hours.weekday].append((hours.start, hours.end))
    for day, day_windows in extras.items():
        if len(day_windows) > MAX_WINDOWS_A_DAY:
            problems.add("exceptions", "tooMany")
        _apart(day_windows, problems)
        for path, (start, end) in day_windows:
            if any(start <= to and since <= end for since, to in usual[day.weekday()]):
                problems.add(f"{path}.start", "overlap")
    return sorted(found, key=lambda c: (c.day, c.start or time()))


def holiday_days(
    days: Sequence[HolidayIn], *, today: date, problems: Problems
) -> list[date | None]:
    """The holidays' dates, in input order (None where refused)."""
    seen: set[date] = set()
    found: list[date | None] = []
    for index, holiday in enumerate(days):
        path = f"days.{index}.date"
        day = _day(holiday.date, path, today, problems)
        if day is not None and day in seen:
            problems.add(path, "duplicate")
            day = None
        if day is not None:
            seen.add(day)
        found.append(day)
    return found


def session_floor(session_minutes: Sequence[int]) -> int:
    """The shortest session of the clinic's services: no window may be shorter."""
    return min(session_minutes, default=GRID_MINUTES)


def changed_days(before: Sequence[DatedChange], after: Sequence[DatedChange]) -> list[date]:
    """The days whose exceptions differ between two lists (their months are recomputed)."""
    old, new = set(before), set(after)
    return sorted({c.day for c in old ^ new})
