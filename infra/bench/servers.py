"""Servers under test as real subprocesses: start, wait ready, measure, stop.

Every process is started in its own session (its own process group) and ended by PID
and process group: SIGTERM, a bounded wait, then SIGKILL.
"""

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
READY_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 10.0
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"
_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
TICKS = os.sysconf("SC_CLK_TCK")  # clock ticks per second of /proc CPU times


@dataclass
class FreshDatabase:
    """A PostgreSQL database created for one server and dropped afterwards."""

    admin_url: str
    name: str

    @property
    def url(self) -> str:
        """For asyncpg (the benchmark's own checks and set-up)."""
        return self.admin_url.rsplit("/", 1)[0] + "/" + self.name

    @property
    def server_url(self) -> str:
        """For our server (SQLAlchemy with asyncpg)."""
        return self.url.replace("postgresql://", "postgresql+asyncpg://", 1)

    @classmethod
    async def create(cls, admin_url: str, tag: str) -> "FreshDatabase":
        name = f"bench_{tag}_{os.getpid()}_{secrets.token_hex(3)}"
        connection = await asyncpg.connect(admin_url)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return cls(admin_url, name)

    async def drop(self) -> None:
        connection = await asyncpg.connect(self.admin_url)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        finally:
            await connection.close()


# Server kinds: (module run with `python -m`, or a script run with `node`; uses Redis)
KINDS: dict[str, tuple[str, bool]] = {
    "floor": ("infra.bench.bare_server", False),
    "ours": ("realtime", False),
    "node": ("infra/bench/node_server.mjs", False),
    "floor+redis": ("infra.bench.bare_server", True),
    "ours+redis": ("realtime", True),
}


def is_node(kind: str) -> bool:
    """Node's socket.io (issue #18's reference): a script for `node`, not a Python module,
    so none of the Python harness (infra.bench.profiled) applies to it."""
    return kind.split("+", 1)[0] == "node"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def affinity(cpus: set[int] | None) -> Iterator[None]:
    """Run the block (a fork) with this thread bound to `cpus`; children inherit it."""
    if not cpus:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def proc_files(name: str) -> Iterator[tuple[int, bytes]]:
    """(pid, contents of /proc/<pid>/<name>) of every process still there when read."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            yield int(entry), Path(f"/proc/{entry}/{name}").read_bytes()
        except OSError:
            continue


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants (from /proc/*/stat parent links)."""
    parents: dict[int, list[int]] = {}
    for child, stat in proc_files("stat"):
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        parents.setdefault(ppid, []).append(child)
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(parents.get(current, []))
    return tree


def tree_files(pid: int, name: str) -> Iterator[bytes]:
    """/proc/<member>/<name> of `pid` and of each descendant still there when read."""
    for member in process_tree(pid):
        try:
            yield Path(f"/proc/{member}/{name}").read_bytes()
        except OSError:
            continue


