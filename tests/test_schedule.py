"""Free-slot rules as pure functions: timezones, day boundaries, DST, notice, windows."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from realtime.booking.schedule import (
    Busy,
    DatedChange,
    ServiceRules,
    WeeklyHours,
    free_slots,
    pregnancy_window,
)

RULES = ServiceRules(session_minutes=60, buffer_minutes=15, min_notice_hours=0, horizon_days=60)
NOW = datetime(2026, 11, 1, 0, 0, tzinfo=UTC)


def slots(
    timezone: str,
    day: date,
    hours: list[WeeklyHours],
    *,
    now: datetime = NOW,
    rules: ServiceRules = RULES,
    changes: list[DatedChange] | None = None,
    busy: list[Busy] | None = None,
) -> list[datetime]:
    found = free_slots(
        timezone=timezone,
        first_day=day,
        last_day=day,
        now=now,
        rules=rules,
        counselor_ids=["a", "b"],
        hours=hours,
        changes=changes or [],
        busy=busy or [],
    )
    return [s.start for s in found]


def test_a_day_is_a_day_of_the_clinic_timezone() -> None:
    monday = date(2026, 11, 16)
    starts = slots("Asia/Tokyo", monday, [WeeklyHours("a", 0, time(9), time(11))])
    assert [s.isoformat() for s in starts] == [
        "2026-11-16T09:00:00+09:00",
        "2026-11-16T09:30:00+09:00",
        "2026-11-16T10:00:00+09:00",
    ]
    # 09:00 in Tokyo is the previous day in UTC: the day is still Tokyo's Monday.
    assert starts[0].astimezone(UTC).date() == date(2026, 11, 16)
    assert starts[0].astimezone(ZoneInfo("America/Los_Angeles")).date() == date(2026, 11, 15)


def test_late_evening_hours_cross_midnight_utc_but_not_the_clinic_day() -> None:
    starts = slots("Asia/Tokyo", date(2026, 11, 16), [WeeklyHours("a", 0, time(22), time(23, 30))])
    assert [s.astimezone(UTC).hour for s in starts] == [13, 13]
    assert {s.date() for s in starts} == {date(2026, 11, 16)}


def test_daylight_saving_keeps_wall_clock_hours() -> None:
    zone = "America/New_York"
    hours = [WeeklyHours("a", d, time(9), time(10)) for d in range(7)]
    early = datetime(2026, 10, 1, tzinfo=UTC)
    before = slots(zone, date(2026, 10, 30), hours, now=early)  # EDT, UTC-4
    after = slots(zone, date(2026, 11, 2), hours, now=early)  # EST, UTC-5 (switch on Nov 1)
    assert before[0].astimezone(UTC).hour == 13
    assert after[0].astimezone(UTC).hour == 14
    assert before[0].strftime("%H:%M") == after[0].strftime("%H:%M") == "09:00"


def test_a_wall_time_that_does_not_exist_is_skipped() -> None:
    starts = slots(
        "America/New_York",
        date(2027, 3, 14),
        [WeeklyHours("a", 6, time(2), time(4))],
        now=datetime(2027, 3, 1, tzinfo=UTC),
    )  # 2027-03-14 02:00-03:00 does not exist in New York
    assert [s.strftime("%H:%M") for s in starts] == ["03:00"]


def test_buffer_and_claims() -> None:
    monday = date(2026, 11, 16)
    zone = ZoneInfo("Asia/Tokyo")
    held = datetime.combine(monday, time(10), zone)
    busy = [Busy("a", held, held + timedelta(minutes=75))]
    starts = slots("Asia/Tokyo", monday, [WeeklyHours("a", 0, time(9), time(13))], busy=busy)
    # 09:00 would end at 10:00 and its buffer reaches 10:15: taken. 11:30 is the first after.
    assert [s.strftime("%H:%M") for s in starts] == ["11:30", "12:00"]


def test_days_off_extra_hours_notice_and_horizon() -> None:
    monday = date(2026, 11, 16)
    hours = [WeeklyHours("a", 0, time(9), time(10))]
    off = [DatedChange("a", monday, "off")]
    assert slots("Asia/Tokyo", monday, hours, changes=off) == []
    extra = [DatedChange("a", date(2026, 11, 17), "extra", time(14), time(15))]
    assert len(slots("Asia/Tokyo", date(2026, 11, 17), hours, changes=extra)) == 1
    strict = ServiceRules(60, 15, min_notice_hours=24, horizon_days=60)
    late = datetime(2026, 11, 15, 1, 30, tzinfo=UTC)  # Monday 09:00 JST is 23.5 h later
    assert slots("Asia/Tokyo", monday, hours, rules=strict, now=late) == []
    short = ServiceRules(60, 15, min_notice_hours=0, horizon_days=5)
    assert slots("Asia/Tokyo", monday, hours, rules=short) == []


def test_counselors_share_a_slot() -> None:
    monday = date(2026, 11, 16)
    found = free_slots(
        timezone="Asia/Tokyo",
        first_day=monday,
        last_day=monday,
        now=NOW,
        rules=RULES,
        counselor_ids=["a", "b"],
        hours=[WeeklyHours("a", 0, time(9), time(10)), WeeklyHours("b", 0, time(9), time(10))],
        changes=[],
        busy=[],
    )
    assert [s.counselor_ids for s in found] == [("a", "b")]


def test_pregnancy_window_from_the_expected_date() -> None:
    first, last = pregnancy_window(date(2027, 6, 1), 10, 22)
    # 280 days before the expected date is the start of week 0.
    assert first == date(2026, 8, 25) + timedelta(weeks=10)
    assert (last - first).days == 12 * 7
