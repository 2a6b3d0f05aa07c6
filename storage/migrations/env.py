"""Alembic environment: async engines for SQLite and PostgreSQL alike."""

import asyncio
from typing import Any

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from storage.db import create_engine

# Any fixed number: PostgreSQL advisory lock that serialises concurrent migrators.
MIGRATION_LOCK_KEY = 72_417_001


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK_KEY})
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


def run() -> None:
    url: Any = context.config.get_main_option("sqlalchemy.url")
    asyncio.run(_run_async(str(url)))


run()
