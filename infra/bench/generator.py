"""A load-generator process: many lean subscribers on one event loop, driven over a pipe.

Clients are grouped in channels (one per server under test); each channel has its own
sink. Commands (tuples) from the coordinator, each answered by one reply tuple:
- ("connect", channel, host, port, auth_json, subscribe_json, count, first_cid,
  concurrency, within) -> ("connected", ok, {error: count}, seconds): opens `count` more
  clients and subscribes each (one `subscribe` call with ack) before it counts.
- ("arm", channel, version) -> ("armed", live): the next round of `channel` waits for the
  snapshot of `version` on each of its live clients; ("done", channel, version) is sent
  unprompted when the last one arrives.
- ("collect", channel, version) -> ("collected", Collected): only now are frames parsed.
- ("close",) -> ("closed", count); ("exit",) -> ("bye",) and the process ends.
"""

import asyncio
import contextlib
import json
import os
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from infra.bench.lean import BenchClientError, LeanClient, Sink, connect, expected_tail


@dataclass
class Collected:
    """What one generator saw of one round, parsed after the round."""

    live: int
    # Receipt time (monotonic ns) of the expected snapshot, one per client that got it.
    receipts: list[int] = field(default_factory=list)
    duplicates: int = 0
    other_frames: int = 0
    frame_bytes: int = 0
    cpu_seconds: float = 0.0
    dropped: int = 0


def raise_open_file_limit() -> int:
    """Raise the soft open-file limit to the hard one; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop when available (it is, with uvicorn[standard]); the stdlib loop otherwise."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


class Channel:
    """The clients of one server under test, and the sink they deliver to."""

    def __init__(self, number: int, conn: Connection) -> None:
        self.number = number
        self.conn = conn
        self.sink = Sink()
        self.sink.on_complete = self._complete
        self.clients: list[LeanClient] = []
        self.armed_version = -1
        self.armed_cpu = 0.0

    def _complete(self) -> None:
        self.conn.send(("done", self.number, self.armed_version))

    def live(self) -> int:
        return sum(1 for c in self.clients if not c.closed)

    def arm(self, version: int) -> int:
        live = self.live()
        self.sink.frames = []
        self.sink.expect = expected_tail(version)
        self.sink.remaining = live
        self.armed_version = version
        self.armed_cpu = time.process_time()
        if live == 0:
            self._complete()
        return live

    def collect(self, version: int) -> Collected:
        cpu = time.process_time() - self.armed_cpu
        frames = self.sink.frames
        self.sink.frames = []
        self.sink.expect = b"\x00collected"
        result = Collected(live=self.live(), cpu_seconds=cpu)
        result.dropped = len(self.clients) - result.live
        seen: set[int] = set()
        for ts, cid, payload in frames:
            if not _is_snapshot(payload, version):
                result.other_frames += 1
            elif cid in seen:
                result.duplicates += 1
            else:
                seen.add(cid)
                result.receipts.append(ts)
                result.frame_bytes = len(payload)
        return result

    def close(self) -> int:
        for client in self.clients:
            client.close()
        count = len(self.clients)
        self.clients = []
        self.sink.frames = []
        return count


class Generator:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.channels: dict[int, Channel] = {}
        self.inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def channel(self, number: int) -> Channel:
        if number not in self.channels:
            self.channels[number] = Channel(number, self.conn)
        return self.channels[number]

    def _readable(self) -> None:
        try:
            while self.conn.poll():
                self.inbox.put_nowait(self.conn.recv())
        except (EOFError, OSError):
            self.inbox.put_nowait(("exit",))

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.conn.fileno(), self._readable)
        # uvloop makes the descriptor non-blocking; Connection needs blocking reads and
        # writes (a reply may be larger than the pipe's buffer).
        os.set_blocking(self.conn.fileno(), True)
        try:
            while True:
                command = await self.inbox.get()
                op = command[0]
                if op == "exit":
                    break
                reply = await self.handle(op, command[1:])
                self.conn.send(reply)
        finally:
            loop.remove_reader(self.conn.fileno())
            self.close_all()
        with contextlib.suppress(OSError, EOFError):
            self.conn.send(("bye",))

    async def handle(self, op: str, args: Sequence[Any]) -> tuple[Any, ...]:
        if op == "connect":
            return await self.connect(*args)
        if op == "arm":
            return ("armed", self.channel(int(args[0])).arm(int(args[1])))
        if op == "collect":
            return ("collected", self.channel(int(args[0])).collect(int(args[1])))
        if op == "close":
            return ("closed", self.close_all())
        return ("error", f"unknown command {op!r}")

    async def connect(
        self,
        number: int,
        host: str,
        port: int,
        auth_json: bytes,
        subscribe_json: bytes,
        count: int,
        first_cid: int,
        concurrency: int,
        within: float,
    ) -> tuple[Any, ...]:
        started = time.monotonic()
        channel = self.channel(number)
        errors: dict[str, int] = {}
        gate = asyncio.Semaphore(concurrency)

        async def one(cid: int) -> None:
            async with gate:
                client: LeanClient | None = None
                try:
                    client = await connect(host, port, cid, channel.sink, auth_json, within)
                    ack = await client.call(subscribe_json, within=within)
                    if b'"snapshot"' not in ack:
                        raise BenchClientError(f"subscribe refused: {ack[:200]!r}")
                    client.go_live()
                    channel.clients.append(client)
                except (BenchClientError, OSError, TimeoutError) as exc:
                    if client is not None:
                        client.close()
                    key = f"{type(exc).__name__}: {str(exc)[:160]}"
                    errors[key] = errors.get(key, 0) + 1

        await asyncio.gather(*(one(first_cid + i) for i in range(count)))
        return ("connected", channel.live(), errors, time.monotonic() - started)

    def close_all(self) -> int:
        count = sum(channel.close() for channel in self.channels.values())
        self.channels.clear()
        return count


def _is_snapshot(payload: bytes, version: int) -> bool:
    if not payload.startswith(b'42["snapshot",'):
        return False
    try:
        event = json.loads(payload[2:])
    except ValueError:
        return False
    return (
        isinstance(event, list)
        and len(event) == 2
        and isinstance(event[1], dict)
        and event[1].get("version") == version
    )


def main(conn: Connection, cpus: list[int] | None) -> None:
    """The process entry point (multiprocessing, spawn context)."""
    raise_open_file_limit()
    if cpus:
        os.sched_setaffinity(0, cpus)
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        runner.run(Generator(conn).serve())
