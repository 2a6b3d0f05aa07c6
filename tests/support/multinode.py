"""Two `web` processes on one PostgreSQL database and one Redis: one system of two nodes."""

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from tests.support.databases import (
    REDIS_URL,
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.server import ServerProcess


@asynccontextmanager
async def two_nodes(
    logs: Path,
    env: Mapping[str, str] | None = None,
    *,
    own: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {}),
) -> AsyncIterator[tuple[ServerProcess, ServerProcess]]:
    """Both nodes started together (migrations and demo data must cope with a concurrent
    start) on a new database, with `env` added to each and `own` to each one's own (a
    Redis user of its own, say); dropped at the end."""
    name, url = await create_postgres_database()
    shared = {
        "DATABASE_URL": url,
        "REDIS_URL": REDIS_URL,
        "REDIS_NAMESPACE": redis_namespace(),
        **(env or {}),
    }
    a = ServerProcess(env={**shared, **own[0]}, log_path=logs / "a.log")
    b = ServerProcess(env={**shared, **own[1]}, log_path=logs / "b.log")
    a.launch()
    b.launch()
    try:
        await asyncio.to_thread(a.wait_ready)
        await asyncio.to_thread(b.wait_ready)
        yield a, b
    finally:
        a.stop()
        b.stop()
        await drop_postgres_database(name)
