"""Part 1 of the booking benchmark: many clients racing for a few slots with holds.

Each client is its own user with its own draft appointment and one lean socket. The
slots are pairs (start, counselor) at least 90 minutes apart per counselor, so that no two
of them can conflict: whoever holds one blocks nobody else's. A client picks a random slot
of them and calls `appointment-hold`; a success moves its hold there (releasing the one it
had, so slots change hands during the run) or renews it when it already held that slot;
`ABORTED` means someone else holds it. Phases: flat out (every client calls again as soon as
it has its answer), then paced at an offered rate (each client on its own schedule).

At the end the database is asked directly whether two active claims of one counselor
overlap (a double booking), and whether the active claims are exactly the holds the
clients were told they have.
"""

import asyncio
import math
import random
import resource
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TypeVar

import httpx

from infra.bench import booking_env as env
from infra.bench import servers
from infra.bench.fanout import summary
from infra.bench.lean import BenchClientError, LeanClient
from infra.bench.servers import FreshDatabase, Managed

SETUP_CONCURRENCY = 16
# Flat out, 500 clients queue for many seconds on a server that answers a few dozen
# holds per second: an attempt counts as an error only after this long.
RACE_TIMEOUT_SECONDS = 90.0
WARMUP_RATE = 25.0
T = TypeVar("T")


@dataclass
class HoldPhase:
    name: str
    offered_per_second: float | None  # None: flat out
    seconds: float = 0.0
    attempts: int = 0
    per_second: float = math.nan
    latency_ms: dict[str, float] = field(default_factory=dict)
    success_ms: dict[str, float] = field(default_factory=dict)
    aborted_ms: dict[str, float] = field(default_factory=dict)
    successes: int = 0
    renewals: int = 0  # successes on the slot the client already held
    aborted: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    server_cores: float = math.nan  # our server's CPU seconds per second
    postgres_cores: float = math.nan  # every `postgres` process on the box
    machine_cores: float = math.nan
    # What else ran: the machine's busy CPU minus our server, PostgreSQL and the clients.
    other_cores: float = math.nan
    # Our server's CPU time per answered attempt: what bounds attempts/s per core.
    server_cpu_ms_per_attempt: float = math.nan
    call_ms: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass
class HoldsResult:
    clients: int
    slots: int
    setup_seconds: float = 0.0
    phases: list[HoldPhase] = field(default_factory=list)
    active_claims: int = -1
    double_bookings: int = -1  # pairs of overlapping active claims of one counselor
    appointments_with_several: int = -1
    slots_held_at_end: int = -1
    # Holds the clients were told they have and the database lacks, plus active claims of
    # the racing appointments that no client was told about (clients with an unanswered
    # call at the end are left out).
    unexplained_claims: int = -1
    uncertain_clients: int = 0
    skipped: list[str] = field(default_factory=list)  # paced phases far above capacity
    error: str | None = None


class Racer:
    """One client: its socket, its appointment, its hold events by slot index."""

    __slots__ = ("appointment_id", "client", "events", "held", "uncertain")

    def __init__(self, client: LeanClient, appointment_id: str, pairs: Sequence[env.Pair]) -> None:
        self.client = client
        self.appointment_id = appointment_id
        self.events = [env.hold_event(appointment_id, p.start, p.counselor_id) for p in pairs]
        self.held: int | None = None
        self.uncertain = False


def postgres_cpu_seconds() -> float:
    """User plus system CPU of every process named `postgres` (the server's backends
    included; other users of the same PostgreSQL count too)."""
    total = 0
    for _pid, stat in servers.proc_files("stat"):
        if stat[stat.index(b"(") + 1 : stat.rindex(b")")] == b"postgres":
            total += servers.stat_cpu_ticks(stat)
    return total / servers.TICKS


class Meter:
    """CPU use of our server, PostgreSQL and the whole machine over a window."""

    def __init__(self, server: Managed) -> None:
        self.server = server
        self.start = self._read()

    def _read(self) -> tuple[float, float, float, float, float]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return (
            time.monotonic(),
            servers.cpu_seconds(self.server.pid),
            postgres_cpu_seconds(),
            servers.system_busy_seconds(),
            usage.ru_utime + usage.ru_stime,
        )

    def cores(self) -> tuple[float, float, float, float]:
        """(server, postgres, machine, other) CPU cores busy since the start."""
        end = self._read()
        elapsed = end[0] - self.start[0]
        server, postgres, machine, own = ((end[i] - self.start[i]) / elapsed for i in (1, 2, 3, 4))
        # Backends that ended inside the window take their CPU time with them: at least 0.
        postgres = max(0.0, postgres)
        return server, postgres, machine, max(0.0, machine - server - postgres - own)


