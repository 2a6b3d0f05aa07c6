"""staff-appointment-read, staff-audit-read, the FHIR export of an intake and of a service's
questionnaire (docs/protocol.md, "Staff reading and acting").

Staff calls authorize before they validate (realtime/rules.py `require_staff`): registered with
`authorize_first`, they take the raw clinic or appointment id, authorize it, and only then
validate the whole input against their model.
"""

from datetime import date, datetime, time, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import ConfigDict, Field, StringConstraints

from realtime import audit
from realtime.booking.access import catalog_of, clinic_appointment, raw_id
from realtime.changes import changing
from realtime.collections import document_data
from realtime.days import parse_day
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import invalid_field, no_access
from realtime.functions.inputs import Id, Input
from realtime.identity import Identity
from realtime.intake.fhir import questionnaire_response
from realtime.intake.fhir_questionnaire import questionnaire
from realtime.rules import require_staff
from realtime.state import AppState
from storage.repo_audit import list_entries
from storage.repo_catalog import clinic_offers, get_clinic, get_service
from storage.repo_users import get_user

AUDIT_PAGE = 500  # entries per staff-audit-read, newest first


def raw(data: Any, field: str) -> object:
    """A field of a call's input before validation (None when absent or not an object)."""
    return data.get(field) if isinstance(data, dict) else None


def _text(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def contact_of(account_email: str, intake: dict[str, Any]) -> dict[str, Any]:
    """The person's contact details: the account's address and the intake's contact info."""
    info = intake.get("contactInfo") if isinstance(intake, dict) else None
    info = info if isinstance(info, dict) else {}
    last, first = _text(info.get("lastName")), _text(info.get("firstName"))
    return {
        "email": account_email,
        "intakeEmail": _text(info.get("email")),
        "name": " ".join(part for part in (last, first) if part) or None,
        "lastName": last,
        "firstName": first,
        "phone": _text(info.get("phone")),
    }


# staff-appointment-read ------------------------------------------------------------------


class AppointmentRead(Input):
    appointmentId: Id


@callable_function("staff-appointment-read", AppointmentRead, authorize_first=True)
async def staff_appointment_read(context: CallContext, data: Any) -> dict[str, Any]:
    """The appointment document (with its intake) and the person's contact details, for
    staff of its clinic; the read and its audit entry commit together."""
    state, who = context.state, context.identity
    async with changing(state) as change, state.db.write() as session:
        row = await clinic_appointment(session, who, raw(data, "appointmentId"), for_update=False)
        assert who is not None
        validated(AppointmentRead, data)
        user = await get_user(session, user_id=row.user_id)
        assert user is not None
        answer = {
            "appointment": document_data(row),
            "version": row.version,
            "contact": contact_of(user.email, row.intake),
        }
        await audit.record_on(
            session,
            who,
            row,
            audit.INTAKE_READ,
            change=change,
            address=context.client_ip,
        )
    return answer


# staff-audit-read ------------------------------------------------------------------------

Day = Annotated[str, StringConstraints(max_length=10)]


class AuditRead(Input):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    clinicId: Id
    appointmentId: Id | None = None
    from_: Day | None = Field(default=None, alias="from")
    to: Day | None = None


def _day(value: str | None, field: str) -> date | None:
    """A `YYYY-MM-DD` day within the server's range (realtime/days.py), or None."""
    return None if value is None else parse_day(value, field)


def _start_of(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), tzinfo=zone)


@callable_function("staff-audit-read", AuditRead, authorize_first=True)
async def staff_audit_read(context: CallContext, data: Any) -> dict[str, Any]:
    """A clinic's audit entries, newest first, at most AUDIT_PAGE; `from` and `to` are days
    in the clinic's zone, both included. Clinic administrators only; the read is audited."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(AuditRead, data)
    first, last = _day(request.from_, "from"), _day(request.to, "to")
    if first is not None and last is not None and last < first:
        raise invalid_field("to", "to must not be before from.")
    async with changing(state) as change, state.db.write() as session:
        clinic = await get_clinic(session, clinic_id=request.clinicId)
        zone = ZoneInfo(clinic.timezone if clinic is not None else "UTC")
        entries = await list_entries(
            session,
            clinic_id=request.clinicId,
            appointment_id=request.appointmentId,
            since=_start_of(first, zone) if first is not None else None,
            until=_start_of(last + timedelta(days=1), zone) if last is not None else None,
            limit=AUDIT_PAGE + 1,
        )
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=request.clinicId,
            action=audit.AUDIT_READ,
            detail={
                "appointmentId": request.appointmentId,
                "from": request.from_,
                "to": request.to,
            },
            address=context.client_ip,
        )
    return {
        "entries": [audit.entry_wire(entry) for entry in entries[:AUDIT_PAGE]],
        "more": len(entries) > AUDIT_PAGE,
    }


# GET /fhir/QuestionnaireResponse/{appointmentId} -----------------------------------------


async def export_intake(
    state: AppState,
    who: Identity | None,
    appointment_id: object,
    *,
    locale: str,
    address: str | None,
) -> dict[str, Any]:
    """The appointment's answers as a FHIR QuestionnaireResponse (realtime/intake/fhir.py),
    for staff of its clinic; the export and its audit entry (`intake.export`) commit
    together, and a resource that does not validate is never returned nor audited."""
    async with changing(state) as change, state.db.write() as session:
        row = await clinic_appointment(session, who, appointment_id, for_update=False)
        assert who is not None
        _clinic, service = await catalog_of(session, row)
        resource = questionnaire_response(
            document_data(row), category=service.category, locale=locale
        )
        await audit.record_on(
            session,
            who,
            row,
            audit.INTAKE_EXPORT,
            change=change,
            detail={"format": "fhir-r4", "resource": "QuestionnaireResponse"},
            address=address,
        )
    return resource


# GET /fhir/Questionnaire/{serviceId} -----------------------------------------------------


async def export_questionnaire(
    state: AppState, who: Identity | None, service_id: object, *, locale: str
) -> dict[str, Any]:
    """A service's questionnaire as a FHIR Questionnaire (realtime/intake/fhir_questionnaire.py),
    for staff of a clinic that offers it; a service of another clinic, an unknown one and a
    value that is no id are refused alike (403). It holds no one's answers: not audited."""
    staff = require_staff(who)
    known = raw_id(service_id)
    async with state.db.read() as session:
        service = None
        if (
            known is not None
            and staff.clinic_id is not None
            and await clinic_offers(session, clinic_id=staff.clinic_id, service_id=known)
        ):
            service = await get_service(session, service_id=known)
    if service is None:
        raise no_access()
    return questionnaire(service.id, service.name, category=service.category, locale=locale)
