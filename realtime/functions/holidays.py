"""holidays-update and holidays-suggest: the clinic's closed days (docs/protocol.md, "Clinic
administration", "Schedules"). Clinic administrators only.

A closed day is a day off for every counselor of the clinic: a change is one transaction like
a schedule's (realtime/functions/schedule.py): the version compare-and-set, the replaced
days, the bookings the change strands, the audit entry, and the new versions of the months of
the days added or removed, pushed after the commit. Suggestions come from the `holidays`
library for the clinic's country and save nothing.
"""

from typing import Annotated, Any

import holidays as public_holidays
from pydantic import Field, StringConstraints

from realtime import audit
from realtime.booking.schedule_country import country_of
from realtime.booking.schedule_rules import MAX_HOLIDAYS, YEARS_AHEAD, Problems, holiday_days
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, invalid_field
from realtime.functions.inputs import Id, Input
from realtime.functions.schedule import (
    Day,
    Version,
    clinic_of,
    conflicts_of,
    midday,
    record_months,
    stale,
)
from realtime.functions.schedule_view import holidays_wire, today_in
from realtime.functions.send_email import Locale
from realtime.functions.staff import raw
from realtime.rules import require_staff
from realtime.text import OneLine
from storage.models import ClinicHoliday
from storage.repo_schedule import claim_holidays, holidays_between, replace_holidays
from storage.types import utcnow

# Which `holidays` language gives a holiday's name in each of ours (JP has "ja", "en_US").
HOLIDAY_LANGUAGES = {"ja": "ja", "en": "en_US"}


class HolidayEntry(Input):
    date: Day
    name: Annotated[OneLine, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class HolidaysUpdate(Input):
    clinicId: Id
    version: Version
    days: list[HolidayEntry] = Field(max_length=MAX_HOLIDAYS)


class HolidaysSuggest(Input):
    clinicId: Id
    year: int
    locale: Locale = "ja"


@callable_function("holidays-update", HolidaysUpdate, authorize_first=True)
async def holidays_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Replace the clinic's holidays from today on (clinic_admins)."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(HolidaysUpdate, data)
    async with changing(state) as change, state.db.write() as session:
        clinic = await clinic_of(session, request.clinicId)
        now = utcnow()
        today = today_in(clinic, now)
        problems = Problems()
        days = holiday_days(request.days, today=today, problems=problems)
        problems.raise_any()
        claimed = await claim_holidays(session, clinic_id=clinic.id, version=request.version)
        await session.refresh(clinic)
        if not claimed:
            raise stale(clinic.holidays_version, await holidays_wire(session, clinic, today))
        before = dict(await holidays_between(session, clinic_id=clinic.id, first_day=today))
        after = {d: e.name for d, e in zip(days, request.days, strict=True) if d is not None}
        await replace_holidays(
            session,
            clinic_id=clinic.id,
            first_day=today,
            days=[ClinicHoliday(clinic_id=clinic.id, day=d, name=n) for d, n in after.items()],
        )
        await session.flush()
        conflicts = await conflicts_of(session, clinic, None, today, now)
        added, removed = sorted(set(after) - set(before)), sorted(set(before) - set(after))
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=clinic.id,
            action=audit.HOLIDAYS_UPDATE,
            detail={
                "version": {"from": request.version, "to": clinic.holidays_version},
                "added": [d.isoformat() for d in added],
                "removed": [d.isoformat() for d in removed],
                "renamed": sum(1 for d in set(before) & set(after) if before[d] != after[d]),
            },
            address=context.client_ip,
        )
        moments = [midday(d, clinic.timezone) for d in added + removed]
        await record_months(state, session, change, clinic, moments)
        answer = {
            "holidays": {
                "version": clinic.holidays_version,
                "days": [{"date": d.isoformat(), "name": n} for d, n in sorted(after.items())],
            },
            "conflicts": conflicts,
        }
    return answer


@callable_function("holidays-suggest", HolidaysSuggest, authorize_first=True)
async def holidays_suggest(context: CallContext, data: Any) -> dict[str, Any]:
    """The public holidays of the clinic's country in `year`, from today on, named in
    `locale`: to import (nothing is saved here)."""
    require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(HolidaysSuggest, data)
    async with context.state.db.read() as session:
        clinic = await clinic_of(session, request.clinicId)
    today = today_in(clinic, utcnow())
    if not today.year <= request.year <= today.year + YEARS_AHEAD:
        raise invalid_field("year", f"The year is from {today.year} to {today.year + YEARS_AHEAD}.")
    country = country_of(clinic.timezone)
    languages = public_holidays.list_localized_countries().get(country or "", [])
    wanted = HOLIDAY_LANGUAGES[request.locale]
    if country is None or country not in public_holidays.list_supported_countries():
        raise FunctionError(
            "UNIMPLEMENTED",
            "No public holidays are known for the clinic's country.",
            {"timezone": clinic.timezone, "country": country},
        )
    found = public_holidays.country_holidays(
        country, years=request.year, language=wanted if wanted in languages else None
    )
    return {
        "country": country,
        "days": [
            {"date": day.isoformat(), "name": name}
            for day, name in sorted(found.items())
            if day >= today
        ],
    }
