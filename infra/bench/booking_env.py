"""What the booking benchmark stands on: a fresh PostgreSQL database, our server on it,
sign-in and calls over HTTP and over lean sockets, slot picking, direct database set-up.

Our server runs as `python -m realtime` (or under infra.bench.profiled for cProfile and
call timing) with `APP_ENV=test`, `DATABASE_URL` on a database created for the run and
dropped at the end, `SIGN_IN_LINKS_PER_IP` and `INACTIVITY_SECONDS` raised so that neither
the benchmark's many sign-ins nor its idle watchers are refused or revoked, and the hold
limits (`HOLDS_PER_USER`, `HOLDS_PER_IP`, `HOLD_TOTAL_MINUTES`) raised so that its racing
clients, all on one address, measure the holds rather than the limits.
"""

import asyncio
import json
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import asyncpg
import httpx

from infra.bench import servers
from infra.bench.fanout import summary
from infra.bench.lean import LeanClient, Sink, connect
from infra.bench.servers import HOST, FreshDatabase, Managed

CLINIC_ID = "demo-clinic"
SERVICE_ALIAS = "cancer"
SERVICE_ID = "cancer-b2b"
SESSION_MINUTES = 60
BUFFER_MINUTES = 15
CALL_TIMEOUT_SECONDS = 30.0
HTTP_TIMEOUT_SECONDS = 60.0


@dataclass
class Options:
    """The booking benchmark's command line (infra/bench/booking.py `parse_args`); each part
    reads its own group of it."""

    parts: list[str]
    clients: int
    slots: int
    seconds: float
    warmup: float
    rates: list[float]
    half_load: bool
    skip_saturated: bool
    counselors: list[int]
    holds_per_counselor: int
    calls: int
    concurrency: int
    hold_calls: int
    watchers: list[int]
    rounds: int
    warmup_rounds: int
    round_timeout: float
    generators: int
    pin: bool
    json_path: Path | None
    profile_dir: Path | None
    time_calls: bool
    gc_log: bool
    admin_url: str
    wait_others: float
    quiet_wait: float
    quiet_cores: float
    max_seconds: float
    keep_workdir: bool


class CallFailed(Exception):
    """A call answered with an error the benchmark did not expect."""


# -- our server -------------------------------------------------------------------------


def start_ours(
    workdir: Path,
    database: FreshDatabase,
    cpus: set[int] | None,
    *,
    tag: str,
    profile_out: Path | None = None,
    time_calls: tuple[Path, str] | None = None,
    gc_out: Path | None = None,
) -> Managed:
    """`python -m realtime` on `database` and a free port (not yet ready).

    With `profile_out`, `time_calls` or `gc_out` (the collector's passes) it runs under
    infra.bench.profiled, whose windows SIGUSR1 opens and SIGUSR2 closes (the server code
    untouched)."""
    return servers.start_server(
        "ours",
        workdir,
        None,
        cpus,
        profile_out=profile_out,
        gc_out=gc_out,
        time_calls=time_calls,
        database_url=database.server_url,
        extra_env={
            "SIGN_IN_LINKS_PER_IP": "1000000",
            "INACTIVITY_SECONDS": "86400",
            "HOLDS_PER_USER": "100000000",
            "HOLDS_PER_IP": "100000000",
            "HOLD_TOTAL_MINUTES": "1440",
            "FILES_DIR": str(workdir / f"files-{tag}"),
        },
        tag=tag,
    )


# -- HTTP -------------------------------------------------------------------------------


