"""Queries on stored files (clinic documents)."""

from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import StoredFile


async def get_file(session: AsyncSession, *, path: str) -> StoredFile | None:
    return await session.get(StoredFile, path)
