"""A TCP relay in front of an outside service, cut and restored at will: the network to the
service fails as a real outage does (connections refused, open ones closed) while the
service itself keeps what it holds."""

import asyncio
import contextlib
from dataclasses import dataclass, field

from tests.support.server import free_port

CHUNK = 65536


@dataclass
class Relay:
    """Forwards 127.0.0.1:`port` to `target_port`; `cut()` closes every open connection and
    closes new ones at once (counted in `refused`) until `restore()`."""

    target_port: int
    port: int = field(default_factory=free_port)
    refused: int = 0
    _open: bool = True
    _server: asyncio.Server | None = None
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> "Relay":
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        self._open = False
        for writer in list(self._writers):
            writer.close()

    def restore(self) -> None:
        self._open = True

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
        self._writers |= {writer, up_writer}
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            self._writers -= {writer, up_writer}
            writer.close()
            up_writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    writer.close()
