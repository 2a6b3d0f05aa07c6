"""A lean Socket.IO v5 / Engine.IO v4 client over a hand-rolled WebSocket (RFC 6455).

Built to hold thousands of connections in one process without becoming the bottleneck
of what it measures: one `asyncio.Protocol` per connection, no task per connection, no
JSON parsing of pushed frames. A pushed frame costs a timestamp (taken once per
`data_received`), a header decode, one slice, one list append and one `bytes.endswith`.

Keep-alives are answered in the protocol itself: Engine.IO pings (`2` -> `3`, every
25 s) and WebSocket pings (uvicorn sends them every 20 s), so long runs are not dropped.

Only what the servers under test send is supported: unfragmented text frames, no
extensions (none is offered, so no compression), no binary Socket.IO packets.
"""

import asyncio
import base64
import hashlib
import os
import time
from collections.abc import Callable
from typing import cast

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_TEXT = 0x1
OP_CLOSE = 0x8
OP_PING = 0x9
OP_PONG = 0xA
_FIN_TEXT = 0x80 | OP_TEXT
_EIO_PING = b"2"
_EIO_PONG = b"3"


class BenchClientError(Exception):
    """A connection failed, was refused or closed while something waited on it."""


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (clients must mask; the key is random per frame)."""
    key = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        header = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        header = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    if not size:
        return header + key
    stream = (key * (size // 4 + 1))[:size]
    body = (int.from_bytes(payload, "big") ^ int.from_bytes(stream, "big")).to_bytes(size, "big")
    return header + key + body


class Sink:
    """Where the subscribers of one process drop pushed frames during a round.

    `expect` is the tail of the frame the round waits for (the snapshot's top-level
    version, last key of the object); `on_complete` runs when `remaining` reaches 0.
    """

    __slots__ = ("expect", "frames", "on_complete", "remaining")

    def __init__(self) -> None:
        self.frames: list[tuple[int, int, bytes]] = []
        self.expect = b"\x00nothing yet"
        self.remaining = 0
        self.on_complete: Callable[[], None] = _nothing


def _nothing() -> None:
    return None


def expected_tail(version: int) -> bytes:
    """How a Socket.IO snapshot event of `version` ends on the wire (compact JSON)."""
    return b',"version":%d}]' % version


class LeanClient(asyncio.Protocol):
    """One Engine.IO connection. Until `go_live()` text frames go to a private list that
    `expect()` searches; afterwards they go to the shared `Sink` with their timestamp."""

    def __init__(self, cid: int, sink: Sink, host: str, port: int) -> None:
        self.cid = cid
        self.sink = sink
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.close_reason = ""
        self._host = host
        self._port = port
        self._buf = b""
        self._upgraded = False
        self._key = base64.b64encode(os.urandom(16))
        loop = asyncio.get_running_loop()
        self._handshake: asyncio.Future[None] = loop.create_future()
        self._setup = True
        self._pending: list[bytes] = []
        self._waiter: asyncio.Future[None] | None = None
        self._ack_id = 0

    # -- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports implement asyncio.Transport without subclassing it.
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(
            b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
            b"Host: %s:%d\r\n"
            b"Upgrade: websocket\r\n"
            b"Connection: Upgrade\r\n"
            b"Sec-WebSocket-Key: %s\r\n"
            b"Sec-WebSocket-Version: 13\r\n"
            b"\r\n" % (self._host.encode(), self._port, self._key)
        )

    def data_received(self, data: bytes) -> None:
        ts = time.monotonic_ns()
        if self._buf:
            data = self._buf + data
            self._buf = b""
        if not self._upgraded:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self._buf = data
                return
            self._finish_handshake(data[:end])
            data = data[end + 4 :]
            if self.closed:
                return
        pos = 0
        size = len(data)
        while size - pos >= 2:
            length = data[pos + 1]
            start = pos + 2
            if length > 125:
                if length == 126:
                    if size - pos < 4:
                        break
                    length = int.from_bytes(data[pos + 2 : pos + 4], "big")
                    start = pos + 4
                elif length == 127:
                    if size - pos < 10:
                        break
                    length = int.from_bytes(data[pos + 2 : pos + 10], "big")
                    start = pos + 10
                else:  # the mask bit: servers never mask
                    self._fail("masked frame from the server")
                    return
            end = start + length
            if end > size:
                break
            head = data[pos]
            payload = data[start:end]
            pos = end
            if head == _FIN_TEXT:
                self._on_text(ts, payload)
            else:
                self._on_other(head, payload)
            if self.closed:
                return
        if pos < size:
            self._buf = data[pos:]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = self.close_reason or (repr(exc) if exc else "closed by peer")
        self._wake(BenchClientError(self.close_reason))
        if not self._handshake.done():
            self._handshake.set_exception(BenchClientError(self.close_reason))

    # -- frames -----------------------------------------------------------------------

    def _on_text(self, ts: int, payload: bytes) -> None:
        if payload == _EIO_PING:
            self.send_text(_EIO_PONG)
            return
        if self._setup:
            self._pending.append(payload)
            self._wake(None)
            return
        sink = self.sink
        sink.frames.append((ts, self.cid, payload))
        if payload.endswith(sink.expect):
            sink.remaining -= 1
            if sink.remaining == 0:
                sink.on_complete()

    def _on_other(self, head: int, payload: bytes) -> None:
        opcode = head & 0x0F
        if opcode == OP_PING:
            self._write(frame(OP_PONG, payload))
        elif opcode == OP_PONG:
            pass
        elif opcode == OP_CLOSE:
            self._write(frame(OP_CLOSE, payload[:2]))
            self._fail("close frame from the server")
        else:
            self._fail(f"unsupported frame 0x{head:02x}")

    def _finish_handshake(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        accept = base64.b64encode(hashlib.sha1(self._key + _GUID).digest())
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if b" 101 " not in lines[0] + b" ":
            self._fail(f"upgrade refused: {lines[0].decode(errors='replace')}")
        elif headers.get(b"sec-websocket-accept") != accept:
            self._fail("bad Sec-WebSocket-Accept")
        else:
            self._upgraded = True
            if not self._handshake.done():
                self._handshake.set_result(None)

    # -- helpers ----------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def _wake(self, error: Exception | None) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            if error is None:
                waiter.set_result(None)
            else:
                waiter.set_exception(error)

    def _fail(self, reason: str) -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            if self.transport is not None:
                self.transport.close()
        self._wake(BenchClientError(reason))
        if not self._handshake.done():
            self._handshake.set_exception(BenchClientError(reason))

    def send_text(self, text: bytes) -> int:
        """Send one text frame; returns the monotonic time (ns) taken just before writing."""
        data = frame(OP_TEXT, text)
        ts = time.monotonic_ns()
        self._write(data)
        return ts

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        self.closed = True
        self.close_reason = self.close_reason or "closed by the benchmark"

    def go_live(self) -> None:
        """From now on text frames go to the sink (the hot path)."""
        self._setup = False
        self._pending.clear()

    async def expect(self, *prefixes: bytes, within: float) -> bytes:
        """The first not yet consumed text message starting with one of `prefixes`."""
        deadline = time.monotonic() + within
        while True:
            for index, message in enumerate(self._pending):
                if message.startswith(prefixes):
                    del self._pending[index]
                    return message
            if self.closed:
                raise BenchClientError(self.close_reason)
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchClientError(f"timed out waiting for {prefixes!r}")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(self._waiter, left)
            except TimeoutError:
                raise BenchClientError(f"timed out waiting for {prefixes!r}") from None
            finally:
                self._waiter = None

    def next_ack_id(self) -> int:
        self._ack_id += 1
        return self._ack_id

    async def call(self, event_json: bytes, within: float) -> bytes:
        """Emit `42<id>[...]` and return the ack's JSON array text (after `43<id>`)."""
        ack_id = self.next_ack_id()
        self.send_text(b"42%d%s" % (ack_id, event_json))
        prefix = b"43%d" % ack_id
        reply = await self.expect(prefix + b"[", within=within)
        return reply[len(prefix) :]


async def connect(
    host: str, port: int, cid: int, sink: Sink, auth_json: bytes, within: float
) -> LeanClient:
    """A WebSocket, the Engine.IO open packet, and a Socket.IO CONNECT with `auth_json`."""
    loop = asyncio.get_running_loop()
    _, client = await asyncio.wait_for(
        loop.create_connection(lambda: LeanClient(cid, sink, host, port), host, port), within
    )
    try:
        await asyncio.wait_for(asyncio.shield(client._handshake), within)
        await client.expect(b"0", within=within)
        client.send_text(b"40" + auth_json)
        reply = await client.expect(b"40", b"44", within=within)
        if reply.startswith(b"44"):
            raise BenchClientError(f"connect refused: {reply[2:200].decode(errors='replace')}")
    except BaseException:
        client.close()
        raise
    return client
