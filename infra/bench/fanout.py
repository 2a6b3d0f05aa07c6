"""Fan-out benchmark: one document, N subscribers, our server against the transport floor.

    .venv/bin/python -m infra.bench.fanout [--servers floor,ours,node] [--sizes 100,1000,5000]
        [--rounds 20] [--redis]
        [--postgres] [--json results.json]

For every size N, the servers of a group (floor, ours and node - Node's socket.io@4 speaking
the floor's protocol, infra/bench/node_server.mjs; floor+redis and ours+redis) are measured
together, each a fresh subprocess with a fresh SQLite file (ours with --postgres:
a fresh PostgreSQL database, dropped afterwards):
1. start the server, wait for GET /healthz, get a bearer token (ours: POST /dev/token);
2. connect a writer (lean client), warm the code paths (subscribe, unsubscribe, one
   update), read the server's RSS;
3. connect N lean subscribers from the generator process(es), all subscribed to the same
   document (ours: users/<uid>, every socket with the same token); read the RSS again:
   (after - before) / N is the memory per idle connection;
4. rounds, the servers of the group taking turns (order alternating) so that a busy
   neighbour on a shared machine hurts both alike: arm the generators with the expected
   version, the writer sends `update` with a ~400-byte value and records the send time;
   every subscriber timestamps the frame on receipt; the round ends when all N have it
   (or on timeout: misses are reported), then the frames are parsed and per-delivery
   latencies (receipt - send) collected;
5. stop the servers (process group), next group.

Timestamps are CLOCK_MONOTONIC (time.monotonic_ns), one clock for every process on the box.
See docs/benchmarks.md for the method and the figures.
"""

import argparse
import asyncio
import contextlib
import json
import math
import os
import pstats
import resource
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from io import StringIO
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

from infra.bench import generator, runner, servers
from infra.bench.lean import BenchClientError, LeanClient, Sink, connect
from infra.bench.servers import HOST, Managed

# userAgent is validated as text of at most 512 characters by our server.
MAX_PAYLOAD_BYTES = 512
FLOOR_PATH = "users/bench-floor"
BENCH_EMAIL = "bench@example.com"
SETTLE_SECONDS = 1.0
CLIENT_TIMEOUT_SECONDS = 30.0
ABORT_AFTER_TIMEOUTS = 3
# Our server warns a session idle for 540 s and revokes it at 600 s (docs/protocol.md,
# "Presence and inactivity");
# the bench sends no `activity` (it would broadcast to every socket of the session).
IDLE_WARNING_SECONDS = 480.0


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default); NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "p50": percentile(values, 50),
        "p99": percentile(values, 99),
        "max": max(values) if values else math.nan,
        "count": float(len(values)),
    }


@dataclass
class RoundResult:
    version: int
    live: int
    received: int
    first_ms: float
    last_ms: float
    ack_ms: float
    timed_out: bool


@dataclass
class RunResult:
    n: int
    server: str
    connected: int = 0
    connect_seconds: float = 0.0
    connect_errors: dict[str, int] = field(default_factory=dict)
    rss_before_kib: int = 0
    rss_after_kib: int = 0
    kib_per_connection: float = math.nan
    delivery_ms: dict[str, float] = field(default_factory=dict)
    last_ms: dict[str, float] = field(default_factory=dict)
    first_ms: dict[str, float] = field(default_factory=dict)
    ack_ms: dict[str, float] = field(default_factory=dict)
    rounds: list[RoundResult] = field(default_factory=list)
    misses: int = 0
    duplicates: int = 0
    dropped: int = 0
    frame_bytes: int = 0
    server_cpu_us_per_delivery: float = math.nan
    generator_cpu_us_per_frame: float = math.nan
    # Average CPU cores busy during the measured rounds: the whole machine, and what was
    # not charged to the benchmark's own processes (other users; also some kernel
    # network work of our own that is not charged to any process).
    machine_busy_cores: float = math.nan
    # With --gc-log: the server's collector passes during the measured rounds.
    gc: dict[str, Any] = field(default_factory=dict)
    # With --time-calls: p50/p99 (ms) of each timed server function during the rounds.
    call_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    other_busy_cores: float = math.nan
    error: str | None = None


@dataclass
class Options:
    sizes: list[int]
    rounds: int
    warmup: int
    kinds: list[str]
    generators: int
    pin: bool
    payload_bytes: int
    round_timeout: float
    gap: float
    concurrency: int
    json_path: Path | None
    profile_dir: Path | None
    gc_log: bool
    ours_gc_threshold: str | None
    time_calls: str | None
    redis_url: str | None
    postgres_url: str | None  # admin URL: ours runs on a fresh database there, not SQLite
    max_seconds: float
    quiet_wait: float
    quiet_cores: float
    keep_workdir: bool


# -- generator processes --------------------------------------------------------------


