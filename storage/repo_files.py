"""Queries on stored files (clinic documents)."""

from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import StoredFile


async def get_file(session: AsyncSession, *, path: str) -> StoredFile | None:
    return await session.get(StoredFile, path)


async def store_file(session: AsyncSession, *, row: StoredFile, new: bool) -> None:
    """Write a file's row, inserted when `new` (flushed: written before the caller goes on)."""
    if new:
        session.add(row)
    await session.flush()
