"""The Socket.IO endpoint: connect-time authentication and thin event adapters.

The one event adapter validates each payload with its model (realtime/events.py), so each
handler gets a typed object and calls domain code (dispatch, documents); the ack carries the
result or the error in the callable wire format. Every client event passes the gate of
realtime/socket_gate.py first (budget, names, shape).
"""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

import socketio

from realtime import documents, events
from realtime.auth import identity_of, resolve_again, resolve_owner, socket_token
from realtime.broadcast import install_frame_sockets
from realtime.budget import EventBudget
from realtime.contract import MAX_MESSAGE_BYTES
from realtime.dispatch import CallContext, dispatch
from realtime.errors import FunctionError, unexpected_error
from realtime.follows import is_internal, is_window, rooms_of
from realtime.functions.inputs import Input
from realtime.peers import TOO_MANY_SOCKETS, Peer
from realtime.presence import Activity, record_activity, socket_connected, socket_disconnected
from realtime.push import LocalManager, OrderedRedisManager
from realtime.rules import match
from realtime.settings import Settings
from realtime.socket_gate import GuardedServer
from realtime.state import AppState

log = logging.getLogger(__name__)

# A socket may follow at most this many documents at once.
MAX_SUBSCRIPTIONS = 100
# Key of the socket's Peer in its python-socketio session.
PEER = "peer"
# Redis connections of the fan-out manager; the default 100 drops emits under load.
REDIS_MAX_CONNECTIONS = 1000


def create_socket_server(settings: Settings) -> socketio.AsyncServer:
    manager: socketio.AsyncManager = LocalManager()
    if settings.redis_url:
        manager = OrderedRedisManager(
            settings.redis_url,
            channel=f"{settings.redis_namespace}:socketio",
            redis_options={
                "max_connections": REDIS_MAX_CONNECTIONS,
                # A publish (or connect) unanswered for as long as a silent subscription is
                # given up too, and python-socketio publishes again on a new connection; a
                # write's push waits no longer on a dead connection (redis-py before 8
                # waited forever, 8 waits 5 s).
                "socket_timeout": settings.redis_silence_seconds,
            },
            silence_seconds=settings.redis_silence_seconds,
        )
    sio = GuardedServer(
        budget=lambda: EventBudget(settings.socket_events_per_second, settings.socket_event_burst),
        async_mode="asgi",
        client_manager=manager,
        cors_allowed_origins=settings.allowed_origins,
        max_http_buffer_size=MAX_MESSAGE_BYTES,
        logger=False,
        engineio_logger=False,
    )
    install_frame_sockets(sio)  # broadcasts written once per room (realtime/broadcast.py)
    return sio


E = TypeVar("E", bound=Input)
# A handler gets the socket's Peer, its payload as validated by the event's model, and its sid.
Handler = Callable[[Peer, E, str], Awaitable[dict[str, Any]]]


