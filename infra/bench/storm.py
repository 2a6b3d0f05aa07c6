"""Reconnect storm: N distinct users come back at once, as after a restart or a deploy.

    .venv/bin/python -m infra.bench.storm [--clients 2000] [--concurrency 200]
        [--servers ours,floor,node] [--processes 1] [--json var/bench/storm.json]

Issue #18 asks how fast a server gets its clients live again: >= 1,000 clients per second
per process, at least 0.8x the bare python-socketio rate of the same run. For each server
kind in turn (a fresh subprocess, a fresh SQLite file for ours; the server on the first CPU,
this process on the others, as the fan-out bench does):
1. before timing, one identity per client: ours makes N distinct users and their bearer
   tokens through POST /dev/token; the floor and node accept any token (as in the fan-out
   bench) and get `storm-<i>`. A probe client subscribes once, untimed, to learn the
   versions the clients then hold (every user is made alike, so one user's version stands
   for all) and to compute the month document as a first visitor would;
2. the storm: N lean Socket.IO clients (infra/bench/lean.py), C in flight at once; each
   opens a WebSocket, sends CONNECT with its token, then both `subscribe`s at once with
   the version it holds - its own user record `users/<uid>` and the current vacancies
   month `vacancies/demo-clinic/cancer-b2b/<YYYY-MM>` (docs/protocol.md; the floor and
   node: the rooms of the same names) - and is live when both acks are back without an
   error. A client stays connected until the storm is over, so the server ends holding N;
3. reported: live clients per second (live / time from the first connect to the last
   live), per-client connect-to-live p50/p99, errors by kind, the server's CPU per client
   and its memory per live client, and this process's CPU share (if it nears 1.0 the
   clients, not the server, set the pace).

With --processes P > 1, ours runs as P nodes on one fresh PostgreSQL database and a private
Redis (a deployment's shape), the identities made through the first node and the clients
spread over the nodes in turn; CPU and memory are the nodes' sums.
"""

import argparse
import asyncio
import json
import math
import resource
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from infra.bench import runner, servers
from infra.bench.fanout import summary
from infra.bench.lean import BenchClientError, LeanClient, Sink, connect
from infra.bench.servers import HOST, Managed

CLINIC_ID = "demo-clinic"
SERVICE_ID = "cancer-b2b"
TIMEZONE = "Asia/Tokyo"  # the demo clinic's
TOKEN_CONCURRENCY = 8  # /dev/token calls at once while identities are made (untimed)
SETTLE_SECONDS = 1.0


@dataclass
class Options:
    clients: int
    concurrency: int
    kinds: list[str]
    client_timeout: float
    pin: bool
    json_path: Path | None
    keep_workdir: bool
    profile_dir: Path | None = None  # runner.supervised reads it; the storm never profiles
    # Processes of ours (more than one: nodes on one fresh PostgreSQL database and a private
    # Redis, as a deployment runs them; the clients spread over them in turn).
    processes: int = 1


@dataclass
class Identity:
    """What one client brings back: its CONNECT auth and its own user record's path."""

    auth: bytes
    user_path: str


@dataclass
class StormResult:
    server: str
    clients: int
    concurrency: int
    live: int = 0
    seconds: float = math.nan
    clients_per_second: float = math.nan
    live_ms: dict[str, float] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    identities_seconds: float = math.nan
    server_cpu_ms_per_client: float = math.nan
    kib_per_client: float = math.nan
    client_cpu_share: float = math.nan
    # CPU cores busy during the storm with what was not the server's or this process's:
    # the rest of a shared box (and some kernel network work of our own).
    other_busy_cores: float = math.nan
    error: str | None = None


def month_path(now: datetime | None = None) -> str:
    """The current vacancies month of the demo clinic's `cancer-b2b` service."""
    month = (now or datetime.now(ZoneInfo(TIMEZONE))).strftime("%Y-%m")
    return f"vacancies/{CLINIC_ID}/{SERVICE_ID}/{month}"


def subscribe_event(path: str, version: int) -> bytes:
    """A `subscribe` with the version the client holds (docs/protocol.md; 0 for a month
    never changed yet); the floor and node ignore it, as they ignore tokens."""
    payload = {"path": path, "version": version}
    return json.dumps(["subscribe", payload], separators=(",", ":")).encode()


