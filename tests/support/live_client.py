"""Clients that live through node restarts, as the product's client does (docs/protocol.md,
"Live documents"): a follower subscribes again with the version it holds after every
reconnect and keeps the highest version; a writer retries what a client retries."""

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import socketio

# What the product's client retries: a call that got no answer (the node went away) and an
# answer saying the service is briefly unavailable.
RETRYABLE = {"UNAVAILABLE", "DEADLINE_EXCEEDED"}
CALL_SECONDS = 5.0
RETRY_SECONDS = 0.1


def live_socket() -> socketio.AsyncClient:
    """Reconnecting soon after a drop, with jitter, as the browser's client does."""
    return socketio.AsyncClient(
        reconnection=True,
        reconnection_delay=0.2,
        reconnection_delay_max=1.0,
        randomization_factor=0.5,
    )


@dataclass
class Follower:
    """One subscriber of `path`. `held` is the version it holds (data with it); `stale`
    counts pushes older than one already pushed on the same connection and `older_replies`
    subscribe answers older than the version sent: the server promises neither happens."""

    url: str
    token: str
    path: str
    client: socketio.AsyncClient = field(default_factory=live_socket)
    held: int = 0
    data: dict[str, Any] | None = None
    stale: int = 0
    older_replies: int = 0
    subscribe_errors: int = 0
    refused: int = 0
    connects: int = 0
    _last_push: int = 0
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _subscribed: asyncio.Event = field(default_factory=asyncio.Event)

    async def start(self) -> None:
        self.client.on("connect", self._on_connect)
        self.client.on("disconnect", self._on_disconnect)
        self.client.on("snapshot", self._on_snapshot)
        # A refused handshake (`unavailable`: the database's connections briefly all taken)
        # is tried again, as the product's client does; later ones python-socketio retries.
        while True:
            try:
                await self.client.connect(
                    self.url, auth={"token": self.token}, transports=["websocket"], wait_timeout=10
                )
                break
            except socketio.exceptions.ConnectionError:
                self.refused += 1
                await asyncio.sleep(RETRY_SECONDS)
        await self._subscribed.wait()

    @property
    def live(self) -> bool:
        return self.client.connected and self._subscribed.is_set()

    @property
    def reconnects(self) -> int:
        return self.connects - 1

    async def _on_connect(self) -> None:
        self.connects += 1
        # The ack arrives through the same reader as this event: subscribe in a task.
        task = asyncio.create_task(self._subscribe())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_disconnect(self, reason: Any = None) -> None:
        self._subscribed.clear()
        self._last_push = 0

    async def _subscribe(self) -> None:
        payload: dict[str, Any] = {"path": self.path}
        if self.held:
            payload["version"] = self.held
        # Not `while connected`: the client sets that only after this connect event.
        while True:
            try:
                reply = await self.client.call("subscribe", payload, timeout=CALL_SECONDS)
            except (TimeoutError, socketio.exceptions.SocketIOError):
                return  # the connection went; the next connect subscribes again
            if "snapshot" in reply:
                snapshot = reply["snapshot"]
                # Against the version sent, not the one held now: a push may overtake the
                # answer and raise it meanwhile (docs/protocol.md, "Live documents").
                if snapshot["version"] < payload.get("version", 0):
                    self.older_replies += 1
                self._apply(snapshot)
                self._subscribed.set()
                return
            self.subscribe_errors += 1
            await asyncio.sleep(RETRY_SECONDS)

    async def _on_snapshot(self, snapshot: dict[str, Any]) -> None:
        if snapshot["path"] != self.path:
            return
        if snapshot["version"] <= self._last_push:
            self.stale += 1
        self._last_push = max(self._last_push, snapshot["version"])
        self._apply(snapshot)

    def _apply(self, snapshot: dict[str, Any]) -> None:
        """Keep the highest version: an older snapshot never replaces a newer one."""
        if snapshot["version"] > self.held:
            self.held = snapshot["version"]
            self.data = snapshot["data"]

    async def stop(self) -> None:
        self.client.reconnection = False
        with contextlib.suppress(Exception):
            await self.client.disconnect()


@dataclass
class Writer:
    """Updates `path` steadily through the balancer, alternating `key` between values;
    `acked` is the last (version, value) the server acknowledged. `retried` counts calls
    repeated after a lost answer or a retryable error; `failed` errors a client would not
    retry (the cluster must answer none)."""

    url: str
    token: str
    path: str
    key: str
    values: tuple[str, str]
    interval: float
    acked: tuple[int, str] | None = None
    retried: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)
    client: socketio.AsyncClient | None = None

    async def run(self, until: asyncio.Event) -> None:
        n = 0
        while not until.is_set():
            value = self.values[n % 2]
            await self._update(value)
            n += 1
            await asyncio.sleep(self.interval)
        if self.client is not None:
            await self.client.disconnect()

    async def _update(self, value: str) -> None:
        while True:
            try:
                client = await self._connected()
                reply = await client.call(
                    "update", {"path": self.path, "data": {self.key: value}}, timeout=CALL_SECONDS
                )
            except (TimeoutError, socketio.exceptions.SocketIOError):
                await self._drop()
            else:
                if "version" in reply:
                    self.acked = (reply["version"], value)
                    return
                if reply["error"]["status"] not in RETRYABLE:
                    self.failed.append(reply["error"])
                    return
            self.retried += 1
            await asyncio.sleep(RETRY_SECONDS)

    async def _connected(self) -> socketio.AsyncClient:
        if self.client is None or not self.client.connected:
            await self._drop()
            self.client = socketio.AsyncClient(reconnection=False)
            await self.client.connect(
                self.url, auth={"token": self.token}, transports=["websocket"], wait_timeout=5
            )
        return self.client

    async def _drop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.disconnect()
            self.client = None


async def wait_all_hold(followers: list[Follower], version: int, deadline: float) -> float:
    """Seconds (monotonic) at which every follower was live holding `version` or later;
    raises TimeoutError past `deadline`."""
    while time.monotonic() < deadline:
        if all(f.live and f.held >= version for f in followers):
            return time.monotonic()
        await asyncio.sleep(0.05)
    behind = [(f.held, f.live) for f in followers if not (f.live and f.held >= version)]
    raise TimeoutError(f"{len(behind)} followers not live at {version}: {behind[:10]}")
