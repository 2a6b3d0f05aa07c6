"""Queries on clinics, services and counselors (read-mostly reference data)."""

from sqlmodel import select
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
