"""The alembic migrations build exactly the tables of storage/models.py, on both databases."""

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

import storage.models  # noqa: F401  (registers the tables)
from storage.migrate import upgrade
from tests.support.databases import create_postgres_database, drop_postgres_database


def _compare(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), SQLModel.metadata))


async def schema_differences(url: str) -> list[object]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_compare)
    finally:
        await engine.dispose()


async def test_sqlite_schema_matches_the_models(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/m.db"
    await asyncio.to_thread(upgrade, url)
    await asyncio.to_thread(upgrade, url)  # a second run changes nothing
    assert await schema_differences(url) == []


async def test_postgres_schema_matches_the_models() -> None:
    name, url = await create_postgres_database()
    try:
        await asyncio.to_thread(upgrade, url)
        assert await schema_differences(url) == []
    finally:
        await drop_postgres_database(name)
