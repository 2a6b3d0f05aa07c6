"""Queries on stored files (clinic documents)."""

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Clinic, StoredFile


async def get_file(session: AsyncSession, *, path: str) -> StoredFile | None:
    return await session.get(StoredFile, path)


async def store_file(session: AsyncSession, *, row: StoredFile, new: bool) -> None:
    """Write a file's row, inserted when `new` (flushed: written before the caller goes on)."""
    if new:
        session.add(row)
    await session.flush()


async def lock_clinic_files(session: AsyncSession, *, clinic_id: str) -> None:
    """Hold the clinic's row until the transaction ends: one document change of a clinic at
    a time, so that two uploads never take the same generation (and its place on disk).
    SQLite has one writer anyway."""
    await session.exec(select(Clinic.id).where(Clinic.id == clinic_id).with_for_update())


async def clinic_files(session: AsyncSession, *, clinic_id: str) -> list[StoredFile]:
    """Every stored file of a clinic, retired ones included, by path."""
    rows = await session.exec(
        select(StoredFile)
        .where(col(StoredFile.full_path).startswith(f"{clinic_id}/", autoescape=True))
        .order_by(col(StoredFile.full_path))
    )
    return list(rows)
