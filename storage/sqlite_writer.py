"""The SQLite file's writer for live-document updates: one sqlite3 connection of its own.

An update is a few prebuilt statements (storage/statements.py) that take a fraction of a
millisecond, and every subscriber of the document waits for them before its push. So the
writer runs them at once on the event loop whenever nothing would make it wait: its thread
(below) is idle and the file's write lock is free, which SQLite answers at once with a busy
timeout of zero. Otherwise (another connection is writing, or an earlier update is already
queued) the update goes to the writer's one thread, which waits for the lock as every other
connection does. Nothing that can block is left on the event loop: the WAL is checkpointed
by that thread too, instead of by the commit that happens to fill it.
"""

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from storage.statements import SqliteCompiler, SqliteStatements, Statements

T = TypeVar("T")

SQLITE_BUSY_TIMEOUT_MS = 10_000
# SQLite's own automatic checkpoint interval (WAL pages); an update writes one page or more.
CHECKPOINT_EVERY_COMMITS = 1_000


def set_pragmas(dbapi_connection: Any) -> None:
    """The settings of every connection to a SQLite file (sqlite3 or aiosqlite)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


class LockTaken(Exception):
    """The write lock is held by another connection (raised only when not waiting)."""


class SqliteWriter:
    """Runs write transactions on one sqlite3 connection, kept open (see the module doc)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.compiler = SqliteCompiler()
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._connection: sqlite3.Connection | None = None
        self._waits = True  # whether the connection's busy timeout is the waiting one
        self._in_thread = 0  # calls handed to `thread` and not finished: it owns the connection
        self._commits = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, work: Callable[[Statements], T]) -> T:
        """Run `work` in one BEGIN IMMEDIATE ... COMMIT: on the event loop when nothing would
        make it wait, in `thread` otherwise (see the module doc)."""
        if self._in_thread == 0:
            try:
                result = self._transaction(work, wait=False)
            except LockTaken:
                pass
            else:
                self._after_commit()
                return result
        result = await self._call_in_thread(self._transaction, work, True)
        self._after_commit()
        return result

    async def _call_in_thread(self, function: Callable[..., T], *args: Any) -> T:
        self._in_thread += 1
        done = asyncio.get_running_loop().run_in_executor(self.thread, function, *args)
        # Counted down when the thread is through with the connection, not when a waiter
        # is cancelled: the shield keeps a cancellation from marking the call done early.
        done.add_done_callback(self._thread_finished)
        return await asyncio.shield(done)

    def _thread_finished(self, _done: "asyncio.Future[Any]") -> None:
        self._in_thread -= 1

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            # isolation_level None: no implicit transactions, BEGIN and COMMIT are ours.
            # check_same_thread off: the event loop's thread and `thread` take turns (above).
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            set_pragmas(connection)
            connection.execute("PRAGMA wal_autocheckpoint=0")  # see _after_commit
            self._connection, self._waits = connection, True
        return self._connection

    def _transaction(self, work: Callable[[Statements], T], wait: bool) -> T:
        connection = self._connect()
        if wait != self._waits:
            connection.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS if wait else 0}")
            self._waits = wait
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not wait and exc.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                raise LockTaken from exc
            raise
        try:
            result = work(SqliteStatements(connection, self.compiler))
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.rollback()
            raise
        return result

    def _after_commit(self) -> None:
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY_COMMITS == 0:
            task = asyncio.create_task(self._call_in_thread(self._checkpoint))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _checkpoint(self) -> None:
        self._connect().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _release(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def close(self) -> None:
        self.thread.submit(self._release).result()
        self.thread.shutdown(wait=True)
