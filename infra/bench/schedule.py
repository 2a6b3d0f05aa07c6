"""Schedule benchmark: from a `schedule-update` to the last watcher's push of the new slots.

    .venv/bin/python -m infra.bench.schedule [--backends sqlite,postgres] [--watchers 500]
        [--counselors 200] [--rounds 10] [--warmup 2] [--json var/bench/schedule.json]
                                                        (make bench-schedule)

For each backend, on 127.0.0.1: our server as a subprocess (`python -m realtime`, APP_ENV
test) on a fresh SQLite file, or on a fresh PostgreSQL database (created from
--pg-admin-url, dropped at the end) with a private Redis (the deployment's shape: pushes go
through Redis even with one node). Then:
1. the demo clinic gets counselors up to --counselors (09:00-17:00 Monday to Friday), written
   through the server's own models, and the versions of its month documents raised, as the
   server would after a change;
2. --watchers lean sockets (infra/bench/lean.py: one process, no JSON parsing of pushes) of
   one signed-in person each follow one month of `vacancies/demo-clinic/cancer-b2b/...`,
   round-robin over the months a weekly change touches (this month to the furthest
   horizon of the clinic's services), as calendars open on those months would;
3. rounds: the clinic_admin's socket sends `schedule-update` for one counselor, its Monday
   alternating between 09:00-17:00 and 09:00-16:00 (a weekly change: every touched month
   is versioned, computed again and pushed); the clock starts when the call is written
   and stops at each watcher's receipt of its month's snapshot at the new version; the
   round's figure is the last watcher's. The first --warmup rounds are not counted.
Timestamps are CLOCK_MONOTONIC, one clock for the benchmark's process. The machine may be
shared: docs/benchmarks.md ("Schedule changes") says what it was doing.
"""

import argparse
import asyncio
import contextlib
import json
import math
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from infra.bench import servers
from infra.bench.booking_env import CALL_TIMEOUT_SECONDS, CLINIC_ID, SERVICE_ID, call_event
from infra.bench.fanout import summary
from infra.bench.lean import LeanClient, Sink, connect, expected_tail
from infra.bench.servers import HOST, PG_ADMIN_URL, FreshDatabase, Managed
from realtime.booking.vacancies import months_between
from realtime.paths import vacancies_path
from storage.db import open_database
from storage.models import Counselor, CounselorHours
from storage.repo_booking import bump_versions, catalog_of

ADMIN_EMAIL = "staff@demo-clinic.example"
WATCHER_EMAIL = "schedule-watcher@bench.example"
TIMEZONE = "Asia/Tokyo"
CHANGED = "bench-s-000"  # the counselor whose Monday each round changes


@dataclass
class BackendResult:
    backend: str
    counselors: int
    watchers: int
    months: list[str]
    frame_bytes: dict[str, int] = field(default_factory=dict)
    last_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    last: dict[str, float] = field(default_factory=dict)
    ack: dict[str, float] = field(default_factory=dict)
    timeouts: int = 0


# -- set-up -----------------------------------------------------------------------------


async def add_counselors(database_url: str, count: int) -> list[str]:
    """Counselors of the demo clinic up to `count`, working 09:00-17:00 Monday to Friday,
    written with the server's models on either database; then the clinic's month documents
    versioned (this month and the next three), as the server does after a change."""
    database = open_database(database_url)
    try:
        async with database.write() as session:
            found = await catalog_of(session, clinic_id=CLINIC_ID)
            assert found is not None, "the demo clinic is missing"
            existing = 3  # the demo's counselors
            ids = [f"bench-s-{index:03d}" for index in range(max(count - existing, 1))]
            session.add_all(
                Counselor(
                    id=cid,
                    clinic_id=CLINIC_ID,
                    name={"ja": f"ベンチ {cid}", "en": f"Bench {cid}"},
                    email=f"{cid}@bench.example",
                    languages=["ja", "en"],
                )
                for cid in ids
            )
            await session.flush()
            session.add_all(
                CounselorHours(counselor_id=cid, weekday=day, start=clock(9), end=clock(17))
                for cid in ids
                for day in range(5)
            )
            today = datetime.now(ZoneInfo(TIMEZONE)).date()
            months = months_between(today, today + timedelta(days=120))
            await bump_versions(
                session,
                paths=[
                    vacancies_path(CLINIC_ID, service.id, month)
                    for service in found[1]
                    for month in months
                ],
            )
        return ids
    finally:
        await database.close()