async def gather_limited(limit: int, jobs: Sequence[Awaitable[T]]) -> list[T]:
    gate = asyncio.Semaphore(limit)

    async def one(job: Awaitable[T]) -> T:
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(job) for job in jobs)))


async def prepare_racers(
    api: env.Api, port: int, clients: int, pairs: Sequence[env.Pair], tag: str
) -> list[Racer]:
    """`clients` users, each with a draft appointment and one connected lean socket."""

    async def one(index: int) -> Racer:
        _, token = await api.token(f"race-{tag}-{index}@bench.example")
        appointment_id = await api.appointment(token)
        client = await env.open_socket(port, token, index)
        return Racer(client, appointment_id, pairs)

    return await gather_limited(SETUP_CONCURRENCY, [one(i) for i in range(clients)])


async def run_phase(
    racers: Sequence[Racer],
    phase: HoldPhase,
    seconds: float,
    seed: int,
) -> None:
    """Every racer calls until `seconds` have passed (calls already sent are awaited)."""
    rate = phase.offered_per_second
    interval = len(racers) / rate if rate else 0.0
    latencies: list[float] = []
    success_ms: list[float] = []
    aborted_ms: list[float] = []
    count = len(racers[0].events)
    started = time.monotonic()
    deadline = started + seconds

    async def race(racer: Racer, rng: random.Random) -> None:
        next_at = started + rng.uniform(0.0, interval)
        while not racer.client.closed:
            if interval:
                if next_at >= deadline:
                    return
                wait = next_at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                # Late (the previous answer took longer than the interval): go now, do not
                # make up for the missed turns.
                next_at = max(next_at + interval, time.monotonic())
            if time.monotonic() >= deadline:
                return
            index = rng.randrange(count)
            sent = time.monotonic_ns()
            try:
                ack = await racer.client.call(racer.events[index], within=RACE_TIMEOUT_SECONDS)
            except BenchClientError as exc:
                racer.uncertain = True
                key = f"{type(exc).__name__}: {str(exc)[:120]}"
                phase.errors[key] = phase.errors.get(key, 0) + 1
                continue
            ms = (time.monotonic_ns() - sent) / 1e6
            latencies.append(ms)
            status = env.error_status(ack)
            if status is None:
                phase.successes += 1
                success_ms.append(ms)
                if racer.held == index:
                    phase.renewals += 1
                racer.held = index
            elif status == "ABORTED":
                phase.aborted += 1
                aborted_ms.append(ms)
            else:
                phase.errors[status] = phase.errors.get(status, 0) + 1

    await asyncio.gather(
        *(race(r, random.Random(seed * 100_003 + i)) for i, r in enumerate(racers))
    )
    phase.seconds = time.monotonic() - started
    phase.attempts = len(latencies) + sum(phase.errors.values())
    phase.per_second = phase.attempts / phase.seconds
    phase.latency_ms = summary(latencies)
    phase.success_ms = summary(success_ms)
    phase.aborted_ms = summary(aborted_ms)


def _phase_line(phase: HoldPhase) -> str:
    latency = phase.latency_ms
    return (
        f"  {phase.name}: {phase.attempts:,} attempts in {phase.seconds:.1f} s = "
        f"{phase.per_second:,.0f}/s, p50 {latency.get('p50', math.nan):.1f} ms, "
        f"p99 {latency.get('p99', math.nan):.1f} ms; {phase.successes:,} held "
        f"({phase.renewals:,} renewals), {phase.aborted:,} ABORTED, errors {phase.errors or 0}; "
        f"server {phase.server_cores:.2f} cores ({phase.server_cpu_ms_per_attempt:.1f} ms "
        f"per attempt), postgres {phase.postgres_cores:.2f}, "
        f"other {phase.other_cores:.2f}"
    )


async def verify(
    database: FreshDatabase, racers: Sequence[Racer], pairs: Sequence[env.Pair]
) -> tuple[env.ClaimCheck, int, int]:
    """(database check, unexplained claims, slots held at the end)."""
    check = await env.check_claims(database)
    by_appointment = {racer.appointment_id: racer for racer in racers}
    told = {
        (racer.appointment_id, pairs[racer.held].counselor_id, pairs[racer.held].moment)
        for racer in racers
        if racer.held is not None and not racer.uncertain
    }
    found = {
        (appointment_id, counselor_id, start)
        for appointment_id, counselor_id, start in check.claims
        if appointment_id in by_appointment and not by_appointment[appointment_id].uncertain
    }
    unexplained = len(told ^ found)
    slot_keys = {(p.counselor_id, p.moment) for p in pairs}
    held = {(counselor_id, start) for _, counselor_id, start in check.claims} & slot_keys
    return check, unexplained, len(held)


