"""After a claim changes: new versions and snapshots of the derived documents it affects.

A claim of a counselor changes the free slots of every service of the clinic for the month
it falls in (and the neighbouring month when the claim is within one session and buffer of
the month's edge: slots on either side of midnight overlap it), and the clinic's bookings
feed. These are step 4 of the one write path (realtime/changes.py `publish`), which calls
them with the `Claims` a write recorded; `version_in` runs inside a hold's own transaction.

How, for speed (docs/benchmarks.md, "Booking"), keeping the order of docs/protocol.md,
"Live documents":
- the clinic's services come from the catalog kept per process while the clinic's catalog
  version holds (realtime/booking/catalog.py: one primary-key read here);
- every affected document is locked (in path order, so that two publishers cannot deadlock)
  and all their versions are raised in one statement; on PostgreSQL one connection, without
  a transaction, serves the catalog, the versions and the pushes (each session costs the
  pool's ping of an idle connection: realtime/booking/sessions.py);
- when the caller says what changed (`ClaimChange`), this process's cached months move to the
  new versions by applying it (slot_cache.py `advance`), without a query;
- then each is computed and pushed in turn, its lock released right after its push, the
  document of the claim's own service first (that is the calendar people are looking at);
- a document nobody follows is not computed at all when this process is the only node (no
  Redis): its new version is enough for the next reader, who computes it through the month
  cache. With Redis, followers may sit on other nodes, so every document is pushed.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from realtime.booking.feed import feed_data, feed_for
from realtime.booking.feed_window import Moved, stream_changes
from realtime.booking.schedule import Busy
from realtime.booking.sessions import autocommit
from realtime.booking.vacancies import month_data, month_of, month_times
from realtime.paths import INTERNAL, audience_room, feed_path, vacancies_path
from realtime.push import CHANGES_EVENT, NAMESPACE, SNAPSHOT_EVENT, HeldLocks, LocalManager
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Clinic, Service, SlotClaim
from storage.repo_appointments import clinic_counselor_ids
from storage.repo_booking import bump_versions
from storage.types import utcnow

Document = tuple[str, Service | None, str]  # path, service (None: the feed), month


@dataclass(frozen=True)
class ClaimChange:
    """What a committed change did to the claims, when the caller knows it: the month cache
    then moves to the new version without a new computation (slot_cache.py `advance`)."""

    added: list[Busy] = field(default_factory=list)
    removed: list[Busy] = field(default_factory=list)
    expires_at: datetime | None = None  # of the added hold

    @classmethod
    def of(cls, added: SlotClaim | None = None, removed: SlotClaim | None = None) -> "ClaimChange":
        return cls(
            [busy_of(added)] if added is not None else [],
            [busy_of(removed)] if removed is not None else [],
            added.expires_at if added is not None else None,
        )


def committed(state: AppState, clinic_id: str, change: ClaimChange | None) -> None:
    """Right after the commit of a change of claims, before its versions are raised: this
    process's cached months of the clinic take it (slot_cache.py `committed`)."""
    if change is not None:
        state.caches.months.committed(
            clinic_id,
            now=utcnow(),
            added=change.added,
            removed=change.removed,
            expires_at=change.expires_at,
        )


@dataclass(frozen=True)
class Versioned:
    """The derived documents a change touches, versioned inside the change's transaction."""

    clinic: Clinic
    documents: list[Document]
    versions: dict[str, int]


async def version_in(
    state: AppState,
    session: AsyncSession,
    *,
    clinic_id: str,
    moments: list[datetime],
    service_id: str | None,
) -> Versioned | None:
    """Inside the change's own transaction (a hold's): raise the versions of the documents
    it touches, in one statement. They become visible with the change itself, to every
    process at once, and cost no session of their own (on PostgreSQL a session may start
    with the pool's three-round-trip ping: storage/db.py). The version rows stay locked
    until the commit: concurrent holds of one clinic and month queue there for a few
    milliseconds, as their publishing would on the documents' locks anyway."""
    found = await state.caches.catalogs.get(session, clinic_id)
    if found is None:
        return None
    documents = _documents(*found, moments, service_id)
    versions = await bump_versions(session, paths=[path for path, _, _ in documents])
    return Versioned(found[0], documents, versions)


def advance(state: AppState, versioned: Versioned, change: ClaimChange | None) -> None:
    """Right after the commit of a change versioned by `version_in`: this process's cached
    months move to the new versions (before anything else is awaited, so that holds racing
    for the time just taken are refused from the cache)."""
    if change is not None:
        _advance(state, versioned.clinic, versioned.documents, versioned.versions, change)


