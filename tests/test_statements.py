"""Live-document rows written and read by `Database.run_write` come back exactly as the ORM
stores and reads them: through sqlite3 itself on a SQLite file, through SQLAlchemy on
PostgreSQL (storage/statements.py)."""

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlmodel import select

from realtime.collections import Appointments, Rows, Users
from storage.db import Database, open_database
from storage.demo import load_demo_data
from storage.documents import row_of
from storage.migrate import upgrade
from storage.models import Appointment, User
from storage.statements import Statements
from tests.support.databases import (
    create_postgres_database,
    drop_connections,
    drop_postgres_database,
)

USERS = Users()
APPOINTMENTS = Appointments()
CREATED = datetime(2026, 11, 20, 9, 30, 15, 123456, tzinfo=UTC)


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    name = None
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/statements.db"
    else:
        name, url = await create_postgres_database()
    await asyncio.to_thread(upgrade, url)
    db = open_database(url)
    assert (db.sqlite_writer is not None) == (request.param == "sqlite")
    async with db.write() as session:
        await load_demo_data(session, today=date(2026, 11, 20))
        session.add(User(id="u1", email="u1@example.com", locale="ja", created=CREATED))
        await session.flush()
        session.add(
            Appointment(
                id="a1",
                user_id="u1",
                clinic_id="demo-clinic",
                service_id="prenatal-b2c",
                timezone="Asia/Tokyo",
                consent={"version": "v1", "at": "2026-11-20T09:30:15.123Z"},
                intake={"contactInfo": {"alias": "Hana", "phone": "03-1234-5678"}},
                created=CREATED,
            )
        )
    try:
        yield db
    finally:
        await db.close()
        if name is not None:
            await drop_postgres_database(name)


async def orm_row(db: Database, model: type[User] | type[Appointment], row_id: str) -> Any:
    async with db.read() as session:
        found = (await session.exec(select(model).where(model.id == row_id))).one()
        return row_of(found)


def read(rows: Rows, row_id: str) -> Any:
    def work(statements: Statements) -> Any:
        return rows.get_row(statements, {rows.param: row_id}, for_update=True)

    return work


async def test_rows_read_in_a_write_are_those_the_orm_reads(database: Database) -> None:
    for rows, model, row_id in ((USERS, User, "u1"), (APPOINTMENTS, Appointment, "a1")):
        assert await database.run_write(read(rows, row_id)) == await orm_row(
            database, model, row_id
        )
    assert await database.run_write(read(USERS, "nobody")) is None


async def test_values_written_are_read_back_by_the_orm_unchanged(database: Database) -> None:
    changed_at = datetime(2026, 11, 21, 23, 59, 59, 999999, tzinfo=UTC)

    def write(statements: Statements) -> None:
        row = APPOINTMENTS.get_row(statements, {"id": "a1"}, for_update=True)
        assert row is not None
        row.update(
            intake={"contactInfo": {"alias": "花子"}, "pregnancy": {"weeks": 12}},
            agreed_to_terms=True,
            consent=None,
            locale="en",
            updated=changed_at,
            version=row["version"] + 1,
        )
        columns = {"intake", "agreed_to_terms", "consent", "locale", "updated", "version"}
        APPOINTMENTS.save(statements, row, columns)

    await database.run_write(write)
    stored = await orm_row(database, Appointment, "a1")
    assert stored["intake"] == {"contactInfo": {"alias": "花子"}, "pregnancy": {"weeks": 12}}
    assert stored["agreed_to_terms"] is True
    assert stored["consent"] is None
    assert stored["locale"] == "en"
    assert stored["updated"] == changed_at and stored["updated"].tzinfo is not None
    assert stored["version"] == 2
    assert stored["created"] == CREATED
    assert await database.run_write(read(APPOINTMENTS, "a1")) == stored


async def test_a_failed_write_stores_nothing_and_the_next_one_works(database: Database) -> None:
    before = await orm_row(database, User, "u1")

    def failing(statements: Statements) -> None:
        USERS.save(statements, {**before, "locale": "en", "version": 9}, {"locale", "version"})
        raise ValueError("refused after the UPDATE")

    with pytest.raises(ValueError, match="refused after the UPDATE"):
        await database.run_write(failing)
    assert await orm_row(database, User, "u1") == before

    def succeeding(statements: Statements) -> None:
        USERS.save(statements, {**before, "user_agent": "tests"}, {"user_agent"})

    await database.run_write(succeeding)
    assert (await orm_row(database, User, "u1"))["user_agent"] == "tests"


def read_only(rows: Rows, row_id: str) -> Any:
    def work(statements: Statements) -> Any:
        return rows.get_row(statements, {rows.param: row_id}, for_update=False)

    return work


async def test_point_reads_are_rows_as_the_orm_reads_them(database: Database) -> None:
    """`run_read` (a socket's connect and subscribe): sqlite3 on the event loop on a SQLite
    file, asyncpg itself on PostgreSQL (storage/asyncpg_reader.py); JSON with non-ASCII text,
    aware datetimes, booleans and NULLs come back as the ORM gives them."""
    await database.run_write(
        lambda statements: APPOINTMENTS.save(
            statements,
            {
                **(APPOINTMENTS.get_row(statements, {"id": "a1"}, for_update=True) or {}),
                "intake": {"contactInfo": {"alias": "花子"}, "pregnancy": {"weeks": 12}},
                "agreed_to_terms": True,
                "consent": None,
            },
            {"intake", "agreed_to_terms", "consent"},
        )
    )
    for rows, model, row_id in ((USERS, User, "u1"), (APPOINTMENTS, Appointment, "a1")):
        assert await database.run_read(read_only(rows, row_id)) == await orm_row(
            database, model, row_id
        )
    assert await database.run_read(read_only(USERS, "nobody")) is None


async def test_a_point_read_after_the_database_dropped_its_connections_recovers(
    tmp_path: Path,
) -> None:
    """A read on a connection PostgreSQL has just ended fails; the connection is not handed
    out again, so the next read, at once, works (without waiting for the pool's ping of an
    idle connection, storage/db.py PING_AFTER_IDLE_SECONDS)."""
    name, url = await create_postgres_database()
    await asyncio.to_thread(upgrade, url)
    db = open_database(url, pool_size=1, max_overflow=0)
    try:
        async with db.write() as session:
            session.add(User(id="u1", email="u1@example.com", locale="ja", created=CREATED))
        assert (await db.run_read(read_only(USERS, "u1")))["email"] == "u1@example.com"
        await drop_connections(name)
        with pytest.raises(Exception) as failed:  # asyncpg's own, whichever the timing gives
            await db.run_read(read_only(USERS, "u1"))
        assert "connection" in str(failed.value).lower()
        assert (await db.run_read(read_only(USERS, "u1")))["email"] == "u1@example.com"
    finally:
        await db.close()
        await drop_postgres_database(name)
