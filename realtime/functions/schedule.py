"""schedule-read, schedule-update, holidays-update, holidays-suggest (docs/protocol.md,
"Clinic administration", "Schedules").

Who may: a counselor their own schedule, a clinic_admin any counselor's of their clinic
(`require_staff`, then `staff_counselor`: authorized before the input is validated); the
clinic's holidays, clinic_admins only.

A change is one transaction: the version compare-and-set (storage/repo_schedule.py), the
replaced rows, the conflicts read against the new hours, the audit entry, and the new
versions of the month documents it touches (realtime/booking/publish.py `version_in`). After
the commit the one write path (realtime/changes.py) pushes those months; without a
`ClaimChange`, so every node's month cache computes them again from the database at their
new versions (realtime/booking/slot_cache.py keeps an entry only at its version).
"""

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

import holidays as public_holidays
from pydantic import Field, StringConstraints

from realtime import audit
from realtime.booking.access import staff_counselor
from realtime.booking.publish import version_in
from realtime.booking.schedule import DatedChange, Hours, WeeklyHours, local_time
from realtime.booking.schedule_conflicts import stranded
from realtime.booking.schedule_country import country_of
from realtime.booking.schedule_rules import (
    MAX_EXCEPTIONS,
    MAX_HOLIDAYS,
    MAX_WINDOWS_A_DAY,
    YEARS_AHEAD,
    Problems,
    changed_days,
    dated_changes,
    holiday_days,
    session_floor,
    weekly_hours,
)
from realtime.booking.vacancies import months_between
from realtime.changes import Change, Claims, changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, invalid_field, no_access
from realtime.functions.inputs import Id, Input
from realtime.functions.send_email import Locale
from realtime.functions.staff import contact_of, raw
from realtime.rules import require_staff
from realtime.state import AppState
from realtime.text import OneLine
from storage.db import AsyncSession
from storage.models import Clinic, ClinicHoliday, Counselor, CounselorException, CounselorHours
from storage.repo_booking import catalog_of
from storage.repo_catalog import get_clinic
from storage.repo_schedule import (
    Booked,
    booked_from,
    claim_holidays,
    claim_schedule,
    clinic_counselors,
    exceptions_from,
    holidays_between,
    replace_exceptions,
    replace_holidays,
    replace_weekly,
    weekly_of,
)
from storage.types import iso, utcnow

# Text fields are OneLine: a control character is refused as everywhere (realtime/text.py).
HHMM = Annotated[OneLine, StringConstraints(max_length=5)]
Day = Annotated[OneLine, StringConstraints(max_length=10)]
# Versions are compared in SQL with INTEGER columns: a larger number is refused here.
Version = Annotated[int, Field(ge=1, le=2**31 - 1)]
# Which `holidays` language gives a holiday's name in each of ours (JP has "ja", "en_US").
HOLIDAY_LANGUAGES = {"ja": "ja", "en": "en_US"}


class ScheduleRead(Input):
    clinicId: Id
    counselorId: Id | None = None


class WeeklyWindow(Input):
    weekday: int
    start: HHMM
    end: HHMM


class ExceptionEntry(Input):
    date: Day
    kind: Literal["off", "extra"]
    start: HHMM | None = None
    end: HHMM | None = None


class ScheduleUpdate(Input):
    clinicId: Id
    counselorId: Id
    version: Version
    weekly: list[WeeklyWindow] | None = Field(default=None, max_length=7 * MAX_WINDOWS_A_DAY)
    exceptions: list[ExceptionEntry] | None = Field(default=None, max_length=MAX_EXCEPTIONS)
    languages: list[Literal["ja", "en"]] | None = Field(default=None, min_length=1, max_length=2)


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


# Reading ---------------------------------------------------------------------------------


def today_in(clinic: Clinic, now: datetime) -> date:
    return now.astimezone(ZoneInfo(clinic.timezone)).date()


def _hhmm(at: time | None) -> str | None:
    return None if at is None else at.strftime("%H:%M")


def schedule_wire(
    counselor: Counselor,
    weekly: Sequence[WeeklyHours],
    exceptions: Sequence[DatedChange],
    *,
    version: int | None = None,
    languages: list[str] | None = None,
) -> dict[str, Any]:
    """A `<schedule>`; `version` and `languages` when just written (the row is older)."""
    return {
        "counselorId": counselor.id,
        "name": counselor.name,
        "languages": languages if languages is not None else counselor.languages,
        "version": version if version is not None else counselor.schedule_version,
        "weekly": [
            {"weekday": w.weekday, "start": _hhmm(w.start), "end": _hhmm(w.end)} for w in weekly
        ],
        "exceptions": [
            {"date": c.day.isoformat(), "kind": c.kind}
            | ({"start": _hhmm(c.start), "end": _hhmm(c.end)} if c.kind == "extra" else {})
            for c in exceptions
        ],
    }


def _weekly(rows: Sequence[CounselorHours]) -> list[WeeklyHours]:
    return [WeeklyHours(r.counselor_id, r.weekday, r.start, r.end) for r in rows]


