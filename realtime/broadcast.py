"""Room broadcasts written once: one WebSocket frame for every subscriber.

A server never masks its WebSocket frames, so one encoded Socket.IO packet makes the very
same bytes for every socket of a room. python-socketio 5 encodes a broadcast once but then
starts a task per recipient; python-engineio puts the packet on the socket's queue, wakes
that socket's writer task, encodes it again and hands it to the ASGI server, which frames it
again: most of the CPU a delivery cost (docs/benchmarks.md, "Fan-out"). Node's socket.io
writes the same bytes to each socket.

`FrameBroadcast.emit` builds the frame once and writes it straight to each socket's
transport when that is safe, and gives the packet to python-engineio's queue otherwise:
- the socket's writer is idle: nothing queued and the writer waiting for the next packet,
  so everything sent before has reached the transport already (per-socket order holds);
- its connection is a plain WebSocket under uvicorn (`FrameSocket`), open, not paused by
  flow control and without a negotiated extension (compression would change the bytes).
Emits with a callback, a skipped sid or binary attachments keep python-socketio's own way.
Written as an override of the manager's `emit` and of python-engineio's ASGI WebSocket
wrapper, so that it could be offered upstream.
"""

import asyncio
from typing import Any, Protocol

import socketio
from engineio import packet as eio_packet
from engineio.async_drivers.asgi import WebSocket
from socketio import packet
from websockets.frames import Frame, Opcode
from websockets.protocol import State


class Transport(Protocol):
    def write(self, data: bytes) -> None: ...
    def is_closing(self) -> bool: ...


# The attribute of a python-engineio socket naming its FrameSocket while it is open.
FRAME_SOCKET = "_frame_socket"


class FrameSocket(WebSocket):  # type: ignore[misc]
    """python-engineio's ASGI WebSocket wrapper, noting itself on the engine.io socket it
    serves (the handler is that socket's bound `_websocket_handler`) while it runs."""

    async def __call__(self, environ: dict[str, Any]) -> str:
        socket = getattr(self.handler, "__self__", None)
        if socket is not None:
            setattr(socket, FRAME_SOCKET, self)
        try:
            result: str = await super().__call__(environ)
        finally:
            if socket is not None:
                setattr(socket, FRAME_SOCKET, None)
        return result

    def transport(self) -> Transport | None:
        """The connection's transport when a frame may be written to it now: uvicorn's
        WebSocket protocol (its `send` is this wrapper's ASGI send), open (no close sent or
        received), writable (not paused by flow control) and without extensions."""
        protocol: Any = getattr(self.asgi_send, "__self__", None)
        connection = getattr(protocol, "conn", None)
        if connection is None or connection.extensions or connection.state is not State.OPEN:
            return None
        if protocol.close_sent or protocol.disconnected or not protocol.writable.is_set():
            return None
        transport: Transport = protocol.transport
        return None if transport.is_closing() else transport


def idle_transport(socket: Any) -> Transport | None:
    """The socket's transport when its writer has sent everything and waits for more."""
    frame_socket = getattr(socket, FRAME_SOCKET, None)
    if frame_socket is None or socket.closed or not socket.upgraded:
        return None
    queue: asyncio.Queue[Any] = socket.queue
    # The writer waits in `queue.get()` exactly when it has a getter registered: a packet
    # put since has taken that getter already, so the queue's order is never overtaken.
    if not queue.empty() or not getattr(queue, "_getters", None):
        return None
    transport: Transport | None = frame_socket.transport()
    return transport


def text_frame(text: str) -> bytes:
    return bytes(Frame(Opcode.TEXT, text.encode()).serialize(mask=False))


class FrameBroadcast(socketio.AsyncManager):  # type: ignore[misc]
    """A python-socketio manager whose broadcasts write one frame to every idle socket."""

    # Deliveries written straight to a transport, and queued behind earlier packets (seen by
    # the benchmarks and the tests).
    frames_written = 0
    frames_queued = 0

    async def emit(
        self, event: str, data: Any, namespace: str, room: Any = None, **kwargs: Any
    ) -> None:
        """As python-socketio's (`skip_sid`, `callback`, `to` among `kwargs`)."""
        room = kwargs.get("to") or room
        if kwargs.get("callback") or kwargs.get("skip_sid") or namespace not in self.rooms:
            await super().emit(event, data, namespace, room=room, **kwargs)
            return
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        encoded = self.server.packet_class(
            packet.EVENT, namespace=namespace, data=[event, *args]
        ).encode()
        if isinstance(encoded, list):  # binary attachments: several engine.io packets
            await super().emit(event, data, namespace, room=room)
            return
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        await self._deliver(namespace, room, message)

    async def _deliver(self, namespace: str, room: Any, message: eio_packet.Packet) -> None:
        sockets = self.server.eio.sockets
        frame: bytes | None = None
        for _sid, eio_sid in list(self.get_participants(namespace, room)):
            socket = sockets.get(eio_sid)
            if socket is None:
                continue
            transport = idle_transport(socket)
            if transport is None:
                self.frames_queued += 1
                await socket.send(message)  # behind what is queued, by its writer
                continue
            if frame is None:
                frame = text_frame(message.encode())
            self.frames_written += 1
            transport.write(frame)


def install_frame_sockets(sio: socketio.AsyncServer) -> None:
    """Serve this server's WebSockets through FrameSocket (its own copy of python-engineio's
    ASGI driver table, which is shared by every server of the process)."""
    sio.eio._async = {**sio.eio._async, "websocket": FrameSocket}
