"""The pure rules of schedule edits (realtime/booking/schedule_rules.py), conflicts
(schedule_conflicts.py) and a zone's country (schedule_country.py), without a server."""

from dataclasses import dataclass
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from realtime.booking.schedule import DatedChange, Hours, WeeklyHours
from realtime.booking.schedule_conflicts import fits
from realtime.booking.schedule_country import country_of
from realtime.booking.schedule_rules import Problems, Refusal, dated_changes, weekly_hours

TOKYO = ZoneInfo("Asia/Tokyo")
TODAY = date(2026, 11, 27)  # a Friday


@dataclass
class Window:
    weekday: int
    start: str | None
    end: str | None


@dataclass
class Exception_:
    date: str
    kind: str
    start: str | None = None
    end: str | None = None


def refused(check: Problems) -> dict[str, str]:
    with pytest.raises(Refusal) as raised:
        check.raise_any()
    codes: dict[str, str] = raised.value.details["codes"]
    return codes


def test_a_window_inside_another_is_refused_even_when_not_next_to_it() -> None:
    problems = Problems()
    weekly_hours(
        "c",
        [Window(0, "09:00", "17:00"), Window(0, "10:00", "11:00"), Window(0, "12:00", "13:00")],
        shortest=60,
        problems=problems,
    )
    assert refused(problems) == {"weekly.1.start": "overlap", "weekly.2.start": "overlap"}


def test_windows_of_different_days_may_share_their_times() -> None:
    problems = Problems()
    found = weekly_hours(
        "c",
        [Window(1, "09:00", "12:00"), Window(0, "09:00", "12:00")],
        shortest=60,
        problems=problems,
    )
    problems.raise_any()
    assert [w.weekday for w in found] == [0, 1]


def test_one_date_is_either_off_or_extra() -> None:
    problems = Problems()
    dated_changes(
        "c",
        [Exception_("2026-12-01", "off"), Exception_("2026-12-01", "extra", "19:00", "20:00")],
        weekly=[],
        today=TODAY,
        shortest=60,
        problems=problems,
    )
    assert refused(problems) == {"exceptions.1.date": "duplicate"}


def test_the_last_day_allowed_is_two_years_ahead() -> None:
    problems = Problems()
    found = dated_changes(
        "c",
        [Exception_("2028-11-27", "off"), Exception_("2028-11-28", "off")],
        weekly=[],
        today=TODAY,
        shortest=60,
        problems=problems,
    )
    assert refused(problems) == {"exceptions.1.date": "tooFar"}
    assert [c.day for c in found] == [date(2028, 11, 27)]


def moment(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=TOKYO)


def test_a_booking_fits_only_inside_one_window_of_its_day() -> None:
    hours = Hours(
        [WeeklyHours("c", 0, time(9), time(12)), WeeklyHours("c", 0, time(13), time(17))],
        [DatedChange("c", date(2026, 12, 14), "off")],
        closed=[date(2026, 12, 21)],
    )
    assert fits(hours, "c", moment(7, 9), moment(7, 10), TOKYO)  # Monday 7 December
    assert fits(hours, "c", moment(7, 16), moment(7, 17), TOKYO)
    assert not fits(hours, "c", moment(7, 11, 30), moment(7, 12, 30), TOKYO)  # across the gap
    assert not fits(hours, "c", moment(8, 9), moment(8, 10), TOKYO)  # a Tuesday
    assert not fits(hours, "c", moment(14, 9), moment(14, 10), TOKYO)  # their day off
    assert not fits(hours, "c", moment(21, 9), moment(21, 10), TOKYO)  # the clinic's holiday
    assert not fits(hours, "someone else", moment(7, 9), moment(7, 10), TOKYO)


def test_the_country_of_a_zone() -> None:
    assert country_of("Asia/Tokyo") == "JP"
    assert country_of("America/New_York") == "US"
    assert country_of("UTC") is None
    assert country_of("Not/AZone") is None