def _dated(rows: Sequence[CounselorException]) -> list[DatedChange]:
    return [DatedChange(r.counselor_id, r.day, r.kind, r.start, r.end) for r in rows]


async def schedules(
    session: AsyncSession, counselors: Sequence[Counselor], today: date
) -> tuple[list[WeeklyHours], list[DatedChange]]:
    """The counselors' weekly hours and their exceptions from today on (two queries)."""
    ids = [c.id for c in counselors]
    weekly = _weekly(await weekly_of(session, counselor_ids=ids))
    dated = _dated(await exceptions_from(session, counselor_ids=ids, first_day=today))
    return weekly, dated


def schedules_wire(
    counselors: Sequence[Counselor], weekly: Sequence[WeeklyHours], dated: Sequence[DatedChange]
) -> list[dict[str, Any]]:
    return [
        schedule_wire(
            c,
            [w for w in weekly if w.counselor_id == c.id],
            [d for d in dated if d.counselor_id == c.id],
        )
        for c in counselors
    ]


async def holidays_wire(session: AsyncSession, clinic: Clinic, today: date) -> dict[str, Any]:
    days = await holidays_between(session, clinic_id=clinic.id, first_day=today)
    return {
        "version": clinic.holidays_version,
        "days": [{"date": day.isoformat(), "name": name} for day, name in days],
    }


async def _clinic(session: AsyncSession, clinic_id: str) -> Clinic:
    clinic = await get_clinic(session, clinic_id=clinic_id)
    if clinic is None:  # a staff member's clinic exists (foreign key): never seen
        raise no_access()
    return clinic


@callable_function("schedule-read", ScheduleRead, authorize_first=True)
async def schedule_read(context: CallContext, data: Any) -> dict[str, Any]:
    """A counselor's own schedule; for a clinic_admin one counselor's, or all the clinic's
    when none is named; and the clinic's holidays from today on."""
    who = require_staff(context.identity, raw(data, "clinicId"))
    async with context.state.db.read() as session:
        named = raw(data, "counselorId")
        if named is None and not who.is_admin:
            named = who.counselor_id  # a counselor's own; never the clinic's whole list
            if named is None:
                raise no_access()
        one = await staff_counselor(session, who, named) if named is not None else None
        request = validated(ScheduleRead, data)
        counselors = (
            [one]
            if one is not None
            else await clinic_counselors(session, clinic_id=request.clinicId)
        )
        clinic = await _clinic(session, request.clinicId)
        today = today_in(clinic, utcnow())
        weekly, dated = await schedules(session, counselors, today)
        return {
            "timezone": clinic.timezone,
            "counselors": schedules_wire(counselors, weekly, dated),
            "holidays": await holidays_wire(session, clinic, today),
        }


# Changing --------------------------------------------------------------------------------


def stale(version: int, current: dict[str, Any]) -> FunctionError:
    """The refusal of an edit made against an older version (docs/protocol.md)."""
    return FunctionError(
        "ABORTED",
        "Someone else changed this in the meantime: reload and edit again.",
        {"version": version, "current": current},
    )


def midday(day: date, timezone: str) -> datetime:
    """A moment of `day` in the clinic's zone far from both midnights: the month of `day`
    alone, for realtime/booking/publish.py `affected_months`."""
    moment = local_time(day, time(12), ZoneInfo(timezone))
    assert moment is not None  # noon exists in every zone
    return moment


def months_ahead(today: date, horizon_days: int, timezone: str) -> list[datetime]:
    """One moment in each month from today's to the one of the furthest horizon."""
    last = today + timedelta(days=horizon_days)
    return [
        midday(date.fromisoformat(f"{month}-15"), timezone) for month in months_between(today, last)
    ]


def _counts(before: Sequence[object], after: Sequence[object]) -> dict[str, int]:
    old, new = set(before), set(after)
    return {"added": len(new - old), "removed": len(old - new)}


async def _catalog(session: AsyncSession, clinic_id: str) -> tuple[int, int]:
    """The shortest session and the furthest horizon of the clinic's services."""
    found = await catalog_of(session, clinic_id=clinic_id)
    services = found[1] if found is not None else []
    return (
        session_floor([s.session_minutes for s in services]),
        max((s.horizon_days for s in services), default=0),
    )


def conflict_wire(booked: Booked) -> dict[str, Any]:
    """A `<conflict>`: the booking, and the person's name as the board shows it."""
    claim, appointment, email = booked
    return {
        "appointmentId": appointment.id,
        "start": iso(claim.start),
        "end": iso(claim.end),
        "counselorId": claim.counselor_id,
        "serviceId": appointment.service_id,
        "status": appointment.status,
        "name": contact_of(email, appointment.intake)["name"],
    }


async def _conflicts(
    session: AsyncSession,
    clinic: Clinic,
    counselor_id: str | None,
    today: date,
    now: datetime,
) -> list[dict[str, Any]]:
    """The bookings of the clinic (or of one counselor) that its hours, as now written in
    this transaction, no longer cover."""
    counselors = await clinic_counselors(session, clinic_id=clinic.id, counselor_id=counselor_id)
    weekly, dated = await schedules(session, counselors, today)
    closed = await holidays_between(session, clinic_id=clinic.id, first_day=today)
    booked = await booked_from(session, clinic_id=clinic.id, counselor_id=counselor_id, now=now)
    hours = Hours(weekly, dated, [day for day, _name in closed])
    return [conflict_wire(item) for item in stranded(hours, booked, timezone=clinic.timezone)]


