"""Pushes of committed changes, in commit order per document, on every node.

Order inside one process: a change is committed and emitted while holding that
document's lock, so two local writers emit in the order they committed.
Order across processes (Redis), and between derived documents whose versions are raised in
commit order but pushed in lock order: each node keeps one `LatestVersions`, the newest
version it pushed or delivered per document, and drops an older snapshot, before computing
it (`Publisher.stale`), before emitting it (`Publisher.push`) and when one arrives late
from another node (`OrderedRedisManager`). A snapshot carries the whole document, so the
newer one already contains whatever the dropped one said.

Pushes lost to Redis (published while a node did not listen, or whose publish failed) are
sent again from the database by realtime/resync.py, when `OrderedRedisManager.missed`
says so.
"""

import asyncio
import logging
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import socketio

from realtime.broadcast import FrameBroadcast
from realtime.room_index import IndexedRooms

SNAPSHOT_EVENT = "snapshot"
# The server's event carrying a bookings window's day stream changes (the client mirrors it:
# realtime/booking/feed_window.py).
CHANGES_EVENT = "changes"
SESSION_EVENT = "session"
# What a node publishes, once Redis takes its publishes again, after one of them failed: the
# other nodes missed that push, so each sends its own followers what changed meanwhile
# (realtime/resync.py). Never delivered to a socket: no socket joins a room holding "~".
RESYNC_EVENT = "resync"
RESYNC_ROOM = "~resync"
NAMESPACE = "/"
log = logging.getLogger(__name__)

# Longest wait for a call's own reply before its session's sockets are closed anyway.
REPLY_WAIT_SECONDS = 10.0
# How many documents each node remembers the last delivered version of.
VERSION_MEMORY = 100_000
# How soon a node tries again to listen to Redis after losing it (python-socketio's own
# listener doubles its pause up to 60 s: after an 8 s outage a node listened again only 7 s
# after Redis was back, and its followers missed every push of that time).
LISTEN_RETRY_SECONDS = 0.5
# How long the subscription's connection may stay silent before the node takes it for dead
# and subscribes again on a new one (setting REDIS_SILENCE_SECONDS). A connection can die
# without a word (Redis's host gone without a reset, a NAT or firewall that forgot it, a
# partition): redis-py's `listen()` then waits forever, as its reads of a subscription
# have no timeout (`socket_timeout` does not apply to them; `health_check_interval` sends
# a PING before a read but nothing waits for the answer; TCP keepalive needs 45 s with
# redis-py's options, and never notices when a proxy on the way still answers it), and the
# node stops receiving the other nodes' pushes while it still publishes its own. So the
# listener PINGs after a third of this without a message, and gives up when not even the
# answer came by its end: 2 s for a PONG that takes about a millisecond on a LAN, with
# room for a Redis busy with a slow command and for this node's event loop busy with a
# fan-out (docs/benchmarks.md: 286 ms p99 to 10,000 sockets). Each reconnection costs a
# resync pass, so not shorter.
REDIS_SILENCE_SECONDS = 3.0


class LatestVersions:
    """A bounded map document path -> newest version pushed or delivered by this node
    (the least recently moved forgotten first)."""

    def __init__(self, capacity: int = VERSION_MEMORY) -> None:
        self._versions: OrderedDict[str, int] = OrderedDict()
        self._capacity = capacity

    def advance(self, path: str, version: int) -> bool:
        """Record `version` for `path`; False when a newer one was already delivered."""
        held = self._versions.get(path)
        if held is not None and version < held:
            return False
        self._versions[path] = version
        self._versions.move_to_end(path)
        if len(self._versions) > self._capacity:
            self._versions.popitem(last=False)
        return True

    def newest(self, path: str) -> int:
        """The newest version of `path` pushed or delivered (0: none remembered)."""
        return self._versions.get(path, 0)


def _snapshot_of(message: dict[str, Any]) -> dict[str, Any] | None:
    data = message.get("data")
    if message.get("event") != SNAPSHOT_EVENT or not isinstance(data, list) or not data:
        return None
    first = data[0]
    return first if isinstance(first, dict) else None


SESSION_ROOM_PREFIX = "session:"


def session_room(session_id: int) -> str:
    """Every socket of a signed-in session is in this room."""
    return f"{SESSION_ROOM_PREFIX}{session_id}"


