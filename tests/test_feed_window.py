"""The bookings window `clinics/{clinicId}/bookings/{from}/{to}` and the counselors' filtered
staff documents (docs/protocol.md, "The bookings window"): on both databases, through real
servers and sockets."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.booking import Person, free_slots, person, run_job
from tests.support.clients import Account, Socket, connect, sign_in
from tests.test_staff_audit import other_staff  # noqa: F401  (a fixture)
from tests.test_staff_signin import dev_session

CLINIC = "demo-clinic"
ZONE = ZoneInfo("Asia/Tokyo")
SATO = "sato@demo-clinic.example"
FEED = f"clinics/{CLINIC}/bookings"
PRESENCE = f"clinics/{CLINIC}/presence"


def clinic_day(start: str) -> date:
    return datetime.fromisoformat(start.replace("Z", "+00:00")).astimezone(ZONE).date()


def window(first: date, last: date) -> str:
    return f"{FEED}/{first.isoformat()}/{last.isoformat()}"


def today() -> date:
    return datetime.now(ZONE).date()


def status_of(reply: dict[str, Any]) -> str:
    return str(reply["error"]["status"]) if "error" in reply else "OK"


@dataclass
class Board:
    """A staff socket following one window, applying its pushes as the protocol says."""

    sock: Socket
    path: str
    bookings: dict[str, dict[str, Any]] = field(default_factory=dict)
    days: dict[str, int] = field(default_factory=dict)
    pushes: list[dict[str, Any]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def on_changes(self, push: dict[str, Any]) -> None:
        self.pushes.append(push)
        self.arrived.set()

    async def follow(self) -> dict[str, Any]:
        reply = await self.sock.subscribe(self.path)
        assert "snapshot" in reply, reply
        data = reply["snapshot"]["data"]
        self.bookings = {b["appointmentId"]: b for b in data["bookings"]}
        self.days = dict(data["days"])
        return dict(reply["snapshot"])

    def apply(self) -> None:
        """Apply every push received so far, in order: a version at or below the one held
        for its day is in the snapshot already; a gap would be a missed push."""
        for push in self.pushes:
            day = push["day"]
            if day not in self.days or push["version"] <= self.days[day]:
                continue
            assert push["version"] == self.days[day] + 1, ("gap", push, self.days[day])
            self.days[day] = push["version"]
            for change in push["changes"]:
                if change["type"] == "removed":
                    held = self.bookings.get(change["appointmentId"])
                    if held is not None and held["date"] == day:  # not re-added elsewhere
                        del self.bookings[change["appointmentId"]]
                else:
                    self.bookings[change["appointmentId"]] = change["doc"]
        self.pushes.clear()

    async def wait_for_day(self, day: str, version: int, timeout: float = 10) -> None:
        async with asyncio.timeout(timeout):
            while not any(p["day"] == day and p["version"] >= version for p in self.pushes):
                self.arrived.clear()
                await self.arrived.wait()


@asynccontextmanager
async def board(base_url: str, token: str, path: str) -> AsyncIterator[Board]:
    async with connect(base_url, token) as sock:
        followed = Board(sock, path)
        sock.client.on("changes", followed.on_changes)
        yield followed


async def catch_up(base_url: str, token: str, followed: Board) -> dict[str, dict[str, Any]]:
    """A fresh snapshot of the same window; the followed board waits for the pushes that
    bring each of its days to the fresh versions, applies them, and must then be equal."""
    async with connect(base_url, token) as sock:
        fresh = (await sock.subscribe(followed.path))["snapshot"]["data"]
    for day, version in fresh["days"].items():
        if version > followed.days[day]:
            await followed.wait_for_day(day, version)
    followed.apply()
    assert followed.days == fresh["days"]
    return {b["appointmentId"]: b for b in fresh["bookings"]}


async def slot_of(sock: Socket, counselor: str, *, not_days: set[date]) -> dict[str, Any]:
    """A free slot of `counselor` on a day not in `not_days`."""
    for slot in await free_slots(sock, days=28):
        if counselor in slot["counselorIds"] and clinic_day(slot["start"]) not in not_days:
            return slot
    raise AssertionError(f"no free slot of {counselor}")


async def hold(someone: Person, slot: dict[str, Any], counselor: str) -> None:
    reply = await someone.hold(slot["start"], counselor)
    assert "data" in reply, reply


async def submit(someone: Person) -> None:
    reply = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert reply == {"data": {"status": "confirmed"}}, reply


async def test_a_counselor_reads_only_their_own_bookings(base_url: str, staff: Account) -> None:
    sato = await sign_in(base_url, SATO)
    days = window(today(), today() + timedelta(days=30))
    async with AsyncExitStack() as stack:
        mine = await stack.enter_async_context(person(base_url))
        theirs = await stack.enter_async_context(person(base_url))
        other = await stack.enter_async_context(person(base_url))
        await hold(mine, await slot_of(mine.sock, "c-sato", not_days=set()), "c-sato")
        await hold(theirs, await slot_of(theirs.sock, "c-tanaka", not_days=set()), "c-tanaka")
        desk = await stack.enter_async_context(board(base_url, sato.token, days))
        admin = await stack.enter_async_context(board(base_url, staff.token, days))
        await desk.follow()
        await admin.follow()
        assert mine.appointment_id in desk.bookings and mine.appointment_id in admin.bookings
        assert theirs.appointment_id not in desk.bookings
        assert theirs.appointment_id in admin.bookings
        assert {b["counselorId"] for b in desk.bookings.values()} == {"c-sato"}
        # The v1 feed and presence: filtered too, their pushes as well.
        for path in (FEED, PRESENCE):
            reply = await desk.sock.subscribe(path)
            assert "snapshot" in reply, reply
        feed = (await desk.sock.subscribe(FEED))["snapshot"]["data"]["bookings"]
        assert mine.appointment_id in {b["appointmentId"] for b in feed}
        assert {b["counselorId"] for b in feed} == {"c-sato"}
        # Online now (sockets opened once they have an appointment): Sato sees only hers.
        await stack.enter_async_context(connect(base_url, mine.token))
        await stack.enter_async_context(connect(base_url, theirs.token))
        online = (await desk.sock.subscribe(PRESENCE))["snapshot"]["data"]["online"]
        assert mine.appointment_id in {e["appointmentId"] for e in online}
        assert theirs.appointment_id not in {e["appointmentId"] for e in online}
        admin_online = (await admin.sock.subscribe(PRESENCE))["snapshot"]["data"]["online"]
        assert {mine.appointment_id, theirs.appointment_id} <= {
            e["appointmentId"] for e in admin_online
        }
        assert all(set(e) == {"appointmentId", "step", "since", "lastSeen"} for e in online)
        # Tanaka's booking changes, then Sato's: Sato's socket hears only of the second.
        await hold_with(other, "c-tanaka")
        feed_version = max(desk.sock.versions(FEED), default=0)
        await hold(mine, await slot_of(mine.sock, "c-sato", not_days=set()), "c-sato")
        sato_day = await wait_for_own_push(desk, mine.appointment_id)
        assert sato_day
        await desk.sock.wait_for_version(FEED, feed_version + 1)
    everything = [c for p in desk.pushes for c in p["changes"]]
    assert all(p["counselorId"] == "c-sato" for p in desk.pushes)
    assert all(
        c.get("doc", {"counselorId": "c-sato"})["counselorId"] == "c-sato" for c in everything
    )
    for snapshot in desk.sock.pushes.get(FEED, []):
        assert {b["counselorId"] for b in snapshot["data"]["bookings"]} <= {"c-sato"}
    for snapshot in desk.sock.pushes.get(PRESENCE, []):
        assert theirs.appointment_id not in {e["appointmentId"] for e in snapshot["data"]["online"]}
    assert other.appointment_id in {c["appointmentId"] for p in admin.pushes for c in p["changes"]}
    assert other.appointment_id not in {c["appointmentId"] for c in everything}


async def hold_with(someone: Person, counselor: str) -> None:
    await hold(someone, await slot_of(someone.sock, counselor, not_days=set()), counselor)


async def wait_for_own_push(desk: Board, appointment_id: str, timeout: float = 10) -> str:
    async with asyncio.timeout(timeout):
        while True:
            for push in desk.pushes:
                if any(c["appointmentId"] == appointment_id for c in push["changes"]):
                    return str(push["day"])
            desk.arrived.clear()
            await desk.arrived.wait()


async def test_who_may_follow_the_window(
    base_url: str,
    staff: Account,
    other_staff: Account,  # noqa: F811
) -> None:
    path = window(today(), today() + timedelta(days=6))
    client = await sign_in(base_url, "window-client@example.com")
    limited = await dev_session(base_url, SATO, second_factor=False)
    async with connect(base_url, client.token) as sock:
        for refused in (path, FEED, PRESENCE, f"{FEED}/nonsense/2026-01-01"):
            assert status_of(await sock.subscribe(refused)) == "PERMISSION_DENIED", refused
    async with connect(base_url, other_staff.token) as sock:
        assert status_of(await sock.subscribe(path)) == "PERMISSION_DENIED"
    async with connect(base_url, limited.token) as sock:
        reply = await sock.subscribe(path)
        assert status_of(reply) == "UNAUTHENTICATED"
        assert reply["error"]["details"] == {"secondFactor": "required"}
    # Staff of the clinic: a window of at most 62 real days, from before to after.
    async with connect(base_url, staff.token) as sock:
        start = today()
        bad = [
            window(start, start + timedelta(days=62)),
            window(start, start - timedelta(days=1)),
            f"{FEED}/2026-02-30/2026-03-01",
            f"{FEED}/26-01-01/2026-03-01",
            f"{FEED}/1899-12-31/1900-01-01",
        ]
        for path_of in bad:
            reply = await sock.subscribe(path_of)
            assert status_of(reply) == "INVALID_ARGUMENT", (path_of, reply)
        ok = await sock.subscribe(window(start, start + timedelta(days=61)))
        assert ok["snapshot"]["exists"] is True
        assert len(ok["snapshot"]["data"]["days"]) == 62
        assert (await sock.request("unsubscribe", {"path": path})) == {"ok": True}


async def test_pushed_changes_applied_in_order_equal_a_fresh_snapshot(
    base_url: str, staff: Account
) -> None:
    sato = await sign_in(base_url, SATO)
    days = window(today(), today() + timedelta(days=30))
    async with AsyncExitStack() as stack:
        admin = await stack.enter_async_context(board(base_url, staff.token, days))
        desk = await stack.enter_async_context(board(base_url, sato.token, days))
        await admin.follow()
        await desk.follow()
        a = await stack.enter_async_context(person(base_url, complete=True))
        b = await stack.enter_async_context(person(base_url, complete=True))
        c = await stack.enter_async_context(person(base_url, complete=True))
        d = await stack.enter_async_context(person(base_url))
        first = await slot_of(a.sock, "c-sato", not_days=set())
        await hold(a, first, "c-sato")
        # A held time moved to another day and counselor, then back to Sato on a third day.
        await hold(
            a, await slot_of(a.sock, "c-tanaka", not_days={clinic_day(first["start"])}), "c-tanaka"
        )
        await hold(
            a, await slot_of(a.sock, "c-sato", not_days={clinic_day(first["start"])}), "c-sato"
        )
        await submit(a)
        await hold(b, await slot_of(b.sock, "c-sato", not_days=set()), "c-sato")
        await submit(b)
        await hold(c, await slot_of(c.sock, "c-tanaka", not_days=set()), "c-tanaka")
        await hold(d, await slot_of(d.sock, "c-sato", not_days=set()), "c-sato")
        # Cancelled by the clinic, cancelled by the person, and a hold that lapses.
        cancel = {"appointmentId": b.appointment_id, "reason": "Closed that day", "byClinic": True}
        assert "data" in await admin.sock.call("appointment-cancel", cancel)
        own = {"appointmentId": c.appointment_id, "reason": "other"}
        assert "data" in await c.call("appointment-cancel", own)
        later = datetime.now(UTC) + timedelta(hours=2)
        assert await run_job(base_url, "expire-holds", later) >= 1
        expected = await catch_up(base_url, staff.token, admin)
        assert admin.bookings == expected
        assert a.appointment_id in expected and b.appointment_id in expected
        assert expected[b.appointment_id]["status"] == "cancelled"
        assert expected[c.appointment_id]["status"] == "cancelled"
        assert d.appointment_id not in expected  # its hold lapsed: no time any more
        mine = await catch_up(base_url, sato.token, desk)
        assert desk.bookings == mine
        assert {x["counselorId"] for x in mine.values()} <= {"c-sato"}
        assert c.appointment_id not in mine and a.appointment_id in mine
    # Only changes were pushed: no push carried the whole list.
    kinds = {ch["type"] for p in admin.pushes for ch in p["changes"]}
    assert kinds <= {"added", "modified", "removed"}


async def test_a_change_outside_the_window_pushes_nothing_to_it(
    base_url: str, staff: Account
) -> None:
    async with AsyncExitStack() as stack:
        someone = await stack.enter_async_context(person(base_url))
        marker = await stack.enter_async_context(person(base_url))
        slots = await free_slots(someone.sock, days=28)
        held = slots[0]
        held_day = clinic_day(held["start"])
        elsewhere = next(s for s in slots if clinic_day(s["start"]) > held_day + timedelta(days=1))
        far = clinic_day(elsewhere["start"])
        watcher = await stack.enter_async_context(board(base_url, staff.token, window(far, far)))
        await watcher.follow()
        await hold(someone, held, held["counselorIds"][0])
        # A change inside the window afterwards: the first and only push the watcher gets.
        await hold(marker, elsewhere, elsewhere["counselorIds"][0])
        await wait_for_own_push(watcher, marker.appointment_id)
    assert all(p["day"] == far.isoformat() for p in watcher.pushes)
    seen = {c["appointmentId"] for p in watcher.pushes for c in p["changes"]}
    assert someone.appointment_id not in seen and marker.appointment_id in seen


async def test_unsubscribing_a_window_keeps_the_days_another_window_covers(
    base_url: str, staff: Account
) -> None:
    async with AsyncExitStack() as stack:
        someone = await stack.enter_async_context(person(base_url))
        marker = await stack.enter_async_context(person(base_url))
        slots = await free_slots(someone.sock, days=28)
        # The first day with two free times (other tests on the shared server change
        # schedules and hold times: a day may have one).
        by_day: dict[str, list[dict[str, Any]]] = {}
        for slot in slots:
            by_day.setdefault(slot["start"][:10], []).append(slot)
        first, second = next(times[:2] for times in by_day.values() if len(times) >= 2)
        day = clinic_day(first["start"])
        later = next(s for s in slots if clinic_day(s["start"]) > day + timedelta(days=1))
        desk = await stack.enter_async_context(board(base_url, staff.token, window(day, day)))
        await desk.follow()
        wider = window(day - timedelta(days=1), day)
        assert "snapshot" in await desk.sock.subscribe(wider)
        assert await desk.sock.request("unsubscribe", {"path": desk.path}) == {"ok": True}
        await hold(someone, first, first["counselorIds"][0])
        assert await wait_for_own_push(desk, someone.appointment_id) == day.isoformat()
        assert await desk.sock.request("unsubscribe", {"path": wider}) == {"ok": True}
        desk.pushes.clear()
        far = clinic_day(later["start"])
        assert "snapshot" in await desk.sock.subscribe(window(far, far))
        await hold(someone, second, second["counselorIds"][0])  # on `day`: nobody follows it
        await hold(marker, later, later["counselorIds"][0])
        await wait_for_own_push(desk, marker.appointment_id)
    assert {p["day"] for p in desk.pushes} == {far.isoformat()}
