"""Live documents: subscribe, unsubscribe, update, snapshots (PROTOCOL section 3).

A change is validated, authorized, committed, and only then pushed as a snapshot to the
room named by its path (see realtime/push.py for ordering).
"""

from datetime import datetime
from typing import Any

from realtime.collections import COLLECTIONS, Loaded, Rows, document_data
from realtime.errors import FunctionError, invalid_field
from realtime.rules import authorize, match
from realtime.state import AppState
from realtime.writable import validate_changes
from storage.models import Appointment, User
from storage.repo_booking import bump_version
from storage.repo_users import Identity
from storage.statements import Row, Statements
from storage.types import utcnow


def mark_changed(row: User | Appointment | Row, at: datetime) -> None:
    """A committed change of a live document: its time and one more version."""
    if isinstance(row, dict):
        row.update(updated=at, version=row["version"] + 1)
    else:
        row.updated = at
        row.version += 1


def snapshot(path: str, loaded: Loaded | None) -> dict[str, Any]:
    if loaded is None:
        return {"path": path, "exists": False, "data": None, "version": 0}
    return {
        "path": path,
        "exists": loaded.data is not None,
        "data": loaded.data,
        "version": loaded.version,
    }


def row_snapshot(path: str, data: dict[str, Any], version: int) -> dict[str, Any]:
    """The snapshot of a document stored as a row (it exists)."""
    return {"path": path, "exists": True, "data": data, "version": version}


async def read(state: AppState, who: Identity | None, path: object) -> dict[str, Any]:
    """The current snapshot of a document the caller may read."""
    found = match(path)
    async with state.db.read() as session:
        loaded = await COLLECTIONS[found.rule.pattern].load(session, found.params, for_update=False)
    authorize(who, found, loaded.meta if loaded else None, "read")
    return snapshot(found.path, loaded)


async def update(
    state: AppState, who: Identity | None, path: object, data: object, base_version: object
) -> int:
    """Apply an update and return the new version; the push follows the commit."""
    found = match(path)
    if base_version is not None and (
        isinstance(base_version, bool) or not isinstance(base_version, int)
    ):
        raise invalid_field("baseVersion", "baseVersion must be an integer.")
    collection = COLLECTIONS[found.rule.pattern]
    if not isinstance(collection, Rows):
        # Derived documents: their rules let nobody write, so this refuses.
        authorize(who, found, None, "write")
        raise FunctionError("NOT_FOUND", "The document does not exist.")
    rows = collection

    def write(statements: Statements) -> dict[str, Any]:
        row = rows.get_row(statements, found.params, for_update=True)
        authorize(who, found, rows.meta(row) if row is not None else None, "write")
        if row is None:
            raise FunctionError("NOT_FOUND", "The document does not exist.")
        if base_version is not None and base_version != row["version"]:
            raise FunctionError(
                "ABORTED",
                "The document changed meanwhile; reload it and try again.",
                {"version": row["version"]},
            )
        context = rows.write_context(statements, row)
        changes = validate_changes(found.rule.collection, data, context)
        changed = {rows.apply(row, field_path, value) for field_path, value in changes.items()}
        mark_changed(row, utcnow())
        rows.save(statements, row, changed | {"updated", "version"})
        return row_snapshot(found.path, rows.data(row), row["version"])

    async with state.publisher.ordered(found.path):
        pushed = await state.db.run_write(write)
        await state.publisher.push(pushed)
    return int(pushed["version"])


async def push_row(state: AppState, path: str, row: User | Appointment) -> None:
    """Push a row that a server function has just committed."""
    await state.publisher.push(row_snapshot(path, document_data(row), row.version))


async def publish_derived(state: AppState, path: str) -> None:
    """A derived document changed: raise its version, then push its snapshot.

    The version is raised in its own short transaction after the change's commit (so writers
    never queue on a counter row); computing and pushing happen under the document's lock.
    """
    found = match(path)
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            version = await bump_version(session, path=path)
        async with state.db.read() as session:
            loaded = await COLLECTIONS[found.rule.pattern].load(
                session, found.params, for_update=False
            )
        pushed = snapshot(path, loaded)
        pushed["version"] = version
        await state.publisher.push(pushed)
