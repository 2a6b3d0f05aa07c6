"""Engines and sessions for SQLite (aiosqlite) and PostgreSQL (asyncpg).

Write transactions on SQLite start with BEGIN IMMEDIATE so that two writers never
both read a row and then fight over upgrading their lock; on PostgreSQL writers lock
the rows they change with SELECT ... FOR UPDATE (see the repositories).
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

SQLITE_BUSY_TIMEOUT_MS = 10_000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _prepare_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite otherwise defers it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


def create_engine(url: str) -> AsyncEngine:
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_size=8, max_overflow=8)
        _prepare_sqlite(engine)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


@dataclass(frozen=True)
class Database:
    """One engine with two session factories: plain reads and serialised writes."""

    engine: AsyncEngine
    reader: async_sessionmaker[AsyncSession]
    writer: async_sessionmaker[AsyncSession]

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


def open_database(url: str) -> Database:
    engine = create_engine(url)
    writer_bind = engine.execution_options(sqlite_begin="IMMEDIATE")
    return Database(
        engine=engine,
        reader=async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False),
        writer=async_sessionmaker(writer_bind, class_=AsyncSession, expire_on_commit=False),
    )
