"""Booking benchmark: holds under contention, vacancies-read, hold-to-watcher pushes.

    .venv/bin/python -m infra.bench.booking [--parts holds,vacancies,fanout]
        [--json results.json] [--profile DIR]        (make bench-booking)

Everything runs on 127.0.0.1 against our server on PostgreSQL (a database created for each
server from --pg-admin-url and dropped at the end); servers are subprocesses ended by PID
and process group at the end, also on error, Ctrl-C or SIGTERM.

1. holds (infra/bench/booking_holds.py): 500 clients, each its own user, draft appointment
   and lean socket, race for 50 slots that cannot overlap one another; flat out, then paced
   at 1,000 attempts/s offered (not run when that is over twice the flat-out rate: it would
   repeat the flat-out phase) and at half the flat-out rate; latency and outcome of every
   attempt; then PostgreSQL is asked whether two active claims of one counselor overlap.
2. vacancies (infra/bench/booking_vacancies.py): `vacancies-read` over 30 days with 10 and
   200 counselors and active holds spread over those days, sequential and concurrent; and
   the latency of a hold at each size.
3. fanout (infra/bench/booking_fanout.py): 1,000 and 5,000 watchers of the month's vacancies
   document; from the hold call to each watcher's receipt of the snapshot, beside the bare
   python-socketio floor pushing a frame of the same size to the same N (fanout.py's rounds).

By default the server runs under infra.bench.profiled timing a few functions of the hold
path (--no-time-calls: plain `python -m realtime`); --profile adds cProfile (slower: for
diagnosis, not for figures). Before it starts, the benchmark waits (up to --wait-others
seconds) until no other `infra.bench` benchmark runs on the machine.
See docs/benchmarks.md, section "Booking", for the method and the figures.
"""

import argparse
import asyncio
import contextlib
import math
import os
import resource
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from infra.bench import booking_env as env
from infra.bench import fanout, runner, servers
from infra.bench.booking_env import Options
from infra.bench.booking_fanout import HoldFanout
from infra.bench.booking_holds import HoldPhase, HoldsResult, run_holds
from infra.bench.booking_vacancies import VacancyRun, run_vacancies
from infra.bench.fanout import RunResult
from infra.bench.servers import FreshDatabase, Managed

PARTS = ("holds", "vacancies", "fanout")
TIME_CALLS = ",".join(
    (
        "realtime.booking.holding:_hold",
        "realtime.booking.holding:_choice",
        "realtime.changes:publish_versioned",
        "realtime.booking.publish:_data",
        "realtime.booking.vacancies:month_times",
        "realtime.booking.vacancies:load_free_times",
    )
)
# What the names above stand for in the report.
CALL_NAMES = {
    "realtime.booking.holding:_hold": "hold (_hold: first look, then the transaction if free)",
    "realtime.booking.holding:_choice": "first look of a hold (_choice, read only)",
    "realtime.changes:publish_versioned": "derived documents after a hold",
    "realtime.booking.publish:_data": "one pushed document computed (publish._data)",
    "realtime.booking.vacancies:month_times": "month of free times from the cache (hit or miss)",
    "realtime.booking.vacancies:load_free_times": "month of free times computed (cache miss)",
}
# Targets of the brief.
HOLDS_PER_SECOND = 1000.0
HOLD_P99_MS = 50.0
VACANCIES_P99_MS = {10: 30.0, 200: 250.0}
FLOOR_RATIO = 1.2


@dataclass
class Report:
    holds: HoldsResult | None = None
    vacancies: list[VacancyRun] = field(default_factory=list)
    fanout: list[RunResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    other_benchmarks_waited_seconds: float = 0.0
    # CPU cores busy with other work on the machine just before each part started.
    load_before: dict[str, float] = field(default_factory=dict)


# -- other benchmarks on the machine ----------------------------------------------------


def _ancestors() -> set[int]:
    chain, pid = set(), os.getpid()
    while pid > 1:
        chain.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat[stat.rindex(")") + 2 :].split()[1])
    return chain


def other_benchmarks() -> list[str]:
    """Command lines of `infra.bench` processes that are neither us nor our ancestors."""
    mine = _ancestors()
    found = []
    for pid, raw in servers.proc_files("cmdline"):
        command = raw.replace(b"\0", b" ").decode(errors="replace")
        if pid not in mine and "infra.bench" in command:
            found.append(f"{pid}: {command.strip()[:120]}")
    return found


