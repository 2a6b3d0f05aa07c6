"""Which clinic and service a booking is for, from what the person came in with.

An entry may name a clinic (`/c/{clinicId}`), a service or an entry alias
(`/prenatal`, `/pgt`, `/cancer`), both, or neither (`/`). What is missing comes from the
settings' DEFAULT_CLINIC_ID and, for the service, that clinic's first entry alias
(`prenatal`), so every entry of the product leads to a bookable service.
"""

from dataclasses import dataclass

from realtime.contract import SERVICE_ALIASES
from realtime.errors import FunctionError, invalid_field
from storage.db import AsyncSession
from storage.models import Clinic, Service
from storage.repo_catalog import clinic_offers, get_clinic

DEFAULT_SERVICE_ALIAS = SERVICE_ALIASES[0]
# A service its clinic made inactive (`service-update`): no new appointment nor hold; the
# appointments made stay as they are.
NOT_OFFERED_MESSAGE = "The clinic no longer offers this service."


def require_active(service: Service) -> None:
    if not service.active:
        raise FunctionError("NOT_FOUND", NOT_OFFERED_MESSAGE, {"reason": "inactive"})


@dataclass(frozen=True)
class Entry:
    clinic: Clinic
    service_id: str


async def resolve_entry(
    session: AsyncSession,
    *,
    clinic_id: str | None,
    service_id: str | None,
    default_clinic_id: str | None,
) -> Entry:
    chosen = clinic_id or default_clinic_id
    if chosen is None:
        raise invalid_field("clinicId", "Choose a clinic and a service first.")
    clinic = await get_clinic(session, clinic_id=chosen)
    if clinic is None:
        raise FunctionError("NOT_FOUND", "No such clinic.")
    wanted = service_id or DEFAULT_SERVICE_ALIAS
    resolved = clinic.service_aliases.get(wanted, wanted)
    if not await clinic_offers(session, clinic_id=clinic.id, service_id=resolved):
        raise FunctionError("NOT_FOUND", "The clinic does not offer this service.")
    return Entry(clinic=clinic, service_id=resolved)
