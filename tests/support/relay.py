"""A TCP relay in front of an outside service, cut, frozen and restored at will: the network
to the service fails as a real outage does while the service itself keeps what it holds.

- `cut()`: connections refused, open ones closed (both ends see it at once).
- `freeze()`: the connections open now stop passing anything, either way, and both of their
  sockets stay open: what a client sees of a half-open connection (the service's host gone
  without a reset, a NAT or firewall that forgot the connection, a partition). Nothing tells
  either end; only a request that gets no answer does. New connections pass as before, as a
  new connection through a NAT gets a new entry.
"""

import asyncio
import contextlib
from dataclasses import dataclass, field

from tests.support.server import free_port

CHUNK = 65536


@dataclass(eq=False)  # hashed by identity: kept in a set
class _Link:
    """One client connection and its connection to the service."""

    client: asyncio.StreamWriter
    service: asyncio.StreamWriter
    # Cleared by `freeze()`: each direction then holds what it read and reads no more.
    flowing: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.client.close()
        self.service.close()
        self.flowing.set()  # a frozen direction wakes, finds its writer closed, and ends


@dataclass
class Relay:
    """Forwards 127.0.0.1:`port` to `target_port`; `cut()` closes every open connection and
    closes new ones at once (counted in `refused`) until `restore()`; `freeze()` stalls the
    open connections for good (until `cut()` or `stop()` closes them)."""

    target_port: int
    port: int = field(default_factory=free_port)
    refused: int = 0
    _open: bool = True
    _server: asyncio.Server | None = None
    _links: set[_Link] = field(default_factory=set)
    _serving: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> "Relay":
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def stop(self) -> None:
        """Close everything and wait until each connection's forwarding has ended."""
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await asyncio.gather(*self._serving, return_exceptions=True)

    def cut(self) -> None:
        self._open = False
        for link in list(self._links):
            link.close()

    def restore(self) -> None:
        self._open = True

    def freeze(self) -> int:
        """Stall every connection open now; returns how many."""
        for link in self._links:
            link.flowing.clear()
        return len(self._links)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self._open:
            self.refused += 1
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        link = _Link(writer, up_writer)
        self._links.add(link)
        serving = asyncio.current_task()
        assert serving is not None  # asyncio.start_server runs each connection in a task
        self._serving.add(serving)
        try:
            await asyncio.gather(
                _pipe(reader, up_writer, link.flowing), _pipe(up_reader, writer, link.flowing)
            )
        finally:
            self._links.discard(link)
            self._serving.discard(serving)
            link.close()


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, flowing: asyncio.Event
) -> None:
    """Copy `reader` to `writer` while `flowing`; frozen, the chunk read (or the end of the
    stream) is held, so a frozen connection's close does not reach the other end either."""
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while True:
            data = await reader.read(CHUNK)
            await flowing.wait()
            if not data or writer.is_closing():
                break
            writer.write(data)
            await writer.drain()
    writer.close()