def stat_cpu_ticks(stat: bytes) -> int:
    """User plus system CPU of one /proc/<pid>/stat, in clock ticks (fields counted after
    the command, whose parentheses may hold spaces)."""
    fields = stat[stat.rindex(b")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def rss_kib(pid: int) -> int:
    """VmRSS of `pid` plus its descendants, in KiB."""
    total = 0
    for status in tree_files(pid, "status"):
        for line in status.splitlines():
            if line.startswith(b"VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of `pid` and its descendants."""
    return sum(stat_cpu_ticks(stat) for stat in tree_files(pid, "stat")) / TICKS


def system_busy_seconds() -> float:
    """CPU time the whole machine spent busy (all CPUs, /proc/stat), in seconds."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    # guest time is already included in user time
    return (sum(fields[:8]) - idle) / TICKS


def stop_process(popen: "subprocess.Popen[bytes]") -> None:
    """SIGTERM the process group, wait, then SIGKILL it; never a broad kill."""
    if popen.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(popen.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(STOP_TIMEOUT_SECONDS)
    # The group may outlive its leader (children); kill what is left of it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(STOP_TIMEOUT_SECONDS)


@dataclass
class Managed:
    """A started subprocess with its log file."""

    name: str
    popen: "subprocess.Popen[bytes]"
    log_path: Path
    port: int
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        stop_process(self.popen)

    def signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signum)


def start(
    name: str,
    command: list[str],
    env: dict[str, str],
    log_path: Path,
    port: int,
    cpus: set[int] | None,
) -> Managed:
    with log_path.open("wb") as log, affinity(cpus):
        popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Managed(name, popen, log_path, port)


def start_server(
    kind: str,
    workdir: Path,
    redis_url: str | None,
    cpus: set[int] | None,
    profile_out: Path | None = None,
    gc_out: Path | None = None,
    gc_threshold: str | None = None,
    time_calls: tuple[Path, str] | None = None,
    database_url: str | None = None,
    extra_env: Mapping[str, str] | None = None,
    tag: str | None = None,
    tracemalloc_out: Path | None = None,
) -> Managed:
    """Start a server of `kind` on a free port with a fresh SQLite file, or on
    `database_url` (not yet ready); `extra_env` adds settings, `tag` names its log.

    With `profile_out`, `gc_out`, `gc_threshold`, `time_calls` or `tracemalloc_out` it runs under
    infra.bench.profiled (same module, same environment), whose diagnostics SIGUSR1/SIGUSR2
    switch on and off."""
    module, uses_redis = KINDS[kind]
    port = free_port()
    tag = tag or kind.replace("+", "-")
    database = workdir / f"bench-{tag}-{port}.db"
    harness = (
        "BENCH_PROFILE_OUT",
        "BENCH_GC_OUT",
        "BENCH_GC_THRESHOLD",
        "BENCH_TIME_OUT",
        "BENCH_TIME",
        "BENCH_TRACEMALLOC_OUT",
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "PORT", *harness)
    }
    env.update(
        PORT=str(port),
        APP_ENV="test",
        DATABASE_URL=database_url or f"sqlite+aiosqlite:///{database}",
        LOG_LEVEL="warning",
        PYTHONUNBUFFERED="1",
        # The benches open thousands of sockets of one session from one address, and their
        # clients send as fast as the server answers.
        SOCKETS_PER_SESSION="1000000",
        SOCKETS_PER_ADDRESS="1000000",
        SOCKET_EVENT_BURST="1000000",
        SOCKET_EVENTS_PER_SECOND="1000000",
    )
    env.update(extra_env or {})
    if uses_redis:
        if not redis_url:
            raise RuntimeError(f"{kind} needs a Redis URL")
        env["REDIS_URL"] = redis_url
    if is_node(kind):
        return start(kind, ["node", module], env, workdir / f"server-{tag}-{port}.log", port, cpus)
    command = [sys.executable, "-m", module]
    if profile_out is not None:
        env["BENCH_PROFILE_OUT"] = str(profile_out)
    if gc_out is not None:
        env["BENCH_GC_OUT"] = str(gc_out)
    if gc_threshold:
        env["BENCH_GC_THRESHOLD"] = gc_threshold
    if time_calls is not None:
        env["BENCH_TIME_OUT"], env["BENCH_TIME"] = str(time_calls[0]), time_calls[1]
    if tracemalloc_out is not None:
        env["BENCH_TRACEMALLOC_OUT"] = str(tracemalloc_out)
    if any((profile_out, gc_out, gc_threshold, time_calls, tracemalloc_out)):
        command = [sys.executable, "-m", "infra.bench.profiled", module]
    return start(kind, command, env, workdir / f"server-{tag}-{port}.log", port, cpus)


async def wait_ready(server: Managed, http: httpx.AsyncClient) -> None:
    """Poll GET /healthz until 200; fail early if the process exits."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    url = f"http://{HOST}:{server.port}/healthz"
    while time.monotonic() < deadline:
        if server.popen.poll() is not None:
            raise RuntimeError(f"{server.name} exited early:\n{server.log_tail()}")
        try:
            reply = await http.get(url, timeout=2.0)
            if reply.status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"{server.name} not ready in {READY_TIMEOUT_SECONDS:.0f} s")


def start_redis(workdir: Path, cpus: set[int] | None) -> tuple[Managed, str]:
    """A private, non-persistent redis-server on a free port, so that no other user's
    pub/sub traffic shares the channel our servers broadcast on."""
    port = free_port()
    command = [
        "redis-server",
        "--port",
        str(port),
        "--bind",
        HOST,
        "--save",
        "",
        "--appendonly",
        "no",
        "--protected-mode",
        "no",
        "--dir",
        str(workdir),
        "--maxclients",
        "10000",
    ]
    managed = start("redis", command, dict(os.environ), workdir / "redis.log", port, cpus)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if managed.popen.poll() is not None:
            raise RuntimeError(f"redis-server exited:\n{managed.log_tail()}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.5) as probe:
            probe.sendall(b"PING\r\n")
            if probe.recv(16).startswith(b"+PONG"):
                return managed, f"redis://{HOST}:{port}/0"
        time.sleep(0.05)
    managed.stop()
    raise RuntimeError("redis-server did not answer PING")
