"""Several `web` processes on one PostgreSQL database and one Redis form one system."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio

from tests.support.booking import free_slots, person, run_job
from tests.support.clients import connect, outbox, sign_in
from tests.support.multinode import two_nodes as both_nodes
from tests.support.server import ServerProcess
from tests.test_feed_window import SATO, Board, board, catch_up, clinic_day, hold, window
from tests.test_reminders import DAY, booked, reminders
from tests.test_staff_signin import ADMIN, DEMO_SECRET, code, dev_session, post_totp
from tests.test_waitlist import day_of, expire_every_hold, later_slots, waiting


@pytest_asyncio.fixture(scope="module")
async def two_nodes(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[tuple[ServerProcess, ServerProcess]]:
    async with both_nodes(tmp_path_factory.mktemp("nodes")) as nodes:
        yield nodes


async def test_a_change_through_one_node_reaches_subscribers_on_the_other(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    person = await sign_in(a.url, "two-nodes@example.com")
    path = f"users/{person.uid}"
    async with connect(a.url, person.token) as on_a, connect(b.url, person.token) as on_b:
        start = (await on_b.subscribe(path))["snapshot"]["version"]
        await on_a.subscribe(path)
        reply = await on_a.update(path, {"locale": "en"})
        assert reply["version"] == start + 1
        await on_b.wait_for_version(path, start + 1)
        assert on_b.pushes[path][-1]["data"]["locale"] == "en"
        # And back the other way.
        await on_b.update(path, {"locale": "ja"})
        await on_a.wait_for_version(path, start + 2)
        assert on_a.pushes[path][-1]["data"]["locale"] == "ja"


async def test_racing_writers_on_two_nodes_are_seen_in_version_order(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    person = await sign_in(b.url, "two-nodes-race@example.com")
    path = f"users/{person.uid}"
    async with (
        connect(a.url, person.token) as writer_a,
        connect(b.url, person.token) as writer_b,
        connect(a.url, person.token) as watcher_a,
        connect(b.url, person.token) as watcher_b,
    ):
        start = (await watcher_a.subscribe(path))["snapshot"]["version"]
        await watcher_b.subscribe(path)
        await asyncio.gather(
            *(
                w.update(path, {"userAgent": f"{i}-{n}"})
                for n in range(10)
                for i, w in enumerate((writer_a, writer_b))
            )
        )
        final = start + 20
        for watcher in (watcher_a, watcher_b):
            await watcher.wait_for_version(path, final)
            seen = watcher.versions(path)
            assert seen == sorted(set(seen)), seen
            assert seen[-1] == final


async def test_two_processes_racing_for_one_slot_have_one_winner(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    async with AsyncExitStack() as stack:
        racers = [await stack.enter_async_context(person(node.url)) for node in (a, b) * 5]
        watcher = racers[0]
        slot = (await free_slots(watcher.sock))[4]
        counselor = slot["counselorIds"][0]
        replies = await asyncio.gather(*(r.hold(slot["start"], counselor) for r in racers))
    winners = [r for r in replies if "data" in r]
    losers = [r["error"]["status"] for r in replies if "error" in r]
    assert len(winners) == 1
    assert losers == ["ABORTED"] * 9


async def test_a_hold_on_one_node_reaches_calendars_on_the_other(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    async with person(a.url) as holder, person(b.url) as watcher:
        slot = (await free_slots(holder.sock))[12]
        doc = f"vacancies/demo-clinic/cancer-b2b/{slot['start'][:7]}"
        version = (await watcher.sock.subscribe(doc))["snapshot"]["version"]
        counselor = slot["counselorIds"][0]
        assert "data" in await holder.hold(slot["start"], counselor)
        await watcher.sock.wait_for_version(doc, version + 1)
        same = [
            s for s in watcher.sock.pushes[doc][-1]["data"]["slots"] if s["start"] == slot["start"]
        ]
        assert not same or counselor not in same[0]["counselorIds"]


async def test_each_node_answers_free_slots_changed_through_the_other(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    """Each node keeps its own month cache: a hold or a cancel through one node must show in
    the other's answers at once (it reads the month's version, raised by the first)."""
    a, b = two_nodes

    def counselors_at(slots: list[dict[str, Any]], start: str) -> list[str]:
        return next((s["counselorIds"] for s in slots if s["start"] == start), [])

    async with person(a.url) as holder, person(b.url) as reader:
        slot = (await free_slots(reader.sock))[16]  # node b has computed the months
        counselor = slot["counselorIds"][0]
        assert "data" in await holder.hold(slot["start"], counselor)
        on_b = await free_slots(reader.sock)
        assert counselor not in counselors_at(on_b, slot["start"])
        # Node a moved its cached months along with its own change; node b computed them
        # again from the database: the same answer.
        assert await free_slots(holder.sock) == on_b
        taken = await reader.hold(slot["start"], counselor)
        assert taken["error"]["status"] == "ABORTED"
        cancelled = await holder.call(
            "appointment-cancel", {"appointmentId": holder.appointment_id, "reason": "test"}
        )
        assert cancelled == {"data": {"status": "cancelled", "refund": None}}
        assert counselor in counselors_at(await free_slots(reader.sock), slot["start"])
        assert "data" in await reader.hold(slot["start"], counselor)


async def test_one_totp_code_passes_once_across_nodes(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    """The last accepted time step is the database's: one code raced on two nodes passes one
    session only (docs/protocol.md, "Staff sign-in and roles")."""
    a, b = two_nodes
    on_a = await dev_session(a.url, ADMIN, second_factor=False)
    on_b = await dev_session(b.url, ADMIN, second_factor=False)
    value = code(DEMO_SECRET)
    replies = await asyncio.gather(
        post_totp(a.url, on_a.token, value), post_totp(b.url, on_b.token, value)
    )
    assert sorted(r.status_code for r in replies) == [200, 401], [r.text for r in replies]


async def test_bookings_window_changes_reach_staff_on_the_other_node(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    """Changes made through node A reach a window followed on node B, each day stream in
    version order (no gap), and a counselor on node B gets their own bookings only."""
    a, b = two_nodes
    staff = await sign_in(b.url, ADMIN)
    sato = await sign_in(b.url, SATO)
    async with AsyncExitStack() as stack:
        someone = await stack.enter_async_context(person(a.url))
        slots = await free_slots(someone.sock, days=28)
        day = clinic_day(slots[0]["start"])
        path = window(day, day + timedelta(days=27))
        admin: Board = await stack.enter_async_context(board(b.url, staff.token, path))
        desk: Board = await stack.enter_async_context(board(b.url, sato.token, path))
        await admin.follow()
        await desk.follow()
        tanaka = next(s for s in slots if "c-tanaka" in s["counselorIds"])
        await hold(someone, tanaka, "c-tanaka")
        sato_slot = next(s for s in slots if "c-sato" in s["counselorIds"])
        await hold(someone, sato_slot, "c-sato")
        assert admin.bookings == await catch_up(b.url, staff.token, admin)
        assert someone.appointment_id in admin.bookings
        assert desk.bookings == await catch_up(b.url, sato.token, desk)
        assert desk.bookings[someone.appointment_id]["counselorId"] == "c-sato"
        assert {row["counselorId"] for row in desk.bookings.values()} == {"c-sato"}


async def test_two_nodes_running_the_job_at_once_mail_each_reminder_once(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    async with booked(a.url, ahead=(8 * DAY, 20 * DAY)) as (someone, start):
        pass
    runs = [
        run_job(node.url, "send-reminders", start - 7 * DAY) for node in (a, b) for _ in range(3)
    ]
    assert sum(await asyncio.gather(*runs)) >= 1
    assert len(await reminders(a.url, someone.email)) == 1
    # Run again with the same clock, as after a restart: nothing new.
    await asyncio.gather(*(run_job(node.url, "send-reminders", start - 7 * DAY) for node in (b, a)))
    assert len(await reminders(b.url, someone.email)) == 1


async def test_two_nodes_expiring_holds_at_once_end_each_hold_once(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    """expire-holds run by both nodes together, three times each: the hold ends once, its
    time is offered once to the one waiting, who gets one mail (each item handled once)."""
    a, b = two_nodes
    await expire_every_hold(a.url)
    async with person(a.url) as holder, person(b.url) as waiter:
        slot = later_slots(await free_slots(holder.sock), days=4)[0]
        counselor, day = slot["counselorIds"][0], day_of(slot)
        assert "data" in await holder.hold(slot["start"], counselor)
        async with waiting(waiter, day, day, counselor):
            clock = datetime.now(UTC) + timedelta(minutes=11)  # the hold (10 minutes) ended
            runs = [run_job(node.url, "expire-holds", clock) for node in (a, b) for _ in range(3)]
            assert sum(await asyncio.gather(*runs)) >= 1
            assert (await holder.document())["holdExpiresAt"] is None
            offered = (await waiter.document())["waitlist"]
            assert offered["status"] == "offered" and offered["offer"]["start"] == slot["start"]
            assert len(await outbox(b.url, waiter.email)) == 1
