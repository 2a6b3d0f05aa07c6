"""Engines and sessions for SQLite (aiosqlite) and PostgreSQL (asyncpg).

Write transactions on SQLite start with BEGIN IMMEDIATE so that two writers never
both read a row and then fight over upgrading their lock; on PostgreSQL writers lock
the rows they change with SELECT ... FOR UPDATE (see the repositories).

`Database.run_write` runs a synchronous transaction of Core statements as one call, for the
hot path of live-document updates. On a SQLite file it goes to a second, synchronous engine
on the same file, whose one connection stays open in one worker thread: aiosqlite sends each
statement to its thread in about four hops (cursor, execute, fetch, close), and through
the ORM a live document's update took twelve of them, 2-7 ms that every small fan-out
waited for (see docs/benchmarks.md, "Where the time goes").
"""

import asyncio
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy
from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

T = TypeVar("T")

SQLITE_BUSY_TIMEOUT_MS = 10_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _prepare_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite otherwise defers it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


def create_engine(url: str) -> AsyncEngine:
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_size=8, max_overflow=8)
        _prepare_sqlite(engine.sync_engine)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


class SyncWriter:
    """A synchronous engine on a SQLite file whose one connection lives in one thread.

    The connection is held open between transactions: checking one out of a pool and
    starting it through the ORM cost four times the statements themselves.
    """

    def __init__(self, url: str) -> None:
        # check_same_thread off only so that the engine can be disposed of from the event
        # loop's thread at shutdown; the connection is otherwise used by `thread` alone.
        engine = sqlalchemy.create_engine(
            make_url(url).set(drivername="sqlite"),
            pool_size=1,
            max_overflow=0,
            connect_args={"check_same_thread": False},
        )
        _prepare_sqlite(engine)
        self.engine = engine
        self.bind = engine.execution_options(sqlite_begin="IMMEDIATE")
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self.connection: Connection | None = None

    def transaction(self, work: Callable[[Connection], T]) -> T:
        """Run in `thread` only."""
        if self.connection is None or self.connection.closed:
            self.connection = self.bind.connect()
        with self.connection.begin():
            return work(self.connection)

    def _release(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def close(self) -> None:
        self.thread.submit(self._release).result()
        self.thread.shutdown(wait=True)
        self.engine.dispose()


@dataclass(frozen=True)
class Database:
    """One engine with two session factories: plain reads and serialised writes."""

    engine: AsyncEngine
    reader: async_sessionmaker[AsyncSession]
    writer: async_sessionmaker[AsyncSession]
    writer_bind: AsyncEngine  # the engine with the writers' options (BEGIN IMMEDIATE)
    sync_writer: SyncWriter | None = None

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

    async def run_write(self, work: Callable[[Connection], T]) -> T:
        """Run `work` (Core statements) in a write transaction that commits when it returns.

        On a SQLite file: one call to the writer thread. Elsewhere: `work` runs on the async
        connection's synchronous face, its statements going through the async driver.
        """
        if self.sync_writer is None:
            async with self.writer_bind.begin() as connection:
                return await connection.run_sync(work)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.sync_writer.thread, self.sync_writer.transaction, work
        )

    async def close(self) -> None:
        if self.sync_writer is not None:
            self.sync_writer.close()
        await self.engine.dispose()


def open_database(url: str) -> Database:
    engine = create_engine(url)
    writer_bind = engine.execution_options(sqlite_begin="IMMEDIATE")
    database = make_url(url).database
    on_file = is_sqlite(url) and bool(database) and database != ":memory:"
    return Database(
        engine=engine,
        reader=async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False),
        writer=async_sessionmaker(writer_bind, class_=AsyncSession, expire_on_commit=False),
        writer_bind=writer_bind,
        sync_writer=SyncWriter(url) if on_file else None,
    )