class Api:
    """Sign-in and callable functions over HTTP (set-up only, never measured)."""

    def __init__(self, http: httpx.AsyncClient, port: int) -> None:
        self.http = http
        self.base = f"http://{HOST}:{port}"

    async def token(self, email: str) -> tuple[str, str]:
        """(uid, bearer token) from POST /dev/token."""
        reply = await self.http.post(
            f"{self.base}/dev/token", json={"data": {"email": email}}, timeout=HTTP_TIMEOUT_SECONDS
        )
        reply.raise_for_status()
        data = reply.json()["data"]
        return str(data["uid"]), str(data["token"])

    async def call(self, token: str, name: str, data: dict[str, Any]) -> Any:
        reply = await self.http.post(
            f"{self.base}/functions/{name}",
            json={"data": data},
            headers={"authorization": f"Bearer {token}"},
            timeout=HTTP_TIMEOUT_SECONDS,
        )
        body = reply.json()
        if reply.status_code != 200 or "error" in body:
            raise CallFailed(f"{name}: HTTP {reply.status_code} {str(body)[:300]}")
        return body["data"]

    async def appointment(self, token: str) -> str:
        """A new appointment with consent given (a hold needs it)."""
        data = await self.call(token, "appointment-create", {"serviceId": SERVICE_ALIAS})
        appointment_id = str(data["appointmentId"])
        service = await self.call(
            token, "service-read", {"id": SERVICE_ALIAS, "clinicId": CLINIC_ID}
        )
        await self.call(
            token,
            "appointment-consent",
            {"appointmentId": appointment_id, "version": service["consentVersion"]},
        )
        return appointment_id

    async def vacancies(self, token: str, first: date, last: date) -> dict[str, Any]:
        data: dict[str, Any] = await self.call(
            token,
            "vacancies-read",
            {
                "clinicId": CLINIC_ID,
                "serviceId": SERVICE_ALIAS,
                "from": first.isoformat(),
                "to": last.isoformat(),
            },
        )
        return data


# -- sockets ----------------------------------------------------------------------------


def auth_json(token: str) -> bytes:
    return json.dumps({"token": token}).encode()


async def open_socket(port: int, token: str, cid: int = -1) -> LeanClient:
    return await connect(HOST, port, cid, Sink(), auth_json(token), CALL_TIMEOUT_SECONDS)


def call_event(name: str, data: dict[str, Any]) -> bytes:
    """The `call` event as the lean client sends it: `["call", {"name", "data"}]`."""
    return json.dumps(["call", {"name": name, "data": data}], separators=(",", ":")).encode()


def hold_event(appointment_id: str, start: str, counselor_id: str) -> bytes:
    return call_event(
        "appointment-hold",
        {"appointmentId": appointment_id, "start": start, "counselorId": counselor_id},
    )


def reply_of(ack: bytes) -> dict[str, Any]:
    """The ack's only argument: `{"data": ...}` or `{"error": {...}}`."""
    reply = json.loads(ack)
    if not isinstance(reply, list) or not reply or not isinstance(reply[0], dict):
        raise CallFailed(f"unexpected ack {ack[:200]!r}")
    first: dict[str, Any] = reply[0]
    return first


def error_status(ack: bytes) -> str | None:
    """None for a success, else the error's status (cheap: no parse of a success)."""
    if not ack.startswith(b'[{"error"'):
        return None
    return str(reply_of(ack)["error"].get("status", "?"))


async def socket_call(client: LeanClient, name: str, data: dict[str, Any]) -> Any:
    reply = reply_of(await client.call(call_event(name, data), within=CALL_TIMEOUT_SECONDS))
    if "error" in reply:
        raise CallFailed(f"{name}: {str(reply['error'])[:300]}")
    return reply["data"]


# -- time and slots ---------------------------------------------------------------------


def next_month(timezone: str) -> tuple[date, date, str]:
    """First and last day and `YYYY-MM` of the month after the current one (clinic time)."""
    today = datetime.now(ZoneInfo(timezone)).date()
    first = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
    following = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, following - timedelta(days=1), first.strftime("%Y-%m")


def clinic_today(timezone: str) -> date:
    return datetime.now(ZoneInfo(timezone)).date()


@dataclass(frozen=True)
class Pair:
    """One slot of one counselor."""

    start: str  # ISO-8601 with offset, as the server wrote it
    counselor_id: str

    @property
    def moment(self) -> datetime:
        return datetime.fromisoformat(self.start)


