"""Live-document rows written and read by `Database.run_write` come back exactly as the ORM
stores and reads them: through sqlite3 itself on a SQLite file, through asyncpg itself on
PostgreSQL (storage/statements.py, storage/asyncpg_direct.py)."""

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio
import sqlalchemy.exc
from sqlmodel import select

import storage.db
from realtime.collections import Appointments, Rows, Users
from realtime.errors import unexpected_error
from storage.asyncpg_direct import broken
from storage.db import Database, open_database
from storage.demo import load_demo_data
from storage.documents import row_of
from storage.errors import DATABASE_ERRORS
from storage.migrate import upgrade
from storage.models import Appointment, User
from storage.statements import Statements
from tests.support.databases import (
    create_postgres_database,
    drop_connections,
    drop_postgres_database,
    set_connections_allowed,
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
    file, asyncpg itself on PostgreSQL (storage/asyncpg_direct.py); JSON with non-ASCII text,
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
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A read on a connection PostgreSQL has just ended fails; the connection is not handed
    out again, so the next read works. The pool's ping of an idle connection (storage/db.py
    PING_AFTER_IDLE_SECONDS) is put off here, as if the reads came in quick succession."""
    monkeypatch.setattr(storage.db, "PING_AFTER_IDLE_SECONDS", 3600.0)
    name, url = await create_postgres_database()
    await asyncio.to_thread(upgrade, url)
    db = open_database(url, pool_size=1, max_overflow=0)
    try:
        async with db.write() as session:
            session.add(User(id="u1", email="u1@example.com", locale="ja", created=CREATED))
        assert (await db.run_read(read_only(USERS, "u1")))["email"] == "u1@example.com"
        await drop_connections(name)
        with pytest.raises(DATABASE_ERRORS) as failed:  # asyncpg's, whichever timing gives
            await db.run_read(read_only(USERS, "u1"))
        assert unexpected_error(failed.value).status == "UNAVAILABLE"  # a retry, for callers
        assert (await db.run_read(read_only(USERS, "u1")))["email"] == "u1@example.com"
    finally:
        await db.close()
        await drop_postgres_database(name)


async def test_a_point_read_while_the_database_refuses_connections_fails_as_sqlalchemy_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool cannot open a connection: the read raises SQLAlchemy's error around the
    driver's, as a query through SQLAlchemy would (callers answer it UNAVAILABLE by the
    SQLSTATE inside; tests/test_database_outage.py), and reads work again once allowed."""
    monkeypatch.setattr(storage.db, "PING_AFTER_IDLE_SECONDS", 0.0)  # every checkout pings
    name, url = await create_postgres_database()
    await asyncio.to_thread(upgrade, url)
    db = open_database(url, pool_size=1, max_overflow=0)
    try:
        assert await db.run_read(read_only(USERS, "nobody")) is None
        await set_connections_allowed(name, False)  # and ends the open ones
        with pytest.raises(sqlalchemy.exc.DBAPIError) as refused:
            await db.run_read(read_only(USERS, "nobody"))
        driver_error = refused.value.orig
        assert driver_error is not None
        assert getattr(driver_error.__cause__, "sqlstate", None) == "55000"
        await set_connections_allowed(name, True)
        assert await db.run_read(read_only(USERS, "nobody")) is None
    finally:
        await set_connections_allowed(name, True)
        await db.close()
        await drop_postgres_database(name)


class OpenDriver:
    """An asyncpg connection as `broken` sees it: open."""

    def is_closed(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("error", "gone"),
    [
        (asyncpg.exceptions.AdminShutdownError("terminating connection"), True),
        (asyncpg.exceptions.ConnectionDoesNotExistError("closed in the middle"), True),
        (asyncpg.exceptions.InternalClientError("another operation is in progress"), True),
        (ConnectionResetError(), True),
        (asyncio.CancelledError(), True),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), False),
        (asyncpg.exceptions.SerializationError("could not serialize"), False),
        (ValueError("a refusal of our own"), False),
    ],
)
def test_a_connection_is_given_up_only_when_the_error_broke_it(
    error: BaseException, gone: bool
) -> None:
    """After an error on asyncpg itself (storage/asyncpg_direct.py) the pool gets the
    connection back unless the error ended it or left it mid-operation: a broken one handed
    out again fails the next caller too (seen once in CI as asyncpg's "another operation is
    in progress" after PostgreSQL ended the connection), a sound one dropped costs a new
    connection for nothing."""
    assert broken(OpenDriver(), error) is gone
    assert broken(None, ValueError()) is True  # no driver connection at all
