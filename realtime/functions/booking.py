"""vacancies-read, appointment-hold, appointment-updateStatus, appointment-cancel,
sendEmail-counselor (docs/protocol.md, "Booking"): their inputs and replies. What they do is
in realtime/booking/ (holding.py, submit.py, cancel.py; concurrency rules: holds.py)."""

from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Literal
from zoneinfo import available_timezones

from pydantic import ConfigDict, Field, StringConstraints

from realtime.booking.cancel import cancel, cancel_by_clinic
from realtime.booking.holding import hold_time, pregnancy_days
from realtime.booking.notify import resend_counselor_mail
from realtime.booking.sessions import autocommit
from realtime.booking.status import STAFF_OUTCOMES
from realtime.booking.submit import set_outcome, submit
from realtime.booking.vacancies import (
    calendar,
    month_versions,
    months_between,
    vacancies_answer,
)
from realtime.days import ISO_DAY, OUT_OF_RANGE, in_range, parse_day
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, invalid_field, no_access
from realtime.functions.inputs import Id, Input
from realtime.identity import Identity
from realtime.paths import catalog_path
from realtime.rules import require_identity
from realtime.text import MultiLine
from storage.repo_appointments import open_appointment
from storage.types import iso, utcnow

MAX_RANGE_DAYS = 62
Day = Annotated[str, StringConstraints(pattern=ISO_DAY.pattern)]


def _moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise FunctionError(
            "INVALID_ARGUMENT",
            "start must be ISO-8601 with an offset.",
            {"fields": {"start": "ISO-8601 with an offset"}},
        )
    if not in_range(moment.date()):  # checked before any arithmetic can overflow
        raise FunctionError("INVALID_ARGUMENT", OUT_OF_RANGE, {"fields": {"start": OUT_OF_RANGE}})
    return moment.astimezone(UTC)


# vacancies-read -------------------------------------------------------------------------


class VacanciesRead(Input):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    clinicId: Id
    serviceId: Id
    from_: Day = Field(alias="from")
    to: Day


@callable_function("vacancies-read", VacanciesRead)
async def vacancies_read(context: CallContext, request: VacanciesRead) -> dict[str, Any]:
    who = require_identity(context.identity)
    first, last = parse_day(request.from_, "from"), parse_day(request.to, "to")
    if last < first or (last - first).days > MAX_RANGE_DAYS:
        raise invalid_field("to", f"Ask for at most {MAX_RANGE_DAYS} days, from before to.")
    state = context.state
    catalogs = state.caches.catalogs
    async with autocommit(state.db) as session:  # reads that need no snapshot
        # The alias from what is kept; the catalog's version read with the months' (one
        # query), so an edit of the services made on any node is seen at once.
        kept = catalogs.held(request.clinicId) or await catalogs.get(session, request.clinicId)
        if kept is None:
            raise FunctionError("NOT_FOUND", "No such clinic.")
        wanted = kept[0].service_aliases.get(request.serviceId, request.serviceId)
        edited = catalog_path(request.clinicId)
        versions, other = await month_versions(
            session,
            clinic_id=request.clinicId,
            service_id=wanted,
            months=months_between(first, last),
            also=(edited,),
        )
        found = await catalogs.get(session, request.clinicId, version=other[edited])
        if found is None:
            raise FunctionError("NOT_FOUND", "No such clinic.")
        clinic, services = found
        service = next((s for s in services if s.id == wanted), None)
        if service is None:
            raise FunctionError("NOT_FOUND", "The clinic does not offer this service.")
        if not service.active:
            return vacancies_answer(clinic.timezone, [])  # no longer offered: nothing free
        mine = None  # the person's appointment matters only to a pregnancy window
        if service.gestation_min_weeks is not None and service.gestation_max_weeks is not None:
            own = await open_appointment(session, user_id=who.uid)
            mine = own if own and own.service_id == service.id else None
        now = utcnow()
        months = await calendar(
            session,
            cache=state.caches.months,
            clinic=clinic,
            service=service,
            first_day=first,
            last_day=last,
            now=now,
            versions=versions,
        )
    slots = months.wire(
        now=now, first_day=first, last_day=last, window=pregnancy_days(service, mine)
    )
    return vacancies_answer(clinic.timezone, slots)


# appointment-hold -----------------------------------------------------------------------


class AppointmentHold(Input):
    appointmentId: Id
    start: Annotated[str, StringConstraints(max_length=40)]
    counselorId: Id  # or "any": the server picks a free counselor
    # Optional: the person's own IANA zone (their browser's), for the times in their mails.
    personTimezone: Annotated[str, StringConstraints(max_length=64)] | None = None


