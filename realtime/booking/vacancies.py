"""Free slots of a clinic's service: the vacancies-read answer and the month documents."""

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel.ext.asyncio.session import AsyncSession

from realtime.booking.schedule import (
    Busy,
    DatedChange,
    ServiceRules,
    Slot,
    WeeklyHours,
    free_slots,
    local_time,
)
from storage.models import Clinic, Service
from storage.repo_booking import claims_between, counselors_of, exceptions_of, hours_of

MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def rules_of(service: Service) -> ServiceRules:
    return ServiceRules(
        session_minutes=service.session_minutes,
        buffer_minutes=service.buffer_minutes,
        min_notice_hours=service.min_notice_hours,
        horizon_days=service.horizon_days,
    )


def vacancies_path(clinic_id: str, service_id: str, month: str) -> str:
    return f"vacancies/{clinic_id}/{service_id}/{month}"


def month_of(moment: datetime, timezone: str) -> str:
    return moment.astimezone(ZoneInfo(timezone)).strftime("%Y-%m")


def month_days(month: str) -> tuple[date, date] | None:
    found = MONTH.match(month)
    if not found:
        return None
    first = date(int(found.group(1)), int(found.group(2)), 1)
    following = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, following - timedelta(days=1)


def day_start_utc(day: date, timezone: str) -> datetime:
    moment = local_time(day, time(0), ZoneInfo(timezone))
    assert moment is not None  # midnight exists in every zone the clinics use
    return moment.astimezone(UTC)


async def compute_slots(
    session: AsyncSession,
    *,
    clinic: Clinic,
    service: Service,
    first_day: date,
    last_day: date,
    now: datetime,
    window: tuple[date, date] | None = None,
    ignore_appointment_id: str | None = None,
) -> list[Slot]:
    """Four queries, whatever the number of counselors. `ignore_appointment_id`: its own
    claim does not make a slot busy (moving one's hold to an overlapping time)."""
    counselors = await counselors_of(session, clinic_id=clinic.id)
    hours = await hours_of(session, clinic_id=clinic.id)
    changes = await exceptions_of(
        session, clinic_id=clinic.id, first_day=first_day, last_day=last_day
    )
    claims = await claims_between(
        session,
        clinic_id=clinic.id,
        start=day_start_utc(first_day, clinic.timezone) - timedelta(days=1),
        end=day_start_utc(last_day + timedelta(days=1), clinic.timezone) + timedelta(days=1),
        now=now,
    )
    return free_slots(
        timezone=clinic.timezone,
        first_day=first_day,
        last_day=last_day,
        now=now,
        rules=rules_of(service),
        counselor_ids=[c.id for c in counselors],
        hours=[WeeklyHours(h.counselor_id, h.weekday, h.start, h.end) for h in hours],
        changes=[DatedChange(c.counselor_id, c.day, c.kind, c.start, c.end) for c in changes],
        busy=[
            Busy(c.counselor_id, c.start, c.blocked_until)
            for c in claims
            if c.appointment_id != ignore_appointment_id
        ],
        window=window,
    )


def vacancies_data(clinic: Clinic, slots: list[Slot]) -> dict[str, Any]:
    return {"timezone": clinic.timezone, "slots": [slot.to_wire() for slot in slots]}
