"""Live documents: subscribe, unsubscribe, update, snapshots (PROTOCOL section 3).

A change is validated, authorized, committed, and only then pushed as a snapshot to the
room named by its path (see realtime/push.py for ordering).
"""

from datetime import datetime
from typing import Any

from realtime.collections import COLLECTIONS, Loaded, document_data
from realtime.errors import FunctionError
from realtime.rules import authorize, match
from realtime.state import AppState
from realtime.writable import validate_changes
from storage.models import Appointment, User
from storage.repo_booking import bump_version
from storage.repo_users import Identity
from storage.types import utcnow


def mark_changed(row: User | Appointment, at: datetime) -> None:
    """A committed change of a live document: its time and one more version."""
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


def row_snapshot(path: str, row: User | Appointment) -> dict[str, Any]:
    return {"path": path, "exists": True, "data": document_data(row), "version": row.version}


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
        raise FunctionError("INVALID_ARGUMENT", "baseVersion must be an integer.")
    collection = COLLECTIONS[found.rule.pattern]
    async with state.publisher.ordered(found.path):
        async with state.db.write() as session:
            loaded = await collection.load(session, found.params, for_update=True)
            authorize(who, found, loaded.meta if loaded else None, "write")
            if loaded is None or loaded.row is None:
                raise FunctionError("NOT_FOUND", "The document does not exist.")
            if base_version is not None and base_version != loaded.version:
                raise FunctionError(
                    "ABORTED",
                    "The document changed meanwhile; reload it and try again.",
                    {"version": loaded.version},
                )
            row = loaded.row
            context = await collection.write_context(session, row)
            changes = validate_changes(found.rule.collection, data, context)
            for field_path, value in changes.items():
                collection.apply(row, field_path, value)
            mark_changed(row, utcnow())
            pushed = row_snapshot(found.path, row)
        await state.publisher.push(pushed)
    return int(pushed["version"])


async def push_row(state: AppState, path: str, row: User | Appointment) -> None:
    """Push a row that a server function has just committed."""
    await state.publisher.push(row_snapshot(path, row))


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
