"""The month cache and the fast free-slot computation, as pure code: the same answers as a
direct scan, what depends on the moment or the person applied per read, versions, expiry."""

import asyncio
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from realtime.booking.publish import affected_months
from realtime.booking.schedule import (
    STEP_MINUTES,
    Busy,
    DatedChange,
    FreeTimes,
    ServiceRules,
    Slot,
    WeeklyHours,
    free_slots,
    local_time,
)
from realtime.booking.slot_cache import Computed, SlotCache

RULES = ServiceRules(session_minutes=60, buffer_minutes=15, min_notice_hours=24, horizon_days=60)
TOKYO = "Asia/Tokyo"
MONDAY = date(2026, 12, 7)


@dataclass(frozen=True)
class Case:
    timezone: str
    first_day: date
    last_day: date
    now: datetime
    rules: ServiceRules
    counselor_ids: list[str]
    hours: list[WeeklyHours]
    changes: list[DatedChange]
    busy: list[Busy]

    def times(self, busy: list[Busy] | None = None) -> FreeTimes:
        return FreeTimes(
            timezone=self.timezone,
            first_day=self.first_day,
            last_day=self.last_day,
            rules=self.rules,
            counselor_ids=self.counselor_ids,
            hours=self.hours,
            changes=self.changes,
            busy=self.busy if busy is None else busy,
        )


def reference(
    case: Case, busy: list[Busy], window: tuple[date, date] | None = None
) -> list[tuple[datetime, tuple[str, ...]]]:
    """The rules of realtime/booking/schedule.py, written as plainly as possible: every
    counselor, day and grid start, checked against every claim."""
    zone = ZoneInfo(case.timezone)
    rules = case.rules
    today = case.now.astimezone(zone).date()
    earliest = case.now + timedelta(hours=rules.min_notice_hours)
    first = case.first_day
    last = min(case.last_day, today + timedelta(days=rules.horizon_days))
    if window is not None:
        first, last = max(first, window[0]), min(last, window[1])
    span = rules.session + rules.buffer
    free: dict[datetime, set[str]] = {}
    day = first
    while day <= last:
        for cid in case.counselor_ids:
            dated = [c for c in case.changes if c.counselor_id == cid and c.day == day]
            if any(c.kind == "off" for c in dated):
                continue
            windows = [
                (h.start, h.end)
                for h in case.hours
                if (h.counselor_id, h.weekday) == (cid, day.weekday())
            ]
            windows += [(c.start, c.end) for c in dated if c.kind == "extra" and c.start and c.end]
            for start_at, end_at in windows:
                wall = datetime.combine(day, start_at)
                while wall + rules.session <= datetime.combine(day, end_at):
                    at = local_time(day, wall.time(), zone)
                    if (
                        at is not None
                        and at >= earliest
                        and not any(
                            b.counselor_id == cid and b.start < at + span and at < b.blocked_until
                            for b in busy
                        )
                    ):
                        free.setdefault(at, set()).add(cid)
                    wall += timedelta(minutes=STEP_MINUTES)
        day += timedelta(days=1)
    return [(start, tuple(sorted(free[start]))) for start in sorted(free)]


def random_case(rng: random.Random) -> Case:
    timezone = rng.choice([TOKYO, "America/New_York", "Europe/London", "Australia/Lord_Howe"])
    zone = ZoneInfo(timezone)
    first = date(2026, rng.choice([3, 10, 11]), rng.randint(1, 20))
    ids = [f"c{i}" for i in range(rng.randint(1, 5))]
    hours = []
    for cid in ids:
        for weekday in range(7):
            if rng.random() < 0.6:
                hour = rng.choice([0, 1, 2, 9, 13, 22])
                opens = time(hour, rng.choice([0, 15, 30]))
                hours.append(WeeklyHours(cid, weekday, opens, time(min(23, hour + 6))))
    changes = []
    for _ in range(rng.randint(0, 4)):
        day = first + timedelta(days=rng.randint(0, 14))
        if rng.random() < 0.5:
            changes.append(DatedChange(rng.choice(ids), day, "off"))
        else:
            changes.append(DatedChange(rng.choice(ids), day, "extra", time(8), time(12)))
    busy = []
    for index in range(rng.randint(0, 12)):
        day = first + timedelta(days=rng.randint(-1, 15))
        held = datetime.combine(day, time(rng.randint(0, 23), rng.choice([0, 30])), zone)
        minutes = rng.choice([45, 75, 105])
        busy.append(
            Busy(
                rng.choice(ids),
                held.astimezone(UTC),
                held.astimezone(UTC) + timedelta(minutes=minutes),
                f"a{index}",
            )
        )
    rules = ServiceRules(rng.choice([30, 60, 90]), rng.choice([0, 15]), rng.choice([0, 24]), 60)
    now = datetime.combine(first - timedelta(days=rng.randint(0, 2)), time(rng.randint(0, 23)), UTC)
    return Case(
        timezone,
        first,
        first + timedelta(days=rng.randint(0, 14)),
        now,
        rules,
        ids,
        hours,
        changes,
        busy,
    )


