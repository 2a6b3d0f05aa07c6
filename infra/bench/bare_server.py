"""The transport's floor: a bare python-socketio server doing only the fan-out.

`python -m infra.bench.bare_server` with PORT (8000), LOG_LEVEL (warning) and, optionally,
REDIS_URL. Same stack and uvicorn options as realtime/__main__.py, nothing else:

- `connect` accepts everyone (the auth payload is ignored);
- `subscribe` {"path"} puts the client in the room `path` and acks a snapshot;
- `update` {"path", "data"} bumps an in-memory version, emits
  `snapshot` {"path", "exists": true, "data": <data as received>, "version": n} to the
  room, then acks {"version": n} - the same order as our server (push, then ack);
- `unsubscribe` {"path"} leaves the room (used only to warm the code paths up);
- `GET /healthz` answers 200 so the harness can wait for readiness the same way.
"""

import os
from typing import Any

import socketio
import uvicorn

# Same as realtime/sockets.py, so that the Redis variants are comparable.
REDIS_MAX_CONNECTIONS = 1000


def create_app(redis_url: str | None) -> Any:
    manager = None
    if redis_url:
        manager = socketio.AsyncRedisManager(
            redis_url, redis_options={"max_connections": REDIS_MAX_CONNECTIONS}
        )
    sio = socketio.AsyncServer(
        async_mode="asgi", client_manager=manager, logger=False, engineio_logger=False
    )
    versions: dict[str, int] = {}

    async def connect(sid: str, environ: dict[str, Any], auth: object = None) -> None:
        return None

    async def subscribe(sid: str, payload: dict[str, Any]) -> dict[str, Any]:
        path = str(payload["path"])
        await sio.enter_room(sid, path)
        version = versions.get(path, 0)
        return {"snapshot": {"path": path, "exists": version > 0, "data": None, "version": version}}

    async def unsubscribe(sid: str, payload: dict[str, Any]) -> dict[str, Any]:
        await sio.leave_room(sid, str(payload["path"]))
        return {"ok": True}

    async def update(sid: str, payload: dict[str, Any]) -> dict[str, Any]:
        path = str(payload["path"])
        version = versions[path] = versions.get(path, 0) + 1
        snapshot = {"path": path, "exists": True, "data": payload["data"], "version": version}
        await sio.emit("snapshot", snapshot, room=path)
        return {"version": version}

    for handler in (connect, subscribe, unsubscribe, update):
        sio.on(handler.__name__, handler)

    async def web(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        found = scope["path"] == "/healthz"
        body = b'{"status":"ok"}' if found else b'{"error":"not found"}'
        await send(
            {
                "type": "http.response.start",
                "status": 200 if found else 404,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return socketio.ASGIApp(sio, other_asgi_app=web)


def main() -> None:
    log_level = os.environ.get("LOG_LEVEL", "warning")
    uvicorn.run(
        create_app(os.environ.get("REDIS_URL") or None),
        host="127.0.0.1",
        port=int(os.environ.get("PORT", "8000")),
        log_level=log_level,
        ws="websockets-sansio",
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