def wait_for_others(limit: float) -> float:
    """Poll (every 10 s, up to `limit` s) until no other benchmark runs; seconds waited."""
    started = time.monotonic()
    others = other_benchmarks()
    if others:
        print("waiting for other benchmarks to finish:\n  " + "\n  ".join(others), flush=True)
    while others and time.monotonic() - started < limit:
        time.sleep(10)
        others = other_benchmarks()
    waited = time.monotonic() - started
    if others:
        print(f"! still running after {waited:.0f} s, going ahead: {others}", flush=True)
    elif waited > 1:
        print(f"no other benchmark running (waited {waited:.0f} s)", flush=True)
    return waited


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime


# -- the parts --------------------------------------------------------------------------


class Parts:
    """The parts, each on a server and database of its own; `close` stops what is still
    running when the run ends."""

    def __init__(self, options: Options, workdir: Path, server_cpus: set[int] | None) -> None:
        self.options = options
        self.workdir = workdir
        self.server_cpus = server_cpus
        self.started: list[Managed] = []
        self.databases: list[FreshDatabase] = []
        self.fanout_bench: HoldFanout | None = None

    @contextlib.asynccontextmanager
    async def ours(
        self, tag: str, http: httpx.AsyncClient
    ) -> AsyncIterator[tuple[Managed, FreshDatabase, env.Harness]]:
        """Our server on a fresh database, for one part: stopped, its profile summed up and
        its database dropped when the part ends."""
        options = self.options
        database = await FreshDatabase.create(options.admin_url, f"booking_{tag}")
        self.databases.append(database)
        profile_out = options.profile_dir / f"ours-{tag}" if options.profile_dir else None
        time_out = self.workdir / f"time-{tag}" if options.time_calls else None
        server = env.start_ours(
            self.workdir,
            database,
            self.server_cpus,
            tag=tag,
            profile_out=profile_out,
            time_calls=(time_out, TIME_CALLS) if time_out else None,
        )
        self.started.append(server)
        try:
            await env.wait_ready(server, http)
            yield server, database, env.Harness(server, time_out, profile_out is not None)
        finally:
            server.stop()
            self.started.remove(server)
            if profile_out is not None:
                fanout.write_profile_summary(profile_out)
            await database.drop()
            self.databases.remove(database)

    async def holds(self, http: httpx.AsyncClient) -> HoldsResult:
        async with self.ours("holds", http) as (server, database, harness):
            return await run_holds(server, database, http, harness, self.options)

    async def vacancies(self, http: httpx.AsyncClient) -> list[VacancyRun]:
        async with self.ours("vacancies", http) as (server, database, harness):
            return await run_vacancies(server, database, http, harness, self.options)

    async def fanout(
        self, http: httpx.AsyncClient, pool: fanout.GeneratorPool, deadline: float
    ) -> tuple[list[RunResult], list[str]]:
        options = self.options
        bench_options = fanout.Options(
            sizes=options.watchers,
            rounds=options.rounds,
            warmup=options.warmup_rounds,
            kinds=["ours", "floor"],
            generators=options.generators,
            pin=options.pin,
            payload_bytes=400,  # unused: the floor sends our snapshot's data
            round_timeout=options.round_timeout,
            gap=0.2,
            concurrency=64,
            json_path=None,
            profile_dir=options.profile_dir,
            gc_log=options.gc_log,
            ours_gc_threshold=None,
            time_calls=TIME_CALLS if options.time_calls else None,
            redis_url=None,
            postgres_url=None,  # HoldFanout makes its own databases
            max_seconds=options.max_seconds,
            quiet_wait=0.0,
            quiet_cores=0.25,
            keep_workdir=options.keep_workdir,
        )
        bench = HoldFanout(bench_options, pool, self.workdir, self.server_cpus, options.admin_url)
        self.fanout_bench = bench
        results: list[RunResult] = []
        skipped: list[str] = []
        pool.attach()
        try:
            for n in options.watchers:
                if time.monotonic() > deadline:
                    skipped.append(f"fanout N={n}: time budget")
                    continue
                results += await bench.run_group(["ours", "floor"], n, http)
                for r in results[-2:]:
                    print(
                        f"  N={n:,} {r.server}: last-watcher p50 "
                        f"{r.last_ms.get('p50', math.nan):.0f} ms, p99 "
                        f"{r.last_ms.get('p99', math.nan):.0f} ms",
                        flush=True,
                    )
        finally:
            pool.detach()
        return results, skipped

    def stop_all(self) -> None:
        for server in list(self.started):
            server.stop()
        self.started.clear()
        if self.fanout_bench is not None:
            self.fanout_bench.stop_all()

    async def drop_all(self) -> None:
        databases = list(self.databases)
        if self.fanout_bench is not None:
            databases += self.fanout_bench.databases
        for database in databases:
            with contextlib.suppress(Exception):
                await database.drop()

    def close(self) -> None:
        """Stop the servers still running, then drop the databases left (on an event loop
        of its own: the run's has ended)."""
        self.stop_all()
        with contextlib.suppress(Exception):
            asyncio.run(self.drop_all())


