"""clinic-read, service-read and site-read: public reference data (the login screens and
their FAQ need it)."""

from email.utils import parseaddr
from typing import Any

from realtime.contract import SERVICE_ALIASES
from realtime.dispatch import CallContext, callable_function
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from storage.models import Clinic, Counselor, Service
from storage.repo_booking import counselors_of
from storage.repo_catalog import clinic_offers, clinic_service_ids, get_clinic, get_service


class SiteRead(Input):
    """No input: `data` is `null` or `{}`."""


class ClinicRead(Input):
    id: Id


class ServiceRead(Input):
    id: Id
    clinicId: Id | None = None  # resolves the entry aliases prenatal / pgt / cancer


def clinic_reply(
    clinic: Clinic, service_ids: list[str], counselors: list[Counselor]
) -> dict[str, Any]:
    return {
        "id": clinic.id,
        "name": clinic.name,
        "timezone": clinic.timezone,
        "contactEmail": clinic.contact_email,
        "serviceIds": service_ids,
        "serviceAliases": clinic.service_aliases,
        # What a person choosing a counselor sees; their e-mail addresses stay private.
        "counselors": [{"id": c.id, "name": c.name, "languages": c.languages} for c in counselors],
    }


def service_reply(service: Service) -> dict[str, Any]:
    price = (
        {"amount": service.price_amount, "currency": service.price_currency}
        if service.price_amount is not None
        else None
    )
    return {
        "id": service.id,
        "category": service.category,
        "name": service.name,
        "price": price,
        "sessionMinutes": service.session_minutes,
        "consentVersion": service.consent_version,
        "bufferMinutes": service.buffer_minutes,
        "minNoticeHours": service.min_notice_hours,
        # Worded by the screens (realtime/booking/policy.py has the arithmetic).
        "cancellationPolicy": {
            "freeCancelHours": service.free_cancel_hours,
            "lateRefundPercent": service.late_refund_percent,
        },
        "horizonDays": service.horizon_days,
        "gestationWeeks": (
            {"min": service.gestation_min_weeks, "max": service.gestation_max_weeks}
            if service.gestation_min_weeks is not None and service.gestation_max_weeks is not None
            else None
        ),
    }


@callable_function("clinic-read", ClinicRead)
async def clinic_read(context: CallContext, request: ClinicRead) -> dict[str, Any]:
    async with context.state.db.read() as session:
        clinic = await get_clinic(session, clinic_id=request.id)
        if clinic is None:
            raise FunctionError("NOT_FOUND", "No such clinic.")
        return clinic_reply(
            clinic,
            await clinic_service_ids(session, clinic_id=clinic.id),
            await counselors_of(session, clinic_id=clinic.id),
        )


@callable_function("service-read", ServiceRead)
async def service_read(context: CallContext, request: ServiceRead) -> dict[str, Any]:
    clinic_id = request.clinicId
    if clinic_id is None and request.id in SERVICE_ALIASES:
        # An entry alias without a clinic (`/pgt`): the default clinic's, as appointment-create.
        clinic_id = context.state.settings.default_clinic_id
    async with context.state.db.read() as session:
        service_id = request.id
        if clinic_id is not None:
            clinic = await get_clinic(session, clinic_id=clinic_id)
            if clinic is None:
                raise FunctionError("NOT_FOUND", "No such clinic.")
            service_id = clinic.service_aliases.get(service_id, service_id)
            if not await clinic_offers(session, clinic_id=clinic.id, service_id=service_id):
                raise FunctionError("NOT_FOUND", "The clinic does not offer this service.")
        service = await get_service(session, service_id=service_id)
        if service is None:
            raise FunctionError("NOT_FOUND", "No such service.")
        return service_reply(service)


def mail_sender_domain(mail_from: str) -> str:
    """The domain of the From address ("Name <no-reply@example.jp>" -> "example.jp")."""
    return parseaddr(mail_from)[1].rpartition("@")[2].lower()


@callable_function("site-read", SiteRead)
async def site_read(context: CallContext, request: SiteRead) -> dict[str, Any]:
    """What the FAQ tells people to allow in their carrier's mail settings: the domain our
    mails are sent from (MAIL_FROM), which is not always the site's own host."""
    return {"mailSenderDomain": mail_sender_domain(context.state.settings.mail_from)}
