"""Engines and sessions for SQLite (aiosqlite) and PostgreSQL (asyncpg).

Write transactions on SQLite start with BEGIN IMMEDIATE so that two writers never
both read a row and then fight over upgrading their lock; on PostgreSQL writers lock
the rows they change with SELECT ... FOR UPDATE (see the repositories).

`Database.run_write` runs a transaction of prebuilt Core statements as one call, for the hot
path of live-document updates. On a SQLite file it goes to a sqlite3 connection of its own
(storage/sqlite_writer.py): aiosqlite sends each statement to its thread in about four hops
(cursor, execute, fetch, close), and through the ORM a live document's update took twelve
of them, 2-7 ms that every small fan-out waited for (see docs/benchmarks.md, "Where the
time goes"). On PostgreSQL it goes to the pooled connection's asyncpg driver
(storage/asyncpg_direct.py), SQLAlchemy's execution costing three times asyncpg's.
`Database.run_read` does the same for the point reads of a socket's connect and subscribe
(storage/sqlite_reader.py, storage/asyncpg_direct.py).
"""

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.asyncpg_direct import AsyncpgDirect
from storage.sqlite_reader import SqliteReader
from storage.sqlite_writer import SqliteWriter, set_pragmas
from storage.statements import CoreStatements, Statements

# The session and engine types the code above storage is handed (it builds no query itself,
# so it names them from here: realtime/ imports nothing of SQLAlchemy or SQLModel).
__all__ = [
    "AsyncEngine",
    "AsyncSession",
    "Database",
    "create_engine",
    "is_sqlite",
    "open_database",
    "ping",
    "sqlite_file",
]

T = TypeVar("T")


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL; None for other databases and in-memory SQLite."""
    database = make_url(url).database if is_sqlite(url) else None
    return database if database not in (None, "", ":memory:") else None


def _prepare_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite otherwise defers it).
        dbapi_connection.isolation_level = None
        set_pragmas(dbapi_connection)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


# A pooled PostgreSQL connection used this recently is handed out without a ping: asyncpg's
# ping is three round trips (BEGIN, ";", ROLLBACK), as many as a live document's update
# itself. One idle for longer is pinged first and, if dead, replaced, as pool_pre_ping does;
# HikariCP skips its check the same way within 500 ms. A server restarted inside the window
# costs the one statement that finds its connection dead (the pool is then renewed).
PING_AFTER_IDLE_SECONDS = 0.5
_IDLE_SINCE = "idle_since"


def _ping_when_idle(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connected(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get(_IDLE_SINCE)
        if idle_since is not None and time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            dbapi_connection.ping()
        except Exception as exc:  # the pool discards it and checks out another
            raise DisconnectionError("the pooled connection is gone") from exc


# A PostgreSQL node's pool: connections kept open once opened (they open as the load needs
# them), and how many more it may open at busy moments, each closed again when returned.
# Every node of a cluster has its own, and their sum must stay under the server's
# max_connections (DATABASE_POOL_SIZE, DATABASE_MAX_OVERFLOW: docs/operations.md). Most are
# kept: a connection opened and closed per busy moment costs PostgreSQL a backend and
# SQLAlchemy's asyncpg set-up several round trips; with 10 kept and 20 overflowing, a
# reconnect storm of 2,000 clients opened 225 connections and spent a third of its CPU on
# them (docs/benchmarks.md, "Reconnect storm"; 10, 20 or 30 kept with none overflowing ran
# it alike). The 30 in all are as before.
POOL_SIZE = 20
MAX_OVERFLOW = 10


def create_engine(
    url: str, *, pool_size: int = POOL_SIZE, max_overflow: int = MAX_OVERFLOW
) -> AsyncEngine:
    if is_sqlite(url):
        path = sqlite_file(url)
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_size=8, max_overflow=8)
        _prepare_sqlite(engine.sync_engine)
        return engine
    # Last in, first out: the connection used last is taken again while it needs no ping;
    # the others sit idle (and are pinged when they are needed again).
    engine = create_async_engine(
        url, pool_size=pool_size, max_overflow=max_overflow, pool_use_lifo=True
    )
    _ping_when_idle(engine.sync_engine)
    return engine


@dataclass(frozen=True)
class Database:
    """One engine with two session factories: plain reads and serialised writes."""

    engine: AsyncEngine
    reader: async_sessionmaker[AsyncSession]
    writer: async_sessionmaker[AsyncSession]
    writer_bind: AsyncEngine  # the engine with the writers' options (BEGIN IMMEDIATE)
    autocommit_bind: AsyncEngine  # the same pool with AUTOCOMMIT connections (PostgreSQL)
    sqlite_writer: SqliteWriter | None = None
    sqlite_reader: SqliteReader | None = None
    postgres: AsyncpgDirect | None = None  # prebuilt statements on asyncpg itself

    @property
    def sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.reader() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session whose transaction commits on success and rolls back on error."""
        async with self.writer() as session, session.begin():
            yield session

    async def run_write(self, work: Callable[[Statements], T]) -> T:
        """Run `work` in a write transaction that commits when it returns.

        On a SQLite file: by the file's writer (storage/sqlite_writer.py). On PostgreSQL: on a
        pooled connection's asyncpg driver (storage/asyncpg_direct.py).
        """
        if self.postgres is not None:
            return await self.postgres.write(work)
        if self.sqlite_writer is None:  # SQLite in memory (tests)
            async with self.writer_bind.begin() as connection:
                return await connection.run_sync(lambda sync: work(CoreStatements(sync)))
        return await self.sqlite_writer.run(work)

    async def run_read(self, work: Callable[[Statements], T]) -> T:
        """Run `work`, a few point reads by key.

        On a SQLite file: on the event loop, in one read transaction (one snapshot for all
        its statements; storage/sqlite_reader.py). On PostgreSQL: on a pooled connection's
        asyncpg driver outside a transaction, each statement seeing what was committed
        before it (storage/asyncpg_direct.py).
        """
        if self.postgres is not None:
            return await self.postgres.read(work)
        if self.sqlite_reader is None:  # SQLite in memory (tests)
            async with self.engine.connect() as connection:
                return await connection.run_sync(lambda sync: work(CoreStatements(sync)))
        return await self.sqlite_reader.run(work)

    async def close(self) -> None:
        if self.sqlite_reader is not None:
            self.sqlite_reader.close()
        if self.sqlite_writer is not None:
            self.sqlite_writer.close()
        await self.engine.dispose()


async def ping(session: AsyncSession) -> None:
    """One round trip to the database (the health check)."""
    await session.exec(text("SELECT 1"))  # type: ignore[call-overload]


def open_database(
    url: str, *, pool_size: int = POOL_SIZE, max_overflow: int = MAX_OVERFLOW
) -> Database:
    """The database at `url`; on PostgreSQL with a pool of `pool_size` connections kept and
    `max_overflow` more at busy moments (SQLite's pools are the engine's own)."""
    engine = create_engine(url, pool_size=pool_size, max_overflow=max_overflow)
    writer_bind = engine.execution_options(sqlite_begin="IMMEDIATE")
    autocommit_bind = engine.execution_options(isolation_level="AUTOCOMMIT")
    path = sqlite_file(url)
    return Database(
        engine=engine,
        reader=async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False),
        writer=async_sessionmaker(writer_bind, class_=AsyncSession, expire_on_commit=False),
        writer_bind=writer_bind,
        autocommit_bind=autocommit_bind,
        sqlite_writer=SqliteWriter(path) if path is not None else None,
        sqlite_reader=SqliteReader(path) if path is not None else None,
        postgres=None if is_sqlite(url) else AsyncpgDirect(engine),
    )
