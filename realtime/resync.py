"""Pushes lost to Redis come back from the database (docs/operations.md, "Redis down or
restarted").

A push published while a node does not listen to Redis never reaches that node's sockets,
and one whose publish failed reaches no other node; the sockets stay connected, so their
clients do not subscribe again. When that may have happened (realtime/push.py
`OrderedRedisManager.missed`: the node listens again, or another node says a publish of its
own failed), the node sends each of its own sockets the current snapshot of every document
it follows that changed meanwhile: the `snapshot` event and payload of a subscribe's
answer, read and authorised as `subscribe` does (realtime/documents.py), so clients see
nothing new (they keep the highest version they have seen).

- Each document is read once per audience (realtime/follows.py rooms), not once per socket,
  and emitted to its room when the room holds exactly the sockets that may have it (a
  bookings window's own room mixes audiences: its sockets are named).
- What this node already delivered (`OrderedRedisManager.delivered`, per room) is not sent
  again: derived documents are compared by version before they are computed, row documents
  after their point read. A window is sent when one of its day streams moved past what was
  pushed here and past the window last resent here; its snapshot replaces what the client
  holds, as a subscribe's answer does (the client then applies the pushes it kept).
- Sockets of a session that ended meanwhile get nothing (the session sweep closes them).
- At most RESYNC_BATCH documents per tick, with a pause between ticks, so that 10,000
  sockets do not stall the event loop; one line is logged per pass.
"""

import asyncio
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import socketio

from realtime import documents
from realtime.booking.feed_window import window_days, window_streams
from realtime.collections import Rows
from realtime.errors import FunctionError
from realtime.follows import WINDOW
from realtime.identity import Identity
from realtime.paths import INTERNAL, is_day_stream
from realtime.peers import Peer
from realtime.push import NAMESPACE, SNAPSHOT_EVENT, LatestVersions, OrderedRedisManager
from realtime.rules import Match, audience, match
from realtime.session_sweep import live_session_ids
from realtime.sockets import PEER
from realtime.state import AppState
from storage.repo_booking import versions_of
from storage.types import utcnow

log = logging.getLogger(__name__)

# Documents (one document as one audience reads it) checked and read per tick, and the pause
# between ticks, in which the node serves its live traffic.
RESYNC_BATCH = 200
RESYNC_PAUSE_SECONDS = 0.05
# Sockets looked at between two yields to the event loop while the followers are listed.
SOCKETS_PER_YIELD = 500
# Versions asked for in one statement (a window has up to 62 day streams).
VERSIONS_PER_QUERY = 500
# A pass that failed (the database unreachable) is tried again after this long.
RETRY_SECONDS = 2.0


@dataclass
class Target:
    """One document as one audience reads it, and this node's sockets that follow it so."""

    found: Match
    room: str  # where its pushes go: the path, a counselor's own room, or a window's path
    audience: str | None  # the readers' audience of a filtered document
    readers: dict[str, Identity] = field(default_factory=dict)  # sid -> who

    @property
    def window(self) -> bool:
        return self.found.rule.pattern == WINDOW

    def version_keys(self) -> list[tuple[str, str]]:
        """(key in `document_versions`, room delivered to) of what its version is made of:
        a derived document's own, or a window's day streams."""
        if not self.window:
            return [(self.found.path, self.room)]
        params = self.found.params
        days = window_days(params["first"], params["last"])
        streams = window_streams(params["clinicId"], self.audience or "", days)
        return [(stream, stream) for stream in streams]

    @property
    def resent_key(self) -> str:
        """Under which a window's version (the sum of its days) is noted in `delivered` once
        resent to its audience here: not a room (none is named so), as no push carries it."""
        return f"{self.room}{INTERNAL}{self.audience}"

    def moved_on(self, versions: dict[str, int], delivered: LatestVersions) -> bool:
        """Whether its document (a window: one of its days) is newer than what its sockets
        were delivered here, by push or by a resync."""
        keys = self.version_keys()
        if not any(versions[key] > delivered.newest(room) for key, room in keys):
            return False
        if not self.window:
            return True
        return sum(versions[key] for key, _ in keys) != delivered.newest(self.resent_key)


def followed_room(room: object) -> tuple[Match, str | None] | None:
    """A room that carries a document's pushes: the document and, for a counselor's own
    room, the counselor (None for another room: a socket's own, a day stream)."""
    if not isinstance(room, str) or is_day_stream(room):
        return None
    path, _, counselor = room.partition(INTERNAL)
    try:
        return match(path), counselor or None
    except FunctionError:  # not a document: a sid, a session's or an address's room
        return None


async def identity_of(sio: socketio.AsyncServer, sid: str) -> Identity | None:
    try:
        peer = (await sio.get_session(sid)).get(PEER)
    except KeyError:  # closed meanwhile
        return None
    return peer.who if isinstance(peer, Peer) else None


