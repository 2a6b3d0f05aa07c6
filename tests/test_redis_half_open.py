"""A node whose Redis connection goes silent still gets the other nodes' pushes (issue #19;
docs/operations.md, "Redis connection silent").

Two nodes on one Redis of their own; node B reaches it through a relay. Freezing the relay
leaves B's connections open at both ends with nothing passing either way: what a node sees
when Redis's host vanishes without a reset, a NAT or firewall forgets the connection, or a
partition falls between them. Nothing tells B; redis-py would wait on that subscription
forever. B must notice within REDIS_SILENCE_SECONDS, subscribe again on a new connection
and resync, so its follower gets the write made on node A meanwhile, and later pushes flow
again; and a write made on B meanwhile is not held longer than that by its publish."""

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from realtime.push import LISTEN_RETRY_SECONDS, REDIS_SILENCE_SECONDS
from tests.support.booking import person
from tests.support.clients import call_http
from tests.support.multinode import two_nodes
from tests.support.redis_server import PrivateRedis
from tests.support.relay import Relay
from tests.support.server import ServerProcess
from tests.test_redis_resync import follower

# Node B's follower holds the write made on node A once B has given up the silent connection
# (REDIS_SILENCE_SECONDS), subscribed again (LISTEN_RETRY_SECONDS) and resynced (a pass of a
# few ms here), with room for a loaded machine.
LIVE_WITHIN_SECONDS = REDIS_SILENCE_SECONDS + LISTEN_RETRY_SECONDS + 2.0
# Long enough for a push through a working connection (a few ms), well short of the bound.
HELD_UP_SECONDS = 1.0
# A push once B listens again: no resync needed for it.
PUSH_WITHIN_SECONDS = 2.0
# A write on node B answered once its publish has given up the silent connection
# (REDIS_SILENCE_SECONDS) and gone out on a new one, with room for a loaded machine.
ANSWERED_WITHIN_SECONDS = REDIS_SILENCE_SECONDS + 1.0


@dataclass
class Pair:
    a: ServerProcess
    b: ServerProcess
    # Node B's way to Redis (node A's is direct).
    relay: Relay


@pytest_asyncio.fixture(scope="module")
async def pair(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    logs = tmp_path_factory.mktemp("half-open")
    private = PrivateRedis(logs / "redis.log").start()
    relay = await Relay(private.port).start()
    node_b = {"REDIS_URL": f"redis://127.0.0.1:{relay.port}/0"}
    try:
        async with two_nodes(logs, {"REDIS_URL": private.url}, own=({}, node_b)) as (a, b):
            yield Pair(a, b, relay)
    finally:
        await relay.stop()
        private.stop()


async def test_a_node_whose_redis_connection_went_silent_gets_the_push_it_missed(
    pair: Pair,
) -> None:
    a, b = pair.a, pair.b
    async with person(a.url) as writer:
        record = f"users/{writer.uid}"
        async with follower(b.url, writer.token) as there:
            await there.follow(record)
            before = (await writer.sock.update(record, {"locale": "en"}))["version"]
            await there.sock.wait_for_version(record, before)  # B listens through the relay

            assert pair.relay.freeze() >= 1
            frozen_at = time.monotonic()
            missed = (await writer.sock.update(record, {"locale": "ja"}))["version"]
            await asyncio.sleep(HELD_UP_SECONDS)
            assert there.newest(record)["version"] < missed  # held up on the way, for now

            waited = LIVE_WITHIN_SECONDS - (time.monotonic() - frozen_at)
            try:
                await there.sock.wait_for_version(record, missed, timeout=waited)
            except TimeoutError:
                pytest.fail(f"node B's follower missed version {missed} after the freeze")
            assert there.newest(record)["data"]["locale"] == "ja"

            after = (await writer.sock.update(record, {"locale": "en"}))["version"]
            await there.sock.wait_for_version(record, after, timeout=PUSH_WITHIN_SECONDS)
            assert there.newest(record)["data"]["locale"] == "en"


async def test_a_write_on_the_silent_node_is_answered_and_reaches_the_other_node(
    pair: Pair,
) -> None:
    """B's publish waits on a frozen connection of its pool no longer than
    REDIS_SILENCE_SECONDS, then goes out on a new one."""
    a, b = pair.a, pair.b
    async with person(b.url) as writer:
        record = f"users/{writer.uid}"
        async with follower(a.url, writer.token) as there:
            await there.follow(record)
            before = (await writer.sock.update(record, {"locale": "en"}))["version"]
            await there.sock.wait_for_version(record, before)  # B publishes through the relay

            assert pair.relay.freeze() >= 1
            frozen_at = time.monotonic()
            version = (await writer.sock.update(record, {"locale": "ja"}))["version"]
            answered = time.monotonic() - frozen_at
            assert answered < ANSWERED_WITHIN_SECONDS, f"answered after {answered:.1f} s"
            await there.sock.wait_for_version(record, version, timeout=PUSH_WITHIN_SECONDS)
            assert there.newest(record)["data"]["locale"] == "ja"


async def test_a_rate_limited_call_on_the_silent_node_is_not_held(pair: Pair) -> None:
    """Node B's other Redis client (rate-limit counts) gives a command on a frozen
    connection up after REDIS_SILENCE_SECONDS and lets the call through (redis-py's own
    default would hold it 5 s, before version 8 for good)."""
    event = {"name": "exception", "params": {"description": "half-open check"}}
    code, _ = await call_http(pair.b.url, "analytics-log", event)  # a pooled connection now
    assert code == 200
    assert pair.relay.freeze() >= 1
    started = time.monotonic()
    code, _ = await call_http(pair.b.url, "analytics-log", event)
    answered = time.monotonic() - started
    assert code == 200
    assert answered < ANSWERED_WITHIN_SECONDS, f"answered after {answered:.1f} s"
