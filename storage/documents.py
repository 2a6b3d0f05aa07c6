"""Live documents stored as rows (`users/{uid}`, `appointments/{id}`): their prebuilt
statements, their plain-dictionary form, and the one way a change of one is marked.

A live document is read and written as a plain dictionary (`Row`) by the prebuilt Core
statements below on the hot path of every live-document update (realtime/collections.py,
through `Database.run_write`), and as an ORM object by the server functions that change it
inside a larger transaction; `row_of` gives an ORM object's dictionary, and `mark_changed`
marks a change on either.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Select, Table, Update, bindparam, select, update
from sqlmodel import SQLModel

from storage.models import Appointment, Service, User
from storage.statements import Row


def table_of(model: type[SQLModel]) -> Table:
    return cast(Table, model.__table__)  # type: ignore[attr-defined]


def row_of(model: SQLModel) -> Row:
    """The stored values of an ORM object, as `Statements.row` gives them."""
    return {column.key: getattr(model, column.key) for column in table_of(type(model)).columns}


def mark_changed(row: User | Appointment | Row, at: datetime) -> None:
    """A committed change of a live document: its time and one more version."""
    if isinstance(row, dict):
        row.update(updated=at, version=row["version"] + 1)
    else:
        row.updated = at
        row.version += 1


ROW_ID = "row_id"  # the bind parameter of a row's id in the statements below (no column's name)


@dataclass(frozen=True)
class RowStatements:
    """The prebuilt statements of one kind of row document, each taking `ROW_ID`."""

    read: Select[Any]
    read_for_update: Select[Any]
    read_meta: Select[Any]  # only the columns the rules read
    write: Update  # its SET clause is made of the parameters given besides ROW_ID


def row_statements(
    model: type[User] | type[Appointment], meta_columns: tuple[str, ...]
) -> RowStatements:
    """Built once per kind: building a statement and its cache key on every write cost as
    much as running it (about 0.5 ms of a cold 1.2 ms transaction, docs/benchmarks.md)."""
    table = table_of(model)
    this_row = table.c.id == bindparam(ROW_ID)
    read = select(table).where(this_row)
    return RowStatements(
        read=read,
        read_for_update=read.with_for_update(),
        read_meta=select(*(table.c[name] for name in meta_columns)).where(this_row),
        write=update(table).where(this_row),
    )


# An appointment's service category (validating its intake answers needs it), by ROW_ID.
SERVICE_CATEGORY = select(table_of(Service).c.category).where(
    table_of(Service).c.id == bindparam(ROW_ID)
)
