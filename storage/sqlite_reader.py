"""Short reads of the SQLite file on the event loop: one sqlite3 connection of its own.

A socket's connect and subscribe read a row or two by primary key or unique index (the
session of a token, a user's record), which SQLite answers in tens of microseconds; through
aiosqlite each statement took about four hops to its thread and back, and the ORM's session
around it as long again, so a reconnect storm spent most of its time there (docs/benchmarks.md,
"Reconnect storm"). In WAL mode a reader never waits for a writer, so these reads run on the
event loop at once, in a transaction of their own (one snapshot for all their statements),
with a busy timeout of zero. The one case in which a reader must wait (SQLite recovering the
WAL index after a crash) answers SQLITE_BUSY, and then the read goes to a thread that waits
as every other connection does. Only point reads belong here: a scan would hold the loop.
"""

import asyncio
import sqlite3
from collections.abc import Callable
from typing import TypeVar

from storage.sqlite_writer import SQLITE_BUSY_TIMEOUT_MS, set_pragmas
from storage.statements import SqliteCompiler, SqliteStatements, Statements

T = TypeVar("T")


class SqliteReader:
    """Runs read-only work on a sqlite3 connection kept for the event loop (see module doc)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.compiler = SqliteCompiler()
        self._connection: sqlite3.Connection | None = None

    async def run(self, work: Callable[[Statements], T]) -> T:
        try:
            return self._read(self._connect(), work)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                raise
        return await asyncio.to_thread(self._read_waiting, work)

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None)
            set_pragmas(connection)
            connection.execute("PRAGMA busy_timeout=0")
            connection.execute("PRAGMA query_only=ON")
            self._connection = connection
        return self._connection

    def _read(self, connection: sqlite3.Connection, work: Callable[[Statements], T]) -> T:
        connection.execute("BEGIN")
        try:
            return work(SqliteStatements(connection, self.compiler))
        finally:
            if connection.in_transaction:
                connection.execute("COMMIT")

    def _read_waiting(self, work: Callable[[Statements], T]) -> T:
        """The same read on a connection of its own that waits like any other."""
        connection = sqlite3.connect(self.path, isolation_level=None)
        try:
            connection.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            return self._read(connection, work)
        finally:
            connection.close()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
