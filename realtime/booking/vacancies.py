"""Free slots of a clinic's service: the vacancies-read answer, the month documents, a hold's
check of the chosen time; all through the month cache (realtime/booking/slot_cache.py).

Months are the unit: a range of days is read as the months that cover it, each computed once
per version of its `vacancies/{clinicId}/{serviceId}/{YYYY-MM}` document and cut per reader.
"""

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import partial
from typing import Any, Unpack
from zoneinfo import ZoneInfo

from realtime.booking.schedule import (
    Busy,
    DatedChange,
    FreeTimes,
    Reader,
    ServiceRules,
    Slot,
    WeeklyHours,
    local_time,
)
from realtime.booking.slot_cache import Computed, SlotCache
from realtime.days import in_range
from realtime.paths import vacancies_path
from storage.db import AsyncSession
from storage.models import Clinic, Service
from storage.repo_booking import (
    claims_between,
    counselors_of,
    exceptions_of,
    hours_of,
    versions_of,
)
from storage.repo_schedule import holidays_between

MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def rules_of(service: Service) -> ServiceRules:
    return ServiceRules(
        session_minutes=service.session_minutes,
        buffer_minutes=service.buffer_minutes,
        min_notice_hours=service.min_notice_hours,
        horizon_days=service.horizon_days,
    )


def month_of(moment: datetime, timezone: str) -> str:
    return moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m")


def month_days(month: str) -> tuple[date, date] | None:
    """The first and last day of `YYYY-MM`, or None for anything else (realtime/days.py)."""
    found = MONTH.fullmatch(month)
    if not found:
        return None
    first = date(int(found.group(1)), int(found.group(2)), 1)
    if not in_range(first):
        return None
    following = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, following - timedelta(days=1)


def months_between(first_day: date, last_day: date) -> list[str]:
    """`YYYY-MM` of every month from the one of `first_day` to the one of `last_day`."""
    months = []
    day = first_day.replace(day=1)
    while day <= last_day:
        months.append(day.strftime("%Y-%m"))
        day = (day.replace(day=28) + timedelta(days=4)).replace(day=1)
    return months


def day_start_utc(day: date, timezone: str) -> datetime:
    moment = local_time(day, time(0), ZoneInfo(timezone))
    assert moment is not None  # midnight exists in every zone the clinics use
    return moment.astimezone(UTC)


async def load_free_times(
    session: AsyncSession,
    *,
    clinic: Clinic,
    service: Service,
    first_day: date,
    last_day: date,
    now: datetime,
) -> Computed:
    """Five queries, whatever the number of counselors; claims of the neighbouring days
    count too (a claim late on the eve can block the first starts); the clinic's holidays
    close their days for everyone."""
    counselors = await counselors_of(session, clinic_id=clinic.id)
    hours = await hours_of(session, clinic_id=clinic.id)
    changes = await exceptions_of(
        session, clinic_id=clinic.id, first_day=first_day, last_day=last_day
    )
    closed = await holidays_between(
        session, clinic_id=clinic.id, first_day=first_day, last_day=last_day
    )
    claims = await claims_between(
        session,
        clinic_id=clinic.id,
        start=day_start_utc(first_day, clinic.timezone) - timedelta(days=1),
        end=day_start_utc(last_day + timedelta(days=1), clinic.timezone) + timedelta(days=1),
        now=now,
    )
    times = FreeTimes(
        timezone=clinic.timezone,
        first_day=first_day,
        last_day=last_day,
        rules=rules_of(service),
        counselor_ids=[c.id for c in counselors],
        hours=[WeeklyHours(h.counselor_id, h.weekday, h.start, h.end) for h in hours],
        changes=[DatedChange(c.counselor_id, c.day, c.kind, c.start, c.end) for c in changes],
        busy=[Busy(c.counselor_id, c.start, c.blocked_until, c.appointment_id) for c in claims],
        closed=[day for day, _name in closed],
    )
    expiries = [c.expires_at for c in claims if c.expires_at is not None]
    return Computed(times, min(expiries, default=None))


@dataclass(frozen=True)
class Calendar:
    """The free times of the consecutive months covering a range of days, as cached; read
    as each month is (`Reader`: without `first_day` and `last_day`, all their days)."""

    months: tuple[FreeTimes, ...]

    def slots(self, *, now: datetime, **reader: Unpack[Reader]) -> list[Slot]:
        return [slot for times in self.months for slot in times.slots(now=now, **reader)]

    def nearest(
        self, start: datetime, count: int, *, now: datetime, **reader: Unpack[Reader]
    ) -> list[Slot]:
        """The `count` slots nearest to `start`, nearest first (the earlier on a tie)."""
        candidates = [
            slot for times in self.months for slot in times.nearest(start, count, now=now, **reader)
        ]
        return sorted(candidates, key=lambda slot: (abs(slot.start - start), slot.start))[:count]

    def wire(self, *, now: datetime, **reader: Unpack[Reader]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for times in self.months:
            found += times.wire(now=now, **reader)
        return found


async def month_times(
    session: AsyncSession,
    *,
    cache: SlotCache,
    clinic: Clinic,
    service: Service,
    month: str,
    version: int,
    now: datetime,
) -> FreeTimes:
    """The free times of one month at `version` (read by the caller before) or later, from
    `cache` (the application's: `state.caches.months`)."""
    days = month_days(month)
    assert days is not None
    return await cache.get(
        (clinic.id, service.id, month),
        version=version,
        now=now,
        load=partial(
            load_free_times,
            session,
            clinic=clinic,
            service=service,
            first_day=days[0],
            last_day=days[1],
            now=now,
        ),
    )


async def calendar(
    session: AsyncSession,
    *,
    cache: SlotCache,
    clinic: Clinic,
    service: Service,
    first_day: date,
    last_day: date,
    now: datetime,
    versions: dict[str, int] | None = None,
) -> Calendar:
    """The months covering `first_day`..`last_day`: one query for their versions (unless
    `versions`, by month, were read already), then the cache (five more queries for each
    month computed)."""
    months = months_between(first_day, last_day)
    if versions is None or any(month not in versions for month in months):
        paths = {month: vacancies_path(clinic.id, service.id, month) for month in months}
        found = await versions_of(session, paths=list(paths.values()))
        versions = {month: found[path] for month, path in paths.items()}
    return Calendar(
        tuple(
            [
                await month_times(
                    session,
                    cache=cache,
                    clinic=clinic,
                    service=service,
                    month=month,
                    version=versions[month],
                    now=now,
                )
                for month in months
            ]
        )
    )


def vacancies_answer(timezone: str, slots: list[dict[str, Any]]) -> dict[str, Any]:
    """vacancies-read's answer and a month document's `data` (docs/protocol.md, "Booking").

    `slots` goes out as a tuple: JSON writes it as an array, and python-socketio, which
    scans every payload for binary parts before sending it, does not walk into tuples (a
    month of slots is over a thousand dicts and values to visit, twice per packet: a third
    of a cached vacancies-read's server time before)."""
    return {"timezone": timezone, "slots": tuple(slots)}


def month_data(clinic: Clinic, times: FreeTimes, now: datetime) -> dict[str, Any]:
    """`data` of a month document: what can be booked at `now`."""
    return vacancies_answer(clinic.timezone, times.wire(now=now))
