"""Part 2 of the booking benchmark: `vacancies-read` over 30 days as counselors are added.

For each size (counselors of the demo clinic in all: its 3, plus counselors written into
`counselors` / `counselor_hours` while the server runs, working 09:00-17:00 Monday to
Friday), active holds are spread over the 30 days (`holds_per_counselor` per counselor,
written into `slot_claims` for draft appointments made through the API), then:
- sequential: one lean socket, `calls` calls one after another;
- concurrent: `concurrency` sockets calling at once, `calls` calls in all;
- after a change: one socket, `calls` calls one after another, each right after the versions
  of the month documents were raised (as another process's hold would), so that each call
  computes its months again instead of finding them in the server's month cache;
- holds: one client moving its hold between two free slots `holds` times, one after
  another: the hold's answer waits for the derived documents (the month documents of the
  clinic's services and the bookings feed) to be versioned, and those followed to be
  computed and pushed.
"""

import asyncio
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import asyncpg
import httpx

from infra.bench import booking_env as env
from infra.bench import servers
from infra.bench.booking_holds import Meter, gather_limited
from infra.bench.fanout import summary
from infra.bench.lean import LeanClient
from infra.bench.servers import FreshDatabase, Managed

DEMO_COUNSELORS = 3
WARMUP_CALLS = 3


@dataclass
class VacancyRun:
    counselors: int
    holds: int = 0
    days: int = 0
    slots: int = 0
    reply_bytes: int = 0
    sequential_ms: dict[str, float] = field(default_factory=dict)
    concurrency: int = 0
    concurrent_ms: dict[str, float] = field(default_factory=dict)
    concurrent_per_second: float = math.nan
    # Each call right after the month documents changed (the month cache misses).
    cold_ms: dict[str, float] = field(default_factory=dict)
    cold_cpu_ms_per_call: float = math.nan
    hold_ms: dict[str, float] = field(default_factory=dict)
    call_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    hold_call_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    # CPU cores during the vacancies-read calls: our server, PostgreSQL, everything else.
    server_cores: float = math.nan
    postgres_cores: float = math.nan
    other_cores: float = math.nan
    # Our server's CPU time per vacancies-read call (sequential and concurrent together).
    server_cpu_ms_per_call: float = math.nan
    error: str | None = None


def spread_pairs(
    slots: Sequence[dict[str, Any]], counselors: Sequence[str], per_counselor: int
) -> list[env.Pair]:
    """`per_counselor` starts of each counselor, evenly spread over its free starts, none
    within 90 minutes of another of the same counselor."""
    starts: dict[str, list[str]] = {cid: [] for cid in counselors}
    for slot in slots:
        for cid in slot["counselorIds"]:
            if cid in starts:
                starts[cid].append(slot["start"])
    picked: list[env.Pair] = []
    for cid, free in starts.items():
        chosen: list[env.Pair] = []
        for k in range(per_counselor):
            if not free:
                break
            candidate = env.Pair(free[int((k + 0.5) * len(free) / per_counselor)], cid)
            if all(
                abs((candidate.moment - other.moment).total_seconds()) >= 90 * 60
                for other in chosen
            ):
                chosen.append(candidate)
        picked += chosen
    return picked


def range_event(first: date, last: date) -> bytes:
    return env.call_event(
        "vacancies-read",
        {
            "clinicId": env.CLINIC_ID,
            "serviceId": env.SERVICE_ALIAS,
            "from": first.isoformat(),
            "to": last.isoformat(),
        },
    )


async def timed_calls(client: LeanClient, event: bytes, count: int) -> tuple[list[float], int]:
    """Latencies (ms) of `count` calls one after another, and the last reply's size."""
    latencies: list[float] = []
    size = 0
    for _ in range(count):
        sent = time.monotonic_ns()
        ack = await client.call(event, within=env.CALL_TIMEOUT_SECONDS)
        latencies.append((time.monotonic_ns() - sent) / 1e6)
        if env.error_status(ack) is not None:
            raise env.CallFailed(f"vacancies-read: {ack[:300]!r}")
        size = len(ack)
    return latencies, size