def error_kind(exc: BaseException) -> str:
    """A short, countable name for a failure: the type and the head of its message (ids and
    counters in messages would make every failure its own kind, so digits go)."""
    text = "".join("#" if ch.isdigit() else ch for ch in str(exc))[:90]
    return f"{type(exc).__name__}: {text}".rstrip(": ")


def ack_snapshot(reply: bytes) -> dict[str, Any]:
    """The snapshot of a `subscribe` ack; a refusal raises, named by its error code."""
    body = json.loads(reply)
    first = body[0] if isinstance(body, list) and body else None
    if not isinstance(first, dict) or "snapshot" not in first:
        code = first.get("error", {}).get("code") if isinstance(first, dict) else None
        raise BenchClientError(f"subscribe refused: {code or reply[:80]!r}")
    snapshot: dict[str, Any] = first["snapshot"]
    return snapshot


# -- identities, before timing ----------------------------------------------------------


async def ours_identities(http: httpx.AsyncClient, port: int, count: int) -> list[Identity]:
    """N distinct users, each with a bearer token, through POST /dev/token."""
    url = f"http://{HOST}:{port}/dev/token"
    made: list[Identity | None] = [None] * count
    todo = iter(range(count))

    async def worker() -> None:
        for index in todo:
            reply = await http.post(
                url, json={"data": {"email": f"storm-{index}@bench.example"}}, timeout=60
            )
            reply.raise_for_status()
            data = reply.json()["data"]
            auth = json.dumps({"token": data["token"]}).encode()
            made[index] = Identity(auth, f"users/{data['uid']}")

    await asyncio.gather(*(worker() for _ in range(TOKEN_CONCURRENCY)))
    return [identity for identity in made if identity is not None]


def reference_identities(count: int) -> list[Identity]:
    """The floor and node accept any token; one user room each, as ours has."""
    return [
        Identity(json.dumps({"token": f"storm-{i}"}).encode(), f"users/storm-{i}")
        for i in range(count)
    ]


async def probe_versions(
    port: int, identity: Identity, month: str, within: float
) -> dict[str, int]:
    """The versions a returning client holds: read once, untimed, by the first identity."""
    client = await connect(HOST, port, -1, Sink(), identity.auth, within)
    try:
        versions: dict[str, int] = {}
        for name, path in (("user", identity.user_path), ("month", month)):
            reply = await client.call(subscribe_event(path, 0), within=within)
            versions[name] = int(ack_snapshot(reply)["version"])
        return versions
    finally:
        client.close()


# -- the storm --------------------------------------------------------------------------


@dataclass
class Storm:
    """The clients of one storm against one server: who is live, how long each took."""

    ports: list[int]
    identities: list[Identity]
    month: str
    versions: dict[str, int]
    concurrency: int
    within: float
    live_ns: list[int] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    clients: list[LeanClient] = field(default_factory=list)
    last_live: int = 0

    async def one(self, index: int) -> None:
        """Connect, subscribe to both documents at once, count live when both acks are in."""
        identity = self.identities[index]
        started = time.monotonic_ns()
        port = self.ports[index % len(self.ports)]
        client = await connect(HOST, port, index, Sink(), identity.auth, self.within)
        self.clients.append(client)
        prefixes = []
        for path, version in (
            (identity.user_path, self.versions.get("user", 0)),
            (self.month, self.versions.get("month", 0)),
        ):
            ack_id = client.next_ack_id()
            client.send_text(b"42%d%s" % (ack_id, subscribe_event(path, version)))
            prefixes.append(b"43%d[" % ack_id)
        for prefix in prefixes:
            reply = await client.expect(prefix, within=self.within)
            ack_snapshot(reply[len(prefix) - 1 :])
        self.last_live = time.monotonic_ns()
        self.live_ns.append(self.last_live - started)

    async def worker(self, todo: "asyncio.Queue[int]") -> None:
        """One of the C clients in flight: takes the next identity when its own is live."""
        while not todo.empty():
            index = todo.get_nowait()
            try:
                await self.one(index)
            except Exception as exc:  # counted by kind: a storm reports, not stops
                self.errors[error_kind(exc)] += 1

    async def run(self) -> float:
        """Every client once, C at a time; returns the seconds from the first connect to
        the last client live."""
        todo: asyncio.Queue[int] = asyncio.Queue()
        for index in range(len(self.identities)):
            todo.put_nowait(index)
        started = time.monotonic_ns()
        await asyncio.gather(*(self.worker(todo) for _ in range(self.concurrency)))
        return (self.last_live - started) / 1e9 if self.live_ns else math.nan

    def close(self) -> None:
        for client in self.clients:
            client.close()
        self.clients.clear()


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def storm_one(
    kind: str, options: Options, workdir: Path, cpus: set[int] | None, http: httpx.AsyncClient
) -> StormResult:
    """Start a fresh server of `kind` (or ours' nodes), make the identities, storm it, stop
    it."""
    if kind == "ours" and options.processes > 1:
        return await storm_nodes(options, workdir, cpus, http)
    result = StormResult(kind, options.clients, options.concurrency)
    server = servers.start_server(kind, workdir, None, cpus)
    try:
        await servers.wait_ready(server, http)
        await measure([server], kind, options, http, result)
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        print(f"  ! {kind}: {result.error}\n{server.log_tail(15)}", file=sys.stderr)
    finally:
        server.stop()
    return result