def listed(slots: list[Slot]) -> list[tuple[datetime, tuple[str, ...]]]:
    return [(s.start, s.counselor_ids) for s in slots]


def test_the_same_slots_as_a_plain_scan_dst_and_windows_included() -> None:
    rng = random.Random(20261126)
    for _ in range(150):
        case = random_case(rng)
        window = None
        if rng.random() < 0.3:
            start = case.first_day + timedelta(days=rng.randint(-2, 5))
            window = (start, start + timedelta(days=rng.randint(0, 8)))
        found = free_slots(
            timezone=case.timezone,
            first_day=case.first_day,
            last_day=case.last_day,
            now=case.now,
            rules=case.rules,
            counselor_ids=case.counselor_ids,
            hours=case.hours,
            changes=case.changes,
            busy=case.busy,
            window=window,
        )
        assert listed(found) == reference(case, case.busy, window)
        assert all(s.end == s.start + case.rules.session for s in found)


def test_ones_own_hold_does_not_block_oneself() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        case = random_case(rng)
        if not case.busy:
            continue
        own = rng.choice(case.busy)
        expected = reference(case, [b for b in case.busy if b is not own])
        times = case.times()
        mine = own.appointment_id
        assert listed(times.slots(now=case.now, ignore_appointment_id=mine)) == expected
        wire = times.wire(now=case.now, ignore_appointment_id=mine)
        assert [(w["start"], tuple(w["counselorIds"])) for w in wire] == [
            (start.isoformat(), ids) for start, ids in expected
        ]
        checked += 1
    assert checked > 100


def test_a_change_of_claims_recomputes_only_its_days_and_gives_the_same_answer() -> None:
    rng = random.Random(3)
    for _ in range(150):
        case = random_case(rng)
        before = case.times()
        before.wire(now=case.now)  # built: the copy must splice its dicts too
        removed = [b for b in case.busy if rng.random() < 0.3]
        day = case.first_day + timedelta(days=rng.randint(0, 14))
        start = datetime.combine(day, time(rng.randint(0, 23)), ZoneInfo(case.timezone))
        added = [Busy(case.counselor_ids[0], start, start + timedelta(minutes=75), "new")]
        after = before.with_claims(added=added, removed=removed)
        busy = [b for b in case.busy if b not in removed] + added
        assert listed(after.slots(now=case.now)) == reference(case, busy)
        assert after.wire(now=case.now) == case.times(busy).wire(now=case.now)
        assert listed(before.slots(now=case.now)) == reference(case, case.busy)  # untouched
        again = after.with_claims(added=added, removed=removed)
        assert listed(again.slots(now=case.now)) == listed(after.slots(now=case.now))


def test_nearest_are_the_nearest_of_all_slots() -> None:
    rng = random.Random(11)
    for _ in range(100):
        case = random_case(rng)
        times = case.times()
        every = times.slots(now=case.now)
        target = case.now + timedelta(days=rng.uniform(0, 10))
        ranked = sorted(every, key=lambda slot: abs(slot.start - target))[:3]
        assert times.nearest(target, 3, now=case.now) == ranked


def working_week(counselors: int = 2) -> FreeTimes:
    ids = [f"c{i}" for i in range(counselors)]
    return FreeTimes(
        timezone=TOKYO,
        first_day=date(2026, 12, 1),
        last_day=date(2026, 12, 31),
        rules=RULES,
        counselor_ids=ids,
        hours=[WeeklyHours(cid, d, time(9), time(17)) for cid in ids for d in range(5)],
        changes=[],
        busy=[],
    )


def test_minimum_notice_and_horizon_follow_the_clock_not_the_computation() -> None:
    times = working_week()
    tokyo = ZoneInfo(TOKYO)
    early = datetime(2026, 11, 20, tzinfo=UTC)
    first = times.slots(now=early)[0].start
    assert first == datetime(2026, 12, 1, 9, tzinfo=tokyo)
    # A day later the same computation offers nothing within 24 hours of the new moment.
    later = datetime.combine(MONDAY, time(10), tokyo).astimezone(UTC)
    starts = [s.start for s in times.slots(now=later)]
    assert starts[0] >= later + timedelta(hours=24)
    assert starts[0] == datetime.combine(MONDAY + timedelta(days=1), time(10), tokyo)
    assert [w["start"] for w in times.wire(now=later)] == [s.isoformat() for s in starts]
    # The horizon (60 days) cuts the month when asked from far enough before it.
    far = datetime(2026, 10, 20, tzinfo=UTC)
    assert max(s.start.date() for s in times.slots(now=far)) == date(2026, 12, 18)
    # A window narrows the days; the wire dicts are shared, never rebuilt per reader.
    window = (date(2026, 12, 8), date(2026, 12, 9))
    assert {s.start.date() for s in times.slots(now=early, window=window)} == set(window)
    assert times.wire(now=early)[0] is times.wire(now=early)[0]