class GeneratorPool:
    """The generator processes and an asyncio view of their pipes."""

    def __init__(self, count: int, cpus: set[int] | None) -> None:
        spawn = get_context("spawn")
        self.conns: list[Connection] = []
        self.processes: list[Any] = []
        for index in range(count):
            parent, child = spawn.Pipe()
            process = spawn.Process(
                target=generator.main,
                args=(child, sorted(cpus) if cpus else None),
                name=f"bench-generator-{index}",
                daemon=True,
            )
            process.start()
            child.close()
            self.conns.append(parent)
            self.processes.append(process)
        self.replies: list[asyncio.Queue[tuple[Any, ...]]] = []
        # channel -> (generator index, version) completions
        self.done: defaultdict[int, asyncio.Queue[tuple[int, int]]] = defaultdict(asyncio.Queue)

    @property
    def size(self) -> int:
        return len(self.conns)

    def attach(self) -> None:
        loop = asyncio.get_running_loop()
        self.replies = [asyncio.Queue() for _ in self.conns]
        self.done.clear()
        for index, conn in enumerate(self.conns):
            loop.add_reader(conn.fileno(), self._readable, index)
            # uvloop makes the descriptor non-blocking; a pickled message may span
            # several reads, and Connection expects blocking ones.
            os.set_blocking(conn.fileno(), True)

    def detach(self) -> None:
        loop = asyncio.get_running_loop()
        for conn in self.conns:
            with contextlib.suppress(Exception):
                loop.remove_reader(conn.fileno())

    def _readable(self, index: int) -> None:
        conn = self.conns[index]
        try:
            while conn.poll():
                message = conn.recv()
                if message[0] == "done":
                    self.done[int(message[1])].put_nowait((index, int(message[2])))
                else:
                    self.replies[index].put_nowait(message)
        except (EOFError, OSError) as exc:
            asyncio.get_running_loop().remove_reader(conn.fileno())
            self.replies[index].put_nowait(("error", f"generator process ended ({exc!r})"))

    async def ask_each(
        self, messages: Sequence[tuple[Any, ...]], within: float
    ) -> list[tuple[Any, ...]]:
        for conn, message in zip(self.conns, messages, strict=True):
            conn.send(message)
        replies = await asyncio.wait_for(
            asyncio.gather(*(queue.get() for queue in self.replies)), within
        )
        for reply in replies:
            if reply[0] == "error":
                raise RuntimeError(f"generator: {reply[1]}")
        return list(replies)

    async def ask_all(self, message: tuple[Any, ...], within: float) -> list[tuple[Any, ...]]:
        return await self.ask_each([message] * self.size, within)

    def shutdown(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                conn.send(("exit",))
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(3)
            if process.is_alive():
                process.kill()
                process.join(3)
        for conn in self.conns:
            conn.close()


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if index < total % parts else 0) for index in range(parts)]


# -- one group of servers, interleaved -----------------------------------------------


@dataclass
class Session:
    """One server under test within a group: its process, writer and running figures."""

    kind: str
    channel: int
    server: Managed
    result: RunResult
    writer: LeanClient | None = None
    path: str = ""
    version: int = 0
    deliveries: list[float] = field(default_factory=list)
    generator_cpu: float = 0.0
    generator_frames: int = 0
    cpu_before: float = 0.0
    timeouts_in_a_row: int = 0
    profile_out: Path | None = None
    signed_in: float = 0.0
    warned_idle: bool = False
    gc_out: Path | None = None
    time_out: Path | None = None
    database: servers.FreshDatabase | None = None


def groups_of(kinds: Sequence[str]) -> list[list[str]]:
    """Servers measured together, round by round: the in-process ones, the Redis ones."""
    local = [kind for kind in kinds if not kind.endswith("+redis")]
    redis = [kind for kind in kinds if kind.endswith("+redis")]
    return [group for group in (local, redis) if group]