async def storm_nodes(
    options: Options, workdir: Path, cpus: set[int] | None, http: httpx.AsyncClient
) -> StormResult:
    """Ours as P nodes on one fresh PostgreSQL database and a private Redis (issue #18:
    10,000 clients live again within 10 s on two processes)."""
    name = f"ours x{options.processes}"
    result = StormResult(name, options.clients, options.concurrency)
    redis, redis_url = servers.start_redis(workdir, cpus)
    database = await servers.FreshDatabase.create(servers.PG_ADMIN_URL, "storm")
    nodes: list[Managed] = []
    try:
        for index in range(options.processes):
            nodes.append(
                servers.start_server(
                    "ours+redis",
                    workdir,
                    redis_url,
                    cpus,
                    database_url=database.server_url,
                    tag=f"ours-node{index}",
                )
            )
            await servers.wait_ready(nodes[-1], http)  # one at a time: the first migrates
        await measure(nodes, "ours", options, http, result)
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        tails = "\n".join(node.log_tail(15) for node in nodes)
        print(f"  ! {name}: {result.error}\n{tails}", file=sys.stderr)
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        await database.drop()
    return result


async def measure(
    nodes: list[Managed], kind: str, options: Options, http: httpx.AsyncClient, result: StormResult
) -> None:
    """Identities and versions first (untimed, through the first node), then the storm and
    its figures (CPU and memory summed over the nodes)."""
    began = time.monotonic()
    first = nodes[0]
    if kind.startswith("ours"):
        identities = await ours_identities(http, first.port, options.clients)
    else:
        identities = reference_identities(options.clients)
    result.identities_seconds = time.monotonic() - began
    month = month_path()
    result.versions = await probe_versions(first.port, identities[0], month, options.client_timeout)
    if not kind.startswith("ours"):
        result.versions = {}  # their subscribe takes no version; the probe only warmed up
    await asyncio.sleep(SETTLE_SECONDS)
    ports = [node.port for node in nodes]
    storm = Storm(
        ports, identities, month, result.versions, options.concurrency, options.client_timeout
    )
    rss_before, cpu_before = nodes_rss_kib(nodes), nodes_cpu_seconds(nodes)
    own_before, wall_before = own_cpu_seconds(), time.monotonic()
    busy_before = servers.system_busy_seconds()
    try:
        result.seconds = await storm.run()
        wall = time.monotonic() - wall_before
        own = own_cpu_seconds() - own_before
        cpu = nodes_cpu_seconds(nodes) - cpu_before
        busy = servers.system_busy_seconds() - busy_before
        result.client_cpu_share = own / wall
        result.other_busy_cores = max(0.0, busy - own - cpu) / wall
        await asyncio.sleep(SETTLE_SECONDS)
        rss_after = nodes_rss_kib(nodes)
    finally:
        storm.close()
    result.live = len(storm.live_ns)
    result.errors = dict(storm.errors.most_common())
    result.live_ms = summary([ns / 1e6 for ns in storm.live_ns])
    if result.live:
        result.clients_per_second = result.live / result.seconds
        result.server_cpu_ms_per_client = cpu * 1e3 / result.live
        result.kib_per_client = (rss_after - rss_before) / result.live


def nodes_rss_kib(nodes: list[Managed]) -> int:
    return sum(servers.rss_kib(node.pid) for node in nodes)


def nodes_cpu_seconds(nodes: list[Managed]) -> float:
    return sum(servers.cpu_seconds(node.pid) for node in nodes)


