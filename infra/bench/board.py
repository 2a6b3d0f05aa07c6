"""Board benchmark: the bookings feed of a large clinic, whole document (v1) against the
windowed document changes (docs/protocol.md, "The bookings window").

    .venv/bin/python -m infra.bench.board [--counselors 200] [--bookings 3000]
        [--watchers 50] [--changes 60] [--json results.json]

One server (`python -m realtime`, one node, no Redis) on a PostgreSQL database created for
the run and dropped at the end; the server is a subprocess ended by PID at the end, also on
error or Ctrl-C. Set-up (not measured): the demo clinic grows to `--counselors` counselors,
and `--bookings` confirmed appointments are written straight into `appointments`, spread
over the window's days and counselors. Then, for each document in turn (the v1 feed
`clinics/demo-clinic/bookings`, then the window `clinics/demo-clinic/bookings/{d+1}/{d+28}`):
- snapshot: one staff socket subscribes `--snapshots` times; latency and size of the ack;
- pushes: `--watchers` clinic_admin sockets follow the document; one person moves their hold
  between two free times `--changes` times, one change after the other; for each change,
  the time from sending the hold to the last of the watchers receiving its push, and the
  size of that push as sent (its JSON).
Only one document is followed at a time, so each phase computes and pushes its own alone.
See docs/benchmarks.md, section "Board".
"""

import argparse
import asyncio
import json
import math
import secrets
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import socketio

from infra.bench import booking_env as env
from infra.bench import servers
from infra.bench.fanout import summary
from infra.bench.servers import FreshDatabase, Managed

FEED = f"clinics/{env.CLINIC_ID}/bookings"
STAFF_EMAIL = "staff@demo-clinic.example"
WINDOW_DAYS = 28
TIMES = ("09:00", "10:15", "11:30", "13:00", "14:15", "15:30")


@dataclass
class Phase:
    """One document's figures."""

    document: str
    rows: int = 0
    snapshot_bytes: int = 0
    snapshot_ms: dict[str, float] = field(default_factory=dict)
    push_bytes: dict[str, float] = field(default_factory=dict)
    # From the hold sent to the last watcher's receipt of its push.
    all_watchers_ms: dict[str, float] = field(default_factory=dict)
    # Every (change, watcher) delivery.
    delivery_ms: dict[str, float] = field(default_factory=dict)


def wire_size(payload: Any) -> int:
    return len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode())