async def _record_months(
    state: AppState,
    session: AsyncSession,
    change: Change,
    clinic: Clinic,
    moments: list[datetime],
) -> None:
    """Raise the versions of the months the change touches inside its transaction (visible
    with the new hours, to every node at once: a hold that follows the commit never checks
    a time against the months as they were), to be pushed after the commit. No
    `ClaimChange`: every node computes those months again from the database."""
    if not moments:
        return
    versioned = await version_in(
        state, session, clinic_id=clinic.id, moments=moments, service_id=None
    )
    change.claims_changed(Claims(clinic_id=clinic.id, moments=moments, versioned=versioned))


async def _store(
    session: AsyncSession,
    counselor_id: str,
    weekly: Sequence[WeeklyHours] | None,
    exceptions: Sequence[DatedChange] | None,
    today: date,
) -> None:
    """The lists given replace the stored ones (the exceptions from today on)."""
    if weekly is not None:
        rows = [
            CounselorHours(counselor_id=counselor_id, weekday=w.weekday, start=w.start, end=w.end)
            for w in weekly
        ]
        await replace_weekly(session, counselor_id=counselor_id, windows=rows)
    if exceptions is not None:
        dated = [
            CounselorException(
                counselor_id=counselor_id, day=c.day, kind=c.kind, start=c.start, end=c.end
            )
            for c in exceptions
        ]
        await replace_exceptions(
            session, counselor_id=counselor_id, first_day=today, exceptions=dated
        )


@callable_function("schedule-update", ScheduleUpdate, authorize_first=True)
async def schedule_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Replace a counselor's weekly hours, exceptions from today on, and/or languages."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"))
    async with changing(state) as change, state.db.write() as session:
        counselor = await staff_counselor(session, who, raw(data, "counselorId"))
        request = validated(ScheduleUpdate, data)
        clinic = await _clinic(session, counselor.clinic_id)
        now = utcnow()
        today = today_in(clinic, now)
        shortest, horizon = await _catalog(session, clinic.id)
        before_weekly, before_dated = await schedules(session, [counselor], today)
        problems = Problems()
        weekly = exceptions = None
        if request.weekly is not None:
            weekly = weekly_hours(
                counselor.id, request.weekly, shortest=shortest, problems=problems
            )
        if request.exceptions is not None:
            exceptions = dated_changes(
                counselor.id,
                request.exceptions,
                weekly=before_weekly if weekly is None else weekly,
                today=today,
                shortest=shortest,
                problems=problems,
            )
        problems.raise_any()
        languages: list[str] | None = (
            list(dict.fromkeys(request.languages)) if request.languages else None
        )
        claimed = await claim_schedule(
            session, counselor_id=counselor.id, version=request.version, languages=languages
        )
        if not claimed:  # read again: what the winner wrote (committed since the read above)
            await session.refresh(counselor)
            current = schedule_wire(counselor, *await schedules(session, [counselor], today))
            raise stale(counselor.schedule_version, current)
        # As the claimed version left them (the read above came before the row's lock).
        before_weekly, before_dated = await schedules(session, [counselor], today)
        after_weekly = before_weekly if weekly is None else weekly
        after_dated = before_dated if exceptions is None else exceptions
        await _store(session, counselor.id, weekly, exceptions, today)
        await session.flush()
        conflicts = await _conflicts(session, clinic, counselor.id, today, now)
        detail: dict[str, Any] = {
            "counselorId": counselor.id,
            "version": {"from": request.version, "to": request.version + 1},
            "weekly": _counts(before_weekly, after_weekly),
            "exceptions": _counts(before_dated, after_dated),
        }
        if languages is not None and languages != counselor.languages:
            detail["languages"] = {"from": counselor.languages, "to": languages}
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=clinic.id,
            action=audit.SCHEDULE_UPDATE,
            detail=detail,
            address=context.client_ip,
        )
        moments = (
            months_ahead(today, horizon, clinic.timezone)
            if set(before_weekly) != set(after_weekly)
            else [midday(day, clinic.timezone) for day in changed_days(before_dated, after_dated)]
        )
        await _record_months(state, session, change, clinic, moments)
        schedule = schedule_wire(
            counselor,
            after_weekly,
            after_dated,
            version=request.version + 1,
            languages=languages if languages is not None else counselor.languages,
        )
    return {"schedule": schedule, "conflicts": conflicts}


@callable_function("holidays-update", HolidaysUpdate, authorize_first=True)
async def holidays_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Replace the clinic's holidays from today on (clinic_admins)."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(HolidaysUpdate, data)
    async with changing(state) as change, state.db.write() as session:
        clinic = await _clinic(session, request.clinicId)
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
        conflicts = await _conflicts(session, clinic, None, today, now)
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
        await _record_months(state, session, change, clinic, moments)
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
        clinic = await _clinic(session, request.clinicId)
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
