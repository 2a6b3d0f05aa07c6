"""Prebuilt statements on PostgreSQL straight on a pooled connection's asyncpg driver.

A socket's connect and subscribe read a row or two by key (storage/sqlite_reader.py says which),
and a live document's update reads its row and writes it back in one transaction
(`Database.run_write`). Through SQLAlchemy's async engine each statement cost about 0.45 ms of
CPU for one statement
(its execution machinery, the result objects, the adapter around asyncpg), which a reconnect
storm on PostgreSQL spends thousands of times a second; asyncpg itself answers the same
prepared statement in about 0.06 ms (docs/benchmarks.md, "Reconnect storm"). So the reads keep
SQLAlchemy for what it does once (the pool, its ping of an idle connection, compiling each
prebuilt statement with the asyncpg dialect, the column types' conversions) and hand the
statements to asyncpg: values are converted by the columns' own types in both directions, as
SQLAlchemy does on the same connections (whose JSON codecs it set up), so a row reads the same
either way (tests/test_statements.py). The synchronous `work` runs in a greenlet, as SQLAlchemy's
own `run_sync` does, so that its statements can wait for asyncpg.
"""

import asyncio
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import Executable, Select
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import await_, greenlet_spawn

from storage.errors import connection_lost
from storage.statements import (
    Compiled,
    Row,
    RowStatements,
    StatementCompiler,
    Statements,
    converted_params,
    converted_row,
)

T = TypeVar("T")
# SQLSTATE classes after which a connection is gone: connection exceptions, and the server
# ending it (admin shutdown, crash shutdown, cannot connect now). Narrower than the classes
# callers answer UNAVAILABLE (realtime/errors.py): out of memory or disk, a connection lives.
GONE_SQLSTATES = ("08", "57P")


class AsyncpgStatements(RowStatements):
    """Statements on an asyncpg connection, from inside a greenlet (see the module doc)."""

    def __init__(self, connection: Any, compiler: StatementCompiler) -> None:
        self.connection = connection
        self.compiler = compiler

    def _prepared(
        self, statement: Executable, params: Mapping[str, Any]
    ) -> tuple[Compiled, list[Any]]:
        compiled = self.compiler.compiled(statement, frozenset(params))
        return compiled, list(converted_params(compiled, params).values())

    def row(self, statement: Select[Any], params: Mapping[str, Any]) -> Row | None:
        compiled, values = self._prepared(statement, params)
        found = await_(self.connection.fetchrow(compiled.sql, *values))
        return None if found is None else converted_row(compiled, found.values())

    def execute(self, statement: Executable, params: Mapping[str, Any]) -> None:
        compiled, values = self._prepared(statement, params)
        await_(self.connection.execute(compiled.sql, *values))


class AsyncpgDirect:
    """Runs prebuilt statements on a connection of `engine`'s pool, checked out and used
    inside one greenlet (no SQLAlchemy connection objects around it)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine.sync_engine
        self.compiler = StatementCompiler(PGDialect_asyncpg())  # type: ignore[no-untyped-call]

    async def read(self, work: Callable[[Statements], T]) -> T:
        """`work`'s statements outside a transaction: each sees what was committed before
        it, without a BEGIN and ROLLBACK around it."""
        return await greenlet_spawn(self._run, work, False)

    async def write(self, work: Callable[[Statements], T]) -> T:
        """`work`'s statements in one transaction, committed when it returns and rolled
        back when it raises."""
        return await greenlet_spawn(self._run, work, True)

    def _run(self, work: Callable[[Statements], T], transaction: bool) -> T:
        connection = self._checkout()
        driver = connection.driver_connection
        try:
            if not transaction:
                return work(AsyncpgStatements(driver, self.compiler))
            with _transaction(driver):
                return work(AsyncpgStatements(driver, self.compiler))
        except BaseException as exc:
            if broken(driver, exc):
                # lost or left mid-operation under SQLAlchemy's feet: the pool must not hand
                # it out again
                connection.invalidate()
            raise
        finally:
            connection.close()  # back to the pool

    def _checkout(self) -> Any:
        """A pooled connection. The pool's checkout pings one idle for a while (storage/db.py)
        and opens a new one when needed, waiting for asyncpg from this greenlet; a failure to
        connect is raised as SQLAlchemy raises it for a query (the driver's error wrapped), so
        callers tell an unreachable database the same way whichever path met it."""
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        try:
            return self.engine.raw_connection()
        except dbapi_error as exc:
            raise DBAPIError.instance(None, None, exc, dbapi_error) from exc


@contextmanager
def _transaction(driver: Any) -> Iterator[None]:
    """BEGIN, then COMMIT when the block ends or ROLLBACK when it raises (awaited from the
    greenlet); a broken connection is not rolled back but invalidated by the caller."""
    transaction = driver.transaction()
    await_(transaction.start())
    try:
        yield
    except BaseException as exc:
        if not broken(driver, exc):
            await_(transaction.rollback())
        raise
    await_(transaction.commit())


def broken(driver: Any, exc: BaseException) -> bool:
    """Whether the connection must not be used again after `exc`: closed, ended by the
    server, lost (storage/errors.py `connection_lost`: asyncpg's InterfaceError, or its
    InternalClientError "another operation is in progress", seen after PostgreSQL ended the
    connection), or a cancelled statement that may still be cancelling. An error of the
    statement itself (a constraint, a refusal of our own) leaves it usable."""
    if driver is None or driver.is_closed():
        return True
    if isinstance(exc, asyncpg.PostgresError):
        return str(exc.sqlstate).startswith(GONE_SQLSTATES)
    return connection_lost(exc) or isinstance(exc, OSError | asyncio.CancelledError)
