"""services-read and service-update: a clinic's services as its staff see them and its
administrators edit them (docs/protocol.md, "Services").

Staff calls: authorized before the input is validated (realtime/rules.py `require_staff`).
The rules of the settings are realtime/booking/service_rules.py. An edit is a compare-and-set
on `Service.version` under the row's lock: an edit made against an older version is refused
(ABORTED, with the current service) so two administrators never lose an update silently.

A service row is shared through `clinic_services`; one that another clinic offers too is
edited by neither clinic's administrators (PERMISSION_DENIED, saying why): a change would
reach the other clinic's bookings without its say.

What follows an edit, in its transaction: the clinic's catalog version rises (every node
then reads the services again: realtime/booking/catalog.py), and when the free times change
(session, buffer, notice, horizon, pregnancy window, active) the service's months from today
to the furthest horizon are recorded as changed, so they are versioned, computed again and
pushed to whoever follows them (realtime/changes.py). Audited as `service.update`.
"""

from collections.abc import KeysView
from datetime import datetime, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import StringConstraints

from realtime import audit
from realtime.booking import service_rules
from realtime.booking.access import raw_id
from realtime.booking.vacancies import months_between
from realtime.changes import Change, Claims, changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError, no_access, stale_edit
from realtime.functions.catalog import service_reply
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.paths import catalog_path
from realtime.rules import require_staff
from realtime.text import OneLine
from storage.models import Clinic, Service
from storage.repo_booking import bump_version
from storage.repo_catalog import (
    clinic_offers,
    clinic_services,
    clinics_offering,
    get_clinic,
    service_for_update,
)
from storage.types import utcnow

SHARED_MESSAGE = (
    "This service is also offered by another clinic, so it cannot be changed here. "
    "Ask the operators of the booking system."
)
STALE_MESSAGE = "Someone else changed this service meanwhile. Here is the current version."


def service_wire(service: Service) -> dict[str, Any]:
    """A service as services-read and service-update give it: service-read's form, with
    whether it is offered and the version an edit is made against."""
    return {**service_reply(service), "active": service.active, "version": service.version}


class ServicesRead(Input):
    clinicId: Id


@callable_function("services-read", ServicesRead, authorize_first=True)
async def services_read(context: CallContext, data: Any) -> dict[str, Any]:
    """Every service the clinic offers, inactive ones included (any staff of the clinic)."""
    require_staff(context.identity, raw(data, "clinicId"))
    request = validated(ServicesRead, data)
    async with context.state.db.read() as session:
        services = await clinic_services(session, clinic_id=request.clinicId)
    return {"services": [service_wire(service) for service in services]}


Name = Annotated[OneLine, StringConstraints(max_length=400)]  # the rules say 200, trimmed
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{3}$")]


class Names(Input):
    ja: Name
    en: Name


class Price(Input):
    amount: int
    currency: Currency


class Gestation(Input):
    minWeeks: int
    maxWeeks: int


class Cancellation(Input):
    freeUntilHours: int
    lateRefundPercent: int


class ServiceUpdate(Input):
    clinicId: Id
    serviceId: Id
    version: int
    name: Names | None = None
    price: Price | None = None  # null: free
    sessionMinutes: int | None = None
    bufferMinutes: int | None = None
    minNoticeHours: int | None = None
    horizonDays: int | None = None
    gestation: Gestation | None = None  # null: no pregnancy window
    cancellation: Cancellation | None = None
    active: bool | None = None


NULLABLE = frozenset({"price", "gestation"})
KEYS = frozenset({"clinicId", "serviceId", "version"})


def _given(request: ServiceUpdate) -> dict[str, Any]:
    """The settings the edit names (null only where null means something)."""
    given = request.model_dump(include=set(request.model_fields_set - KEYS))
    nulls = {field: f"{field} must not be null." for field, value in given.items() if value is None}
    for field in NULLABLE:
        nulls.pop(field, None)
    if nulls:
        raise FunctionError("INVALID_ARGUMENT", next(iter(nulls.values())), {"fields": nulls})
    return given


def _months_to_horizon(clinic: Clinic, horizon_days: int) -> list[datetime]:
    """One moment (the 15th, noon) in each month from today (the clinic's day) to the
    horizon: what `Claims.moments` needs to name the months."""
    zone = ZoneInfo(clinic.timezone)
    today = utcnow().astimezone(zone).date()
    months = months_between(today, today + timedelta(days=horizon_days))
    return [datetime(int(m[:4]), int(m[5:]), 15, 12, tzinfo=zone) for m in months]


@callable_function("service-update", ServiceUpdate, authorize_first=True)
async def service_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Change some settings of one of the clinic's services (clinic administrators)."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    known = raw_id(raw(data, "serviceId"))
    async with changing(state) as change, state.db.write() as session:
        clinic = await get_clinic(session, clinic_id=str(who.clinic_id))
        if (
            clinic is None
            or known is None
            or not await clinic_offers(session, clinic_id=clinic.id, service_id=known)
        ):
            raise no_access()  # another clinic's service and no service are refused alike
        request = validated(ServiceUpdate, data)
        given = _given(request)
        service = await service_for_update(session, service_id=known)
        assert service is not None  # offered: a foreign key
        if await clinics_offering(session, service_id=service.id) > 1:
            raise FunctionError("PERMISSION_DENIED", SHARED_MESSAGE, {"reason": "shared"})
        if request.version != service.version:
            raise stale_edit(STALE_MESSAGE, service.version, service_wire(service))
        before = service_rules.settings_of(service)
        after = service_rules.edited(before, given)
        refused = service_rules.refusals(after)
        if refused:
            raise FunctionError(
                "INVALID_ARGUMENT", next(iter(refused.values())), {"fields": refused}
            )
        changed = service_rules.changes(before, after)
        if changed:
            _write(change, clinic, service, before, after, changed.keys())
            await bump_version(session, path=catalog_path(clinic.id))
            await audit.record(
                session,
                who,
                change=change,
                clinic_id=clinic.id,
                action=audit.SERVICE_UPDATE,
                detail={"serviceId": service.id, "changes": changed},
                address=context.client_ip,
            )
        answer = service_wire(service)
    return answer


def _write(
    change: Change,
    clinic: Clinic,
    service: Service,
    before: service_rules.Settings,
    after: service_rules.Settings,
    changed: KeysView[str],
) -> None:
    """The new settings into the row, its version raised; the months whose free times they
    change recorded for the push (from today to the further of the two horizons)."""
    service_rules.apply(service, after)
    service.version += 1
    if changed & service_rules.SLOT_FIELDS:
        horizon = max(before["horizonDays"], after["horizonDays"])
        change.claims_changed(
            Claims(
                clinic_id=clinic.id,
                moments=_months_to_horizon(clinic, horizon),
                service_id=service.id,
                change=None,
            )
        )