async def run_all(
    options: Options, parts: Parts, pool: fanout.GeneratorPool | None, report: Report
) -> None:
    deadline = time.monotonic() + options.max_seconds
    async with httpx.AsyncClient(trust_env=False) as http:
        for part in options.parts:
            if time.monotonic() > deadline:
                report.skipped.append(f"{part}: time budget")
                continue
            print(f"\n== {part}", flush=True)
            if options.quiet_wait:
                load = await runner.wait_quiet(options.quiet_wait, options.quiet_cores, _own_cpu)
                report.load_before[part] = load
                print(f"  other CPU load before the part: {load:.2f} cores", flush=True)
            if part == "holds":
                report.holds = await parts.holds(http)
            elif part == "vacancies":
                report.vacancies = await parts.vacancies(http)
            elif part == "fanout" and pool is not None:
                report.fanout, skipped = await parts.fanout(http, pool, deadline)
                report.skipped += skipped


# -- report -----------------------------------------------------------------------------


def _ms(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _met(ok: bool | None) -> str:
    return "-" if ok is None else ("yes" if ok else "**no**")


def _p(figures: dict[str, float], q: str) -> float:
    return figures.get(q, math.nan)


def verdicts(report: Report) -> list[dict[str, Any]]:
    """(measure, result, target, met) rows of the summary table."""
    rows: list[dict[str, Any]] = []

    def row(measure: str, result: str, target: str, ok: bool | None) -> None:
        rows.append({"measure": measure, "result": result, "target": target, "met": ok})

    holds = report.holds
    if holds is not None and not holds.error and holds.phases:
        flat = holds.phases[0]
        row(
            f"holds: attempts/s, {holds.clients} clients flat out",
            f"{flat.per_second:,.0f}/s",
            f"≥ {HOLDS_PER_SECOND:,.0f}/s",
            flat.per_second >= HOLDS_PER_SECOND,
        )
        for phase in holds.phases:
            offered = phase.offered_per_second
            rate = f" ({phase.per_second:,.0f}/s achieved)" if offered else ""
            ok = _p(phase.latency_ms, "p99") < HOLD_P99_MS
            row(
                f"holds: latency p50 / p99, {phase.name}",
                f"{_ms(_p(phase.latency_ms, 'p50'))} / {_ms(_p(phase.latency_ms, 'p99'))} ms"
                + rate,
                f"p99 < {HOLD_P99_MS:.0f} ms",
                ok,
            )
        for skipped in holds.skipped:
            name, _, why = skipped.partition(": ")
            row(f"holds: latency p50 / p99, {name}", why, f"p99 < {HOLD_P99_MS:.0f} ms", False)
        row(
            "holds: double bookings (PostgreSQL, end of run)",
            f"{holds.double_bookings}",
            "0",
            holds.double_bookings == 0,
        )
    elif holds is not None:
        row("holds", f"failed: {holds.error}", "", False)
    for run in report.vacancies:
        target = VACANCIES_P99_MS.get(run.counselors)
        if run.error:
            row(f"vacancies-read, {run.counselors} counselors", run.error, "", False)
            continue
        row(
            f"vacancies-read 30 days, {run.counselors} counselors: p50 / p99 sequential",
            f"{_ms(_p(run.sequential_ms, 'p50'))} / {_ms(_p(run.sequential_ms, 'p99'))} ms",
            f"p99 < {target:.0f} ms" if target else "-",
            _p(run.sequential_ms, "p99") < target if target else None,
        )
        row(
            f"vacancies-read 30 days, {run.counselors} counselors: p50 / p99, "
            f"{run.concurrency} at once",
            f"{_ms(_p(run.concurrent_ms, 'p50'))} / {_ms(_p(run.concurrent_ms, 'p99'))} ms",
            f"(p99 < {target:.0f} ms)" if target else "-",
            _p(run.concurrent_ms, "p99") < target if target else None,
        )
        row(
            f"vacancies-read 30 days, {run.counselors} counselors: p50 / p99, each right "
            "after a change (months computed again)",
            f"{_ms(_p(run.cold_ms, 'p50'))} / {_ms(_p(run.cold_ms, 'p99'))} ms",
            f"(p99 < {target:.0f} ms)" if target else "-",
            _p(run.cold_ms, "p99") < target if target else None,
        )
    found = fanout.ratios(report.fanout)
    for r in report.fanout:
        if not r.server.startswith("ours"):
            continue
        ratio = found.get((r.n, r.server))
        if r.error or ratio is None:
            row(f"hold → {r.n:,} watchers", f"failed: {r.error}", "", False)
            continue
        for name, label in (("last", "last watcher"), ("delivery", "per delivery")):
            figures = getattr(r, f"{name}_ms")
            row(
                f"hold → {r.n:,} watchers, {label} p50 / p99 (ratio to the floor)",
                f"{_ms(_p(figures, 'p50'))} / {_ms(_p(figures, 'p99'))} ms "
                f"({ratio[f'{name}_p50']:.2f}x / {ratio[f'{name}_p99']:.2f}x)",
                f"≤ {FLOOR_RATIO}x",
                max(ratio[f"{name}_p50"], ratio[f"{name}_p99"]) <= FLOOR_RATIO,
            )
    return rows


def _call_table(title: str, calls: dict[str, dict[str, float]]) -> list[str]:
    if not calls:
        return []
    lines = ["", f"{title}", "", "| function inside the server | calls | p50 (ms) | p99 (ms) |"]
    lines.append("| --- | ---: | ---: | ---: |")
    for target, figures in calls.items():
        name = CALL_NAMES.get(target, target)
        lines.append(
            f"| {name} | {figures['count']:.0f} | {_ms(figures['p50'])} | {_ms(figures['p99'])} |"
        )
    return lines


def breakdown(r: RunResult) -> str:
    """The hold's answer, split into its transaction and the derived documents after it."""
    ack = _p(r.ack_ms, "p50")
    calls = r.call_ms
    hold = calls.get("realtime.booking.holding:_hold", {}).get("p50", math.nan)
    derived = calls.get("realtime.changes:publish_versioned", {}).get("p50", math.nan)
    pushed = calls.get("realtime.booking.publish:_data", {})
    if math.isnan(ack) or math.isnan(derived):
        return ""
    return (
        f"N={r.n:,}: hold answered in {_ms(ack)} ms (p50): hold {_ms(hold)} ms (its "
        f"transaction raises the documents' versions), then the pushes {_ms(derived)} ms "
        f"({derived / ack:.0%} of the answer, the watchers' broadcast queued); documents "
        f"computed for a push: "
        f"{pushed.get('count', 0) / max(1, len(r.rounds)):.1f} per round, p50 "
        f"{_ms(pushed.get('p50', math.nan))} ms (documents nobody follows are not computed; "
        "the watchers' service is pushed first)"
    )


def render(report: Report) -> str:
    lines = ["| measure | result | target | met |", "| --- | ---: | --- | --- |"]
    for entry in verdicts(report):
        lines.append(
            f"| {entry['measure']} | {entry['result']} | {entry['target']} | {_met(entry['met'])} |"
        )
    holds = report.holds
    if holds is not None and holds.phases:
        lines += [
            "",
            f"Holds: {holds.clients} clients, {holds.slots} slots, phases of "
            f"{holds.phases[0].seconds:.0f} s",
            "",
            "| phase | attempts | attempts/s | p50 / p99 / max (ms) | held (renewals) | "
            "ABORTED | held p50 / p99 (ms) | ABORTED p50 / p99 (ms) | errors | server CPU per "
            "attempt (ms) | server / postgres / other (cores) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for phase in holds.phases:
            lines.append(_phase_row(phase))
        lines.append("")
        lines.append(
            f"Database at the end: {holds.active_claims} active claims, "
            f"{holds.double_bookings} double bookings, {holds.appointments_with_several} "
            f"appointments with more than one claim, {holds.unexplained_claims} claims "
            f"unexplained by the replies ({holds.uncertain_clients} clients left out), "
            f"{holds.slots_held_at_end}/{holds.slots} slots held."
        )
        lines += [f"Skipped: {skipped}." for skipped in holds.skipped]
        for phase in holds.phases:
            lines += _call_table(f"Inside the server, {phase.name}:", phase.call_ms)
    if report.vacancies:
        lines += [
            "",
            "| counselors | active holds | slots (30 days) | reply bytes | sequential p50 / p99 "
            "(ms) | at once | at once p50 / p99 (ms) | calls/s at once | after a change p50 / "
            "p99 (ms) | hold p50 / p99 (ms) | server CPU per call (ms): cached / after a change "
            "| server / postgres / other (cores) |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for run in report.vacancies:
            lines.append(
                f"| {run.counselors} | {run.holds} | {run.slots} | {run.reply_bytes:,} "
                f"| {_ms(_p(run.sequential_ms, 'p50'))} / {_ms(_p(run.sequential_ms, 'p99'))} "
                f"| {run.concurrency} "
                f"| {_ms(_p(run.concurrent_ms, 'p50'))} / {_ms(_p(run.concurrent_ms, 'p99'))} "
                f"| {run.concurrent_per_second:.1f} "
                f"| {_ms(_p(run.cold_ms, 'p50'))} / {_ms(_p(run.cold_ms, 'p99'))} "
                f"| {_ms(_p(run.hold_ms, 'p50'))} / {_ms(_p(run.hold_ms, 'p99'))} "
                f"| {_ms(run.server_cpu_ms_per_call)} / {_ms(run.cold_cpu_ms_per_call)} "
                f"| {run.server_cores:.2f} / {run.postgres_cores:.2f} / {run.other_cores:.2f} |"
            )
        for run in report.vacancies:
            lines += _call_table(
                f"Inside the server, vacancies-read at {run.counselors} counselors:", run.call_ms
            )
            lines += _call_table(
                f"Inside the server, holds at {run.counselors} counselors:", run.hold_call_ms
            )
    if report.fanout:
        lines += ["", fanout.render(report.fanout)]
        for r in report.fanout:
            if r.server == "ours":
                text = breakdown(r)
                if text:
                    lines += ["", text]
    if report.skipped:
        lines += ["", "Skipped: " + "; ".join(report.skipped)]
    return "\n".join(lines)


def _phase_row(phase: HoldPhase) -> str:
    lat, ok, ab = phase.latency_ms, phase.success_ms, phase.aborted_ms
    errors = sum(phase.errors.values())
    return (
        f"| {phase.name} | {phase.attempts:,} | {phase.per_second:,.0f} "
        f"| {_ms(_p(lat, 'p50'))} / {_ms(_p(lat, 'p99'))} / {_ms(_p(lat, 'max'))} "
        f"| {phase.successes:,} ({phase.renewals:,}) | {phase.aborted:,} "
        f"| {_ms(_p(ok, 'p50'))} / {_ms(_p(ok, 'p99'))} "
        f"| {_ms(_p(ab, 'p50'))} / {_ms(_p(ab, 'p99'))} | {errors} "
        f"| {_ms(phase.server_cpu_ms_per_attempt)} "
        f"| {phase.server_cores:.2f} / {phase.postgres_cores:.2f} / {phase.other_cores:.2f} |"
    )


def failed(report: Report) -> bool:
    if report.holds is not None and report.holds.error:
        return True
    if any(run.error for run in report.vacancies):
        return True
    return any(r.error for r in report.fanout)


# -- main -------------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def parse_args(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m infra.bench.booking",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--parts", default=",".join(PARTS), help="which parts, in order")
    holds = parser.add_argument_group("holds")
    holds.add_argument("--clients", type=int, default=500)
    holds.add_argument("--slots", type=int, default=50)
    holds.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    holds.add_argument("--warmup", type=float, default=2.0, help="unmeasured phase first (s)")
    holds.add_argument("--rates", default="1000", help="paced phases: offered attempts/s")
    holds.add_argument(
        "--half-load",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also a phase paced at half the flat-out rate when it is below --rates",
    )
    holds.add_argument(
        "--skip-saturated",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="skip a paced phase offering more than twice the flat-out rate",
    )
    vacancies = parser.add_argument_group("vacancies")
    vacancies.add_argument("--counselors", default="10,200", help="counselors in the clinic")
    vacancies.add_argument("--holds-per-counselor", type=int, default=2)
    vacancies.add_argument("--calls", type=int, default=30, help="calls per measurement")
    vacancies.add_argument("--concurrency", type=int, default=8, help="sockets calling at once")
    vacancies.add_argument("--hold-calls", type=int, default=3, help="holds timed per size")
    watchers = parser.add_argument_group("fanout")
    watchers.add_argument("--watchers", default="1000,5000", help="watcher counts N")
    watchers.add_argument("--rounds", type=int, default=10, help="measured rounds per N")
    watchers.add_argument("--warmup-rounds", type=int, default=2)
    watchers.add_argument("--round-timeout", type=float, default=30.0, help="seconds")
    watchers.add_argument("--generators", type=int, default=1, help="generator processes")
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="server on the first CPU, clients on the others (PostgreSQL is not pinned)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="cProfile our server during the measured windows, dumps and summaries in this "
        "directory (inflates the figures)",
    )
    parser.add_argument(
        "--time-calls",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="time the hold path's functions inside our server (infra.bench.profiled)",
    )
    parser.add_argument(
        "--gc-log",
        action="store_true",
        help="fanout part: both servers' garbage-collector passes during the rounds",
    )
    parser.add_argument("--pg-admin-url", default=servers.PG_ADMIN_URL)
    parser.add_argument(
        "--wait-others",
        type=float,
        default=1200.0,
        help="wait up to this many seconds for other infra.bench benchmarks to end",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=60.0,
        help="before each part wait up to this many seconds for the machine's other CPU "
        "load to fall under --quiet-cores",
    )
    parser.add_argument("--quiet-cores", type=float, default=0.25)
    parser.add_argument("--max-minutes", type=float, default=15.0, help="skip parts after it")
    parser.add_argument("--keep-workdir", action="store_true", help="keep logs")
    args = parser.parse_args(argv)
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown parts {unknown}; of {', '.join(PARTS)}")
    if args.clients < 1 or args.slots < 1 or args.calls < 1 or args.rounds < 1:
        parser.error("clients, slots, calls and rounds must be positive")
    return Options(
        parts=parts,
        clients=args.clients,
        slots=args.slots,
        seconds=args.seconds,
        warmup=max(0.0, args.warmup),
        rates=[float(rate) for rate in args.rates.split(",") if rate.strip()],
        half_load=args.half_load,
        skip_saturated=args.skip_saturated,
        counselors=_ints(args.counselors),
        holds_per_counselor=args.holds_per_counselor,
        calls=args.calls,
        concurrency=max(1, args.concurrency),
        hold_calls=max(0, args.hold_calls),
        watchers=_ints(args.watchers),
        rounds=args.rounds,
        warmup_rounds=max(0, args.warmup_rounds),
        round_timeout=args.round_timeout,
        generators=max(1, args.generators),
        pin=args.pin,
        json_path=args.json,
        profile_dir=args.profile.resolve() if args.profile else None,
        time_calls=args.time_calls,
        gc_log=args.gc_log,
        admin_url=args.pg_admin_url,
        wait_others=max(0.0, args.wait_others),
        quiet_wait=max(0.0, args.quiet_wait),
        quiet_cores=args.quiet_cores,
        max_seconds=args.max_minutes * 60,
        keep_workdir=args.keep_workdir,
    )


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(argv)
    host = runner.machine()  # before this process changes its CPU affinity
    report = Report()
    report.other_benchmarks_waited_seconds = wait_for_others(options.wait_others)
    started = time.monotonic()
    with runner.supervised("bench-booking-", options, host, interrupted="servers stopped") as run:
        host["postgres_cpus"] = "any (not pinned)"
        pool: fanout.GeneratorPool | None = None
        if "fanout" in options.parts:
            pool = fanout.GeneratorPool(options.generators, run.client_cpus)
            run.at_exit(pool.shutdown)
        parts = Parts(options, run.workdir, run.server_cpus)
        run.at_exit(parts.close)
        print(
            f"booking: parts {options.parts}, server CPUs {host['server_cpus']}, "
            f"client CPUs {host['client_cpus']}",
            flush=True,
        )
        runner.run_async(run_all(options, parts, pool, report))
        run.failed = failed(report)
    if run.interrupted:
        return runner.INTERRUPTED
    print(f"\nbooking benchmark: {time.monotonic() - started:.0f} s\n")
    print(render(report))
    if options.json_path is not None:
        runner.write_json(
            options.json_path,
            "booking",
            host,
            options,
            {
                "verdicts": verdicts(report),
                "holds": asdict(report.holds) if report.holds else None,
                "vacancies": [asdict(vacancy) for vacancy in report.vacancies],
                "fanout": fanout.json_results(report.fanout),
                "skipped": report.skipped,
                "load_before": report.load_before,
                "other_benchmarks_waited_seconds": report.other_benchmarks_waited_seconds,
            },
        )
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