async def run_holds(
    server: Managed,
    database: FreshDatabase,
    http: httpx.AsyncClient,
    harness: env.Harness,
    options: env.Options,
) -> HoldsResult:
    """Set up the racers, then run the phases, each a window of the harness (--clients,
    --slots, --seconds, --warmup, --rates, --half-load, --skip-saturated)."""
    clients, slots, rates = options.clients, options.slots, options.rates
    result = HoldsResult(clients=clients, slots=slots)
    racers: list[Racer] = []
    try:
        api = env.Api(http, server.port)
        started = time.monotonic()
        _, token = await api.token("race-picker@bench.example")
        first, last, _ = env.next_month("Asia/Tokyo")
        vacancies = await api.vacancies(token, first, min(last, first + timedelta(days=20)))
        pairs = env.spaced_pairs(vacancies["slots"], slots)
        if len(pairs) < slots:
            raise RuntimeError(f"only {len(pairs)} non-overlapping slots found, {slots} wanted")
        print(
            f"  {slots} slots from {pairs[0].start} to {pairs[-1].start} "
            f"({len({p.counselor_id for p in pairs})} counselors)",
            flush=True,
        )
        racers = await prepare_racers(api, server.port, clients, pairs, "h")
        result.setup_seconds = time.monotonic() - started
        print(f"  {len(racers)} racing clients ready in {result.setup_seconds:.1f} s", flush=True)

        if options.warmup > 0:
            await run_phase(racers, HoldPhase("warm-up", WARMUP_RATE), options.warmup, seed=1)
        plan = [HoldPhase("flat out", None)] + [HoldPhase(f"paced {r:,.0f}/s", r) for r in rates]
        flat_rate = math.nan
        for seed, phase in enumerate(plan, start=2):
            offered = phase.offered_per_second
            if options.skip_saturated and offered is not None and offered > 2 * flat_rate:
                result.skipped.append(
                    f"{phase.name}: not run, flat out reached only {flat_rate:,.0f}/s: offered "
                    "that much more it would only repeat the flat-out phase"
                )
                print(f"  {result.skipped[-1]}", flush=True)
                continue
            await _measured(server, racers, phase, options.seconds, seed, harness)
            if offered is None:
                flat_rate = phase.per_second
            result.phases.append(phase)
            print(_phase_line(phase), flush=True)
            if phase.offered_per_second is None and options.half_load:
                half = round(phase.per_second / 2, -1)
                if half >= 10 and all(half < r for r in rates):
                    plan.append(HoldPhase(f"paced {half:,.0f}/s (half of flat out)", half))
        check, unexplained, held = await verify(database, racers, pairs)
        result.active_claims = check.active_claims
        result.double_bookings = check.overlapping_pairs
        result.appointments_with_several = check.appointments_with_several
        result.unexplained_claims = unexplained
        result.slots_held_at_end = held
        result.uncertain_clients = sum(1 for racer in racers if racer.uncertain)
        print(
            f"  database: {check.active_claims} active claims, {check.overlapping_pairs} "
            f"double bookings, {check.appointments_with_several} appointments with several "
            f"claims, {unexplained} claims unexplained by the replies, {held}/{slots} slots "
            "held at the end",
            flush=True,
        )
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc}".rstrip(": ")
        print(f"  ! holds: {result.error}\n{server.log_tail(15)}", flush=True)
    finally:
        for racer in racers:
            racer.client.close()
    return result


async def _measured(
    server: Managed,
    racers: Sequence[Racer],
    phase: HoldPhase,
    seconds: float,
    seed: int,
    harness: env.Harness,
) -> None:
    harness.open()
    meter = Meter(server)
    await run_phase(racers, phase, seconds, seed)
    cores = meter.cores()
    phase.server_cores, phase.postgres_cores, phase.machine_cores, phase.other_cores = cores
    if phase.attempts:
        phase.server_cpu_ms_per_attempt = phase.server_cores * phase.seconds * 1e3 / phase.attempts
    phase.call_ms = await harness.close()
    await asyncio.sleep(1.0)  # let pushes and releases settle between phases
