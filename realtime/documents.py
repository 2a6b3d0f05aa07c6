"""Live documents: subscribe, unsubscribe, update, snapshots (docs/protocol.md, "Live documents").

A change is validated, authorized, committed, and only then pushed as a snapshot to the
room named by its path, through the one write path (realtime/changes.py).
"""

from collections.abc import Iterable
from typing import Any

from realtime.changes import changing, row_snapshot, snapshot
from realtime.collections import Rows, Vacancies
from realtime.errors import FunctionError
from realtime.follows import reader_params
from realtime.identity import Identity
from realtime.rules import DocMeta, Match, authorize, match, may_act_on
from realtime.state import AppState
from realtime.writable import validate_changes
from storage.documents import mark_changed
from storage.statements import Statements
from storage.types import utcnow

APPOINTMENTS = "appointments/{id}"
STAFF_READ = "Staff open an appointment through staff-appointment-read, which is audited."


def refuse_staff_reads(who: Identity | None, found: Match, doc: DocMeta | None) -> None:
    """Staff do not follow appointments: every staff read of one goes through the audited
    `staff-appointment-read` (docs/security.md, "Audit log"), as a followed document would
    push later changes nobody audited. Said only to staff of the appointment's clinic:
    anyone else is refused by the rules like for any document they may not see."""
    if (
        found.rule.pattern == APPOINTMENTS
        and who is not None
        and doc is not None
        and doc.owner_uid != who.uid
        and may_act_on(who, doc)
    ):
        raise FunctionError("PERMISSION_DENIED", STAFF_READ, {"function": "staff-appointment-read"})


async def may_read(state: AppState, who: Identity | None, path: str) -> Match:
    """The rule match of a document the caller may read, authorised from its metadata alone
    (no snapshot is built): a subscribe asks this before it joins the document's room."""
    found = match(path)
    check_read(who, found, await load_meta(state, found))
    return found


async def readers_of(state: AppState, found: Match, readers: Iterable[Identity]) -> list[Identity]:
    """Those of `readers` who may read the document, as `may_read` decides for each, from
    its metadata loaded once (a node sending a document again to its followers:
    realtime/resync.py)."""
    meta = await load_meta(state, found)
    allowed = []
    for who in readers:
        try:
            check_read(who, found, meta)
        except FunctionError:
            continue
        allowed.append(who)
    return allowed


async def load_meta(state: AppState, found: Match) -> DocMeta | None:
    """What the rules may know of the document, without building its data."""
    collection = state.collections[found.rule.pattern]
    if isinstance(collection, Rows):  # a point read (storage/db.py `run_read`)
        return await state.db.run_read(lambda st: collection.read_meta(st, found.params))
    if isinstance(collection, Vacancies):  # from the path alone
        return collection.meta_of(found.params)
    async with state.db.read() as session:
        return await collection.load_meta(session, found.params)


def check_read(who: Identity | None, found: Match, meta: DocMeta | None) -> None:
    refuse_staff_reads(who, found, meta)
    authorize(who, found, meta, "read")


async def read(state: AppState, who: Identity | None, found: Match) -> dict[str, Any]:
    """The current snapshot of a document the caller may read, authorised (again) from the
    metadata loaded with it, at no extra query. A document filtered per reader is
    authorised before it is built, and built for the reader's audience."""
    if found.rule.filtered:
        authorize(who, found, None, "read")
    collection = state.collections[found.rule.pattern]
    params = reader_params(who, found)
    if isinstance(collection, Rows):  # a point read (storage/db.py `run_read`)
        loaded = await state.db.run_read(lambda st: collection.read(st, params))
    else:
        async with state.db.read() as session:
            loaded = await collection.load(session, params, for_update=False)
    refuse_staff_reads(who, found, loaded.meta if loaded else None)
    authorize(who, found, loaded.meta if loaded else None, "read")
    return snapshot(found.path, loaded)


async def update(
    state: AppState,
    who: Identity | None,
    path: str,
    data: dict[str, Any],
    base_version: int | None,
) -> int:
    """Apply an update and return the new version; the push follows the commit."""
    found = match(path)
    collection = state.collections[found.rule.pattern]
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
        rows.check_stored(statements, row, changes)
        changed = {rows.apply(row, field_path, value) for field_path, value in changes.items()}
        mark_changed(row, utcnow())
        rows.save(statements, row, changed | {"updated", "version"})
        return row_snapshot(found.path, rows.data(row), row["version"])

    async with changing(state, found.path) as change:
        written = await state.db.run_write(write)
        change.row(found.path, written)
    return int(written["version"])
