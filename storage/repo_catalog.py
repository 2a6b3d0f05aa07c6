"""Queries on clinics, services and counselors (read-mostly reference data)."""

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Clinic, ClinicService, Service


async def get_clinic(session: AsyncSession, *, clinic_id: str) -> Clinic | None:
    return await session.get(Clinic, clinic_id)


async def clinic_service_ids(session: AsyncSession, *, clinic_id: str) -> list[str]:
    rows = await session.exec(
        select(ClinicService.service_id)
        .where(ClinicService.clinic_id == clinic_id)
        .order_by(ClinicService.service_id)
    )
    return list(rows.all())


async def get_service(session: AsyncSession, *, service_id: str) -> Service | None:
    return await session.get(Service, service_id)


async def clinic_offers(session: AsyncSession, *, clinic_id: str, service_id: str) -> bool:
    return await session.get(ClinicService, (clinic_id, service_id)) is not None


async def clinic_services(session: AsyncSession, *, clinic_id: str) -> list[Service]:
    """The services a clinic offers, active or not, by id."""
    rows = await session.exec(
        select(Service)
        .join(ClinicService, col(ClinicService.service_id) == Service.id)
        .where(ClinicService.clinic_id == clinic_id)
        .order_by(col(Service.id))
    )
    return list(rows.all())


async def service_for_update(session: AsyncSession, *, service_id: str) -> Service | None:
    """A service, its row locked until the transaction ends (an edit's compare-and-set)."""
    rows = await session.exec(select(Service).where(Service.id == service_id).with_for_update())
    return rows.first()


async def clinics_offering(session: AsyncSession, *, service_id: str) -> int:
    """How many clinics offer the service (a row shared by several is edited by none)."""
    rows = await session.exec(
        select(func.count())
        .select_from(ClinicService)
        .where(ClinicService.service_id == service_id)
    )
    return int(rows.one())
