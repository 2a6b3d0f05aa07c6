"""A simulated person's connection: a python-socketio AsyncClient on the websocket
transport whose every request is timed and whose refusals are sorted by kind
(docs/protocol.md, "Live documents")."""

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import httpx
import socketio

from infra.loadtest.recorder import Recorder

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class CallFailed(Exception):
    """A request that got no usable answer: its kind is already counted as an error."""


class LiveSocket:
    """One socket of one simulated person. It reconnects by itself (python-socketio's own
    reconnection); `on_reconnect` lets the owner resubscribe, as every client must after a
    reconnect because pushes sent meanwhile are lost."""

    def __init__(self, recorder: Recorder, url: str, token: str, timeout: float) -> None:
        self.recorder = recorder
        self.url = url
        self.token = token
        self.timeout = timeout
        self.client = socketio.AsyncClient(reconnection=True, reconnection_delay=0.5)
        self.connects = 0
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.client.on("connect", self._connected)

    def on(self, event: str, handler: Handler) -> None:
        self.client.on(event, handler)

    async def _connected(self) -> None:
        self.connects += 1
        self.recorder.count("connects")
        if self.connects > 1:
            self.recorder.count("reconnects")
            if self.on_reconnect is not None:
                task = asyncio.get_running_loop().create_task(self.on_reconnect())
                self._tasks.add(task)  # kept until done: the loop holds tasks weakly
                task.add_done_callback(self._tasks.discard)

    async def open(self) -> None:
        begun = time.monotonic()
        try:
            await self.client.connect(
                self.url,
                auth={"token": self.token},
                transports=["websocket"],
                wait_timeout=self.timeout,
            )
        except Exception as exc:
            self.recorder.error(f"connect:{type(exc).__name__}", repr(exc))
            with contextlib.suppress(Exception):
                await self.client.disconnect()  # its HTTP session, left open by the failure
            raise CallFailed("connect") from exc
        self.recorder.sample("connect", time.monotonic() - begun)

    async def close(self) -> None:
        await self.client.disconnect()

    async def request(self, measure: str, event: str, payload: Any) -> dict[str, Any]:
        """The reply of one acknowledged event, timed under `measure`; a timeout or a lost
        socket is an error of that measure."""
        begun = time.monotonic()
        try:
            reply: dict[str, Any] = await self.client.call(event, payload, timeout=self.timeout)
        except Exception as exc:
            self.recorder.error(f"{measure}:{type(exc).__name__}", repr(exc))
            raise CallFailed(measure) from exc
        self.recorder.sample(measure, time.monotonic() - begun)
        self.recorder.count("requests")
        return reply

    async def call(self, name: str, data: Any, *, refusals: tuple[str, ...] = ()) -> dict[str, Any]:
        """A callable's reply. An error reply is an error of kind `name:STATUS` unless its
        status is one of the expected `refusals` (a hold lost to another person)."""
        reply = await self.request(f"call {name}", "call", {"name": name, "data": data})
        return self._checked(f"call {name}", reply, refusals)

    async def subscribe(self, measure: str, path: str) -> dict[str, Any]:
        reply = await self.request(f"subscribe {measure}", "subscribe", {"path": path})
        return self._checked(f"subscribe {measure}", reply, ())

    async def update(self, path: str, data: dict[str, Any]) -> dict[str, Any]:
        reply = await self.request("update appointment", "update", {"path": path, "data": data})
        return self._checked("update appointment", reply, ())

    def _checked(
        self, measure: str, reply: dict[str, Any], refusals: tuple[str, ...]
    ) -> dict[str, Any]:
        error = reply.get("error")
        if error is None:
            return reply
        status = str(error.get("status", "UNKNOWN"))
        if status in refusals:
            self.recorder.count(f"refused {measure}:{status}")
            return reply
        self.recorder.error(f"{measure}:{status}", str(error.get("message", "")))
        raise CallFailed(measure)


# The reserved domain of the load-test session issuer (realtime/loadtest_sessions.py).
LOADTEST_DOMAIN = "loadtest.invalid"


async def session_token(
    recorder: Recorder, url: str, email: str, limit: float, key: str | None = None
) -> str:
    """A bearer token: from `/dev/token` (development and test deployments), or with a
    load-test key from `/auth/loadtest-session` (a deployment with LOADTEST_KEY set)."""
    route, headers = (
        ("/auth/loadtest-session", {"X-Loadtest-Key": key}) if key else ("/dev/token", {})
    )
    begun = time.monotonic()
    try:
        async with httpx.AsyncClient(base_url=url, timeout=limit) as http:
            reply = await http.post(route, json={"data": {"email": email}}, headers=headers)
        reply.raise_for_status()
        token: str = reply.json()["data"]["token"]
    except Exception as exc:
        recorder.error(f"sign-in:{type(exc).__name__}", repr(exc))
        raise CallFailed("sign-in") from exc
    recorder.sample("sign-in", time.monotonic() - begun)
    return token