PERSON_TIMEZONE_MESSAGE = "personTimezone must be an IANA time zone such as Europe/London."


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def _person_zone(value: str | None) -> str | None:
    """The person's zone as sent, if it is a zone of the tz database; anything else is
    refused (it is written into their mails)."""
    if value is None:
        return None
    if value not in _known_zones():
        raise invalid_field("personTimezone", PERSON_TIMEZONE_MESSAGE)
    return value


async def _limit_holds(context: CallContext, who: Identity) -> None:
    """Holds per user and per client IP in the rate-limit window (RESOURCE_EXHAUSTED): every
    call counts, refused or not, as every call costs the database work."""
    settings = context.state.settings
    await context.limit_per_ip(
        "hold-ip", settings.holds_per_ip, also={f"hold-user:{who.uid}": settings.holds_per_user}
    )


@callable_function("appointment-hold", AppointmentHold)
async def appointment_hold(context: CallContext, request: AppointmentHold) -> dict[str, Any]:
    who = require_identity(context.identity)
    await _limit_holds(context, who)
    held = await hold_time(
        context.state,
        who,
        appointment_id=request.appointmentId,
        start=_moment(request.start),
        counselor=request.counselorId,
        person_zone=_person_zone(request.personTimezone),
    )
    return {
        "holdExpiresAt": iso(held.row.hold_expires_at),
        "holdEndsBy": iso(held.ends_by),
        "serverTime": iso(held.now),
    }


# appointment-updateStatus -----------------------------------------------------------------


class UpdateStatus(Input):
    appointmentId: Id
    status: Literal["submitted", "completed", "no_show"]


@callable_function("appointment-updateStatus", UpdateStatus, authorize_first=True)
async def appointment_update_status(context: CallContext, data: Any) -> dict[str, Any]:
    """The person submits (`submitted`); staff record how it ended (`completed`,
    `no_show`), authorized on the raw appointment id before the input is validated."""
    who = require_identity(context.identity)
    if who.is_staff:
        row = await set_outcome(
            context.state,
            who,
            data.get("appointmentId") if isinstance(data, dict) else None,
            lambda: _staff_outcome(data),
            address=context.client_ip,
        )
        return {"status": row.status}
    request = validated(UpdateStatus, data)
    if request.status != "submitted":
        raise no_access()
    row = await submit(context.state, who, request.appointmentId)
    return {"status": row.status}


def _staff_outcome(data: Any) -> str:
    request = validated(UpdateStatus, data)
    if request.status not in STAFF_OUTCOMES:
        raise invalid_field("status", "Staff record completed or no_show.")
    return request.status


# appointment-cancel ------------------------------------------------------------------------


class AppointmentCancel(Input):
    appointmentId: Id
    reason: Annotated[MultiLine, StringConstraints(max_length=1000)]
    byClinic: bool = False  # staff: cancelled by the clinic


@callable_function("appointment-cancel", AppointmentCancel, authorize_first=True)
async def appointment_cancel(context: CallContext, data: Any) -> dict[str, Any]:
    """The person: cancel, free the slot for everyone, refund by the cancellation policy,
    sign them out everywhere, mail them. Staff (`byClinic`): authorized on the raw
    appointment id before the input is validated; cancel, free the slot, refund in full,
    mail the person, keep them signed in, audit."""
    if isinstance(data, dict) and data.get("byClinic") is True:
        refund = await cancel_by_clinic(
            context.state,
            context.identity,
            data.get("appointmentId"),
            lambda: validated(AppointmentCancel, data).reason,
            address=context.client_ip,
        )
        return {"status": "cancelled", "refund": refund}
    request = validated(AppointmentCancel, data)  # byClinic is false here
    who = require_identity(context.identity)
    refund = await cancel(context.state, who, request.appointmentId, request.reason)
    return {"status": "cancelled", "refund": refund}


# sendEmail-counselor -----------------------------------------------------------------------


class CounselorMail(Input):
    appointmentId: Id


@callable_function("sendEmail-counselor", CounselorMail, authorize_first=True)
async def send_counselor_mail(context: CallContext, data: Any) -> dict[str, Any]:
    """Staff: send the counselor's notification of a confirmed appointment again;
    authorized on the raw appointment id before the input is validated."""
    await resend_counselor_mail(
        context.state,
        context.identity,
        data.get("appointmentId") if isinstance(data, dict) else None,
        lambda: validated(CounselorMail, data),
        address=context.client_ip,
    )
    return {"sent": True}
