"""Engine.IO sockets that hold less memory while idle.

A subscribed socket spends nearly all its life waiting, and python-engineio 4.15 keeps more
alive per waiting socket than the wait needs (measured with tracemalloc, docs/upstream.md,
"An idle socket's footprint"):
- the writer waits for its queue through `asyncio.wait_for`, which on Python 3.11 wraps
  `queue.get()` in a task of its own;
- the reader starts a task for every message it waits for, again under `wait_for`;
- the writer keeps the last packet it sent (its loop variable) until the next one, so a
  socket whose last packet was a large snapshot holds that snapshot twice, as the Socket.IO
  and the Engine.IO encoding;
- a ping is a task sleeping through the whole ping interval;
- the ASGI driver defines its request-body class inside `translate_request`, so every
  request makes a class object, which a WebSocket's environ keeps for the socket's life.

`LeanSocket` waits under `asyncio.timeout` (no task), forgets what it sent, and schedules
its ping with a timer; `lean_translate_request` gives WebSockets (which have no body) one
shared empty body. Behaviour, timeouts and order are python-engineio's own: each override
is written so that it could be offered upstream as it stands, and deleting it once the
library has the change leaves the product the same.
"""

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import engineio
import socketio
from engineio import exceptions, packet
from engineio.async_drivers.asgi import translate_request
from engineio.async_socket import AsyncSocket

from realtime.wait_queue import WaitQueue


class LeanSocket(AsyncSocket):  # type: ignore[misc]
    """python-engineio's socket, waiting without extra tasks (module docstring)."""

    # python-engineio's own attributes, typed for mypy (the library has no annotations).
    last_ping: float | None
    connected: bool
    _ping_timer: asyncio.TimerHandle | None = None

    async def poll(self) -> list[packet.Packet]:
        """As AsyncSocket.poll: the packets to send, [] when the socket ends; QueueEmpty
        when nothing came for a ping interval and timeout."""
        try:
            async with asyncio.timeout(self.server.ping_interval + self.server.ping_timeout):
                first = await self.queue.get()
            self.queue.task_done()
        except (TimeoutError, asyncio.CancelledError):
            raise exceptions.QueueEmpty() from None
        if first is None:
            return []
        packets = [first]
        while not self.queue.empty():
            pkt = self.queue.get_nowait()
            self.queue.task_done()
            if pkt is None:
                self.queue.put_nowait(None)  # the end, for the next poll
                break
            packets.append(pkt)
        return packets

    def schedule_ping(self) -> None:
        """As AsyncSocket.schedule_ping, with a timer instead of a sleeping task."""
        if self.last_ping:
            self.last_ping = None
            loop = asyncio.get_running_loop()
            self._ping_timer = loop.call_later(self.server.ping_interval, self._ping_due)

    def _ping_due(self) -> None:
        self._ping_timer = None
        if not self.closing and not self.closed:
            self.last_ping = time.time()
            self.queue.put_nowait(packet.Packet(packet.PING))

    async def close(self, wait: bool = True, abort: bool = False, reason: Any = None) -> None:
        if self._ping_timer is not None:
            self._ping_timer.cancel()
            self._ping_timer = None
        await super().close(wait=wait, abort=abort, reason=reason)

    async def _websocket_handler(self, ws: Any) -> None:
        """As AsyncSocket._websocket_handler: the upgrade from polling, then the writer task
        and the read loop, the two changed as the module docstring says."""
        limit = self.server.ping_interval + self.server.ping_timeout

        async def websocket_wait() -> Any:
            data = await ws.wait()
            if data and len(data) > self.server.max_http_buffer_size:
                raise ValueError("packet is too large")
            return data

        if self.connected and not await self._upgrade_from_polling(ws, websocket_wait):
            return
        if not self.connected:
            self.connected = True
            self.upgraded = True
        writer_task = asyncio.ensure_future(self._write_all(ws))
        self.server.logger.info("%s: Upgrade to websocket successful", self.sid)
        while await self._read_one(websocket_wait, limit):
            pass
        await self.queue.put(None)  # unlock the writer task so it can exit
        await writer_task
        await self.close(wait=False, abort=True, reason=self.server.reason.TRANSPORT_CLOSE)

    async def _upgrade_from_polling(
        self, ws: Any, websocket_wait: Callable[[], Awaitable[Any]]
    ) -> bool:
        """The probe exchange of a socket that connected by polling; False if it failed."""
        self.upgrading = True  # hold packet sends during the upgrade
        try:
            probe = packet.Packet(encoded_packet=await websocket_wait())
        except OSError:
            return False
        if probe.packet_type != packet.PING or probe.data != "probe":
            self.server.logger.info("%s: Failed websocket upgrade, no PING packet", self.sid)
            self.upgrading = False
            return False
        await ws.send(packet.Packet(packet.PONG, data="probe").encode())
        await self.queue.put(packet.Packet(packet.NOOP))  # end poll
        try:
            upgrade = packet.Packet(encoded_packet=await websocket_wait())
        except OSError:
            self.upgrading = False
            return False
        if upgrade.packet_type != packet.UPGRADE:
            self.upgraded = False
            self.server.logger.info(
                "%s: Failed websocket upgrade, expected UPGRADE packet, received %s instead.",
                self.sid,
                upgrade.encode(),
            )
            self.upgrading = False
            return False
        self.upgraded = True
        self.upgrading = False
        return True

    async def _write_all(self, ws: Any) -> None:
        """The writer: the queue's packets to the WebSocket until the end or an error."""
        while await self._write_next(ws):
            pass
        await ws.close()

    async def _write_next(self, ws: Any) -> bool:
        """Wait for the next packets and write them; False at the end or on an error. The
        packets live in this call's frame only, so the writer holds none while it waits."""
        try:
            packets = await self.poll()
        except exceptions.QueueEmpty:
            return False
        if not packets:
            return False
        try:
            for pkt in packets:
                await ws.send(pkt.encode())
        except Exception:
            return False
        return True

    async def _read_one(self, websocket_wait: Callable[[], Awaitable[Any]], limit: float) -> bool:
        """Wait for one message and handle it; False when the reading ends (closed by the
        client, silent for `limit` seconds, or broken)."""
        try:
            async with asyncio.timeout(limit):
                data = await websocket_wait()
        except Exception:
            return False
        if data is None:  # connection closed by the client
            return False
        try:
            await self.receive(packet.Packet(encoded_packet=data))
        except exceptions.UnknownPacketError:
            pass
        except exceptions.SocketIsClosedError:
            self.server.logger.info("Receive error -- socket is closed")
            return False
        except Exception:
            # an unexpected error is logged and the connection goes on, as upstream
            self.server.logger.exception("Unknown receive error")
        return True