def local_session_ids(manager: Any) -> list[int]:
    """The sessions that have a socket on this node (their rooms in this node's manager)."""
    rooms = manager.rooms.get(NAMESPACE, {})
    return [
        int(room.removeprefix(SESSION_ROOM_PREFIX))
        for room in list(rooms)
        if isinstance(room, str) and room.startswith(SESSION_ROOM_PREFIX)
    ]


def _ends_session(event: object, data: object, room: object) -> bool:
    return (
        event == SESSION_EVENT
        and isinstance(room, str)
        and room.startswith(SESSION_ROOM_PREFIX)
        and isinstance(data, dict)
        and data.get("state") == "expired"
    )


async def _disconnect_room(manager: Any, room: str) -> None:
    """Close this node's sockets in `room` (each node does so for its own)."""
    for sid, _eio_sid in list(manager.get_participants(NAMESPACE, room)):
        await manager.server.disconnect(sid, namespace=NAMESPACE, ignore_queue=True)


class LocalManager(IndexedRooms, FrameBroadcast):
    """The in-process manager; closes a session's sockets once told it has expired."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latest = LatestVersions()  # checked by the Publisher before each emit

    async def emit(
        self, event: str, data: Any, namespace: str, room: Any = None, **kw: Any
    ) -> None:
        await super().emit(event, data, namespace, room=room, **kw)
        if _ends_session(event, data, room):
            await _disconnect_room(self, room)


class SilentRedis(ConnectionError):
    """The subscription's connection brought nothing, not even the answer to a PING."""


async def heard(pubsub: Any, silence_seconds: float) -> AsyncIterator[dict[str, Any]]:
    """What Redis sends on a subscription, as `pubsub.listen()` yields it (PONGs left out),
    but raising SilentRedis once the connection has brought nothing for `silence_seconds`
    (REDIS_SILENCE_SECONDS): a PING goes out after a third of that. The silence is counted
    while waiting only, not while the consumer handles what was yielded."""
    loop = asyncio.get_running_loop()
    ping_after = silence_seconds / 3
    quiet_since = loop.time()
    pinged = False
    while True:
        quiet = loop.time() - quiet_since
        if quiet >= silence_seconds:
            raise SilentRedis(f"no message and no answer to PING for {silence_seconds:g} s")
        if not pinged and quiet >= ping_after:
            await pubsub.ping()
            pinged = True
        wait = (silence_seconds if pinged else ping_after) - quiet
        message = await pubsub.get_message(timeout=wait)
        if message is None:
            continue
        if message.get("type") != "pong":
            yield message
        quiet_since = loop.time()
        pinged = False


async def _close_quietly(pubsub: Any) -> None:
    """Let a failed subscription's connection go (a silent one would stay open otherwise)."""
    try:
        await pubsub.aclose()
    except Exception as exc:  # already broken: nothing more to release
        log.debug("closing a failed Redis subscription: %s", exc)