async def insert_bookings(
    database: FreshDatabase, user_id: str, counselors: Sequence[str], count: int, first: str
) -> None:
    """`count` confirmed appointments over WINDOW_DAYS days from `first`, round-robin over
    the counselors and the day's times (the feed reads appointments only: no claims)."""
    start = datetime.fromisoformat(first)
    now = datetime.now(UTC)
    rows = []
    for n in range(count):
        day = (start + timedelta(days=n % WINDOW_DAYS)).date().isoformat()
        counselor = counselors[n % len(counselors)]
        rows.append(
            (
                f"bench-board-{n:05d}",
                user_id,
                env.CLINIC_ID,
                env.SERVICE_ID,
                day,
                TIMES[(n // WINDOW_DAYS) % len(TIMES)],
                counselor,
                json.dumps({"status": "paid"}),
                now - timedelta(minutes=count - n),
            )
        )
    connection = await asyncpg.connect(database.url)
    try:
        await connection.executemany(
            "INSERT INTO appointments (id, user_id, clinic_id, service_id, status, date, time, "
            "timezone, counselor_id, agreed_to_terms, payment, intake, created, updated, "
            "version) VALUES ($1, $2, $3, $4, 'confirmed', $5, $6, 'Asia/Tokyo', $7, true, "
            "$8, '{}', $9, $9, 1)",
            rows,
        )
    finally:
        await connection.close()


class Watcher:
    """A staff socket recording when each push of the followed document arrived."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.arrivals: list[tuple[float, int, Any]] = []  # (monotonic s, size, payload)
        self.event = asyncio.Event()
        self.client.on("snapshot", self._arrived)
        self.client.on("changes", self._arrived)

    async def _arrived(self, payload: Any) -> None:
        self.arrivals.append((time.monotonic(), wire_size(payload), payload))
        self.event.set()

    async def open(self, base: str, token: str) -> None:
        await self.client.connect(
            base, auth={"token": token}, transports=["websocket"], wait_timeout=30
        )

    async def subscribe(self, path: str) -> dict[str, Any]:
        reply: dict[str, Any] = await self.client.call("subscribe", {"path": path}, timeout=60)
        if "snapshot" not in reply:
            raise env.CallFailed(f"subscribe {path}: {str(reply)[:300]}")
        return reply

    async def wait_for(self, count: int, within: float = 30) -> None:
        async with asyncio.timeout(within):
            while len(self.arrivals) < count:
                self.event.clear()
                await self.event.wait()


async def run_phase(
    base: str,
    token: str,
    path: str,
    mover: socketio.AsyncClient,
    appointment_id: str,
    moves: Sequence[tuple[str, str]],
    options: argparse.Namespace,
) -> Phase:
    phase = Phase(path)
    reader = Watcher()
    await reader.open(base, token)
    latencies = []
    for _ in range(options.snapshots):
        sent = time.monotonic()
        reply = await reader.subscribe(path)
        latencies.append((time.monotonic() - sent) * 1000)
    phase.rows = len(reply["snapshot"]["data"]["bookings"])
    phase.snapshot_bytes = wire_size(reply["snapshot"])
    phase.snapshot_ms = summary(latencies)
    await reader.client.disconnect()

    watchers = [Watcher() for _ in range(options.watchers)]
    await asyncio.gather(*(w.open(base, token) for w in watchers))
    await asyncio.gather(*(w.subscribe(path) for w in watchers))
    await asyncio.sleep(0.5)
    for w in watchers:
        w.arrivals.clear()
    all_ms: list[float] = []
    each_ms: list[float] = []
    sizes: list[float] = []
    for index, (start, counselor) in enumerate(moves):
        before = [len(w.arrivals) for w in watchers]
        sent = time.monotonic()
        reply = await mover.call(
            "call",
            {
                "name": "appointment-hold",
                "data": {"appointmentId": appointment_id, "start": start, "counselorId": counselor},
            },
            timeout=60,
        )
        if "data" not in reply:
            raise env.CallFailed(f"hold {index}: {str(reply)[:300]}")
        await asyncio.gather(*(w.wait_for(n + 1) for w, n in zip(watchers, before, strict=True)))
        firsts = [w.arrivals[n] for w, n in zip(watchers, before, strict=True)]
        arrivals = [(at - sent) * 1000 for at, _, _ in firsts]
        each_ms += arrivals
        all_ms.append(max(arrivals))
        sizes.append(float(firsts[0][1]))
    phase.all_watchers_ms = summary(all_ms)
    phase.delivery_ms = summary(each_ms)
    phase.push_bytes = summary(sizes)
    await asyncio.gather(*(w.client.disconnect() for w in watchers))
    return phase


async def free_moves(api: env.Api, token: str, first: str, count: int) -> list[tuple[str, str]]:
    """Alternating two free times of one day of the window: each change is one booking
    modified in one day stream (a move between days would be two pushes)."""
    start = datetime.fromisoformat(first).date()
    data = await api.vacancies(token, start, start + timedelta(days=WINDOW_DAYS - 1))
    slots = data["slots"]
    one = slots[0]
    other = next(s for s in slots[1:] if s["start"][:10] == one["start"][:10])
    pair = [(one["start"], one["counselorIds"][0]), (other["start"], other["counselorIds"][0])]
    return [pair[n % 2] for n in range(count)]


async def main(options: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-board-"))
    database = await FreshDatabase.create(options.pg_admin_url, "board")
    server: Managed | None = None
    try:
        server = servers.start_server(
            "ours",
            workdir,
            None,
            None,
            database_url=database.server_url,
            extra_env={
                "INACTIVITY_SECONDS": "86400",
                "HOLDS_PER_USER": "100000000",
                "HOLDS_PER_IP": "100000000",
                "HOLD_TOTAL_MINUTES": "1440",
                "FILES_DIR": str(workdir / "files"),
            },
            tag="board",
        )
        async with httpx.AsyncClient() as http:
            await env.wait_ready(server, http)
            api = env.Api(http, server.port)
            base = f"http://{servers.HOST}:{server.port}"
            added = await env.add_counselors(database, 0, options.counselors - 3)
            counselors = ["c-sato", "c-tanaka", "c-brown", *added]
            _, staff_token = await api.token(STAFF_EMAIL)
            owner_uid, _ = await api.token(f"board-owner-{secrets.token_hex(3)}@bench.example")
            today = env.clinic_today("Asia/Tokyo")
            first = (today + timedelta(days=1)).isoformat()
            last = (today + timedelta(days=WINDOW_DAYS)).isoformat()
            await insert_bookings(database, owner_uid, counselors, options.bookings, first)
            _, mover_token = await api.token(f"board-mover-{secrets.token_hex(3)}@bench.example")
            appointment_id = await api.appointment(mover_token)
            moves = await free_moves(api, mover_token, first, options.changes)
            mover = socketio.AsyncClient(reconnection=False)
            await mover.connect(
                base, auth={"token": mover_token}, transports=["websocket"], wait_timeout=30
            )
            # Warm-up: a few holds, nobody following.
            for start, counselor in moves[:4]:
                await mover.call(
                    "call",
                    {
                        "name": "appointment-hold",
                        "data": {
                            "appointmentId": appointment_id,
                            "start": start,
                            "counselorId": counselor,
                        },
                    },
                    timeout=60,
                )
            phases = []
            for path in (FEED, f"{FEED}/{first}/{last}"):
                print(f"  {path} ...", flush=True)
                phases.append(
                    await run_phase(base, staff_token, path, mover, appointment_id, moves, options)
                )
            await mover.disconnect()
    finally:
        if server is not None:
            server.stop()
        await database.drop()
    return {
        "counselors": options.counselors,
        "bookings": options.bookings,
        "watchers": options.watchers,
        "changes": options.changes,
        "phases": [asdict(p) for p in phases],
    }


def report(results: dict[str, Any]) -> None:
    print(
        f"\nBoard: {results['counselors']} counselors, {results['bookings']} bookings in the "
        f"window, {results['watchers']} staff sockets, {results['changes']} changes\n"
    )
    head = (
        "| document | rows | snapshot bytes | snapshot p50 / p99 ms | bytes per change "
        "(p50) | all watchers p50 / p99 ms | each delivery p99 ms |"
    )
    print(head)
    print("|" + " --- |" * 7)
    for p in results["phases"]:

        def get(d: dict[str, float], k: str) -> float:
            return d.get(k, math.nan)

        print(
            f"| `{p['document']}` | {p['rows']} | {p['snapshot_bytes']:,} | "
            f"{get(p['snapshot_ms'], 'p50'):.1f} / {get(p['snapshot_ms'], 'p99'):.1f} | "
            f"{get(p['push_bytes'], 'p50'):,.0f} | "
            f"{get(p['all_watchers_ms'], 'p50'):.1f} / {get(p['all_watchers_ms'], 'p99'):.1f} | "
            f"{get(p['delivery_ms'], 'p99'):.1f} |"
        )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counselors", type=int, default=200)
    parser.add_argument("--bookings", type=int, default=3000)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--snapshots", type=int, default=20)
    parser.add_argument("--pg-admin-url", default=servers.PG_ADMIN_URL)
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    outcome = asyncio.run(main(arguments))
    report(outcome)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(outcome, indent=2))
