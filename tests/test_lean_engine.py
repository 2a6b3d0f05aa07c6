"""Lean Engine.IO sockets (realtime/lean_engine.py): a socket behaves as python-engineio's own
(upgrade from polling, order, keep-alive, a silent client closed) while it waits with one task
of the engine's instead of four. A real uvicorn server in this process with the product's
WebSocket protocol (realtime/lean_websocket.py), real Socket.IO clients and a raw WebSocket
client that never answers a ping."""

import asyncio
import time
from typing import Any

import socketio
from websockets.asyncio.client import connect

from realtime.lean_engine import LeanServer
from tests.support.inprocess import serving

# Short keep-alive, so that a missed ping shows within seconds.
PING_INTERVAL = 1
PING_TIMEOUT = 1


def lean_server() -> socketio.AsyncServer:
    return LeanServer(async_mode="asgi", ping_interval=PING_INTERVAL, ping_timeout=PING_TIMEOUT)


async def wait_until(condition: Any, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


async def test_a_polling_client_upgrades_and_gets_every_packet_in_order() -> None:
    sio = lean_server()
    sids: list[str] = []
    sio.on("connect", lambda sid, environ, auth=None: sids.append(sid))
    sio.on("echo", lambda sid, data: {"echo": data})
    async with serving(sio) as port:
        client = socketio.AsyncClient(reconnection=False)
        received: list[int] = []
        client.on("n", received.append)
        await client.connect(f"http://127.0.0.1:{port}", transports=["polling", "websocket"])
        await wait_until(lambda: client.transport() == "websocket", 10)
        for n in range(200):
            await sio.emit("n", n, to=sids[0])
        reply = await client.call("echo", "hello", timeout=10)
        await wait_until(lambda: len(received) == 200, 10)
        await client.disconnect()
    assert reply == {"echo": "hello"}
    assert received == list(range(200))


async def test_an_idle_socket_stays_open_across_pings() -> None:
    """Pings go out on a timer: a client that answers them keeps its socket past several
    intervals (without pings the server would hear nothing and close it after 2 s)."""
    sio = lean_server()
    gone: list[str] = []
    sio.on("disconnect", lambda sid, reason=None: gone.append(sid))
    async with serving(sio) as port:
        client = socketio.AsyncClient(reconnection=False)
        await client.connect(f"http://127.0.0.1:{port}", transports=["websocket"])
        await asyncio.sleep(3 * (PING_INTERVAL + PING_TIMEOUT))
        still_connected, closed_meanwhile = client.connected, list(gone)
        await client.disconnect()
    assert still_connected and closed_meanwhile == []


async def test_a_client_that_never_answers_a_ping_is_closed() -> None:
    sio = lean_server()
    gone: list[float] = []
    sio.on("disconnect", lambda sid, reason=None: gone.append(time.monotonic()))
    async with serving(sio) as port:
        url = f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket"
        async with connect(url, ping_interval=None) as silent:
            opened = await silent.recv()  # Engine.IO OPEN
            await silent.send("40")  # Socket.IO CONNECT, then silence
            connected = time.monotonic()
            await wait_until(lambda: bool(gone), 4 * (PING_INTERVAL + PING_TIMEOUT))
    assert str(opened).startswith("0{")
    assert gone[0] - connected >= PING_INTERVAL


async def test_an_idle_socket_waits_with_one_task_of_the_engine() -> None:
    """python-engineio's socket waits with four tasks (its writer, the writer's wait_for,
    a task per awaited message, a sleeping ping); a lean socket with only its writer."""
    sio = lean_server()
    clients = 20
    async with serving(sio) as port:
        everyone = []
        for _ in range(clients):
            client = socketio.AsyncClient(reconnection=False)
            await client.connect(f"http://127.0.0.1:{port}", transports=["websocket"])
            everyone.append(client)
        await asyncio.sleep(0.2)
        owners = {id(owner) for s in sio.eio.sockets.values() for owner in (s, s.queue)}
        engine_tasks = [task for task in asyncio.all_tasks() if is_engine_task(task, owners)]
        for client in everyone:
            await client.disconnect()
    assert len(engine_tasks) == clients, sorted(set(task_name(task) for task in engine_tasks))


def task_name(task: asyncio.Task[Any]) -> str:
    return str(getattr(task.get_coro(), "__qualname__", ""))


def is_engine_task(task: asyncio.Task[Any], owners: set[int]) -> bool:
    """A task of this server's Engine.IO sockets (the clients in this process, and servers of
    earlier tests in this event loop, have their own): its coroutine is a method or closure
    of one of the sockets, or waits on one's queue."""
    frame = getattr(task.get_coro(), "cr_frame", None)
    return frame is not None and id(frame.f_locals.get("self")) in owners