class Fixture:
    """The server of part 2, its counselors and the users that hold its slots."""

    def __init__(self, server: Managed, database: FreshDatabase, http: httpx.AsyncClient) -> None:
        self.server = server
        self.database = database
        self.api = env.Api(http, server.port)
        self.counselors = DEMO_COUNSELORS
        self.holders = 0
        self.holds = 0
        self.token = ""
        today = env.clinic_today("Asia/Tokyo")
        self.first = today + timedelta(days=1)
        self.last = self.first + timedelta(days=29)

    async def grow(self, total: int, holds_per_counselor: int) -> None:
        """Add counselors up to `total`, and holds for those not holding yet."""
        if not self.token:
            _, self.token = await self.api.token("vacancies-reader@bench.example")
            known = [f"c-{name}" for name in ("sato", "tanaka", "brown")]
        else:
            known = []
        if total > self.counselors:
            known += await env.add_counselors(
                self.database, self.counselors - DEMO_COUNSELORS, total - self.counselors
            )
            self.counselors = total
        if not known or holds_per_counselor <= 0:
            return
        data = await self.api.vacancies(self.token, self.first, self.last)
        pairs = spread_pairs(data["slots"], known, holds_per_counselor)

        async def holder(index: int) -> str:
            _, token = await self.api.token(f"vacancies-holder-{index}@bench.example")
            return await self.api.appointment(token)

        start = self.holders
        self.holders += len(pairs)
        appointments = await gather_limited(
            16, [holder(i) for i in range(start, start + len(pairs))]
        )
        await env.insert_holds(self.database, list(zip(appointments, pairs, strict=True)))
        self.holds += len(pairs)


async def measure(
    fixture: Fixture,
    run: VacancyRun,
    *,
    calls: int,
    concurrency: int,
    holds: int,
    harness: env.Harness,
) -> None:
    port = fixture.server.port
    event = range_event(fixture.first, fixture.last)
    run.days = (fixture.last - fixture.first).days + 1
    run.holds = fixture.holds
    clients = [await env.open_socket(port, fixture.token, i) for i in range(max(1, concurrency))]
    try:
        await timed_calls(clients[0], event, WARMUP_CALLS)
        harness.open()
        meter = Meter(fixture.server)
        cpu_before = servers.cpu_seconds(fixture.server.pid)
        sequential, run.reply_bytes = await timed_calls(clients[0], event, calls)
        run.sequential_ms = summary(sequential)
        shares = [
            calls // len(clients) + (1 if i < calls % len(clients) else 0)
            for i in range(len(clients))
        ]
        started = time.monotonic()
        parts = await asyncio.gather(
            *(timed_calls(c, event, n) for c, n in zip(clients, shares, strict=True))
        )
        elapsed = time.monotonic() - started
        run.server_cores, run.postgres_cores, _, run.other_cores = meter.cores()
        cpu = servers.cpu_seconds(fixture.server.pid) - cpu_before
        run.server_cpu_ms_per_call = cpu * 1e3 / (2 * calls)
        cold = await after_changes(fixture, clients[0], event, calls)
        run.cold_ms, run.cold_cpu_ms_per_call = cold
        run.call_ms = await harness.close()
        run.concurrency = len(clients)
        run.concurrent_ms = summary([ms for latencies, _ in parts for ms in latencies])
        run.concurrent_per_second = calls / elapsed
        last = await env.socket_call(clients[0], "vacancies-read", json.loads(event)[1]["data"])
        run.slots = len(last["slots"])
        if holds > 0:
            run.hold_ms, run.hold_call_ms = await hold_latency(
                fixture, last["slots"], holds, harness
            )
    finally:
        for client in clients:
            client.close()


