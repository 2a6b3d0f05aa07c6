"""Real clients of a running server: HTTP callables and Socket.IO sockets."""

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import socketio
import websockets

ENGINEIO_PATH = "/socket.io/?EIO=4&transport=websocket"


@dataclass
class Account:
    uid: str
    email: str
    token: str


async def sign_in(base_url: str, email: str) -> Account:
    """A bearer token through the dev/test-only helper (until e-mail sign-in lands)."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/dev/token", json={"data": {"email": email}})
        reply.raise_for_status()
        data = reply.json()["data"]
    return Account(uid=data["uid"], email=data["email"], token=data["token"])


async def call_http(
    base_url: str, name: str, data: Any, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(f"/functions/{name}", json={"data": data}, headers=headers)
    return reply.status_code, reply.json()


@dataclass
class Socket:
    """A Socket.IO client that records every snapshot pushed to it, per path."""

    client: socketio.AsyncClient
    pushes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def request(self, event: str, payload: Any, timeout: float = 10) -> dict[str, Any]:
        reply: dict[str, Any] = await self.client.call(event, payload, timeout=timeout)
        return reply

    async def call(self, name: str, data: Any) -> dict[str, Any]:
        return await self.request("call", {"name": name, "data": data})

    async def subscribe(self, path: str, version: int | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {"path": path}
        if version is not None:
            payload["version"] = version
        return await self.request("subscribe", payload)

    async def update(
        self, path: str, data: dict[str, Any], base_version: int | None = None
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {"path": path, "data": data}
        if base_version is not None:
            payload["baseVersion"] = base_version
        return await self.request("update", payload)

    def versions(self, path: str) -> list[int]:
        return [push["version"] for push in self.pushes.get(path, [])]

    async def wait_for_version(self, path: str, version: int, timeout: float = 10) -> None:
        async with asyncio.timeout(timeout):
            while not any(v >= version for v in self.versions(path)):
                self._arrived.clear()
                await self._arrived.wait()


@asynccontextmanager
async def connect(base_url: str, token: str | None, **options: Any) -> AsyncIterator[Socket]:
    client = socketio.AsyncClient(reconnection=False)
    sock = Socket(client)

    async def on_snapshot(snapshot: dict[str, Any]) -> None:
        sock.pushes.setdefault(snapshot["path"], []).append(snapshot)
        sock._arrived.set()

    client.on("snapshot", on_snapshot)

    await client.connect(
        base_url,
        auth={"token": token} if token else None,
        transports=["websocket"],
        wait_timeout=10,
        **options,
    )
    try:
        yield sock
    finally:
        await client.disconnect()


async def outbox(base_url: str, to: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/dev/outbox", params={"to": to})
    reply.raise_for_status()
    mails: list[dict[str, Any]] = reply.json()["data"]
    return mails


def token_of(link: str) -> str:
    query = parse_qs(urlsplit(link).query)
    return query["token"][0]


async def request_link(base_url: str, email: str, **extra: Any) -> str:
    """Ask for a sign-in link and read it from the dev outbox; returns its token."""
    status, body = await call_http(base_url, "sendEmail-authLink", {"email": email, **extra})
    assert status == 200, body
    mails = await outbox(base_url, email)
    return token_of(mails[0]["links"][0])


async def confirm_link(base_url: str, email: str, token: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.post("/auth/confirm", json={"email": email, "token": token})


async def sign_in_by_link(base_url: str, email: str, **extra: Any) -> Account:
    reply = await confirm_link(base_url, email, await request_link(base_url, email, **extra))
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    return Account(uid=data["uid"], email=data["email"], token=data["token"])


def ws_url(base_url: str) -> str:
    """The raw Engine.IO WebSocket address of a server (for hand-written packets)."""
    return base_url.replace("http://", "ws://") + ENGINEIO_PATH


async def refusal(base_url: str, token: str) -> dict[str, Any] | None:
    """The connect_error of a new socket, or None when it connects (it is closed again)."""
    async with websockets.connect(ws_url(base_url)) as ws:
        await ws.recv()
        await ws.send("40" + json.dumps({"token": token}))
        answer = str(await ws.recv())
    if answer.startswith("40"):
        return None
    assert answer.startswith("44"), answer
    reason: dict[str, Any] = json.loads(answer[2:])
    return reason
