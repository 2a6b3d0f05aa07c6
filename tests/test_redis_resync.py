"""Pushes lost to a Redis outage come back from the database (issue #19; docs/operations.md,
"Redis down or restarted").

Two nodes without a balancer, on their own Redis: the LAST write of each test falls while
the nodes cannot pass pushes through Redis, and nothing is written after. Every follower on
the other node must still end holding what the database holds, within LIVE_WITHIN_SECONDS,
without reconnecting: a person's record and appointment, a calendar month, the bookings feed
of a clinic_admin and a counselor's own filtered copy, and the bookings windows of both (a
booking made during the outage shows up)."""

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
import pytest
import pytest_asyncio
import redis

from tests.conftest import unique_email
from tests.support.booking import free_slots, person
from tests.support.clients import Socket, connect, sign_in
from tests.support.multinode import two_nodes
from tests.support.redis_server import PrivateRedis
from tests.support.server import ServerProcess
from tests.test_feed_window import FEED, SATO, clinic_day, hold, window
from tests.test_staff_signin import ADMIN

LIVE_WITHIN_SECONDS = 10.0
REDIS_DOWN_SECONDS = 2.0
# Node B talks to Redis as a user of its own, whose right to publish a test can take away
# while both nodes stay subscribed.
NODE_B_USER = ("node-b", "node-b-secret")
# The session sweep (realtime/session_sweep.py) would close a signed-out socket within 2 s;
# here it waits, so that a resync meets a socket of an ended session.
SETTINGS = {"SESSION_SWEEP_SECONDS": "3600"}


def admin_of(private: PrivateRedis) -> redis.Redis:
    return redis.Redis(port=private.port, socket_timeout=5)


def start_redis(private: PrivateRedis) -> None:
    """A new, empty Redis on the same port (a restart without persistence), with node B's
    user."""
    private.start()
    user, secret = NODE_B_USER
    admin_of(private).acl_setuser(
        user,
        enabled=True,
        passwords=[f"+{secret}"],
        keys=["*"],
        channels=["*"],
        categories=["+@all"],
    )


@dataclass
class Pair:
    a: ServerProcess
    b: ServerProcess
    redis: PrivateRedis

    def let_b_publish(self, allowed: bool) -> None:
        change = "+publish" if allowed else "-publish"
        admin_of(self.redis).acl_setuser(NODE_B_USER[0], enabled=True, commands=[change])