class OrderedRedisManager(IndexedRooms, socketio.AsyncRedisManager, FrameBroadcast):  # type: ignore[misc]
    """The Redis manager, refusing to deliver a snapshot older than one already delivered,
    and closing a session's sockets on every node once told it has expired.

    A push published while a node does not listen to Redis (Redis down or restarted, the
    half second before it listens again) never reaches that node's sockets, and one whose
    publish failed reaches no other node (python-socketio's `_publish` logs "giving up" and
    drops it; the publishing node delivered it to its own sockets first). So the manager
    calls `missed` when its subscription is confirmed again and when another node says a
    publish of its own failed; realtime/resync.py then sends this node's followers, from
    the database, what changed meanwhile. A subscription silent for `silence_seconds`
    (REDIS_SILENCE_SECONDS) is taken for dead and made again, which is such a moment."""

    def __init__(
        self, *args: Any, silence_seconds: float = REDIS_SILENCE_SECONDS, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.silence_seconds = silence_seconds
        self.latest = LatestVersions()
        # The newest version delivered to each room (snapshots, day streams' changes): what a
        # resync need not send again.
        self.delivered = LatestVersions()
        self.missed: Callable[[], None] = lambda: None  # set by realtime/resync.py
        self._untold = False  # a publish failed and no RESYNC_EVENT went out since
        self._telling: asyncio.Task[None] | None = None

    async def _handle_emit(self, message: dict[str, Any]) -> None:
        if message.get("event") == RESYNC_EVENT:
            self.missed()
            return
        snapshot = _snapshot_of(message)
        room = message.get("room")
        if snapshot is not None:
            version = int(snapshot.get("version", 0))
            if not self.latest.advance(str(snapshot.get("path")), version):
                return
            if isinstance(room, str) and version <= self.delivered.newest(room):
                return  # a resync sent the room this version already
        data = message.get("data")
        payload = data[0] if isinstance(data, list) and data else None
        # Noted before the delivery, which awaits: a resync reading the document meanwhile
        # must not send the room the same version again.
        self._note_delivered(message.get("event"), payload, room)
        await super()._handle_emit(message)
        if _ends_session(message.get("event"), payload, message.get("room")):
            await _disconnect_room(self, message["room"])

    def _note_delivered(self, event: object, payload: object, room: object) -> None:
        if event not in (SNAPSHOT_EVENT, CHANGES_EVENT) or not isinstance(room, str):
            return
        version = payload.get("version") if isinstance(payload, dict) else None
        if isinstance(version, int):
            self.delivered.advance(room, version)

    async def _publish(self, data: Any) -> Any:
        sent = await super()._publish(data)
        if sent is None:  # dropped after python-socketio's two attempts: no node got it
            self._untold = True
            if self._telling is None or self._telling.done():
                self._telling = asyncio.create_task(self._tell_when_possible())
        return sent

    async def _tell_when_possible(self) -> None:
        """Publish RESYNC_EVENT as soon as Redis takes it (trying every
        LISTEN_RETRY_SECONDS), and again if another publish failed meanwhile."""
        notice = {
            "method": "emit",
            "event": RESYNC_EVENT,
            "data": [],
            "namespace": NAMESPACE,
            "room": RESYNC_ROOM,
            "host_id": self.host_id,
        }
        while self._untold:
            await asyncio.sleep(LISTEN_RETRY_SECONDS)
            self._untold = False
            try:
                await self.redis.publish(self.channel, self.json.dumps(notice))
            except Exception:  # Redis still refuses: try again
                self._untold = True

    async def _redis_listen_with_retries(self) -> AsyncIterator[Any]:
        """python-socketio's listener (socketio/async_redis_manager.py), but trying again
        every LISTEN_RETRY_SECONDS instead of ever longer, and giving up a connection
        silent for `silence_seconds` instead of waiting on it forever: a node that is not
        listening delivers no push of another node. Once Redis confirms the subscription,
        every later publish reaches this node: then `missed` (what was published before is
        read from the database)."""
        lost = False
        while True:
            pubsub = None
            try:
                self._redis_connect()
                pubsub = self.pubsub
                pubsub.ignore_subscribe_messages = False  # the confirmation is wanted
                await pubsub.subscribe(self.channel)
                async for message in heard(pubsub, self.silence_seconds):
                    if message.get("type") != "subscribe":
                        yield message
                        continue
                    if lost:
                        log.warning("listening to Redis again")
                        lost = False
                    self.missed()
            except Exception as exc:
                if not lost:  # once per outage, not at every try
                    log.warning(
                        "not listening to Redis (%s); trying every %s s", exc, LISTEN_RETRY_SECONDS
                    )
                lost = True
                if pubsub is not None:
                    await _close_quietly(pubsub)
                await asyncio.sleep(LISTEN_RETRY_SECONDS)


class DocumentLocks:
    """One asyncio lock per document path, dropped when nobody holds or waits for it.

    Plain acquire/release rather than a context manager per lock: every write takes them,
    and the generator and exit-stack objects were measurable on the hold path."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def acquire(self, path: str) -> None:
        lock, users = self._locks.get(path) or (asyncio.Lock(), 0)
        self._locks[path] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self._forget(path)
            raise

    def release(self, path: str) -> None:
        self._locks[path][0].release()
        self._forget(path)

    def _forget(self, path: str) -> None:
        lock, users = self._locks[path]
        if users == 1:
            del self._locks[path]
        else:
            self._locks[path] = (lock, users - 1)

    @asynccontextmanager
    async def hold(self, path: str) -> AsyncIterator[None]:
        await self.acquire(path)
        try:
            yield
        finally:
            self.release(path)


class HeldLocks:
    """Locks of several documents, taken in path order (two holders cannot deadlock), each
    released on its own once its document is pushed."""

    def __init__(self, locks: DocumentLocks) -> None:
        self._locks = locks
        self._held: list[str] = []

    async def take(self, paths: Iterable[str]) -> "HeldLocks":
        try:
            for path in sorted(set(paths)):
                await self._locks.acquire(path)
                self._held.append(path)
        except BaseException:
            self.release_all()
            raise
        return self

    def release(self, path: str) -> None:
        if path in self._held:
            self._held.remove(path)
            self._locks.release(path)

    def release_all(self) -> None:
        for path in list(self._held):
            self.release(path)


class Publisher:
    """Emits snapshots to the room named by the document path, never one older than a
    snapshot this node pushed or delivered already (the one guard: `latest`)."""

    def __init__(self, sio: socketio.AsyncServer) -> None:
        self.sio = sio
        self.locks = DocumentLocks()
        self.latest: LatestVersions = sio.manager.latest  # shared with the manager
        self._tasks: set[asyncio.Task[None]] = set()
        # Sessions with a socket call running, and how many: the session sweep leaves their
        # sockets alone until each call's reply is sent (`answering`).
        self._answering: Counter[int] = Counter()

    def ordered(self, path: str) -> Any:
        """Hold while committing a change to `path` and pushing it (see module doc)."""
        return self.locks.hold(path)

    async def lock_all(self, paths: Iterable[str]) -> HeldLocks:
        """The locks of all `paths`, in path order; release them through the result."""
        return await HeldLocks(self.locks).take(paths)

    def followed(self, path: str) -> bool:
        """Might anyone receive a push of `path`? Only this node's rooms are known; with
        Redis other nodes may have followers."""
        if not isinstance(self.sio.manager, LocalManager):
            return True
        return bool(self.sio.manager.rooms.get(NAMESPACE, {}).get(path))

    def stale(self, path: str, version: int) -> bool:
        """Is `version` of `path` not worth computing: this node already pushed or delivered
        it, or a newer one?"""
        return version <= self.latest.newest(path)

    async def push(self, snapshot: dict[str, Any]) -> None:
        """Emit a snapshot, unless a newer version of its document went out already."""
        if not self.latest.advance(snapshot["path"], int(snapshot["version"])):
            return
        await self.sio.emit(SNAPSHOT_EVENT, snapshot, room=snapshot["path"])

    def answering(self, session_id: int) -> None:
        """A socket call of `session_id` runs in the current task; python-socketio sends
        its reply (the ack) when that task ends. Until then the session sweep must not
        close the session's sockets, or the reply queued after the close is dropped: a
        call that ends its own session (a cancel, an erasure) revokes it in its
        transaction, and the sweep would find it ended while the call still publishes."""
        task = asyncio.current_task()
        if task is None:
            return
        self._answering[session_id] += 1

        def answered(_: object) -> None:
            self._answering[session_id] -= 1
            if self._answering[session_id] <= 0:
                del self._answering[session_id]

        task.add_done_callback(answered)

    def answering_sessions(self) -> frozenset[int]:
        """The sessions with a socket call of theirs still unanswered on this node."""
        return frozenset(self._answering)

    def end_session_after_reply(self, session_id: int) -> None:
        """End a session from inside a call of that very session: its own reply (the ack)
        must reach the caller before the socket closes. python-socketio sends the ack at
        the end of the task that runs the handler, so the close waits for that task (a
        fixed delay lost the reply on a loaded machine); engine.io queues the close packet
        behind the ack."""
        self.after_reply(lambda: self.end_session(session_id))

    def after_reply(self, work: Callable[[], Awaitable[object]]) -> None:
        """Run `work` once the task of the call running now has ended (its reply sent), or
        after REPLY_WAIT_SECONDS at most: what the caller need not wait for (a session's
        end, a refund through the payment provider)."""
        caller = asyncio.current_task()

        async def later() -> None:
            if caller is not None:
                await asyncio.wait({caller}, timeout=REPLY_WAIT_SECONDS)
            try:
                await work()
            except Exception:
                log.exception("work after a reply failed")

        task = asyncio.create_task(later())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def session_state(self, session_id: int, state: str, seconds_left: int) -> None:
        """Tell every tab of a session where its inactivity countdown stands."""
        await self.sio.emit(
            SESSION_EVENT,
            {"state": state, "secondsLeft": seconds_left},
            room=session_room(session_id),
        )

    async def end_local_session(self, session_id: int) -> None:
        """Tell and close this node's sockets of a session, without the message queue: the
        sweep (realtime/session_sweep.py) must work while Redis is down."""
        room = session_room(session_id)
        await self.sio.emit(
            SESSION_EVENT, {"state": "expired", "secondsLeft": 0}, room=room, ignore_queue=True
        )
        await _disconnect_room(self.sio.manager, room)

    async def end_session(self, session_id: int) -> None:
        """Tell every socket of a revoked session, on every node, then close them."""
        await self.sio.emit(
            SESSION_EVENT, {"state": "expired", "secondsLeft": 0}, room=session_room(session_id)
        )
