"""schedule-read and schedule-update (docs/protocol.md, "Clinic administration", "Schedules");
the clinic's closed days are realtime/functions/holidays.py.

Who may: a counselor their own schedule, a clinic_admin any counselor's of their clinic
(`require_staff`, then `staff_counselor`: authorized before the input is validated).

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

from pydantic import Field, StringConstraints

from realtime import audit
from realtime.booking.access import staff_counselor
from realtime.booking.publish import version_in
from realtime.booking.schedule import DatedChange, Hours, WeeklyHours, local_time
from realtime.booking.schedule_conflicts import stranded
from realtime.booking.schedule_rules import (
    MAX_EXCEPTIONS,
    MAX_WINDOWS_A_DAY,
    Problems,
    changed_days,
    dated_changes,
    session_floor,
    weekly_hours,
)
from realtime.booking.vacancies import months_between
from realtime.changes import Change, Claims, changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, no_access, stale_edit
from realtime.functions.inputs import Id, Input
from realtime.functions.schedule_view import (
    conflict_wire,
    holidays_wire,
    schedule_wire,
    schedules,
    schedules_wire,
    today_in,
)
from realtime.functions.staff import raw
from realtime.rules import require_staff
from realtime.state import AppState
from realtime.text import OneLine
from storage.db import AsyncSession
from storage.models import Clinic, CounselorException, CounselorHours
from storage.repo_booking import catalog_of
from storage.repo_catalog import get_clinic
from storage.repo_schedule import (
    booked_from,
    claim_schedule,
    clinic_counselors,
    holidays_between,
    replace_exceptions,
    replace_weekly,
)
from storage.types import utcnow

# Text fields are OneLine: a control character is refused as everywhere (realtime/text.py).
HHMM = Annotated[OneLine, StringConstraints(max_length=5)]
Day = Annotated[OneLine, StringConstraints(max_length=10)]
# Versions are compared in SQL with INTEGER columns: a larger number is refused here.
Version = Annotated[int, Field(ge=1, le=2**31 - 1)]
STALE_MESSAGE = "Someone else changed this in the meantime: reload and edit again."


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


# Reading ---------------------------------------------------------------------------------


async def clinic_of(session: AsyncSession, clinic_id: str) -> Clinic:
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
        clinic = await clinic_of(session, request.clinicId)
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
    return stale_edit(STALE_MESSAGE, version, current)


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


async def conflicts_of(
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


async def record_months(
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
        clinic = await clinic_of(session, counselor.clinic_id)
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
        conflicts = await conflicts_of(session, clinic, counselor.id, today, now)
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
        await record_months(state, session, change, clinic, moments)
        schedule = schedule_wire(
            counselor,
            after_weekly,
            after_dated,
            version=request.version + 1,
            languages=languages if languages is not None else counselor.languages,
        )
    return {"schedule": schedule, "conflicts": conflicts}