async def local_targets(sio: socketio.AsyncServer) -> list[Target]:
    """What this node's sockets follow, one Target per room and audience."""
    rooms = sio.manager.rooms.get(NAMESPACE, {})
    identities: dict[str, Identity | None] = {}
    targets: dict[tuple[str, str | None], Target] = {}
    for room, members in list(rooms.items()):
        place = followed_room(room)
        if place is None:
            continue
        found, counselor = place
        for sid in list(members):
            if sid not in identities:
                identities[sid] = await identity_of(sio, sid)
                if len(identities) % SOCKETS_PER_YIELD == 0:
                    await asyncio.sleep(0)
            who = identities[sid]
            if who is None:
                continue
            reader = counselor or (audience(who) if found.rule.filtered else None)
            target = targets.setdefault((room, reader), Target(found, room, reader))
            target.readers[sid] = who
    return list(targets.values())


async def current_versions(state: AppState, keys: Iterable[str]) -> dict[str, int]:
    wanted = sorted(set(keys))
    versions: dict[str, int] = {}
    for start in range(0, len(wanted), VERSIONS_PER_QUERY):
        async with state.db.read() as session:
            versions |= await versions_of(session, paths=wanted[start : start + VERSIONS_PER_QUERY])
    return versions


async def changed(state: AppState, batch: list[Target], delivered: LatestVersions) -> list[Target]:
    """The targets that may have changed past what this node delivered: a derived document
    whose version (a window: one of its days) is newer, every row document (its point read
    tells)."""
    derived = {
        id(t): t.version_keys()
        for t in batch
        if not isinstance(state.collections[t.found.rule.pattern], Rows)
    }
    versions = await current_versions(state, (key for keys in derived.values() for key, _ in keys))
    return [t for t in batch if id(t) not in derived or t.moved_on(versions, delivered)]


async def resend(state: AppState, manager: OrderedRedisManager, target: Target) -> int:
    """Read the target's document once, as `subscribe` does, and send it to its sockets
    that may read it; returns how many sockets it went to."""
    allowed = set(await documents.readers_of(state, target.found, set(target.readers.values())))
    if not allowed:
        return 0
    snapshot = await documents.read(state, next(iter(allowed)), target.found)
    version = int(snapshot["version"])
    if not target.window and version <= manager.delivered.newest(target.room):
        return 0  # delivered already (a push came while it was read)
    sids = [sid for sid, who in target.readers.items() if who in allowed]
    members = {sid for sid, _ in manager.get_participants(NAMESPACE, target.room)}
    whole = members == set(sids)
    # Noted before the emit, which awaits: a push of this version arriving meanwhile is then
    # not delivered to the room a second time (push.py `_handle_emit`).
    if target.window:  # its days' streams stay as pushed: other windows share them
        manager.delivered.advance(target.resent_key, version)
    elif whole:
        manager.delivered.advance(target.room, version)
    await state.publisher.sio.emit(
        SNAPSHOT_EVENT, snapshot, to=target.room if whole else sids, ignore_queue=True
    )
    return len(sids)


@dataclass
class Counts:
    sockets: int = 0
    documents: int = 0
    read: int = 0
    sent: int = 0


async def live_readers(state: AppState, targets: list[Target]) -> int:
    """Drop the sockets of sessions that ended (revoked, idle) from every target; returns how
    many sockets remain."""
    sessions = sorted({who.session_id for t in targets for who in t.readers.values()})
    live = await live_session_ids(state, sessions, utcnow())
    sockets: set[str] = set()
    for target in targets:
        target.readers = {s: w for s, w in target.readers.items() if w.session_id in live}
        sockets.update(target.readers)
    return len(sockets)


async def resync_followers(state: AppState, manager: OrderedRedisManager) -> Counts | None:
    """One pass over this node's followers (None: nobody follows anything here)."""
    targets = await local_targets(state.publisher.sio)
    if not targets:
        return None
    counts = Counts(await live_readers(state, targets), len(targets))
    for start in range(0, len(targets), RESYNC_BATCH):
        for target in await changed(
            state, targets[start : start + RESYNC_BATCH], manager.delivered
        ):
            if not target.readers:
                continue
            counts.read += 1
            try:
                counts.sent += await resend(state, manager, target)
            except FunctionError:  # refused or gone: as a subscribe would be, nothing is sent
                continue
        await asyncio.sleep(RESYNC_PAUSE_SECONDS)
    return counts


class Resync:
    """Runs one pass at a time; asked again meanwhile, it runs one more pass after it (which
    covers whatever the request was about)."""

    def __init__(self, state: AppState, manager: OrderedRedisManager) -> None:
        self.state = state
        self.manager = manager
        self._wanted = False
        self._task: asyncio.Task[None] | None = None

    def request(self) -> None:
        self._wanted = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._wanted:
            self._wanted = False
            began = time.monotonic()
            try:
                counts = await resync_followers(self.state, self.manager)
            except Exception as exc:  # the database unreachable, say: the next pass sends it
                log.warning("resync failed (%s); trying again in %s s", exc, RETRY_SECONDS)
                self._wanted = True
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if counts is not None:
                log.warning(
                    "resync after Redis: %d sockets, %d documents, %d read, %d sockets sent "
                    "a snapshot, in %.2f s",
                    counts.sockets,
                    counts.documents,
                    counts.read,
                    counts.sent,
                    time.monotonic() - began,
                )


def install_resync(state: AppState) -> None:
    """With Redis, the node's manager asks for a pass whenever pushes may have been missed."""
    manager: Any = state.publisher.sio.manager
    if isinstance(manager, OrderedRedisManager):
        manager.missed = Resync(state, manager).request