class EmptyBody:
    """The body of every WebSocket request: a WebSocket handshake has none."""

    async def read(self, length: int | None = None) -> bytes:
        return b""


EMPTY_BODY = EmptyBody()


async def lean_translate_request(scope: Any, receive: Any, send: Any) -> dict[str, Any]:
    """python-engineio's ASGI translate_request, a WebSocket's body the shared empty one
    (the per-request body object, and the class made with it, are then freed)."""
    environ: dict[str, Any] = await translate_request(scope, receive, send)
    if environ and scope["type"] == "websocket":
        environ["wsgi.input"] = EMPTY_BODY
    return environ


class LeanEngineServer(engineio.AsyncServer):  # type: ignore[misc]
    """python-engineio's server making LeanSockets, requests translated leanly."""

    socket_class = LeanSocket
    # python-engineio's own attributes, typed for mypy (the library has no annotations).
    _async: dict[str, Any]
    start_service_task: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._async = {**self._async, "translate_request": lean_translate_request}

    def create_queue(self, *args: Any, **kwargs: Any) -> WaitQueue[Any]:
        """Each socket's packet queue (python-engineio makes no other): one that costs next
        to nothing while empty (realtime/wait_queue.py)."""
        return WaitQueue()

    async def _handle_connect(
        self, environ: dict[str, Any], transport: str, jsonp_index: int | None = None
    ) -> Any:
        """As engineio.AsyncServer._handle_connect, the socket made from `socket_class`
        (upstream: one attribute, `socket_class = async_socket.AsyncSocket`)."""
        if self.start_service_task:
            # start the service task to monitor connected clients
            self.start_service_task = False
            self.service_task_handle = self.start_background_task(self._service_task)
        sid = self.generate_id()
        s = self.socket_class(self, sid)
        self.sockets[sid] = s
        pkt = packet.Packet(
            packet.OPEN,
            {
                "sid": sid,
                "upgrades": self._upgrades(sid, transport),
                "pingTimeout": int(self.ping_timeout * 1000),
                "pingInterval": int(self.ping_interval + self.ping_interval_grace_period) * 1000,
                "maxPayload": self.max_http_buffer_size,
            },
        )
        await s.send(pkt)
        ret = await self._trigger_event("connect", sid, environ, run_async=False)
        if ret is not None and ret is not True:
            del self.sockets[sid]
            self.logger.warning("Application rejected connection")
            return self._unauthorized(ret or None)
        s.schedule_ping()
        if transport == "websocket":
            ret = await s.handle_get_request(environ)
            if s.closed and sid in self.sockets:
                # websocket connection ended, so we are done
                del self.sockets[sid]
            return ret
        s.connected = True
        headers = None
        if self.cookie:
            cookie = self.cookie
            if not isinstance(cookie, dict):
                cookie = {"name": self.cookie, "path": "/", "SameSite": "Lax"}
            headers = [("Set-Cookie", self._generate_sid_cookie(sid, cookie))]
        try:
            return self._ok(await s.poll(), headers=headers, jsonp_index=jsonp_index)
        except exceptions.QueueEmpty:
            return self._bad_request()


class LeanServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio's server over LeanEngineServer (python-socketio's own hook)."""

    def _engineio_server_class(self) -> type[LeanEngineServer]:
        return LeanEngineServer