async def token(http: httpx.AsyncClient, port: int, email: str) -> str:
    reply = await http.post(
        f"http://{HOST}:{port}/dev/token", json={"data": {"email": email}}, timeout=60
    )
    reply.raise_for_status()
    return str(reply.json()["data"]["token"])


async def socket_of(port: int, bearer: str, sink: Sink, cid: int) -> LeanClient:
    auth = json.dumps({"token": bearer}).encode()
    return await connect(HOST, port, cid, sink, auth, CALL_TIMEOUT_SECONDS)


async def reply(client: LeanClient, event: bytes) -> dict[str, Any]:
    """The ack of `event` (`["call", ...]` or `["subscribe", ...]`), parsed."""
    ack = json.loads(await client.call(event, within=CALL_TIMEOUT_SECONDS))
    first: dict[str, Any] = ack[0]
    if "error" in first:
        raise RuntimeError(str(first["error"])[:300])
    return first


def subscribe_event(path: str) -> bytes:
    return json.dumps(["subscribe", {"path": path}], separators=(",", ":")).encode()


# -- rounds -----------------------------------------------------------------------------


@dataclass
class Month:
    path: str
    sink: Sink
    version: int
    watchers: int
    done: asyncio.Event = field(default_factory=asyncio.Event)


def touched_months(today: date, horizon_days: int) -> list[str]:
    """The months a weekly change pushes (realtime/functions/schedule.py `months_ahead`)."""
    return months_between(today, today + timedelta(days=horizon_days))


def weekly(monday_end: int) -> list[dict[str, Any]]:
    return [
        {"weekday": day, "start": "09:00", "end": f"{monday_end if day == 0 else 17:02d}:00"}
        for day in range(5)
    ]


async def one_round(
    admin: LeanClient, months: list[Month], version: int, end: int, within: float
) -> tuple[float, float, bool, int]:
    """(ms to the last watcher's push, ms to the call's ack, timed out, schedule version)."""
    for month in months:
        month.version += 1
        month.sink.frames.clear()
        month.sink.expect = expected_tail(month.version)
        month.sink.remaining = month.watchers
        month.done.clear()
        month.sink.on_complete = month.done.set
    data = {
        "clinicId": CLINIC_ID,
        "counselorId": CHANGED,
        "version": version,
        "weekly": weekly(end),
    }
    ack_id = admin.next_ack_id()
    sent = admin.send_text(b"42%d%s" % (ack_id, call_event("schedule-update", data)))
    answer = await admin.expect(b"43%d[" % ack_id, within=within)
    acked = time.monotonic_ns()
    if b'"error"' in answer[:40]:
        raise RuntimeError(answer[:300].decode(errors="replace"))
    try:
        async with asyncio.timeout(within):
            await asyncio.gather(*(month.done.wait() for month in months))
    except TimeoutError:
        return math.nan, (acked - sent) / 1e6, True, version + 1
    last = max(
        ts
        for month in months
        for ts, _cid, payload in month.sink.frames
        if payload.endswith(month.sink.expect)
    )
    return (last - sent) / 1e6, (acked - sent) / 1e6, False, version + 1


