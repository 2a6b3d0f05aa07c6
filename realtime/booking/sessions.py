"""Sessions for the booking hot paths, with as few round trips as the database allows.

On PostgreSQL (asyncpg) a session costs, besides its statements: the pool's ping when it
takes a connection idle for longer than PING_AFTER_IDLE_SECONDS (storage/db.py; with asyncpg
that is three round trips: BEGIN, `;`, ROLLBACK), then BEGIN before the first statement and
ROLLBACK or COMMIT at the end. Statements that each stand alone need no transaction: a read
(PostgreSQL's default READ COMMITTED gives every statement its own snapshot anyway) or a
write of one atomic statement. In AUTOCOMMIT they save two round trips per session, which is
most of a refused hold's cost (docs/benchmarks.md, "Booking").

SQLite keeps its transactions: its writers are serialised by BEGIN IMMEDIATE (storage/db.py)
and its round trips are thread hops, not network.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage.db import AsyncSession, Database


@asynccontextmanager
async def autocommit(db: Database) -> AsyncIterator[AsyncSession]:
    """A session whose every statement commits on its own on PostgreSQL (reads, or a write
    of one atomic statement); a plain read session on SQLite. Like any session, it takes a
    connection only for its first statement: one that runs none costs nothing. (The
    AUTOCOMMIT engine shares the database's pool: `Database.autocommit_bind`, built with it.)"""
    if db.sqlite:
        async with db.read() as session:
            yield session
        return
    async with AsyncSession(db.autocommit_bind, expire_on_commit=False) as session:
        yield session
