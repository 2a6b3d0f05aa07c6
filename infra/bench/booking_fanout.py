"""Part 3 of the booking benchmark: from a hold to every watcher of the month's vacancies.

The fan-out benchmark's machinery (infra/bench/fanout.py: generator processes of lean
subscribers, interleaved rounds, per-delivery and last-subscriber latencies, the bare
python-socketio floor) with one change of what a round sends:
- ours (PostgreSQL): N watchers, one user without an appointment, all subscribed to
  `vacancies/demo-clinic/cancer-b2b/<next month>`; a writer (another user, with a draft
  appointment) calls `appointment-hold`, moving its hold between two slots of that month,
  and the send time of that call starts the clock. The writer follows the document too:
  the version of its own copy of the push is the version the round waits for.
- floor: the same N on the same path; the writer sends `update` whose `data` is our last
  snapshot's `data`, so the floor pushes a frame of the same size.
"""

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from infra.bench import booking_env as env
from infra.bench import fanout, servers
from infra.bench.fanout import CLIENT_TIMEOUT_SECONDS, RunResult, Session
from infra.bench.lean import LeanClient
from infra.bench.servers import FreshDatabase

FLOOR_AUTH = b'{"token":"floor"}'


class HoldFanout(fanout.Bench):
    # More time per watcher than the fan-out's subscribers: each `subscribe` to a vacancies
    # document reads the month twice (from the server's month cache since it was computed
    # once, but the 45 KB snapshot is still encoded and sent each time), so 5,000 watchers
    # take a minute.
    connect_seconds_each = 0.15

    def __init__(
        self,
        options: fanout.Options,
        pool: fanout.GeneratorPool,
        workdir: Path,
        server_cpus: set[int] | None,
        admin_url: str,
    ) -> None:
        super().__init__(options, pool, workdir, server_cpus)
        self.admin_url = admin_url
        self.databases: list[FreshDatabase] = []
        self.path = ""
        self.month_data: dict[str, Any] = {}
        self.hold_events: list[bytes] = []

    # -- what differs from the fan-out benchmark -------------------------------------

    async def identity(
        self, kind: str, server: servers.Managed, http: httpx.AsyncClient
    ) -> tuple[bytes, str]:
        """The floor: any token, our document's path (same frame size)."""
        return FLOOR_AUTH, self.path

    def update_data(self, kind: str, round_no: int) -> dict[str, Any]:
        return self.month_data

    async def update(
        self, writer: LeanClient, kind: str, path: str, round_no: int
    ) -> tuple[int, "asyncio.Task[tuple[bytes, int]]"]:
        """Ours: a hold instead of an update; the task yields `[{"version": v}]` with the
        version of the snapshot the writer itself received, and the time of the ack."""
        if not kind.startswith("ours"):
            return await super().update(writer, kind, path, round_no)
        ack_id = writer.next_ack_id()
        prefix = b"43%d[" % ack_id
        pushed = b'42["snapshot",{"path":%s' % json.dumps(path).encode()
        timeout = self.options.round_timeout

        async def ack() -> tuple[bytes, int]:
            message = await writer.expect(prefix, within=timeout)
            at = time.monotonic_ns()
            reply = message[len(prefix) - 1 :]
            if env.error_status(reply) is not None:
                raise RuntimeError(f"hold refused: {reply[:300]!r}")
            # The push reached the writer before its ack (same socket, push first).
            snapshot = json.loads((await writer.expect(pushed, within=timeout))[2:])[1]
            self.month_data = snapshot["data"]
            return json.dumps([{"version": snapshot["version"]}]).encode(), at

        text = b"42%d%s" % (ack_id, self.hold_events[round_no % 2])
        task = asyncio.create_task(ack())
        return writer.send_text(text), task

    async def prepare(self, kind: str, n: int, http: httpx.AsyncClient) -> Session:
        if not kind.startswith("ours"):
            return await super().prepare(kind, n, http)
        return await self.prepare_ours(n, http)

    async def run_group(
        self, kinds: Sequence[str], n: int, http: httpx.AsyncClient
    ) -> list[RunResult]:
        try:
            return await super().run_group(kinds, n, http)
        finally:
            await self.drop_databases()

    # -- ours on PostgreSQL ----------------------------------------------------------

    async def prepare_ours(self, n: int, http: httpx.AsyncClient) -> Session:
        options = self.options
        database = await FreshDatabase.create(self.admin_url, f"booking_fanout{n}")
        self.databases.append(database)
        profile_out = options.profile_dir / f"ours-{n}" if options.profile_dir else None
        time_out = self.workdir / f"time-ours-{n}"
        time_calls = (time_out, options.time_calls) if options.time_calls else None
        gc_out = self.workdir / f"gc-ours-{n}" if options.gc_log else None
        server = env.start_ours(
            self.workdir,
            database,
            self.server_cpus,
            tag=f"fanout-{n}",
            profile_out=profile_out,
            time_calls=time_calls,
            gc_out=gc_out,
        )
        self.started.append(server)
        self.channels += 1
        session = Session("ours", self.channels, server, RunResult(n=n, server="ours"))
        session.profile_out = profile_out
        session.gc_out = gc_out
        session.time_out = time_out if time_calls else None
        # INACTIVITY_SECONDS is raised for this server: the fan-out's idle warning is moot.
        session.warned_idle = True
        try:
            await env.wait_ready(server, http)
            api = env.Api(http, server.port)
            _, writer_token = await api.token("hold-writer@bench.example")
            appointment_id = await api.appointment(writer_token)
            _, watcher_token = await api.token("watcher@bench.example")
            first, last, month = env.next_month("Asia/Tokyo")
            slots = (await api.vacancies(writer_token, first, last))["slots"]
            pairs = env.spaced_pairs(slots[len(slots) // 2 :], 2)
            self.hold_events = [
                env.hold_event(appointment_id, p.start, p.counselor_id) for p in pairs
            ]
            self.path = session.path = f"vacancies/{env.CLINIC_ID}/{env.SERVICE_ID}/{month}"
            subscribe = json.dumps(["subscribe", {"path": session.path}]).encode()
            writer = await env.open_socket(server.port, writer_token)
            session.writer = writer
            ack = env.reply_of(await writer.call(subscribe, within=CLIENT_TIMEOUT_SECONDS))
            self.month_data = ack["snapshot"]["data"]
            # The writer stays subscribed: see `update`. One hold warms the path up.
            _, ack_task = await self.update(writer, "ours", session.path, 0)
            session.version = self.ack_version((await ack_task)[0])
            auth = env.auth_json(watcher_token)
            await self.connect_measured(session, auth, subscribe, n, "watcher")
        except Exception as exc:
            self.failed(session, exc)
        return session

    async def drop_databases(self) -> None:
        while self.databases:
            database = self.databases.pop()
            try:
                await database.drop()
            except Exception as exc:  # reported, never fatal: the next run uses a new name
                print(f"  ! could not drop database {database.name}: {exc}", flush=True)