def spaced_pairs(
    slots: Sequence[dict[str, Any]],
    count: int,
    *,
    gap_minutes: int = 90,
    counselors: Sequence[str] | None = None,
) -> list[Pair]:
    """Up to `count` (start, counselor) pairs in time order, each counselor's at least
    `gap_minutes` apart, so that no two of them can conflict (session plus buffer is 75)."""
    gap = timedelta(minutes=gap_minutes)
    last: dict[str, datetime] = {}
    picked: list[Pair] = []
    for slot in sorted(slots, key=lambda s: datetime.fromisoformat(s["start"])):
        start = datetime.fromisoformat(slot["start"])
        for counselor_id in slot["counselorIds"]:
            if counselors is not None and counselor_id not in counselors:
                continue
            previous = last.get(counselor_id)
            if previous is None or start - previous >= gap:
                last[counselor_id] = start
                picked.append(Pair(slot["start"], counselor_id))
                if len(picked) == count:
                    return picked
                break  # one counselor per start: spread over the counselors
    return picked


# -- direct database set-up -------------------------------------------------------------


def booked_months(timezone: str = "Asia/Tokyo", days: int = 62) -> list[str]:
    """`YYYY-MM` of the months from today (clinic time) to `days` later."""
    today = clinic_today(timezone)
    return sorted({(today + timedelta(days=n)).strftime("%Y-%m") for n in range(days + 1)})


async def bump_vacancies(
    database: FreshDatabase, months: Sequence[str] | None = None, connection: Any = None
) -> None:
    """Raise the versions of the demo clinic's month documents, as the server does after a
    claim changes: the benchmark writes counselors and holds straight into the database,
    and the server's month cache follows those versions (realtime/booking/slot_cache.py).
    Without it the server would answer from months computed before the write (for up to a
    minute: the cache's age limit)."""
    own = connection is None
    if own:
        connection = await asyncpg.connect(database.url)
    try:
        services = await connection.fetch(
            "SELECT service_id FROM clinic_services WHERE clinic_id = $1", CLINIC_ID
        )
        paths = sorted(
            f"vacancies/{CLINIC_ID}/{row['service_id']}/{month}"
            for row in services
            for month in (months or booked_months())
        )
        await connection.executemany(
            "INSERT INTO document_versions (path, version) VALUES ($1, 1) ON CONFLICT (path) "
            "DO UPDATE SET version = document_versions.version + 1",
            [(path,) for path in paths],
        )
    finally:
        if own:
            await connection.close()


async def add_counselors(database: FreshDatabase, first_index: int, count: int) -> list[str]:
    """Counselors of the demo clinic working 09:00-17:00 Monday to Friday (the month
    documents' versions raised after, like any change of the schedules)."""
    ids = [f"bench-c-{index:03d}" for index in range(first_index, first_index + count)]
    connection = await asyncpg.connect(database.url)
    try:
        async with connection.transaction():
            await connection.executemany(
                "INSERT INTO counselors (id, clinic_id, name, email, languages) "
                "VALUES ($1, $2, $3, $4, $5)",
                [
                    (
                        cid,
                        CLINIC_ID,
                        json.dumps({"ja": f"ベンチ {cid}", "en": f"Bench {cid}"}),
                        f"{cid}@bench.example",
                        json.dumps(["ja", "en"]),
                    )
                    for cid in ids
                ],
            )
            await connection.executemany(
                'INSERT INTO counselor_hours (counselor_id, weekday, start, "end") '
                "VALUES ($1, $2, $3, $4)",
                [
                    (cid, weekday, datetime(2000, 1, 1, 9).time(), datetime(2000, 1, 1, 17).time())
                    for cid in ids
                    for weekday in range(5)
                ],
            )
        await bump_vacancies(database, connection=connection)
    finally:
        await connection.close()
    return ids


