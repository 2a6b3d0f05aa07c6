"""The Socket.IO endpoint: connect-time authentication and thin event adapters.

Each handler validates the shape of its payload and calls domain code (dispatch,
documents); the ack carries the result or the error in the callable wire format.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import socketio

from realtime import documents
from realtime.auth import resolve, socket_token
from realtime.contract import MAX_MESSAGE_BYTES
from realtime.dispatch import CallContext, dispatch
from realtime.errors import FunctionError, internal_error, invalid_field
from realtime.presence import Activity, record_activity, socket_connected, socket_disconnected
from realtime.push import LocalManager, OrderedRedisManager, session_room
from realtime.settings import Settings
from realtime.state import AppState
from storage.repo_users import Identity

log = logging.getLogger(__name__)

CALL_NEEDS = "A call needs a name and data."
# A socket may follow at most this many documents at once.
MAX_SUBSCRIPTIONS = 100
# Redis connections of the fan-out manager; the default 100 drops emits under load.
REDIS_MAX_CONNECTIONS = 1000


def create_socket_server(settings: Settings) -> socketio.AsyncServer:
    manager: socketio.AsyncManager = LocalManager()
    if settings.redis_url:
        manager = OrderedRedisManager(
            settings.redis_url,
            channel=f"{settings.redis_namespace}:socketio",
            redis_options={"max_connections": REDIS_MAX_CONNECTIONS},
        )
    return socketio.AsyncServer(
        async_mode="asgi",
        client_manager=manager,
        cors_allowed_origins=settings.allowed_origins,
        max_http_buffer_size=MAX_MESSAGE_BYTES,
        logger=False,
        engineio_logger=False,
    )


Event = Callable[[Identity, dict[str, Any], str], Awaitable[dict[str, Any]]]


def _payload(args: tuple[object, ...]) -> dict[str, Any]:
    """The one JSON object an event carries; none, several or another type is refused."""
    payload = args[0] if len(args) == 1 else None
    if not isinstance(payload, dict):
        raise invalid_field("payload", "The payload must be a JSON object.")
    return payload


def bind_events(sio: socketio.AsyncServer, state: AppState) -> None:
    identities: dict[str, Identity] = {}
    addresses: dict[str, str | None] = {}
    activity = Activity(state.settings.inactivity_seconds)

    def on(name: str) -> Callable[[Event], Event]:
        """Register an acked event with error mapping to the wire format."""

        def register(handler: Event) -> Event:
            # A Socket.IO event may carry any number of arguments: take them all, so that
            # two or none are refused in the ack rather than failing the handler's call.
            async def adapter(sid: str, *args: object) -> dict[str, Any]:
                who = identities.get(sid)
                if who is None:
                    return FunctionError("UNAUTHENTICATED", "Sign in to continue.").to_wire()
                try:
                    return await handler(who, _payload(args), sid)
                except FunctionError as exc:
                    return exc.to_wire()
                except Exception:
                    log.exception("socket event %s failed", name)
                    return internal_error().to_wire()

            sio.on(name, adapter)
            return handler

        return register

    async def connect(sid: str, environ: dict[str, Any], auth: object = None) -> None:
        who = await resolve(state, socket_token(environ, auth))
        if who is None:
            raise socketio.exceptions.ConnectionRefusedError("unauthenticated")
        identities[sid] = who
        addresses[sid] = environ.get("REMOTE_ADDR")
        await sio.enter_room(sid, session_room(who.session_id))
        await socket_connected(state, activity, who, sid)

    async def disconnect(sid: str, reason: object = None) -> None:
        identities.pop(sid, None)
        addresses.pop(sid, None)
        try:
            await socket_disconnected(state, activity, sid)
        except Exception:  # the socket is gone either way; the stale row expires later
            log.exception("presence of a closed socket could not be removed")

    sio.on("connect", connect)
    sio.on("disconnect", disconnect)

    @on("call")
    async def call(who: Identity, payload: dict[str, Any], sid: str) -> dict[str, Any]:
        name = payload.get("name")
        if not isinstance(name, str) or "data" not in payload:
            raise invalid_field("data" if isinstance(name, str) else "name", CALL_NEEDS)
        context = CallContext(state, who, client_ip=addresses.get(sid))
        result = await dispatch(context, name, payload["data"])
        return {"data": result}

    @on("subscribe")
    async def subscribe(who: Identity, payload: dict[str, Any], sid: str) -> dict[str, Any]:
        path = payload.get("path")
        rooms = sio.rooms(sid)
        if path not in rooms and len(rooms) > MAX_SUBSCRIPTIONS:
            raise FunctionError("RESOURCE_EXHAUSTED", "Too many documents followed at once.")
        # Join first, then read: a change committed in between is either in the snapshot
        # or pushed after it (clients keep the highest version they have seen).
        snapshot = await documents.read(state, who, path)
        await sio.enter_room(sid, snapshot["path"])
        return {"snapshot": await documents.read(state, who, path)}

    @on("unsubscribe")
    async def unsubscribe(who: Identity, payload: dict[str, Any], sid: str) -> dict[str, Any]:
        path = payload.get("path")
        if isinstance(path, str) and path != sid and not path.startswith("session:"):
            await sio.leave_room(sid, path)
        return {"ok": True}

    @on("activity")
    async def on_activity(who: Identity, payload: dict[str, Any], sid: str) -> dict[str, Any]:
        await record_activity(state, activity, who, sid, payload.get("step"))
        return {"ok": True}

    @on("update")
    async def update(who: Identity, payload: dict[str, Any], sid: str) -> dict[str, Any]:
        version = await documents.update(
            state, who, payload.get("path"), payload.get("data"), payload.get("baseVersion")
        )
        return {"version": version}
