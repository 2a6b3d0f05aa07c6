"""The one write path: a `Change` filled inside the transaction, one `publish` after it.

Every write (a document update, a booking call, a payment outcome, a job, presence) does

    async with changing(state, path, ...) as change:   # the written documents' locks
        async with state.db.write() as session:
            ...                                          # the write itself
            change.row(path, row)                        # and what it did, as it does it

and when the block ends without an error, `publish` does what follows a commit, always in
this order (docs/architecture.md, "The write path"):

1. this process's month cache takes the claim changes (before anything else is awaited, so
   that holds racing for a time just taken are refused from the cache);
2. the written rows are pushed, each under its lock, which is released right after;
3. the queued mails are handed to delivery;
4. the derived documents are versioned (unless the transaction did it) and pushed: the
   months and bookings feed a claim change touches, the changes of the bookings windows
   (each appointment row of a clinic whose feed changed), the feeds of status changes, and
   any other derived document (presence, the audit cue);
5. the sessions the change ended are told and closed;
6. calls to the outside that must follow the commit (a refund, expiring a checkout).

A block that raises publishes nothing: its transaction was rolled back.
"""

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from realtime.booking.feed_window import Moved, Position, position_of
from realtime.booking.publish import (
    ClaimChange,
    Versioned,
    advance,
    audiences,
    committed,
    publish_claim_change,
    publish_feed,
    publish_versioned,
    publish_window_changes,
    push_audiences,
)
from realtime.collections import ClinicView, Loaded, document_data
from realtime.mail.outbox import Queued
from realtime.paths import EVERYONE
from realtime.push import HeldLocks
from realtime.rules import match
from realtime.state import AppState
from storage.models import Appointment, User
from storage.repo_booking import bump_version

Snapshot = dict[str, Any]
After = Callable[[], Awaitable[object]]


def snapshot(path: str, loaded: Loaded | None) -> Snapshot:
    if loaded is None:
        return {"path": path, "exists": False, "data": None, "version": 0}
    return {
        "path": path,
        "exists": loaded.data is not None,
        "data": loaded.data,
        "version": loaded.version,
    }


def row_snapshot(path: str, data: dict[str, Any], version: int) -> Snapshot:
    """The snapshot of a document stored as a row (it exists)."""
    return {"path": path, "exists": True, "data": data, "version": version}


@dataclass(frozen=True)
class Claims:
    """A change of a clinic's claims: `moments` are the starts of the claims that changed;
    `service_id` the service whose documents are pushed first; `change` what changed, when
    known (the month cache then moves without a computation); `versioned` the documents
    whose versions the transaction raised itself (a hold's)."""

    clinic_id: str
    moments: list[datetime]
    service_id: str | None = None
    change: ClaimChange | None = None
    versioned: Versioned | None = None


@dataclass
class Change:
    """What one committed write did, recorded while it did it."""

    rows: dict[str, User | Appointment | Snapshot] = field(default_factory=dict)
    claims: list[Claims] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)  # clinics whose bookings feed changed
    derived: list[str] = field(default_factory=list)  # other derived documents' paths
    mails: list[Queued] = field(default_factory=list)
    ended: list[tuple[int, bool]] = field(default_factory=list)  # (session, after the reply)
    after: list[After] = field(default_factory=list)
    # Where appointments stood in the bookings feed before the write moved them.
    positions: dict[str, Position | None] = field(default_factory=dict)

    def row(self, path: str, row: User | Appointment | Snapshot) -> None:
        """A row document written (its snapshot is taken at the push: the row as committed),
        or the snapshot of one built inside its transaction."""
        self.rows[path] = row

    def claims_changed(self, claims: Claims) -> None:
        self.claims.append(claims)

    def feed(self, clinic_id: str) -> None:
        """The bookings feed changed without a claim (a status, a payment)."""
        if clinic_id not in self.feeds:
            self.feeds.append(clinic_id)

    def moving(self, row: Appointment) -> None:
        """Call before a write changes an appointment's day, counselor or time (or clears
        them): the bookings window then tells the day it leaves (`removed`). An appointment
        recorded with `row` and not said to move stayed where it was."""
        self.positions.setdefault(row.id, position_of(row))

    def derived_changed(self, path: str) -> None:
        if path not in self.derived:
            self.derived.append(path)

    def mail(self, *queued: Queued) -> None:
        self.mails.extend(queued)

    def end_sessions(self, session_ids: list[int], *, after_reply: bool) -> None:
        """`after_reply`: the change is a call of one of these sessions, whose reply must
        reach it before its sockets close."""
        self.ended.extend((session_id, after_reply) for session_id in session_ids)

    def then(self, call: After) -> None:
        """A call to the outside that must follow the commit and the pushes."""
        self.after.append(call)


