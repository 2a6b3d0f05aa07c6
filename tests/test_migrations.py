"""The alembic migrations build exactly the tables of storage/models.py, on both databases."""

import asyncio
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

import storage.models  # noqa: F401  (registers the tables)
from storage.migrate import alembic_config, upgrade
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


async def staff_roles_after_0008(url: str) -> list[tuple[str, str, str | None]]:
    """A staff member of the one role before 0008 (`clinic_staff`), then 0008 applied."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0007")
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO clinics (id, name, timezone, contact_email, service_aliases)"
                    " VALUES ('c1', '{}', 'Asia/Tokyo', 'c@example.com', '{}')"
                )
            )
            await connection.execute(
                text(
                    "INSERT INTO staff_members (email, clinic_id, role)"
                    " VALUES ('s@example.com', 'c1', 'clinic_staff')"
                )
            )
        await asyncio.to_thread(upgrade, url)
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT email, role, counselor_id FROM staff_members")
            )
            return [(r[0], r[1], r[2]) for r in rows]
    finally:
        await engine.dispose()


async def test_0008_makes_clinic_staff_clinic_admins_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/roles.db"
    assert await staff_roles_after_0008(url) == [("s@example.com", "clinic_admin", None)]


async def test_0008_makes_clinic_staff_clinic_admins_on_postgres() -> None:
    name, url = await create_postgres_database()
    try:
        assert await staff_roles_after_0008(url) == [("s@example.com", "clinic_admin", None)]
    finally:
        await drop_postgres_database(name)