async def publish_versioned(state: AppState, versioned: Versioned) -> None:
    """Then the followed documents are pushed, under their locks."""
    locks = await state.publisher.lock_all(path for path, _, _ in versioned.documents)
    try:
        await _push_all(state, versioned.clinic, versioned.documents, versioned.versions, locks)
    finally:
        locks.release_all()


def busy_of(claim: SlotClaim) -> Busy:
    return Busy(claim.counselor_id, claim.start, claim.blocked_until, claim.appointment_id)


async def publish_claim_change(
    state: AppState,
    *,
    clinic_id: str,
    moments: list[datetime],
    service_id: str | None = None,
    change: ClaimChange | None = None,
) -> None:
    """`moments`: starts of the claims that changed; `service_id`: the claim's service,
    whose documents are pushed first; `change`: what changed, when known."""
    if state.db.sqlite:  # a read, then the write transaction of the versions
        async with state.db.read() as session:
            found = await state.caches.catalogs.get(session, clinic_id)
        if found is not None:
            documents = _documents(*found, moments, service_id)
            await _publish(state, found[0], documents, change, None)
        return
    # PostgreSQL: one connection (no transaction) for the catalog, the versions and the pushes.
    async with autocommit(state.db) as session:
        found = await state.caches.catalogs.get(session, clinic_id)
        if found is not None:
            documents = _documents(*found, moments, service_id)
            await _publish(state, found[0], documents, change, session)


def _documents(
    clinic: Clinic, services: list[Service], moments: list[datetime], service_id: str | None
) -> list[Document]:
    """The month documents of every service that the claims can touch, in push order, and
    the bookings feed."""
    services.sort(key=lambda s: s.id != service_id)  # stable: the claim's service first
    reach = timedelta(
        minutes=max((s.session_minutes + s.buffer_minutes for s in services), default=0)
    )
    months = affected_months(moments, clinic.timezone, reach)
    documents: list[Document] = [
        (vacancies_path(clinic.id, service.id, month), service, month)
        for month in months
        for service in services
    ]
    documents.append((feed_path(clinic.id), None, ""))
    return documents


def affected_months(moments: list[datetime], timezone: str, reach: timedelta) -> list[str]:
    """Months whose free slots a claim starting at one of `moments` can change: a slot
    overlaps it when it starts less than a session and buffer (`reach`, the longest of the
    clinic's services) before the claim or before its end and buffer. The months of the
    moments themselves come first."""
    own = [month_of(moment, timezone) for moment in moments]
    near = {month_of(moment + shift, timezone) for moment in moments for shift in (-reach, reach)}
    return list(dict.fromkeys([*own, *sorted(near)]))


async def _publish(
    state: AppState,
    clinic: Clinic,
    documents: Sequence[Document],
    change: ClaimChange | None,
    session: AsyncSession | None,
) -> None:
    """`session`: an autocommit session for the versions (PostgreSQL), or None (SQLite: a
    write transaction)."""
    paths = [path for path, _, _ in documents]
    locks = await state.publisher.lock_all(paths)
    try:
        if session is None:
            async with state.db.write() as writing:
                versions = await bump_versions(writing, paths=paths)
        else:
            versions = await bump_versions(session, paths=paths)
        if change is not None:
            _advance(state, clinic, documents, versions, change)
        await _push_all(state, clinic, documents, versions, locks)
    finally:
        locks.release_all()


def _advance(
    state: AppState,
    clinic: Clinic,
    documents: Sequence[Document],
    versions: dict[str, int],
    change: ClaimChange,
) -> None:
    """Move this process's cached months to their new versions (followed or not: the next
    hold's first look reads them too)."""
    cache = state.caches.months
    now = utcnow()
    for path, service, month in documents:
        if service is not None:
            cache.advance(
                (clinic.id, service.id, month),
                version=versions[path],
                now=now,
                added=change.added,
                removed=change.removed,
                expires_at=change.expires_at,
            )


async def _push_all(
    state: AppState,
    clinic: Clinic,
    documents: Sequence[Document],
    versions: dict[str, int],
    locks: HeldLocks,
) -> None:
    """Compute and push each followed document in turn, releasing its lock after its push.

    A version no newer than one already pushed is not computed (that snapshot contained its
    change: the publisher's guard, realtime/push.py): versions raised inside the changes'
    transactions are numbered in commit order, but their publishers may reach the lock in
    another order."""
    publisher = state.publisher
    for path, service, month in documents:
        version = versions[path]
        feed = service is None
        followed = publisher.followed(path) or (feed and bool(_local_audiences(state, path)))
        if followed and not publisher.stale(path, version):
            async with autocommit(state.db) as session:
                data = await _data(state, session, clinic, service, month, version)
                counselors = await audiences(state, session, path, clinic.id) if feed else []
            pushed = {"path": path, "exists": True, "data": data, "version": version}
            await publisher.push(pushed)  # the v1 feed of clinic_admins is the whole list
            await push_audiences(state, pushed, counselors, feed_for)
        locks.release(path)