class Bench:
    # Time allowed per subscriber to connect and subscribe (all of them in one go, at
    # least 120 s).
    connect_seconds_each = 0.05

    def __init__(
        self, options: Options, pool: GeneratorPool, workdir: Path, server_cpus: set[int] | None
    ) -> None:
        self.options = options
        self.pool = pool
        self.workdir = workdir
        self.redis_url = options.redis_url
        self.server_cpus = server_cpus
        self.extra_pids: list[int] = []
        self.started: list[Managed] = []
        self.channels = 0

    def payload(self, round_no: int) -> str:
        head = f"bench/{round_no:05d} "
        return head + "x" * (self.options.payload_bytes - len(head))

    def update_data(self, kind: str, round_no: int) -> dict[str, Any]:
        value = self.payload(round_no)
        if kind.startswith("ours"):
            return {"userAgent": value}
        # The floor echoes `data`: send the fields our users/<uid> snapshot carries, so
        # that both servers push frames of about the same size.
        updated = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return {
            "appointmentId": None,
            "locale": None,
            "updated": updated,
            "userAgent": value,
            "version": None,
        }

    async def identity(
        self, kind: str, server: Managed, http: httpx.AsyncClient
    ) -> tuple[bytes, str]:
        """(auth JSON, document path) for the sockets of this run."""
        if not kind.startswith("ours"):
            return b'{"token":"floor"}', FLOOR_PATH
        reply = await http.post(
            f"http://{HOST}:{server.port}/dev/token", json={"data": {"email": BENCH_EMAIL}}
        )
        reply.raise_for_status()
        data = reply.json()["data"]
        return json.dumps({"token": data["token"]}).encode(), f"users/{data['uid']}"

    async def update(
        self, writer: LeanClient, kind: str, path: str, round_no: int
    ) -> tuple[int, "asyncio.Task[tuple[bytes, int]]"]:
        """Send one update; returns the send time and a task yielding (ack, ack time)."""
        event = ["update", {"path": path, "data": self.update_data(kind, round_no)}]
        ack_id = writer.next_ack_id()
        prefix = b"43%d[" % ack_id
        timeout = self.options.round_timeout

        async def ack() -> tuple[bytes, int]:
            message = await writer.expect(prefix, within=timeout)
            return message[len(prefix) - 1 :], time.monotonic_ns()

        text = b"42%d%s" % (ack_id, json.dumps(event, separators=(",", ":")).encode())
        task = asyncio.create_task(ack())  # an early ack waits in the writer's list
        return writer.send_text(text), task

    @staticmethod
    def ack_version(ack: bytes) -> int:
        reply = json.loads(ack)
        if not isinstance(reply, list) or not reply or "version" not in reply[0]:
            raise RuntimeError(f"update refused: {ack[:300]!r}")
        return int(reply[0]["version"])

    async def run_group(
        self, kinds: Sequence[str], n: int, http: httpx.AsyncClient
    ) -> list[RunResult]:
        """Prepare every server of the group with N subscribers, then alternate rounds."""
        sessions: list[Session] = []
        try:
            for kind in kinds:
                print(f"- N={n:,} {kind}: connecting ...", flush=True)
                session = await self.prepare(kind, n, http)
                sessions.append(session)
                r = session.result
                print(
                    f"  {r.connected:,} subscribers in {r.connect_seconds:.1f} s, "
                    f"{r.kib_per_connection:.1f} KiB per idle connection",
                    flush=True,
                )
            active = [s for s in sessions if s.result.error is None]
            print(f"- N={n:,} rounds: {', '.join(s.kind for s in active)}", flush=True)
            await self.rounds(active)
        finally:
            with contextlib.suppress(Exception):
                await self.pool.ask_all(("close",), 60)
            for session in sessions:
                if session.writer is not None:
                    session.writer.close()
                session.server.stop()
                self.started.remove(session.server)
                if session.database is not None:
                    await session.database.drop()
                if session.profile_out is not None:
                    write_profile_summary(session.profile_out)
                if session.gc_out is not None:
                    session.result.gc = read_gc_log(session.gc_out)
                if session.time_out is not None:
                    session.result.call_ms = read_call_times(session.time_out)
        return [session.result for session in sessions]

    async def prepare(self, kind: str, n: int, http: httpx.AsyncClient) -> Session:
        """Start the server, warm it, connect N subscribers; measure memory on the way."""
        profile_out = None
        python = not servers.is_node(kind)  # the Python harness cannot profile Node
        if self.options.profile_dir is not None and python:
            profile_out = self.options.profile_dir / f"{kind.replace('+', '-')}-{n}"
        gc_out = None
        if self.options.gc_log and python:
            gc_out = self.workdir / f"gc-{kind.replace('+', '-')}-{n}"
        ours = kind.startswith("ours")
        threshold = self.options.ours_gc_threshold if ours else None
        time_calls = None
        if ours and self.options.time_calls:
            time_out = self.workdir / f"time-{kind.replace('+', '-')}-{n}"
            time_calls = (time_out, self.options.time_calls)
        database = None
        if ours and self.options.postgres_url:
            tag = f"fanout_{kind.replace('+', '_')}_{n}"
            database = await servers.FreshDatabase.create(self.options.postgres_url, tag)
        server = servers.start_server(
            kind,
            self.workdir,
            self.redis_url,
            self.server_cpus,
            profile_out,
            gc_out,
            threshold,
            time_calls,
            database.server_url if database else None,
        )
        self.started.append(server)
        self.channels += 1
        session = Session(kind, self.channels, server, RunResult(n=n, server=kind))
        session.database = database
        session.profile_out = profile_out
        session.gc_out = gc_out
        session.time_out = time_calls[0] if time_calls else None
        try:
            await servers.wait_ready(server, http)
            auth, session.path = await self.identity(kind, server, http)
            session.signed_in = time.monotonic()
            subscribe = json.dumps(["subscribe", {"path": session.path}]).encode()
            writer = await connect(HOST, server.port, -1, Sink(), auth, CLIENT_TIMEOUT_SECONDS)
            session.writer = writer
            # Warm the code paths up before the "before" memory reading.
            await writer.call(subscribe, within=CLIENT_TIMEOUT_SECONDS)
            unsubscribe = json.dumps(["unsubscribe", {"path": session.path}]).encode()
            await writer.call(unsubscribe, within=CLIENT_TIMEOUT_SECONDS)
            _, ack_task = await self.update(writer, kind, session.path, 0)
            session.version = self.ack_version((await ack_task)[0])
            await self.connect_measured(session, auth, subscribe, n, "subscriber")
        except Exception as exc:
            self.failed(session, exc)
        return session

    async def connect_measured(
        self, session: Session, auth: bytes, subscribe: bytes, n: int, noun: str
    ) -> None:
        """Connect and subscribe `n` clients, with the server's RSS read before and after."""
        result, pid = session.result, session.server.pid
        await asyncio.sleep(SETTLE_SECONDS)
        result.rss_before_kib = servers.rss_kib(pid)
        await self.connect_subscribers(session, auth, subscribe, n)
        await asyncio.sleep(SETTLE_SECONDS)
        result.rss_after_kib = servers.rss_kib(pid)
        if result.connected:
            result.kib_per_connection = (
                result.rss_after_kib - result.rss_before_kib
            ) / result.connected
        if result.connected == 0:
            result.error = f"no {noun} connected of {n}"
        elif result.connected < n:
            print(f"  ! only {result.connected} of {n} {noun}s connected", flush=True)

    def failed(self, session: Session, exc: BaseException) -> None:
        session.result.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        print(f"  ! {session.kind}: {session.result.error}", file=sys.stderr)
        tail = session.server.log_tail(15)
        if tail:
            print(f"  server log tail:\n{tail}", file=sys.stderr)

    async def connect_subscribers(
        self, session: Session, auth: bytes, subscribe: bytes, n: int
    ) -> None:
        result = session.result
        counts = split(n, self.pool.size)
        firsts = [sum(counts[:index]) for index in range(len(counts))]
        messages = [
            (
                "connect",
                session.channel,
                HOST,
                session.server.port,
                auth,
                subscribe,
                count,
                first,
                max(1, self.options.concurrency // self.pool.size),
                CLIENT_TIMEOUT_SECONDS,
            )
            for count, first in zip(counts, firsts, strict=True)
        ]
        started = time.monotonic()
        within = max(120.0, n * self.connect_seconds_each)
        replies = await self.pool.ask_each(messages, within=within)
        result.connect_seconds = time.monotonic() - started
        for reply in replies:
            result.connected += int(reply[1])
            for error, count in reply[2].items():
                result.connect_errors[error] = result.connect_errors.get(error, 0) + count

    async def rounds(self, sessions: list[Session]) -> None:
        """Warm-up, then measured rounds; within a round number every server takes its
        turn, the order alternating, so that a busy neighbour hurts all alike."""
        options = self.options
        if not sessions:
            return
        meter_before = (0.0, 0.0, 0.0)
        total = options.warmup + options.rounds
        for round_no in range(1, total + 1):
            measured = round_no > options.warmup
            if round_no == options.warmup + 1:
                for session in sessions:
                    if self.harnessed(session):
                        session.server.signal(signal.SIGUSR1)
                    session.cpu_before = servers.cpu_seconds(session.server.pid)
                meter_before = self.meter(sessions)
            order = sessions if round_no % 2 else list(reversed(sessions))
            for session in order:
                if session.result.error is not None:
                    continue
                try:
                    await self.one_round(session, round_no, measured)
                except Exception as exc:
                    self.failed(session, exc)
                await asyncio.sleep(options.gap)
        meter_after = self.meter(sessions)
        elapsed = meter_after[0] - meter_before[0]
        busy = meter_after[1] - meter_before[1]
        own = meter_after[2] - meter_before[2]
        for session in sessions:
            self.finish(session, busy / elapsed, max(0.0, busy - own) / elapsed)
        harnessed = [session for session in sessions if self.harnessed(session)]
        for session in harnessed:
            session.server.signal(signal.SIGUSR2)
        if harnessed:
            await asyncio.sleep(3.0)

    def harnessed(self, session: Session) -> bool:
        """Runs under infra.bench.profiled with a measurement window to switch."""
        return any((session.profile_out, session.gc_out, session.time_out))

    async def one_round(self, session: Session, round_no: int, measured: bool) -> None:
        options = self.options
        result = session.result
        assert session.writer is not None
        expected = session.version + 1
        age = time.monotonic() - session.signed_in
        if (
            session.kind.startswith("ours")
            and age > IDLE_WARNING_SECONDS
            and not session.warned_idle
        ):
            session.warned_idle = True
            print(
                f"  ! {session.kind}: the bench session is {age:.0f} s old; our server warns "
                "idle sessions at 540 s and revokes them at 600 s (fewer rounds or sizes)",
                file=sys.stderr,
            )
        done = self.pool.done[session.channel]
        while not done.empty():  # stale completions of a timed-out round
            done.get_nowait()
        armed = await self.pool.ask_all(("arm", session.channel, expected), 30)
        live = sum(int(reply[1]) for reply in armed)
        sent_ns, ack_task = await self.update(session.writer, session.kind, session.path, round_no)
        timed_out = not await self.wait_done(session.channel, expected, options.round_timeout)
        try:
            ack, ack_ns = await asyncio.wait_for(ack_task, options.round_timeout)
            session.version = self.ack_version(ack)
            ack_ms = (ack_ns - sent_ns) / 1e6
        except (BenchClientError, TimeoutError):
            timed_out = True
            session.version = expected
            ack_ms = math.nan
        if session.version != expected:
            raise RuntimeError(f"expected version {expected}, the server made {session.version}")
        collected = await self.pool.ask_all(("collect", session.channel, expected), 60)
        receipts: list[int] = []
        dropped = 0
        for reply in collected:
            got: generator.Collected = reply[1]
            receipts.extend(got.receipts)
            dropped += got.dropped
            result.frame_bytes = got.frame_bytes or result.frame_bytes
            if measured:
                result.duplicates += got.duplicates
                session.generator_cpu += got.cpu_seconds
                session.generator_frames += len(got.receipts) + got.other_frames
        result.dropped = max(result.dropped, dropped)
        latencies = [(ts - sent_ns) / 1e6 for ts in receipts]
        outcome = RoundResult(
            version=expected,
            live=live,
            received=len(receipts),
            first_ms=min(latencies) if latencies else math.nan,
            last_ms=max(latencies) if latencies else math.nan,
            ack_ms=ack_ms,
            timed_out=timed_out,
        )
        if measured:
            result.rounds.append(outcome)
            session.deliveries.extend(latencies)
            result.misses += result.connected - len(receipts)
        session.timeouts_in_a_row = session.timeouts_in_a_row + 1 if timed_out else 0
        if session.timeouts_in_a_row >= ABORT_AFTER_TIMEOUTS:
            raise RuntimeError(f"aborted after {ABORT_AFTER_TIMEOUTS} rounds in a row timed out")

    def finish(self, session: Session, machine_cores: float, other_cores: float) -> None:
        result = session.result
        measured_rounds = len(result.rounds)
        if measured_rounds and result.connected:
            cpu = servers.cpu_seconds(session.server.pid) - session.cpu_before
            result.server_cpu_us_per_delivery = cpu * 1e6 / (measured_rounds * result.connected)
        if session.generator_frames:
            result.generator_cpu_us_per_frame = (
                session.generator_cpu * 1e6 / session.generator_frames
            )
        result.machine_busy_cores = machine_cores
        result.other_busy_cores = other_cores
        complete = [r for r in result.rounds if r.received]
        result.delivery_ms = summary(session.deliveries)
        result.last_ms = summary([r.last_ms for r in complete])
        result.first_ms = summary([r.first_ms for r in complete])
        result.ack_ms = summary([r.ack_ms for r in result.rounds if not math.isnan(r.ack_ms)])

    def meter(self, sessions: Sequence[Session]) -> tuple[float, float, float]:
        """(now, machine busy CPU seconds, CPU seconds of the benchmark's processes)."""
        return time.monotonic(), servers.system_busy_seconds(), self.own_cpu(sessions)

    def own_cpu(self, sessions: Sequence[Session] = ()) -> float:
        """CPU seconds of the benchmark's processes: the servers of `sessions`, the
        generators, the extra ones (Redis) and this one."""
        own = sum(servers.cpu_seconds(session.server.pid) for session in sessions)
        for pid in [*(p.pid for p in self.pool.processes), *self.extra_pids]:
            own += servers.cpu_seconds(pid)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return own + usage.ru_utime + usage.ru_stime

    async def wait_done(self, channel: int, version: int, within: float) -> bool:
        """True when every generator reported all its subscribers got `version`."""
        waiting = set(range(self.pool.size))
        deadline = time.monotonic() + within
        done = self.pool.done[channel]
        while waiting:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                index, reported = await asyncio.wait_for(done.get(), left)
            except TimeoutError:
                return False
            if reported == version:
                waiting.discard(index)
        return True

    def stop_all(self) -> None:
        for server in list(self.started):
            server.stop()
        self.started.clear()


def read_call_times(prefix: Path) -> dict[str, dict[str, float]]:
    dumps = sorted(prefix.parent.glob(prefix.name + ".*.time.json"))
    if not dumps:
        return {}
    calls: dict[str, list[float]] = json.loads(dumps[0].read_text())
    return {target: summary(durations) for target, durations in calls.items()}


def read_gc_log(prefix: Path) -> dict[str, Any]:
    """Collector passes by generation, and the full (generation 2) passes' durations."""
    dumps = sorted(prefix.parent.glob(prefix.name + ".*.gc.json"))
    if not dumps:
        return {}
    log = json.loads(dumps[0].read_text())
    passes: list[list[float]] = log["passes"]
    full = [ms for generation, ms in passes if generation == 2]
    return {
        "passes": [sum(1 for g, _ in passes if g == gen) for gen in (0, 1, 2)],
        "ms_by_generation": [
            round(sum(ms for g, ms in passes if g == gen), 1) for gen in (0, 1, 2)
        ],
        "full_ms": [round(ms, 1) for ms in full],
        "tracked_objects": log["objects"],
    }


def write_profile_summary(prefix: Path) -> None:
    """`<prefix>.txt`: the top functions of each `<prefix>.<n>.pstats` dump."""
    dumps = sorted(prefix.parent.glob(prefix.name + ".*.pstats"))
    if not dumps:
        print(f"  ! no profile written for {prefix.name}", file=sys.stderr)
        return
    out = StringIO()
    stats = pstats.Stats(str(dumps[0]), stream=out)
    for extra in dumps[1:]:
        stats.add(str(extra))
    stats.sort_stats("tottime").print_stats(40)
    stats.sort_stats("cumulative").print_stats(60)
    prefix.with_suffix(".txt").write_text(out.getvalue())
    print(f"  profile: {prefix.with_suffix('.txt')}")


# -- report ---------------------------------------------------------------------------


# What ours is divided by: the python-socketio floor (the transport's own cost), and Node's
# socket.io (what people pick for this job; issue #18's targets are ours/node <= 1.0).
BASES = ("floor", "node")


def reference_of(kind: str, kinds: Sequence[str], base: str = "floor") -> str | None:
    """The `base` kind ours+redis or ours is compared with: base+redis, else base."""
    if not kind.startswith("ours"):
        return None
    matching = kind.replace("ours", base)
    return matching if matching in kinds else (base if base in kinds else None)


def ratios(
    results: Sequence[RunResult], base: str = "floor"
) -> dict[tuple[int, str], dict[str, Any]]:
    """(N, kind) -> {"reference", "delivery_p50", "delivery_p99", "last_p50", "last_p99"}:
    ours over the `base` kind of the same N."""
    kinds = sorted({r.server for r in results})
    by_key = {(r.n, r.server): r for r in results}
    table: dict[tuple[int, str], dict[str, Any]] = {}
    for result in results:
        reference = reference_of(result.server, kinds, base)
        floor = by_key.get((result.n, reference)) if reference else None
        if floor is None:
            continue
        entry: dict[str, Any] = {"reference": reference}
        for name in ("delivery", "last"):
            ours_figures = getattr(result, f"{name}_ms")
            floor_figures = getattr(floor, f"{name}_ms")
            for q in ("p50", "p99"):
                a, b = ours_figures.get(q, math.nan), floor_figures.get(q, math.nan)
                entry[f"{name}_{q}"] = a / b if b and not math.isnan(a) else math.nan
        table[(result.n, result.server)] = entry
    return table


def json_results(results: Sequence[RunResult]) -> dict[str, Any]:
    """The `results` and their `ratios` to the floor and to Node (each entry names its
    `reference`), as the JSON documents hold them."""
    return {
        "results": [asdict(r) for r in results],
        "ratios": [
            {"n": n, "server": kind, **entry}
            for base in BASES
            for (n, kind), entry in ratios(results, base).items()
        ],
    }


def _ms(value: float) -> str:
    if math.isnan(value):
        return "-"
    if value < 10:
        return f"{value:.2f}"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _load(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def _x(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}x"


def _ratio_cells(ratio: dict[str, Any] | None, base: str) -> tuple[str, str]:
    """(per-delivery, last-subscriber) "p50 / p99" ratio cells; the reference is named
    when it is not `base` itself (ours+redis against floor+redis)."""
    if ratio is None:
        return "-", "-"
    suffix = "" if ratio["reference"] == base else f" (vs {ratio['reference']})"
    return (
        f"{_x(ratio['delivery_p50'])} / {_x(ratio['delivery_p99'])}{suffix}",
        f"{_x(ratio['last_p50'])} / {_x(ratio['last_p99'])}{suffix}",
    )


def render(results: Sequence[RunResult]) -> str:
    found = ratios(results)
    to_node = ratios(results, "node")
    lines = [
        "| N | server | subscribers | per-delivery p50 / p99 (ms) | last-subscriber p50 / p99 "
        "(ms) | KiB per idle conn | ours/floor per-delivery p50 / p99 | ours/floor last "
        "p50 / p99 | ours/node per-delivery p50 / p99 | ours/node last p50 / p99 | misses |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        delivery_ratio, last_ratio = _ratio_cells(found.get((r.n, r.server)), "floor")
        node_delivery, node_last = _ratio_cells(to_node.get((r.n, r.server)), "node")
        d, last = r.delivery_ms, r.last_ms
        kib = "-" if math.isnan(r.kib_per_connection) else f"{r.kib_per_connection:.1f}"
        lines.append(
            f"| {r.n:,} | {r.server} | {r.connected:,} "
            f"| {_ms(d.get('p50', math.nan))} / {_ms(d.get('p99', math.nan))} "
            f"| {_ms(last.get('p50', math.nan))} / {_ms(last.get('p99', math.nan))} "
            f"| {kib} | {delivery_ratio} | {last_ratio} | {node_delivery} | {node_last} "
            f"| {r.misses} |"
        )
    lines += [
        "",
        "| N | server | first-subscriber p50 (ms) | update ack p50 (ms) | server CPU per "
        "delivery (us) | generator CPU per frame (us) | frame bytes | connect time (s) "
        "| other CPU load (cores) |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.n:,} | {r.server} | {_ms(r.first_ms.get('p50', math.nan))} "
            f"| {_ms(r.ack_ms.get('p50', math.nan))} "
            f"| {_ms(r.server_cpu_us_per_delivery)} | {_ms(r.generator_cpu_us_per_frame)} "
            f"| {r.frame_bytes} | {r.connect_seconds:.1f} | {_load(r.other_busy_cores)} |"
        )
    if any(r.gc for r in results):
        lines += [
            "",
            "| N | server | GC passes gen0 / gen1 / gen2 | GC ms gen0 / gen1 / gen2 "
            "| full GC pauses (ms) | tracked objects |",
            "| ---: | --- | ---: | ---: | --- | ---: |",
        ]
        for r in results:
            if r.gc:
                passes = " / ".join(str(p) for p in r.gc["passes"])
                spent = " / ".join(f"{ms:.0f}" for ms in r.gc["ms_by_generation"])
                full = ", ".join(f"{ms:.0f}" for ms in r.gc["full_ms"]) or "-"
                lines.append(
                    f"| {r.n:,} | {r.server} | {passes} | {spent} | {full} "
                    f"| {r.gc['tracked_objects']:,} |"
                )
    if any(r.call_ms for r in results):
        lines += ["", "| N | server | function inside the server | calls | p50 (ms) | p99 (ms) |"]
        lines += ["| ---: | --- | --- | ---: | ---: | ---: |"]
        for r in results:
            for target, figures in r.call_ms.items():
                lines.append(
                    f"| {r.n:,} | {r.server} | {target} | {figures['count']:.0f} "
                    f"| {_ms(figures['p50'])} | {_ms(figures['p99'])} |"
                )
    errors = [f"- N={r.n} {r.server}: {r.error}" for r in results if r.error]
    errors += [
        f"- N={r.n} {r.server}: only {r.connected} of {r.n} subscribers connected"
        for r in results
        if not r.error and r.connected < r.n
    ]
    errors += [
        f"- N={r.n} {r.server}: {r.dropped} subscribers dropped during the rounds"
        for r in results
        if r.dropped
    ]
    for r in results:
        errors += [f"- N={r.n} {r.server}: {count} x {e}" for e, count in r.connect_errors.items()]
    if errors:
        lines += ["", "Problems:", *errors]
    return "\n".join(lines)


# -- main -----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m infra.bench.fanout",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--sizes", default="100,1000,5000", help="subscriber counts N")
    parser.add_argument("--rounds", type=int, default=20, help="measured rounds per N")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured rounds first")
    parser.add_argument(
        "--servers", default="floor,ours,node", help=f"server kinds, of {','.join(servers.KINDS)}"
    )
    parser.add_argument(
        "--redis",
        action="store_true",
        help="also run ours+redis and floor+redis (REDIS_URL set)",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="Redis for the +redis kinds; default: a private redis-server on a free port",
    )
    parser.add_argument(
        "--postgres",
        nargs="?",
        const=servers.PG_ADMIN_URL,
        default=None,
        metavar="ADMIN_URL",
        help="run ours on a fresh PostgreSQL database created through ADMIN_URL (default "
        f"{servers.PG_ADMIN_URL}) and dropped afterwards, instead of a SQLite file",
    )
    parser.add_argument("--generators", type=int, default=1, help="generator processes")
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="server on the first CPU, generators and writer on the others",
    )
    parser.add_argument("--payload-bytes", type=int, default=400)
    parser.add_argument("--round-timeout", type=float, default=15.0, help="seconds")
    parser.add_argument("--gap", type=float, default=0.1, help="pause between rounds (s)")
    parser.add_argument(
        "--connect-concurrency", type=int, default=64, help="connections opened at once"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="cProfile the servers during the measured rounds, dumps in this directory "
        "(inflates the figures; default from BENCH_PROFILE)",
    )
    parser.add_argument(
        "--gc-log",
        action="store_true",
        help="log the servers' garbage-collector passes during the measured rounds",
    )
    parser.add_argument(
        "--ours-gc-threshold",
        default=None,
        metavar="T0,T1,T2",
        help="experiment: gc.set_threshold(T0, T1, T2) in our server only (via the harness)",
    )
    parser.add_argument(
        "--time-calls",
        default=None,
        metavar="MOD:FUNC,...",
        help="time these functions (plain or coroutine) inside our server during the rounds, e.g. "
        "realtime.documents:update,realtime.push:Publisher.push",
    )
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=20.0,
        help="skip the remaining configurations once this much time has passed",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        help="before each configuration wait up to this many seconds for the machine's "
        "other CPU load to fall under --quiet-cores (a shared box)",
    )
    parser.add_argument("--quiet-cores", type=float, default=0.25)
    parser.add_argument("--keep-workdir", action="store_true", help="keep logs and DBs")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    kinds = [kind.strip() for kind in args.servers.split(",") if kind.strip()]
    if args.redis:
        kinds += [kind for kind in ("floor+redis", "ours+redis") if kind not in kinds]
    unknown = [kind for kind in kinds if kind not in servers.KINDS]
    if unknown:
        parser.error(f"unknown server kinds: {unknown}")
    if args.ours_gc_threshold is not None:
        parts = args.ours_gc_threshold.split(",")
        if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
            parser.error("--ours-gc-threshold takes three integers: T0,T1,T2")
    if not 16 <= args.payload_bytes <= MAX_PAYLOAD_BYTES:
        parser.error(f"--payload-bytes must be within 16..{MAX_PAYLOAD_BYTES}")
    if any(size < 1 for size in sizes) or args.rounds < 1 or args.generators < 1:
        parser.error("sizes, rounds and generators must be positive")
    profile = args.profile or (
        Path(os.environ["BENCH_PROFILE"]) if os.environ.get("BENCH_PROFILE") else None
    )
    return Options(
        sizes=sizes,
        rounds=args.rounds,
        warmup=max(0, args.warmup),
        kinds=kinds,
        generators=args.generators,
        pin=args.pin,
        payload_bytes=args.payload_bytes,
        round_timeout=args.round_timeout,
        gap=max(0.0, args.gap),
        concurrency=max(1, args.connect_concurrency),
        json_path=args.json,
        profile_dir=profile.resolve() if profile else None,
        gc_log=args.gc_log,
        ours_gc_threshold=args.ours_gc_threshold,
        time_calls=args.time_calls,
        redis_url=args.redis_url,
        postgres_url=args.postgres,
        max_seconds=args.max_minutes * 60,
        quiet_wait=max(0.0, args.quiet_wait),
        quiet_cores=args.quiet_cores,
        keep_workdir=args.keep_workdir,
    )


async def run_all(options: Options, bench: Bench) -> list[RunResult]:
    results: list[RunResult] = []
    started = time.monotonic()
    bench.pool.attach()
    try:
        async with httpx.AsyncClient(trust_env=False) as http:
            for n in options.sizes:
                for group in groups_of(options.kinds):
                    if time.monotonic() - started > options.max_seconds:
                        results += [
                            RunResult(n=n, server=kind, error="skipped: time budget")
                            for kind in group
                        ]
                        continue
                    if options.quiet_wait:
                        load = await runner.wait_quiet(
                            options.quiet_wait, options.quiet_cores, bench.own_cpu
                        )
                        print(f"- other CPU load before the run: {load:.2f} cores", flush=True)
                    group_results = await bench.run_group(group, n, http)
                    results += group_results
                    for r in group_results:
                        print(
                            f"  {r.server}: last-subscriber p50 "
                            f"{_ms(r.last_ms.get('p50', math.nan))} ms, other CPU load "
                            f"{_load(r.other_busy_cores)} cores",
                            flush=True,
                        )
    finally:
        bench.pool.detach()
    return results


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(argv)
    host = runner.machine()  # before this process changes its CPU affinity
    results: list[RunResult] = []
    with runner.supervised(
        "bench-fanout-", options, host, interrupted="servers stopped, no results"
    ) as run:
        client_cpus = run.client_cpus  # the writer's too
        pool = GeneratorPool(options.generators, client_cpus)
        run.at_exit(pool.shutdown)
        redis: Managed | None = None
        if any(kind.endswith("+redis") for kind in options.kinds) and not options.redis_url:
            redis, options.redis_url = servers.start_redis(run.workdir, run.server_cpus)
            run.at_exit(redis.stop)
        bench = Bench(options, pool, run.workdir, run.server_cpus)
        run.at_exit(bench.stop_all)
        if redis is not None:
            bench.extra_pids.append(redis.pid)
        print(
            f"fan-out: sizes {options.sizes}, servers {options.kinds}, {options.rounds} "
            f"rounds (+{options.warmup} warm-up), {options.generators} generator(s), "
            f"server CPUs {sorted(bench.server_cpus) if bench.server_cpus else 'any'}, "
            f"clients CPUs {sorted(client_cpus) if client_cpus else 'any'}, ours on "
            f"{'PostgreSQL' if options.postgres_url else 'SQLite'}",
            flush=True,
        )
        results = runner.run_async(run_all(options, bench))
        run.failed = any(r.error or r.misses or r.connected < r.n for r in results)
    if run.interrupted:
        return runner.INTERRUPTED
    print()
    print(render(results))
    if options.json_path is not None:
        runner.write_json(
            options.json_path,
            "fanout",
            host,
            options,
            json_results(results),
            leave_out={"redis_url"},
        )
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