async def after_changes(
    fixture: Fixture, client: LeanClient, event: bytes, calls: int
) -> tuple[dict[str, float], float]:
    """Latencies of calls each made right after a change of the months it reads, and the
    server's CPU per call (the bump itself is not timed)."""
    connection = await asyncpg.connect(fixture.database.url)
    latencies: list[float] = []
    cpu = 0.0
    try:
        for _ in range(calls):
            await env.bump_vacancies(fixture.database, connection=connection)
            before = servers.cpu_seconds(fixture.server.pid)
            latencies += (await timed_calls(client, event, 1))[0]
            cpu += servers.cpu_seconds(fixture.server.pid) - before
    finally:
        await connection.close()
    return summary(latencies), cpu * 1e3 / calls


async def hold_latency(
    fixture: Fixture, slots: Sequence[dict[str, Any]], holds: int, harness: env.Harness
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """One client moving its hold between two free slots, `holds` times in a row."""
    _, token = await fixture.api.token(f"vacancies-mover-{fixture.counselors}@bench.example")
    appointment_id = await fixture.api.appointment(token)
    pairs = env.spaced_pairs(slots[len(slots) // 3 :], 2)
    client = await env.open_socket(fixture.server.port, token)
    try:
        events = [env.hold_event(appointment_id, p.start, p.counselor_id) for p in pairs]
        ack = await client.call(events[0], within=env.CALL_TIMEOUT_SECONDS)  # warm-up
        harness.open()
        latencies = []
        for index in range(holds):
            sent = time.monotonic_ns()
            ack = await client.call(events[(index + 1) % 2], within=env.CALL_TIMEOUT_SECONDS)
            latencies.append((time.monotonic_ns() - sent) / 1e6)
            if env.error_status(ack) is not None:
                raise env.CallFailed(f"appointment-hold: {ack[:300]!r}")
        return summary(latencies), await harness.close()
    finally:
        client.close()


async def run_vacancies(
    server: Managed,
    database: FreshDatabase,
    http: httpx.AsyncClient,
    harness: env.Harness,
    options: env.Options,
) -> list[VacancyRun]:
    """Each clinic size of --counselors in turn, its holds (--holds-per-counselor) added to
    the last one's, measured with --calls, --concurrency and --hold-calls."""
    fixture = Fixture(server, database, http)
    runs: list[VacancyRun] = []
    for size in sorted(options.counselors):
        run = VacancyRun(counselors=max(size, DEMO_COUNSELORS))
        runs.append(run)
        try:
            started = time.monotonic()
            await fixture.grow(run.counselors, options.holds_per_counselor)
            print(
                f"  {run.counselors} counselors, {fixture.holds} active holds "
                f"(set up in {time.monotonic() - started:.1f} s)",
                flush=True,
            )
            await measure(
                fixture,
                run,
                calls=options.calls,
                concurrency=options.concurrency,
                holds=options.hold_calls,
                harness=harness,
            )
            print(
                f"  {run.counselors} counselors: {run.slots} slots, {run.reply_bytes:,} bytes; "
                f"sequential p50 {run.sequential_ms['p50']:.1f} / p99 "
                f"{run.sequential_ms['p99']:.1f} ms; {run.concurrency} at once p50 "
                f"{run.concurrent_ms['p50']:.1f} / p99 {run.concurrent_ms['p99']:.1f} ms "
                f"({run.concurrent_per_second:.1f}/s); after a change p50 "
                f"{run.cold_ms['p50']:.1f} / p99 {run.cold_ms['p99']:.1f} ms; hold p50 "
                f"{run.hold_ms.get('p50', math.nan):.0f} ms; server CPU "
                f"{run.server_cpu_ms_per_call:.0f} ms per call, {run.server_cores:.2f} "
                f"cores, postgres {run.postgres_cores:.2f}, other {run.other_cores:.2f}",
                flush=True,
            )
        except Exception as exc:
            run.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
            print(f"  ! vacancies at {size}: {run.error}\n{server.log_tail(15)}", flush=True)
            break
    return runs