async def _data(
    state: AppState,
    session: AsyncSession,
    clinic: Clinic,
    service: Service | None,
    month: str,
    version: int,
) -> dict[str, Any]:
    """A document's data at `version`."""
    if service is None:
        return await feed_data(session, clinic_id=clinic.id)
    now = utcnow()
    times = await month_times(
        session,
        cache=state.caches.months,
        clinic=clinic,
        service=service,
        month=month,
        version=version,
        now=now,
    )
    return month_data(clinic, service, times, now)


async def publish_feed(state: AppState, *, clinic_id: str) -> None:
    """The bookings feed alone (a status changed, no claim): versioned and pushed like the
    documents of a claim change, so that its pushes keep the same order."""
    documents: list[Document] = [(feed_path(clinic_id), None, "")]
    if state.db.sqlite:  # a read, then the write transaction of the version
        async with state.db.read() as session:
            found = await state.caches.catalogs.get(session, clinic_id)
        if found is not None:
            await _publish(state, found[0], documents, None, None)
        return
    async with autocommit(state.db) as session:
        found = await state.caches.catalogs.get(session, clinic_id)
        if found is not None:
            await _publish(state, found[0], documents, None, session)


def _local_audiences(state: AppState, path: str) -> list[str]:
    """The counselors with a socket in their own room of `path` on this node."""
    prefix = f"{path}{INTERNAL}"
    rooms = state.publisher.sio.manager.rooms.get(NAMESPACE, {})
    return [
        room.removeprefix(prefix)
        for room, members in list(rooms.items())
        if isinstance(room, str) and room.startswith(prefix) and members
    ]


async def audiences(state: AppState, session: AsyncSession, path: str, clinic_id: str) -> list[str]:
    """The counselors whose own copy of a clinic staff document is pushed (realtime/follows.py).
    Alone, this node knows who follows: only their copies are made; with Redis, followers
    may be on other nodes, so every counselor of the clinic gets one (one query, in the
    session that computes the document)."""
    if isinstance(state.publisher.sio.manager, LocalManager):
        return _local_audiences(state, path)
    return await clinic_counselor_ids(session, clinic_id=clinic_id)


async def push_audiences(
    state: AppState,
    snapshot: dict[str, Any],
    counselors: list[str],
    for_audience: Callable[[dict[str, Any], str], dict[str, Any]],
) -> None:
    """After a clinic staff document's whole snapshot (its clinic_admins' room): each
    counselor's copy, filtered from that one computation, to the counselor's own room."""
    path, data = snapshot["path"], snapshot["data"]
    if data is None:
        return
    for counselor_id in counselors:
        await state.publisher.sio.emit(
            SNAPSHOT_EVENT,
            {**snapshot, "data": for_audience(data, counselor_id)},
            room=audience_room(path, counselor_id),
        )


async def publish_window_changes(state: AppState, *, clinic_id: str, moved: list[Moved]) -> None:
    """The bookings windows' part of a change (realtime/booking/feed_window.py): its entries
    computed once, then per day stream a new version and one push, under the stream's lock
    (two publishers of one stream on this node push in version order). A stream nobody
    follows is left alone when this process is the only node: a later subscriber reads the
    current version, and one joining meanwhile reads rows committed before this point."""
    changes = stream_changes(clinic_id, moved)
    publisher = state.publisher
    # A stream that only loses bookings first: a move's `removed` then reaches a window
    # that holds both days before its `added` (clients also remove a booking only from the
    # day it is on: docs/protocol.md, "The bookings window").
    streams = sorted(
        (stream for stream in changes if publisher.followed(stream.key)),
        key=lambda s: (any(c["type"] != "removed" for c in changes[s]), s.key),
    )
    if not streams:
        return
    keys = [stream.key for stream in streams]
    locks = await publisher.lock_all(keys)
    try:
        if state.db.sqlite:
            async with state.db.write() as writing:
                versions = await bump_versions(writing, paths=keys)
        else:
            async with autocommit(state.db) as session:
                versions = await bump_versions(session, paths=keys)
        for stream in streams:
            payload = stream.push(versions[stream.key], changes[stream])
            await publisher.sio.emit(CHANGES_EVENT, payload, room=stream.key)
            locks.release(stream.key)
    finally:
        locks.release_all()