@pytest_asyncio.fixture(scope="module")
async def pair(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    logs = tmp_path_factory.mktemp("resync")
    private = PrivateRedis(logs / "redis.log")
    start_redis(private)
    user, secret = NODE_B_USER
    node_b = {"REDIS_URL": f"redis://{user}:{secret}@127.0.0.1:{private.port}/0"}
    try:
        async with two_nodes(logs, SETTINGS | {"REDIS_URL": private.url}, own=({}, node_b)) as (
            a,
            b,
        ):
            yield Pair(a, b, private)
    finally:
        private.stop()


@dataclass
class Follower:
    """One socket following documents as a client does: per path the newest snapshot it
    got (subscribe answer or push), and for a bookings window its `changes` applied over
    the newest snapshot in version order (docs/protocol.md, "The bookings window")."""

    sock: Socket
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    changes: list[dict[str, Any]] = field(default_factory=list)

    async def follow(self, *paths: str) -> None:
        for path in paths:
            reply = await self.sock.subscribe(path)
            assert "snapshot" in reply, reply
            self.answers[path] = reply["snapshot"]

    def newest(self, path: str) -> dict[str, Any]:
        """The newest snapshot held, whichever way it came."""
        pushed = self.sock.pushes.get(path, [])
        return max([self.answers[path], *pushed], key=lambda s: int(s["version"]))

    def window(self, path: str) -> dict[str, Any]:
        """A window as its client holds it: the last snapshot it got (a window snapshot
        always replaces the state), with every push of a later day version applied."""
        pushed = self.sock.pushes.get(path, [])
        last = pushed[-1] if pushed else self.answers[path]
        bookings = {b["appointmentId"]: b for b in last["data"]["bookings"]}
        days = dict(last["data"]["days"])
        for push in sorted(self.changes, key=lambda p: (p["day"], p["version"])):
            day = push["day"]
            if day not in days or push["version"] != days[day] + 1:
                continue  # already in the snapshot, or after a gap (the client resubscribes)
            days[day] = push["version"]
            for change in push["changes"]:
                if change["type"] == "removed":
                    if bookings.get(change["appointmentId"], {}).get("date") == day:
                        del bookings[change["appointmentId"]]
                else:
                    bookings[change["appointmentId"]] = change["doc"]
        return {
            "bookings": sorted(bookings.values(), key=lambda b: (b["date"], b["time"])),
            "days": days,
        }


@asynccontextmanager
async def follower(base_url: str, token: str) -> AsyncIterator[Follower]:
    async with connect(base_url, token) as sock:
        followed = Follower(sock)
        sock.client.on("changes", followed.changes.append)
        yield followed


async def fresh(base_url: str, token: str, path: str) -> dict[str, Any]:
    """What the database holds now, as a new subscriber reads it."""
    async with connect(base_url, token) as sock:
        snapshot: dict[str, Any] = (await sock.subscribe(path))["snapshot"]
    return snapshot


async def until(check: Any, what: str, deadline: float) -> None:
    """Wait until `check()` (awaitable) is true, at the latest `deadline`."""
    while not await check():
        assert time.monotonic() < deadline, f"{what}: still behind after {LIVE_WITHIN_SECONDS} s"
        await asyncio.sleep(0.1)


async def holds(who: Follower, base_url: str, token: str, path: str, deadline: float) -> None:
    """`who` ends holding the database's version and data of `path`."""

    async def same() -> bool:
        now = await fresh(base_url, token, path)
        held = who.newest(path)
        return bool(held["version"] == now["version"] and held["data"] == now["data"])

    await until(same, path, deadline)


async def holds_version(
    who: Follower, base_url: str, token: str, path: str, deadline: float
) -> None:
    """As `holds`, by version only (a calendar month's data depend on the time read)."""

    async def same() -> bool:
        return bool(who.newest(path)["version"] == (await fresh(base_url, token, path))["version"])

    await until(same, path, deadline)


async def holds_window(
    who: Follower, base_url: str, token: str, path: str, deadline: float
) -> None:
    async def same() -> bool:
        now = (await fresh(base_url, token, path))["data"]
        return bool(who.window(path) == {"bookings": now["bookings"], "days": now["days"]})

    await until(same, path, deadline)


async def test_the_last_write_made_while_redis_is_down_reaches_every_follower(pair: Pair) -> None:
    a, b = pair.a, pair.b
    staff = await sign_in(a.url, ADMIN)
    sato = await sign_in(a.url, SATO)
    async with AsyncExitStack() as stack:
        writer = await stack.enter_async_context(person(b.url))
        booker = await stack.enter_async_context(person(b.url))
        slot = next(
            s for s in await free_slots(booker.sock, days=28) if "c-sato" in s["counselorIds"]
        )
        day = clinic_day(slot["start"])
        month = f"vacancies/demo-clinic/cancer-b2b/{day.isoformat()[:7]}"
        days = window(day - timedelta(days=3), day + timedelta(days=3))
        record = f"users/{writer.uid}"
        own = await stack.enter_async_context(follower(a.url, writer.token))
        await own.follow(record, month)
        other_tab = await stack.enter_async_context(follower(b.url, writer.token))
        await other_tab.follow(record)
        mine = await stack.enter_async_context(follower(a.url, booker.token))
        await mine.follow(booker.path)
        admin = await stack.enter_async_context(follower(a.url, staff.token))
        await admin.follow(FEED, days)
        desk = await stack.enter_async_context(follower(a.url, sato.token))
        await desk.follow(FEED, days)

        pair.redis.stop()
        try:
            assert "version" in await writer.sock.update(record, {"locale": "en"})
            await hold(booker, slot, "c-sato")  # the last write of this test
            await asyncio.sleep(REDIS_DOWN_SECONDS)
        finally:
            await asyncio.to_thread(start_redis, pair.redis)
        deadline = time.monotonic() + LIVE_WITHIN_SECONDS

        await holds(own, a.url, writer.token, record, deadline)
        assert own.newest(record)["data"]["locale"] == "en"
        await holds(other_tab, a.url, writer.token, record, deadline)
        await holds_version(own, a.url, writer.token, month, deadline)
        assert own.newest(month)["version"] > own.answers[month]["version"], "the hold changed it"
        await holds(mine, a.url, booker.token, booker.path, deadline)
        assert mine.newest(booker.path)["data"]["counselorId"] == "c-sato"
        await holds(admin, a.url, staff.token, FEED, deadline)
        await holds(desk, a.url, sato.token, FEED, deadline)
        assert {row["counselorId"] for row in desk.newest(FEED)["data"]["bookings"]} == {"c-sato"}
        await holds_window(admin, a.url, staff.token, days, deadline)
        await holds_window(desk, a.url, sato.token, days, deadline)
        for board in (admin, desk):
            assert booker.appointment_id in {
                b["appointmentId"] for b in board.window(days)["bookings"]
            }
        assert {row["counselorId"] for row in desk.window(days)["bookings"]} == {"c-sato"}


async def test_a_push_its_node_could_not_publish_reaches_the_other_node(pair: Pair) -> None:
    """Redis stays up and both nodes stay subscribed, but node B may not publish: its own
    sockets get its push at once, node A's get it once B can publish again (and writes
    nothing more)."""
    a, b = pair.a, pair.b
    async with AsyncExitStack() as stack:
        writer = await stack.enter_async_context(person(b.url))
        record = f"users/{writer.uid}"
        there = await stack.enter_async_context(follower(a.url, writer.token))
        here = await stack.enter_async_context(follower(b.url, writer.token))
        await there.follow(record)
        await here.follow(record)
        pair.let_b_publish(False)
        try:
            version = (await writer.sock.update(record, {"locale": "en"}))["version"]
            await here.sock.wait_for_version(record, version)
            await asyncio.sleep(REDIS_DOWN_SECONDS)
            assert there.newest(record)["version"] < version  # lost on the way, for now
        finally:
            pair.let_b_publish(True)
        await holds(there, a.url, writer.token, record, time.monotonic() + LIVE_WITHIN_SECONDS)


async def test_a_socket_of_a_session_ended_meanwhile_gets_nothing(pair: Pair) -> None:
    """Rules still apply to what a resync sends: a person signed out (through the other node)
    while Redis was down is not sent the month that changed meanwhile, though another
    person's socket following it on the same node is."""
    a, b = pair.a, pair.b
    leaving = await sign_in(a.url, unique_email("resync-leaving"))
    staying = await sign_in(a.url, unique_email("resync-staying"))
    async with AsyncExitStack() as stack:
        booker = await stack.enter_async_context(person(b.url))
        slot = (await free_slots(booker.sock, days=28))[3]
        month = f"vacancies/demo-clinic/cancer-b2b/{clinic_day(slot['start']).isoformat()[:7]}"
        gone = await stack.enter_async_context(follower(a.url, leaving.token))
        kept = await stack.enter_async_context(follower(a.url, staying.token))
        await gone.follow(month)
        await kept.follow(month)
        pair.redis.stop()
        try:
            async with httpx.AsyncClient(base_url=b.url) as http:
                bearer = {"Authorization": f"Bearer {leaving.token}"}
                assert (await http.post("/auth/sign-out", headers=bearer)).status_code == 200
            await hold(booker, slot, slot["counselorIds"][0])
            await asyncio.sleep(REDIS_DOWN_SECONDS)
        finally:
            await asyncio.to_thread(start_redis, pair.redis)
        await holds_version(
            kept, a.url, staying.token, month, time.monotonic() + LIVE_WITHIN_SECONDS
        )
        assert kept.newest(month)["version"] > kept.answers[month]["version"]
        await asyncio.sleep(1)  # B's resync notice, and A's pass after it
        assert gone.sock.pushes.get(month, []) == []