@asynccontextmanager
async def changing(state: AppState, *paths: str) -> AsyncIterator[Change]:
    """Hold the locks of the documents a write changes (so that pushes leave in commit
    order) and publish what it recorded once the block ends without an error."""
    locks = await state.publisher.lock_all(paths)
    change = Change()
    try:
        yield change
    except BaseException:
        locks.release_all()
        raise
    await publish(state, change, locks)


async def publish(state: AppState, change: Change, locks: HeldLocks | None = None) -> None:
    """What follows the commit of `change`, in the order of the module's docstring."""
    for claims in change.claims:
        if claims.versioned is not None:
            advance(state, claims.versioned, claims.change)
        else:
            committed(state, claims.clinic_id, claims.change)
    try:
        for path, row in change.rows.items():
            await state.publisher.push(_snapshot(path, row))
            if locks is not None:
                locks.release(path)
    finally:
        if locks is not None:
            locks.release_all()
    for mail in change.mails:
        state.mailer.deliver(mail)
    await _publish_documents(state, change)
    for session_id, after_reply in change.ended:
        if after_reply:
            state.publisher.end_session_after_reply(session_id)
        else:
            await state.publisher.end_session(session_id)
    for call in change.after:
        await call()


def _snapshot(path: str, row: User | Appointment | Snapshot) -> Snapshot:
    if isinstance(row, dict):
        return row
    return row_snapshot(path, document_data(row), row.version)


async def _publish_documents(state: AppState, change: Change) -> None:
    """A claim change publishes its clinic's feed with its months; then the bookings
    windows; a feed is published alone (after the windows) only for a clinic whose claims
    did not change."""
    for claims in change.claims:
        if claims.versioned is not None:
            await publish_versioned(state, claims.versioned)
        else:
            await publish_claim_change(
                state,
                clinic_id=claims.clinic_id,
                moments=claims.moments,
                service_id=claims.service_id,
                change=claims.change,
            )
    with_claims = {claims.clinic_id for claims in change.claims}
    # The windows before a v1 feed published alone: their pushes are a few entries, the
    # feed is the whole list, recomputed (a board following a window waited for it).
    for clinic_id, moved in _moved(change, with_claims | set(change.feeds)).items():
        await publish_window_changes(state, clinic_id=clinic_id, moved=moved)
    for clinic_id in change.feeds:
        if clinic_id not in with_claims:
            await publish_feed(state, clinic_id=clinic_id)
    for path in change.derived:
        await _publish_derived(state, path)


def _moved(change: Change, clinics: set[str]) -> dict[str, list[Moved]]:
    """The appointments of the clinics whose feed changed, as committed, with where each
    stood before (realtime/booking/feed_window.py), by clinic."""
    moved: dict[str, list[Moved]] = {}
    for row in change.rows.values():
        if isinstance(row, Appointment) and row.clinic_id in clinics:
            was = change.positions.get(row.id, position_of(row))
            moved.setdefault(row.clinic_id, []).append(Moved(row, was))
    return moved


async def _publish_derived(state: AppState, path: str) -> None:
    """A derived document other than the booking ones (presence, the audit cue): its
    version is raised in a short transaction of its own after the change's commit (writers
    never queue on a counter row); computing and pushing happen under the document's lock."""
    found = match(path)
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            version = await bump_version(session, path=path)
        collection = state.collections[found.rule.pattern]
        filtered = collection.for_audience if isinstance(collection, ClinicView) else None
        counselors: list[str] = []
        async with state.db.read() as session:
            loaded = await collection.load(session, found.params, for_update=False)
            if filtered is not None and loaded is not None:
                counselors = await audiences(state, session, path, found.params["clinicId"])
        whole = snapshot(path, loaded)
        whole["version"] = version
        if filtered is not None and whole["data"] is not None:
            # The clinic_admins' copy, then each counselor's, from the one computation.
            await state.publisher.push({**whole, "data": filtered(whole["data"], EVERYONE)})
            await push_audiences(state, whole, counselors, filtered)
        else:
            await state.publisher.push(whole)
