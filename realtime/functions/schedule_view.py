"""A counselor's schedule and the clinic's closed days as the schedule calls give them
(docs/protocol.md, "Clinic administration", "Schedules"): read from the database and put in
their wire form (`<schedule>`, the holidays, a `<conflict>`).
"""

from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from realtime.booking.schedule import DatedChange, WeeklyHours
from realtime.functions.staff import contact_of
from storage.db import AsyncSession
from storage.models import Clinic, Counselor, CounselorException, CounselorHours
from storage.repo_schedule import Booked, exceptions_from, holidays_between, weekly_of
from storage.types import iso


def today_in(clinic: Clinic, now: datetime) -> date:
    return now.astimezone(ZoneInfo(clinic.timezone)).date()


def hhmm(at: time | None) -> str | None:
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
            {"weekday": w.weekday, "start": hhmm(w.start), "end": hhmm(w.end)} for w in weekly
        ],
        "exceptions": [
            {"date": c.day.isoformat(), "kind": c.kind}
            | ({"start": hhmm(c.start), "end": hhmm(c.end)} if c.kind == "extra" else {})
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