async def measure(server: Managed, options: argparse.Namespace, backend: str) -> BackendResult:
    async with httpx.AsyncClient() as http:
        await servers.wait_ready(server, http)
        admin_token = await token(http, server.port, ADMIN_EMAIL)
        watcher_token = await token(http, server.port, WATCHER_EMAIL)
    admin = await socket_of(server.port, admin_token, Sink(), -1)
    read = await reply(admin, call_event("schedule-read", {"clinicId": CLINIC_ID}))
    schedules = {c["counselorId"]: c for c in read["data"]["counselors"]}
    today = datetime.now(ZoneInfo(TIMEZONE)).date()
    names = touched_months(today, options.horizon_days)
    months = [Month(vacancies_path(CLINIC_ID, SERVICE_ID, m), Sink(), 0, 0) for m in names]
    result = BackendResult(backend, len(schedules), options.watchers, names)
    watchers: list[LeanClient] = []
    try:
        started = time.monotonic()
        for index in range(options.watchers):
            month = months[index % len(months)]
            client = await socket_of(server.port, watcher_token, month.sink, index)
            watchers.append(client)
            ack = await reply(client, subscribe_event(month.path))
            month.version = int(ack["snapshot"]["version"])
            month.watchers += 1
            if month.watchers == 1:
                result.frame_bytes[month.path] = len(json.dumps(ack["snapshot"]))
            client.go_live()
        print(
            f"  {backend}: {len(schedules)} counselors, {len(watchers)} watchers on "
            f"{len(months)} months in {time.monotonic() - started:.1f} s",
            flush=True,
        )
        version = int(schedules[CHANGED]["version"])
        for round_no in range(options.warmup + options.rounds):
            last, acked, timed_out, version = await one_round(
                admin, months, version, 16 if round_no % 2 == 0 else 17, options.round_timeout
            )
            counted = round_no >= options.warmup
            print(
                f"  round {round_no + 1}{'' if counted else ' (warm-up)'}: last watcher "
                f"{last:.0f} ms, ack {acked:.0f} ms{' TIMEOUT' if timed_out else ''}",
                flush=True,
            )
            if counted:
                result.timeouts += timed_out
                if not timed_out:
                    result.last_ms.append(last)
                result.ack_ms.append(acked)
            await asyncio.sleep(options.pause)
    finally:
        for client in [admin, *watchers]:
            client.close()
    result.last = summary(result.last_ms)
    result.ack = summary(result.ack_ms)
    return result


async def run_backend(backend: str, options: argparse.Namespace, workdir: Path) -> BackendResult:
    extra = {"INACTIVITY_SECONDS": "86400", "SIGN_IN_LINKS_PER_IP": "1000000"}
    redis: Managed | None = None
    database: FreshDatabase | None = None
    server: Managed | None = None
    try:
        if backend == "postgres":
            database = await FreshDatabase.create(options.pg_admin_url, "schedule")
            redis, redis_url = servers.start_redis(workdir, None)
            url = database.server_url
            server = servers.start_server(
                "ours+redis", workdir, redis_url, None, database_url=url, extra_env=extra
            )
        else:
            url = f"sqlite+aiosqlite:///{workdir / 'schedule-bench.db'}"
            server = servers.start_server(
                "ours", workdir, None, None, database_url=url, extra_env=extra
            )
        async with httpx.AsyncClient() as http:
            await servers.wait_ready(server, http)  # migrated and seeded before the set-up
        await add_counselors(url, options.counselors)
        return await measure(server, options, backend)
    finally:
        for managed in (server, redis):
            if managed is not None:
                managed.stop()
        if database is not None:
            with contextlib.suppress(Exception):
                await database.drop()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--counselors", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between rounds")
    parser.add_argument("--round-timeout", type=float, default=60.0)
    parser.add_argument(
        "--horizon-days", type=int, default=60, help="the demo services' furthest horizon"
    )
    parser.add_argument("--pg-admin-url", default=PG_ADMIN_URL)
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args()


async def main() -> None:
    options = parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-schedule-") as workdir:
        for backend in options.backends.split(","):
            results.append(await run_backend(backend, options, Path(workdir)))
    for result in results:
        print(
            f"{result.backend}: last watcher p50 {result.last['p50']:.0f} ms, p99 "
            f"{result.last['p99']:.0f} ms (n={len(result.last_ms)}, timeouts {result.timeouts}); "
            f"ack p50 {result.ack['p50']:.0f} ms; frames {sorted(result.frame_bytes.values())} B"
        )
    if options.json is not None:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps([asdict(r) for r in results], indent=2))


if __name__ == "__main__":
    asyncio.run(main())