def bind_events(sio: socketio.AsyncServer, state: AppState) -> None:
    activity = Activity(state)

    async def peer_of(sid: str) -> Peer | None:
        try:
            peer = (await sio.get_session(sid)).get(PEER)
        except KeyError:  # closed meanwhile
            return None
        return peer if isinstance(peer, Peer) else None

    async def current_peer(sid: str) -> Peer | None:
        """The socket's Peer; a staff socket opened before its session passed the second
        factor reads its session again on each event until it has (docs/protocol.md, "Staff
        sign-in and roles": the same session is then fully authorised, open sockets too)."""
        peer = await peer_of(sid)
        if peer is None or not peer.who.is_staff or peer.who.second_factor_passed:
            return peer
        who = await resolve_again(state, peer.who)
        if who is not None and who.second_factor_passed:
            peer = replace(peer, who=who)
            await sio.save_session(sid, {PEER: peer})
        return peer

    def on(name: str, model: type[E]) -> Callable[[Handler[E]], Handler[E]]:
        """Register an acked event: its payload validated by `model`, errors mapped to the
        wire format."""

        def register(handler: Handler[E]) -> Handler[E]:
            async def adapter(sid: str, data: object = None) -> dict[str, Any]:
                try:
                    peer = await current_peer(sid)
                    if peer is None:
                        return FunctionError("UNAUTHENTICATED", "Sign in to continue.").to_wire()
                    return await handler(peer, events.parse(model, data), sid)
                except FunctionError as exc:
                    return exc.to_wire()
                except Exception as exc:
                    log.exception("socket event %s failed", name)
                    return unexpected_error(exc).to_wire()

            sio.on(name, adapter)
            return handler

        return register

    async def connect(sid: str, environ: dict[str, Any], auth: object = None) -> None:
        """Only python-socketio's handshake calls this (the gate refuses an event named
        `connect`). A failure of our own is refused like any other handshake, with its
        status as the message (`unavailable` while the database is down), never a stack
        trace from python-engineio (docs/security.md)."""
        try:
            await handshake(sid, environ, auth)
        except socketio.exceptions.ConnectionRefusedError:
            raise
        except Exception as exc:
            error = unexpected_error(exc)
            if error.status == "UNAVAILABLE":
                log.warning("socket refused: %s", error.message)
            else:
                log.exception("socket handshake failed")
            raise socketio.exceptions.ConnectionRefusedError(error.status.lower()) from None

    async def handshake(sid: str, environ: dict[str, Any], auth: object) -> None:
        """Identity and address are set here, once."""
        owner = await resolve_owner(state, socket_token(environ, auth))
        who = identity_of(owner)
        if owner is None or who is None:
            raise socketio.exceptions.ConnectionRefusedError("unauthenticated")
        peer = Peer(who, environ.get("REMOTE_ADDR"))
        if peer.over_cap(sio.manager, state.settings):
            raise socketio.exceptions.ConnectionRefusedError(TOO_MANY_SOCKETS)
        for room in peer.rooms:  # joined right after the count: no other connect in between
            await sio.enter_room(sid, room)
        await sio.save_session(sid, {PEER: peer})
        try:
            await socket_connected(state, activity, who, sid, owner.appointment)
        except Exception:  # refused: python-socketio keeps no count of a failed handshake
            for room in peer.rooms:
                await sio.leave_room(sid, room)
            raise

    async def disconnect(sid: str, reason: object = None) -> None:
        try:
            await socket_disconnected(state, activity, sid)
        except Exception:  # the socket is gone either way; the stale row expires later
            log.exception("presence of a closed socket could not be removed")

    sio.on("connect", connect)
    sio.on("disconnect", disconnect)

    @on("call", events.Call)
    async def call(peer: Peer, event: events.Call, sid: str) -> dict[str, Any]:
        state.publisher.answering(peer.who.session_id)
        context = CallContext(state, peer.who, client_ip=peer.address)
        return {"data": await dispatch(context, event.name, event.data)}

    def followed(peer: Peer, sid: str) -> list[str]:
        """The documents a socket follows: its rooms but its own (sid, session, address) and
        the day streams of its windows (realtime/follows.py)."""
        return [
            room
            for room in sio.rooms(sid)
            if room != sid and room not in peer.rooms and not is_internal(room)
        ]

    @on("subscribe", events.Subscribe)
    async def subscribe(peer: Peer, event: events.Subscribe, sid: str) -> dict[str, Any]:
        # Authorise from the metadata, join, then read once: a change committed after the
        # join is either in the snapshot or pushed after it (clients keep the highest
        # version they have seen).
        found = await documents.may_read(state, peer.who, event.path)
        rooms = rooms_of(peer.who, found)  # the reader's rooms (a window: validated)
        documents_followed = followed(peer, sid)
        joining = rooms[0] not in documents_followed
        if joining and len(documents_followed) >= MAX_SUBSCRIPTIONS:
            raise FunctionError("RESOURCE_EXHAUSTED", "Too many documents followed at once.")
        for room in rooms:
            await sio.enter_room(sid, room)
        try:
            return {"snapshot": await documents.read(state, peer.who, found)}
        except Exception:
            if joining:
                await leave(peer, sid, rooms)
            raise

    async def leave(peer: Peer, sid: str, rooms: list[str]) -> None:
        """Leave a document's rooms, but a day stream that another followed window of the
        socket still covers."""
        kept = set(rooms)
        still: set[str] = set()
        for other in followed(peer, sid):
            if other not in kept and is_window(other):
                still.update(rooms_of(peer.who, match(other)))
        for room in rooms:
            if room not in still:
                await sio.leave_room(sid, room)

    @on("unsubscribe", events.Unsubscribe)
    async def unsubscribe(peer: Peer, event: events.Unsubscribe, sid: str) -> dict[str, Any]:
        try:
            rooms = rooms_of(peer.who, match(event.path))
        except FunctionError:  # no document of this reader: nothing was joined
            return {"ok": True}
        if rooms[0] in followed(peer, sid):
            await leave(peer, sid, rooms)
        return {"ok": True}

    @on("activity", events.Activity)
    async def on_activity(peer: Peer, event: events.Activity, sid: str) -> dict[str, Any]:
        await record_activity(state, activity, peer.who, sid, event.step)
        return {"ok": True}

    @on("update", events.Update)
    async def update(peer: Peer, event: events.Update, sid: str) -> dict[str, Any]:
        version = await documents.update(
            state, peer.who, event.path, event.data, event.base_version
        )
        return {"version": version}
