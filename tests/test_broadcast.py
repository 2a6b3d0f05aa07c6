"""Broadcasts written once (realtime/broadcast.py): every subscriber gets every packet of a
room, in order, whether a delivery goes straight to the socket's transport (its writer idle)
or behind packets python-engineio still has queued for it. A real uvicorn server in this
process (the manager's counters are read directly) and real Socket.IO clients."""

import asyncio

import pytest
import socketio
from engineio import packet as eio_packet
from socketio import packet

from realtime.broadcast import install_frame_sockets
from realtime.lean_engine import LeanServer
from realtime.push import LocalManager
from tests.support.inprocess import serving

ROOM = "documents/1"


async def queue_on_every_socket(sio: socketio.AsyncServer, n: int) -> None:
    """Event "n" put on every socket's queue by python-engineio's own send, which returns
    without letting the writers run (lean sockets' writers drain so fast that a broadcast
    after python-socketio's emit would otherwise always find them idle)."""
    encoded = sio.packet_class(packet.EVENT, namespace="/", data=["n", n]).encode()
    for engine_socket in list(sio.eio.sockets.values()):
        await engine_socket.send(eio_packet.Packet(eio_packet.MESSAGE, encoded))


@pytest.mark.parametrize("server_class", [socketio.AsyncServer, LeanServer])
async def test_each_subscriber_gets_every_packet_in_order_whichever_way_it_goes(
    server_class: type[socketio.AsyncServer],
) -> None:
    """With python-engineio's sockets and with the product's lean ones (their queue is
    realtime/wait_queue.py's, whose waiting getters say the writer is idle)."""
    manager = LocalManager()
    sio = server_class(async_mode="asgi", client_manager=manager)
    install_frame_sockets(sio)

    async def join(sid: str, environ: dict[str, object], auth: object = None) -> None:
        await sio.enter_room(sid, ROOM)

    sio.on("connect", join)
    count, clients = 300, 12
    async with serving(sio) as port:
        url = f"http://127.0.0.1:{port}"
        received: list[list[int]] = [[] for _ in range(clients)]
        everyone: list[socketio.AsyncClient] = []
        for index in range(clients):
            client = socketio.AsyncClient(reconnection=False)
            client.on("n", received[index].append)
            await client.connect(url, transports=["websocket"], wait_timeout=10)
            everyone.append(client)
        for n in range(count):
            if n % 4 == 2:  # python-socketio's own way (a task per recipient, then the queue)
                await sio.emit("n", n, room=ROOM, skip_sid="nobody")
            elif n % 4 == 3:  # straight onto each socket's queue, so the next one finds it full
                await queue_on_every_socket(sio, n)
            else:
                await sio.emit("n", n, room=ROOM)
        async with asyncio.timeout(20):
            while any(len(got) < count for got in received):
                await asyncio.sleep(0.02)
        for client in everyone:
            await client.disconnect()
    assert all(got == list(range(count)) for got in received)
    # Both ways were taken: straight to idle sockets, and behind packets still queued.
    assert manager.frames_written > 0 and manager.frames_queued > 0, (
        manager.frames_written,
        manager.frames_queued,
    )