# -- report -----------------------------------------------------------------------------


def _num(value: float, digits: int = 0) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def rate_ratios(results: Sequence[StormResult]) -> dict[str, float]:
    """ours' clients per second over the floor's and over node's (issue #18: >= 0.8 of
    the floor's)."""
    rates = {r.server: r.clients_per_second for r in results}
    ours = rates.get("ours", math.nan)
    return {f"ours/{base}": ours / rates[base] for base in ("floor", "node") if rates.get(base)}


def render(results: Sequence[StormResult]) -> str:
    lines = [
        "| server | live / clients | in flight | clients per second | connect-to-live p50 / "
        "p99 (ms) | server CPU per client (ms) | KiB per live client | bench client CPU "
        "share | other CPU load (cores) | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        errors = "; ".join(f"{count} x {kind}" for kind, count in r.errors.items()) or "-"
        if r.error:
            errors = f"run failed: {r.error}"
        lines.append(
            f"| {r.server} | {r.live:,} / {r.clients:,} | {r.concurrency} "
            f"| {_num(r.clients_per_second)} "
            f"| {_num(r.live_ms.get('p50', math.nan), 1)} / "
            f"{_num(r.live_ms.get('p99', math.nan), 1)} "
            f"| {_num(r.server_cpu_ms_per_client, 2)} | {_num(r.kib_per_client, 1)} "
            f"| {_num(r.client_cpu_share, 2)} | {_num(r.other_busy_cores, 2)} | {errors} |"
        )
    found = rate_ratios(results)
    if found:
        lines += ["", "Rate ratios: " + ", ".join(f"{k} {v:.2f}x" for k, v in found.items())]
    return "\n".join(lines)


# -- main -------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m infra.bench.storm",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--clients", type=int, default=2000, help="distinct users N")
    parser.add_argument("--concurrency", type=int, default=200, help="clients in flight C")
    parser.add_argument(
        "--servers", default="ours,floor,node", help="server kinds, of ours,floor,node"
    )
    parser.add_argument(
        "--client-timeout", type=float, default=30.0, help="seconds for one client to be live"
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="server on the first CPU, this process on the others",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="processes of ours; over 1: nodes on PostgreSQL and Redis, clients spread",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument("--keep-workdir", action="store_true", help="keep logs and DBs")
    args = parser.parse_args(argv)
    kinds = [kind.strip() for kind in args.servers.split(",") if kind.strip()]
    unknown = [k for k in kinds if k not in servers.KINDS or k.endswith("+redis")]
    if unknown:
        parser.error(f"unknown server kinds: {unknown} (ours, floor, node)")
    if args.clients < 1 or args.concurrency < 1 or args.processes < 1:
        parser.error("--clients, --concurrency and --processes must be positive")
    return Options(
        clients=args.clients,
        concurrency=min(args.concurrency, args.clients),
        kinds=kinds,
        client_timeout=args.client_timeout,
        pin=args.pin,
        json_path=args.json,
        keep_workdir=args.keep_workdir,
        processes=args.processes,
    )


async def run_all(options: Options, workdir: Path, cpus: set[int] | None) -> list[StormResult]:
    results = []
    async with httpx.AsyncClient(trust_env=False) as http:
        for kind in options.kinds:
            print(
                f"- {kind}: {options.clients:,} clients, {options.concurrency} at once", flush=True
            )
            result = await storm_one(kind, options, workdir, cpus, http)
            print(
                f"  {result.live:,} live, {_num(result.clients_per_second)} per second "
                f"(identities {_num(result.identities_seconds, 1)} s, versions held "
                f"{result.versions or 'none'})",
                flush=True,
            )
            results.append(result)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(argv)
    host = runner.machine()  # before this process changes its CPU affinity
    results: list[StormResult] = []
    with runner.supervised(
        "bench-storm-", options, host, interrupted="servers stopped, no results"
    ) as run:
        results = runner.run_async(run_all(options, run.workdir, run.server_cpus))
        run.failed = any(r.error or r.live < r.clients for r in results)
    if run.interrupted:
        return runner.INTERRUPTED
    print()
    print(render(results))
    if options.json_path is not None:
        document = {
            "results": [asdict(r) for r in results],
            "ratios": rate_ratios(results),
        }
        runner.write_json(options.json_path, "storm", host, options, document)
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
