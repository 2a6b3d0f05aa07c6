"""Prebuilt Core statements, run through SQLAlchemy or straight on the driver.

A live document's update reads its row and writes it back, and a socket's connect and
subscribe read rows by key (realtime/collections.py, with the statements built once in
storage/documents.py). On a SQLite file they go straight to a sqlite3 connection of the
server's own (`SqliteStatements`, used by storage/sqlite_writer.py and sqlite_reader.py), on
PostgreSQL straight to the pooled connection's asyncpg driver (storage/asyncpg_direct.py):
compiled once by SQLAlchemy's dialect for that driver (`StatementCompiler`) and converted by
the columns' own types, so a value is stored and read back exactly as SQLAlchemy does it
everywhere else; only SQLAlchemy's execution machinery is skipped, which on a server idle
between changes took three times the statements themselves (docs/benchmarks.md, "The limit
at N=100"). Inside an ORM session, and on a SQLite database in memory (tests), they go
through SQLAlchemy (`CoreStatements`).
"""

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Dialect, Executable, Select
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.exc import NoResultFound
from sqlmodel.ext.asyncio.session import AsyncSession

# A stored row: column key -> value, as SQLAlchemy's column types give it to Python.
Row = dict[str, Any]
Convert = Callable[[Any], Any]
T = TypeVar("T")


class Statements(Protocol):
    """What a write transaction offers the code running inside it."""

    def row(self, statement: Select[Any], params: Mapping[str, Any]) -> Row | None:
        """The one row `statement` selects, or None."""

    def scalar(self, statement: Select[Any], params: Mapping[str, Any]) -> Any:
        """The first value of the row `statement` selects; NoResultFound if there is none."""

    def execute(self, statement: Executable, params: Mapping[str, Any]) -> None:
        """Run an INSERT, UPDATE or DELETE."""


class CoreStatements:
    """Statements on a SQLAlchemy connection (an ORM session's, or SQLite in memory)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def row(self, statement: Select[Any], params: Mapping[str, Any]) -> Row | None:
        found = self.connection.execute(statement, dict(params)).one_or_none()
        return None if found is None else dict(found._mapping)

    def scalar(self, statement: Select[Any], params: Mapping[str, Any]) -> Any:
        found = self.connection.execute(statement, dict(params)).first()
        if found is None:
            raise NoResultFound("No row was found when one was required")
        return found[0]

    def execute(self, statement: Executable, params: Mapping[str, Any]) -> None:
        self.connection.execute(statement, dict(params))


async def run_statements(session: AsyncSession, work: Callable[[Statements], T]) -> T:
    """Run `work` on the session's connection (reads of live documents, in whichever
    session the caller holds): the same prebuilt statements as a write, off the event loop's
    async adapter."""
    connection = await session.connection()
    return await connection.run_sync(lambda sync: work(CoreStatements(sync)))


@dataclass(frozen=True)
class Compiled:
    """One statement as sqlite3 runs it."""

    sql: str
    binds: tuple[tuple[str, Convert | None], ...]  # parameter -> Python value to stored value
    columns: tuple[tuple[str, Convert | None], ...]  # result column -> stored value to Python


class StatementCompiler:
    """Compiles each statement once per set of parameter names, for one driver's dialect (an
    UPDATE's SET clause is made of the names given, as SQLAlchemy itself does); the binds in
    the order the driver takes them."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._compiled: dict[tuple[Executable, frozenset[str]], Compiled] = {}

    def compiled(self, statement: Executable, names: frozenset[str]) -> Compiled:
        key = (statement, names)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = self._compile(statement, names)
        return found

    def _compile(self, statement: Executable, names: frozenset[str]) -> Compiled:
        dialect = self.dialect
        compiled = statement.compile(dialect=dialect, column_keys=sorted(names))  # type: ignore[attr-defined]
        if compiled.post_compile_params:
            # an IN list expanded per call: not a point read, keep it to SQLAlchemy
            raise ValueError("statements with expanding parameters are not prebuilt")
        order = compiled.positiontup if dialect.positional else list(compiled.binds)
        binds = tuple(
            (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
            for name in order
        )
        selected = statement.selected_columns if isinstance(statement, Select) else ()
        columns = tuple(
            (str(column.key), column.type.dialect_impl(dialect).result_processor(dialect, None))
            for column in selected
        )
        return Compiled(compiled.string, binds, columns)


class SqliteCompiler(StatementCompiler):
    """Statements as sqlite3 runs them (named parameters)."""

    def __init__(self) -> None:
        super().__init__(SQLiteDialect_pysqlite(paramstyle="named"))


def converted_params(compiled: Compiled, params: Mapping[str, Any]) -> dict[str, Any]:
    """The values of `params` as the columns' types store them, in the driver's order."""
    return {
        name: params[name] if convert is None else convert(params[name])
        for name, convert in compiled.binds
    }


def converted_row(compiled: Compiled, values: Iterable[Any]) -> Row:
    """A result row as SQLAlchemy's column types give it to Python."""
    return {
        key: value if convert is None else convert(value)
        for (key, convert), value in zip(compiled.columns, values, strict=True)
    }


class RowStatements:
    """`scalar` by way of `row`, for the statements that run on a driver itself."""

    def row(self, statement: Select[Any], params: Mapping[str, Any]) -> Row | None:
        raise NotImplementedError

    def scalar(self, statement: Select[Any], params: Mapping[str, Any]) -> Any:
        found = self.row(statement, params)
        if found is None:
            raise NoResultFound("No row was found when one was required")
        return next(iter(found.values()))


class SqliteStatements(RowStatements):
    """Statements on the SQLite writer's sqlite3 connection (see the module doc)."""

    def __init__(self, connection: sqlite3.Connection, compiler: SqliteCompiler) -> None:
        self.connection = connection
        self.compiler = compiler

    def _run(
        self, statement: Executable, params: Mapping[str, Any]
    ) -> tuple[sqlite3.Cursor, Compiled]:
        compiled = self.compiler.compiled(statement, frozenset(params))
        return self.connection.execute(compiled.sql, converted_params(compiled, params)), compiled

    def row(self, statement: Select[Any], params: Mapping[str, Any]) -> Row | None:
        cursor, compiled = self._run(statement, params)
        found = cursor.fetchone()
        return None if found is None else converted_row(compiled, found)

    def execute(self, statement: Executable, params: Mapping[str, Any]) -> None:
        self._run(statement, params)
