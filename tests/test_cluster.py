"""Three nodes behind HAProxy (infra/cluster, as `make cluster` runs them) lose a node, are
restarted one by one, and lose their Redis, while a few hundred subscribers follow one
document that a writer keeps changing: every subscriber ends live, at the last acknowledged
version, and never sees a version go back (docs/operations.md, "What clients see")."""

import asyncio
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import httpx
import pytest
import pytest_asyncio

from infra.cluster.cluster import Cluster
from tests.support.clients import call_http, connect, sign_in
from tests.support.databases import (
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.live_client import Follower, Writer, wait_all_hold
from tests.support.redis_server import PrivateRedis
from tests.support.server import PER_IP_LIMITS_OFF, free_port

NODES = 3
FOLLOWERS = 200
# Connections opened at once while the followers come up.
CONNECTING = 50
WRITE_INTERVAL = 0.05
# Writes before the disturbance, and after it (so the end state is written by a cluster
# that has recovered).
BEFORE_SECONDS = 1.0
AFTER_SECONDS = 2.0
# Every follower live at the last version this long after the disturbance ended.
LIVE_WITHIN_SECONDS = 10.0
# Redis down this long: well past HAProxy's 2 s to take out a node whose check fails
# (infra/cluster/haproxy.cfg.in: `inter 1s fall 2`).
REDIS_DOWN_SECONDS = 8.0
PROBE_INTERVAL = 0.2
SERVICE = {"id": "cancer", "clinicId": "demo-clinic"}


@dataclass
class Run:
    cluster: Cluster
    redis: PrivateRedis


@pytest_asyncio.fixture(scope="module")
async def run(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Run]:
    name, url = await create_postgres_database()
    workdir = tmp_path_factory.mktemp("cluster")
    redis = PrivateRedis(workdir / "redis.log").start()
    env = {
        "APP_ENV": "test",
        "LOG_LEVEL": "warning",
        **PER_IP_LIMITS_OFF,
        # Every follower is one person's tab.
        "SOCKETS_PER_SESSION": str(FOLLOWERS * 2),
        "DATABASE_URL": url,
        "REDIS_URL": redis.url,
        "REDIS_NAMESPACE": redis_namespace(),
    }
    cluster = Cluster(nodes=NODES, port=free_port(), workdir=workdir, env=env)
    try:
        await asyncio.to_thread(cluster.start)
        yield Run(cluster, redis)
    finally:
        await asyncio.to_thread(cluster.stop)
        redis.stop()
        await drop_postgres_database(name)


@dataclass
class Outcome:
    followers: list[Follower]
    writer: Writer
    # Seconds from the disturbance's end to every follower live at the last version.
    live_after: float
    # The last version acknowledged when the disturbance ended.
    acked_at_end: int


async def under_load(
    cluster: Cluster, email: str, disturb: Callable[[], Awaitable[None]]
) -> Outcome:
    """Followers of one person's record and a writer through the balancer; `disturb` runs
    mid-stream. Returns once every follower holds the last acknowledged version."""
    person = await sign_in(cluster.url, email)
    path = f"users/{person.uid}"
    followers = [Follower(cluster.url, person.token, path) for _ in range(FOLLOWERS)]
    gate = asyncio.Semaphore(CONNECTING)

    async def start(follower: Follower) -> None:
        async with gate:
            await follower.start()

    await asyncio.gather(*(start(f) for f in followers))
    writer = Writer(cluster.url, person.token, path, "locale", ("en", "ja"), WRITE_INTERVAL)
    done = asyncio.Event()
    writing = asyncio.create_task(writer.run(done))
    try:
        await asyncio.sleep(BEFORE_SECONDS)
        await disturb()
        ended = time.monotonic()
        assert writer.acked is not None
        acked_at_end = writer.acked[0]
        await asyncio.sleep(AFTER_SECONDS)
        done.set()
        await writing
        assert writer.acked is not None
        live_at = await wait_all_hold(followers, writer.acked[0], ended + LIVE_WITHIN_SECONDS)
        return Outcome(followers, writer, live_at - ended, acked_at_end)
    finally:
        done.set()
        await asyncio.gather(writing, return_exceptions=True)
        await asyncio.gather(*(f.stop() for f in followers))


async def assert_consistent(cluster: Cluster, outcome: Outcome) -> None:
    """Every follower holds exactly what the database holds: the last acknowledged write."""
    writer = outcome.writer
    assert writer.acked is not None
    version, value = writer.acked
    assert writer.failed == []
    assert [f.held for f in outcome.followers] == [version] * FOLLOWERS
    assert {f.data["locale"] for f in outcome.followers if f.data} == {value}
    assert sum(f.stale for f in outcome.followers) == 0
    assert sum(f.older_replies for f in outcome.followers) == 0
    async with connect(cluster.url, writer.token) as fresh:
        snapshot = (await fresh.subscribe(writer.path))["snapshot"]
    assert (snapshot["version"], snapshot["data"]["locale"]) == (version, value)


async def test_a_killed_node_s_clients_resume_on_the_others(run: Run) -> None:
    cluster = run.cluster
    victim = cluster.nodes[0]

    async def kill() -> None:
        await asyncio.to_thread(victim.stop, signal.SIGKILL)

    try:
        outcome = await under_load(cluster, "cluster-kill@example.com", kill)
    finally:
        await asyncio.to_thread(cluster.restart, victim)
    await assert_consistent(cluster, outcome)
    moved = sum(1 for f in outcome.followers if f.reconnects)
    # leastconn spread them: the victim held about a third, and only those moved.
    assert FOLLOWERS // 6 < moved < FOLLOWERS // 2, moved
    assert outcome.live_after < LIVE_WITHIN_SECONDS


async def test_a_rolling_restart_loses_nothing(run: Run) -> None:
    cluster = run.cluster

    async def roll() -> None:
        await asyncio.to_thread(cluster.rolling_restart)

    outcome = await under_load(cluster, "cluster-roll@example.com", roll)
    await assert_consistent(cluster, outcome)
    # Every node went once: every follower moved at least once, and no write failed.
    assert all(f.reconnects for f in outcome.followers)
    assert outcome.live_after < LIVE_WITHIN_SECONDS


@dataclass
class Probes:
    """What a person got through the balancer while Redis was down: each round signs in,
    calls a function over HTTP and opens a new socket that subscribes."""

    rounds: int = 0
    failures: list[str] = field(default_factory=list)
    # What `/healthz` (monitoring's check) answered through the balancer meanwhile.
    health: set[int] = field(default_factory=set)

    async def run(self, url: str, until: asyncio.Event) -> None:
        while not until.is_set():
            try:
                await self._round(url)
                self.rounds += 1
            except Exception as exc:  # any failure a person would see
                self.failures.append(repr(exc))
            await asyncio.sleep(PROBE_INTERVAL)

    async def _round(self, url: str) -> None:
        someone = await sign_in(url, f"cluster-redis-probe-{self.rounds}@example.com")
        code, reply = await call_http(url, "service-read", SERVICE, someone.token)
        assert code == 200 and reply["data"]["category"] == "cancer", (code, reply)
        async with connect(url, someone.token) as sock:
            snapshot = (await sock.subscribe(f"users/{someone.uid}"))["snapshot"]
            assert snapshot["version"] >= 1 and snapshot["data"], snapshot
        async with httpx.AsyncClient(base_url=url, timeout=5) as http:
            self.health.add((await http.get("/healthz")).status_code)


async def test_a_redis_outage_longer_than_the_check_keeps_every_node_in(run: Run) -> None:
    """Redis down for longer than HAProxy needs to take a failing node out (check every
    1 s, out after 2 failures): the balancer checks `/healthz/balancer` (the database), so
    the nodes stay in; people sign in, call functions and open sockets meanwhile, while
    `/healthz` tells monitoring the truth (503). Once Redis is back, pushes resume and every
    follower holds the last acknowledged version."""
    probes = Probes()

    async def redis_outage() -> None:
        run.redis.stop()
        done = asyncio.Event()
        probing = asyncio.create_task(probes.run(run.cluster.url, done))
        try:
            await asyncio.sleep(REDIS_DOWN_SECONDS)
        finally:
            done.set()
            await probing
            await asyncio.to_thread(run.redis.start)

    outcome = await under_load(run.cluster, "cluster-redis@example.com", redis_outage)
    assert probes.failures == [] and probes.rounds >= REDIS_DOWN_SECONDS, probes
    assert probes.health == {503}
    await assert_consistent(run.cluster, outcome)
    # Versions written after Redis came back reached the followers.
    assert outcome.writer.acked is not None
    assert outcome.writer.acked[0] > outcome.acked_at_end
