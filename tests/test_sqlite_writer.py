"""The SQLite file's writer of live-document updates (storage/sqlite_writer.py): it never
holds up the event loop while another connection writes, loses nothing, and keeps the WAL
from growing when it is the only writer."""

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import update

from realtime.collections import Users
from storage import sqlite_writer
from storage.db import Database, open_database
from storage.migrate import upgrade
from storage.models import User
from storage.statements import Statements

USERS = Users()
SET_LOCALE = update(User).where(User.id == "u1").values(locale="en")  # type: ignore[arg-type]
PAGE_BYTES = 4096


@pytest_asyncio.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    url = f"sqlite+aiosqlite:///{tmp_path}/writer.db"
    await asyncio.to_thread(upgrade, url)
    db = open_database(url)
    async with db.write() as session:
        created = datetime(2026, 11, 20, tzinfo=UTC)
        session.add(User(id="u1", email="u1@example.com", created=created))
    try:
        yield db
    finally:
        await db.close()


def set_user_agent(value: str) -> Callable[[Statements], None]:
    def work(statements: Statements) -> None:
        row = USERS.get_row(statements, {"uid": "u1"}, for_update=True)
        assert row is not None
        row.update(user_agent=value, version=row["version"] + 1)
        USERS.save(statements, row, {"user_agent", "version"})

    return work


async def stored_user(db: Database) -> tuple[str | None, str | None, int]:
    async with db.read() as session:
        found = await session.get(User, "u1", populate_existing=True)
        assert found is not None
        return found.locale, found.user_agent, found.version


async def test_an_update_waits_for_another_writer_without_holding_up_the_loop(
    database: Database,
) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(ticker())
    try:
        async with database.write() as session:
            await session.exec(SET_LOCALE)
            update = asyncio.create_task(database.run_write(set_user_agent("browser")))
            await asyncio.sleep(0.3)  # the other writer holds the lock meanwhile
            assert not update.done()
            assert ticks >= 10  # the event loop went on
        await asyncio.wait_for(update, timeout=5)
    finally:
        ticking.cancel()
    assert await stored_user(database) == ("en", "browser", 2)
    # Later updates, once nobody else writes, still go through and keep their order.
    for value in ("one", "two", "three"):
        await database.run_write(set_user_agent(value))
    assert await stored_user(database) == ("en", "three", 5)


async def test_concurrent_updates_while_another_writer_holds_the_lock_lose_nothing(
    database: Database,
) -> None:
    async with database.write() as session:
        await session.exec(SET_LOCALE)
        updates = [
            asyncio.create_task(database.run_write(set_user_agent(f"agent {n}"))) for n in range(20)
        ]
        await asyncio.sleep(0.1)
    await asyncio.gather(*updates)
    more = [database.run_write(set_user_agent(f"agent {n}")) for n in range(20, 40)]
    await asyncio.gather(*more)
    locale, _agent, version = await stored_user(database)
    assert (locale, version) == ("en", 41)


async def test_an_update_given_up_while_waiting_still_finishes_before_the_next(
    database: Database,
) -> None:
    set_slowly = set_user_agent("given up")

    def slow(statements: Statements) -> None:
        set_slowly(statements)
        time.sleep(0.3)  # its transaction stays open in the writer's thread meanwhile

    async with database.write() as session:
        await session.exec(SET_LOCALE)
        given_up = asyncio.create_task(database.run_write(slow))
        await asyncio.sleep(0.1)  # waiting in the writer's thread for the lock
        given_up.cancel()
    await asyncio.sleep(0.15)  # the thread has the lock now, inside `slow`
    # The thread owns the connection until that update is through: the next one must wait
    # for it, not start on the event loop in the middle of its transaction.
    await database.run_write(set_user_agent("next"))
    assert await stored_user(database) == ("en", "next", 3)
    assert given_up.cancelled()


async def test_the_wal_is_checkpointed_when_only_updates_write(
    database: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_EVERY_COMMITS", 20)
    for n in range(400):
        await database.run_write(set_user_agent(f"agent {n} " + "x" * 300))
        await asyncio.sleep(0)  # lets a checkpoint handed to the writer's thread start
    await asyncio.sleep(0.1)
    wal = (tmp_path / "writer.db-wal").stat().st_size
    # Each commit appends at least one page: without checkpoints, 400 pages or more.
    assert wal < 100 * PAGE_BYTES, wal
    assert (await stored_user(database))[2] == 401
