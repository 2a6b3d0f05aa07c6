"""Run the alembic migrations to head: `python -m storage.migrate` (the Procfile's release).

The server also runs this at start, so a single `web` process needs nothing else.
On PostgreSQL an advisory lock lets several processes start at once safely.
"""

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

from realtime.settings import Settings

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str) -> None:
    command.upgrade(alembic_config(database_url), "head")


async def upgrade_async(database_url: str) -> None:
    # alembic's env.py runs its own event loop; keep it off ours.
    await asyncio.to_thread(upgrade, database_url)


if __name__ == "__main__":
    upgrade(Settings().database_url)
