"""Fresh databases per test run: a SQLite file, or a new PostgreSQL database."""

import os
import secrets

import asyncpg

ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _server_part(url: str) -> str:
    return url.rsplit("/", 1)[0]


async def create_postgres_database() -> tuple[str, str]:
    """Create an empty database; returns (its name, its SQLAlchemy asyncpg URL)."""
    name = f"gc_test_{secrets.token_hex(6)}"
    connection = await asyncpg.connect(ADMIN_URL)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    url = _server_part(ADMIN_URL).replace("postgresql://", "postgresql+asyncpg://", 1)
    return name, f"{url}/{name}"


async def drop_postgres_database(name: str) -> None:
    connection = await asyncpg.connect(ADMIN_URL)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def set_connections_allowed(name: str, allowed: bool) -> None:
    """Take a database away from (or give it back to) every client but the admin."""
    connection = await asyncpg.connect(ADMIN_URL)
    try:
        await connection.execute(
            f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {"true" if allowed else "false"}'
        )
        if not allowed:
            await connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                name,
            )
    finally:
        await connection.close()


async def drop_connections(name: str) -> None:
    """End every connection to a database but the admin's (as a restart of PostgreSQL or a
    proxy's idle timeout would), leaving it open to new ones."""
    connection = await asyncpg.connect(ADMIN_URL)
    try:
        await connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
        )
    finally:
        await connection.close()


def redis_namespace() -> str:
    """A namespace of its own, so runs sharing one Redis never mix (channel, limits)."""
    return f"gc-test-{secrets.token_hex(4)}"