async def insert_holds(
    database: FreshDatabase, claims: Sequence[tuple[str, Pair]], hold_minutes: int = 120
) -> None:
    """Active holds written straight into `slot_claims` (appointment id, pair), as the
    server's hold would write them (the exclusion constraint still applies), then the
    versions of the month documents raised, as the server's hold would."""
    now = datetime.now(ZoneInfo("UTC"))
    rows = []
    for appointment_id, pair in claims:
        start = pair.moment
        end = start + timedelta(minutes=SESSION_MINUTES)
        rows.append(
            (
                appointment_id,
                pair.counselor_id,
                CLINIC_ID,
                SERVICE_ID,
                start,
                end,
                end + timedelta(minutes=BUFFER_MINUTES),
                now + timedelta(minutes=hold_minutes),
                now,
            )
        )
    connection = await asyncpg.connect(database.url)
    try:
        await connection.executemany(
            "INSERT INTO slot_claims (appointment_id, counselor_id, clinic_id, service_id, "
            'start, "end", blocked_until, kind, active, expires_at, created) '
            "VALUES ($1, $2, $3, $4, $5, $6, $7, 'hold', true, $8, $9)",
            rows,
        )
        await bump_vacancies(database, connection=connection)
    finally:
        await connection.close()


@dataclass
class ClaimCheck:
    """What the database says about exclusivity at the end of the race."""

    active_claims: int
    overlapping_pairs: int  # two active claims of one counselor whose times overlap
    appointments_with_several: int  # an appointment with more than one active claim
    claims: list[tuple[str, str, datetime]]  # (appointment, counselor, start) active


async def check_claims(database: FreshDatabase) -> ClaimCheck:
    connection = await asyncpg.connect(database.url)
    try:
        overlapping = await connection.fetchval(
            "SELECT count(*) FROM slot_claims a JOIN slot_claims b "
            "ON a.counselor_id = b.counselor_id AND a.id < b.id "
            "WHERE a.active AND b.active "
            "AND a.start < b.blocked_until AND b.start < a.blocked_until"
        )
        several = await connection.fetchval(
            "SELECT count(*) FROM (SELECT appointment_id FROM slot_claims WHERE active "
            "GROUP BY appointment_id HAVING count(*) > 1) AS x"
        )
        rows = await connection.fetch(
            "SELECT appointment_id, counselor_id, start FROM slot_claims WHERE active"
        )
    finally:
        await connection.close()
    return ClaimCheck(
        active_claims=len(rows),
        overlapping_pairs=int(overlapping),
        appointments_with_several=int(several),
        claims=[(r["appointment_id"], r["counselor_id"], r["start"]) for r in rows],
    )


async def wait_ready(server: Managed, http: httpx.AsyncClient) -> None:
    started = time.monotonic()
    await servers.wait_ready(server, http)
    print(f"  server ready in {time.monotonic() - started:.1f} s (pid {server.pid})", flush=True)


class Harness:
    """Measurement windows of a server run under infra.bench.profiled: SIGUSR1 opens one,
    SIGUSR2 closes it and the harness writes `<prefix>.<n>.time.json` (call times) and
    `<prefix>.<n>.pstats` (cProfile). A server run without the harness ignores all this."""

    def __init__(self, server: Managed, time_prefix: Path | None, profiled: bool) -> None:
        self.server = server
        self.time_prefix = time_prefix
        self.active = time_prefix is not None or profiled
        self.windows = 0

    def open(self) -> None:
        if self.active:
            self.server.signal(signal.SIGUSR1)

    async def close(self) -> dict[str, dict[str, float]]:
        """Close the window; p50/p99/max/count (ms) of each timed function inside it."""
        if not self.active:
            return {}
        self.server.signal(signal.SIGUSR2)
        self.windows += 1
        if self.time_prefix is None:
            return {}
        dump = self.time_prefix.parent / f"{self.time_prefix.name}.{self.windows}.time.json"
        for _ in range(200):  # up to 10 s
            if dump.exists():
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)  # written in one go by the signal handler; let it finish
        try:
            calls: dict[str, list[float]] = json.loads(dump.read_text())
        except (OSError, ValueError):
            return {}
        return {target: summary(durations) for target, durations in calls.items() if durations}