def computed(times: FreeTimes, valid_until: datetime | None = None) -> Computed:
    return Computed(times, valid_until)


async def test_the_cache_serves_a_version_until_a_newer_one_is_asked_for() -> None:
    cache = SlotCache()
    loads: list[int] = []
    now = datetime(2026, 11, 20, tzinfo=UTC)

    async def load() -> Computed:
        loads.append(1)
        return computed(working_week())

    key = ("demo-clinic", "cancer-b2b", "2026-12")
    first = await cache.get(key, version=3, now=now, load=load)
    assert await cache.get(key, version=3, now=now, load=load) is first
    assert await cache.get(key, version=2, now=now, load=load) is first  # newer data is fine
    assert len(loads) == 1
    second = await cache.get(key, version=4, now=now, load=load)  # someone changed it
    assert second is not first and len(loads) == 2
    assert (cache.hits, cache.misses) == (2, 2)


async def test_an_expiring_hold_and_age_end_an_entry() -> None:
    cache = SlotCache(max_age=0.2)
    loads: list[int] = []
    now = datetime(2026, 11, 20, tzinfo=UTC)
    expiry = now + timedelta(minutes=10)

    async def load() -> Computed:
        loads.append(1)
        return computed(working_week(), valid_until=expiry)

    key = ("demo-clinic", "cancer-b2b", "2026-12")
    await cache.get(key, version=1, now=now, load=load)
    await cache.get(key, version=1, now=expiry - timedelta(seconds=1), load=load)
    assert len(loads) == 1
    await cache.get(key, version=1, now=expiry, load=load)  # the hold no longer blocks
    assert len(loads) == 2
    await asyncio.sleep(0.25)  # schedules edited outside the server show within max_age
    await cache.get(key, version=1, now=now, load=load)
    assert len(loads) == 3


async def test_concurrent_readers_of_a_missing_month_share_one_computation() -> None:
    cache = SlotCache()
    loads: list[int] = []
    now = datetime(2026, 11, 20, tzinfo=UTC)

    async def load() -> Computed:
        loads.append(1)
        await asyncio.sleep(0.05)
        return computed(working_week())

    key = ("demo-clinic", "cancer-b2b", "2026-12")
    found = await asyncio.gather(
        *(cache.get(key, version=1, now=now, load=load) for _ in range(20))
    )
    assert len(loads) == 1 and all(times is found[0] for times in found)


async def test_the_cache_is_bounded() -> None:
    cache = SlotCache(capacity=3)
    now = datetime(2026, 11, 20, tzinfo=UTC)

    async def load() -> Computed:
        return computed(working_week(1))

    for month in range(1, 8):
        await cache.get(("c", "s", f"2027-{month:02d}"), version=1, now=now, load=load)
    assert len(cache) == 3


def test_a_claim_near_the_edge_of_a_month_changes_both_months() -> None:
    reach = timedelta(minutes=105)  # the longest session and buffer of the clinic
    tokyo = ZoneInfo(TOKYO)
    inside = datetime(2026, 12, 15, 10, tzinfo=tokyo)
    assert affected_months([inside], TOKYO, reach) == ["2026-12"]
    late = datetime(2026, 12, 31, 23, 0, tzinfo=tokyo)
    assert affected_months([late], TOKYO, reach) == ["2026-12", "2027-01"]
    early = datetime(2027, 1, 1, 0, 30, tzinfo=tokyo)
    assert affected_months([early, inside], TOKYO, reach) == ["2027-01", "2026-12"]


async def test_a_committed_change_shows_before_its_version_is_raised() -> None:
    cache = SlotCache()
    now = datetime(2026, 11, 20, tzinfo=UTC)

    async def load() -> Computed:
        return computed(working_week())

    december = ("demo-clinic", "cancer-b2b", "2026-12")
    elsewhere = ("other-clinic", "cancer-b2b", "2026-12")
    before = await cache.get(december, version=3, now=now, load=load)
    await cache.get(elsewhere, version=1, now=now, load=load)
    start = datetime(2026, 12, 8, 10, tzinfo=ZoneInfo(TOKYO))
    claim = Busy("c0", start, start + timedelta(minutes=75), "a1")
    at_ten = [s for s in before.slots(now=now) if s.start == start]
    assert at_ten[0].counselor_ids == ("c0", "c1")

    cache.committed("demo-clinic", now=now, added=[claim], removed=[], expires_at=None)
    after = await cache.get(december, version=3, now=now, load=load)  # same version
    assert [s.counselor_ids for s in after.slots(now=now) if s.start == start] == [("c1",)]
    other = await cache.get(elsewhere, version=1, now=now, load=load)
    assert [s.counselor_ids for s in other.slots(now=now) if s.start == start] == [("c0", "c1")]
    # When the version is raised, the same change again changes nothing more.
    assert cache.advance(december, version=4, now=now, added=[claim], removed=[], expires_at=None)
    raised = await cache.get(december, version=4, now=now, load=load)
    assert raised.wire(now=now) == after.wire(now=now)
    assert cache.misses == 2  # december and elsewhere, once each
