"""The cluster's default database: `gc_cluster` on the machine's PostgreSQL, made once."""

import asyncio

import asyncpg

# The local server as infra/services.sh starts it (trust authentication for 127.0.0.1).
SERVER = "postgresql://postgres@127.0.0.1:5432"
DEFAULT_NAME = "gc_cluster"


async def _ensure(name: str) -> None:
    connection = await asyncpg.connect(f"{SERVER}/postgres")
    try:
        exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()


def default_database_url(name: str = DEFAULT_NAME) -> str:
    """The database's SQLAlchemy URL, creating it (empty) when it is missing; the nodes'
    migrations and demo data fill it."""
    asyncio.run(_ensure(name))
    return f"{SERVER.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{name}"
