"""The waitlist (realtime/booking/waitlist.py): joining and leaving, offers in order, held for
the first in line, passing on when not taken; on both databases.

Every test leaves the line at its end (`waiting`): the server and its clinic are shared by
the whole session, and a forgotten entry would take the next test's freed times.
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.booking import Person, free_slots, person, run_job
from tests.support.clients import call_http, outbox

TOKYO = ZoneInfo("Asia/Tokyo")


def status_of(reply: dict[str, Any]) -> str:
    return str(reply["error"]["status"]) if "error" in reply else "OK"


def day_of(slot: dict[str, Any]) -> date:
    return datetime.fromisoformat(slot["start"]).date()  # written in the clinic's zone


def later_slots(slots: list[dict[str, Any]], days: int) -> list[dict[str, Any]]:
    """Slots at least `days` ahead (past the minimum notice even with the clock moved on)."""
    after = datetime.now(UTC) + timedelta(days=days)
    return [s for s in slots if datetime.fromisoformat(s["start"]) > after]


def two_slots_of_one_day(
    slots: list[dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The first and last free slot of the first counselor and day with three or more: the
    first slot ahead may be a counselor's last of its day (it depends on the hour the suite
    runs), and two neighbours could be refused by the buffer between appointments."""
    by_day: dict[tuple[str, date], list[dict[str, Any]]] = {}
    for slot in slots:
        for counselor in slot["counselorIds"]:
            by_day.setdefault((counselor, day_of(slot)), []).append(slot)
    (counselor, _), found = next(item for item in by_day.items() if len(item[1]) >= 3)
    return found[0], found[-1], counselor


async def join(
    someone: Person, first: date, last: date, counselor: str | None = None
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "appointmentId": someone.appointment_id,
        "from": first.isoformat(),
        "to": last.isoformat(),
    }
    if counselor is not None:
        data["counselorId"] = counselor
    return await someone.call("waitlist-join", data)


@asynccontextmanager
async def waiting(
    someone: Person, first: date, last: date, counselor: str | None = None
) -> AsyncIterator[dict[str, Any]]:
    reply = await join(someone, first, last, counselor)
    assert "data" in reply, reply
    try:
        yield reply["data"]["waitlist"]
    finally:
        await someone.call("waitlist-leave", {"appointmentId": someone.appointment_id})


async def pushed_waitlist(someone: Person, status: str) -> dict[str, Any]:
    """The appointment's `waitlist` once a push shows it with `status` (subscribed before)."""
    async with asyncio.timeout(10):
        while True:
            for push in reversed(someone.sock.pushes.get(someone.path, [])):
                found = (push["data"] or {}).get("waitlist")
                if found and found["status"] == status:
                    return dict(found)
            someone.sock._arrived.clear()
            await someone.sock._arrived.wait()


def vacancies_path(service_id: str, month: str) -> str:
    return f"vacancies/demo-clinic/{service_id}/{month}"


def is_free(pushed: dict[str, Any], slot: dict[str, Any], counselor: str) -> bool:
    """Does a month document's snapshot (or a subscription's reply) show the slot free with
    the counselor?"""
    data = (pushed.get("snapshot") or pushed)["data"]
    return any(
        s["start"] == slot["start"] and counselor in s["counselorIds"] for s in data["slots"]
    )


async def frees(base_url: str, slot: dict[str, Any], counselor: str) -> None:
    """Someone holds the time and cancels: the time frees."""
    async with person(base_url) as holder:
        assert status_of(await holder.hold(slot["start"], counselor)) == "OK"
        reply = await holder.call(
            "appointment-cancel", {"appointmentId": holder.appointment_id, "reason": "都合"}
        )
        assert reply == {"data": {"status": "cancelled", "refund": None}}, reply


# A bound on the runs, far above what a test session leaves (each run takes up to 500).
MAX_EXPIRE_RUNS = 200


async def expire_holds_until(
    base_url: str, clock: datetime, done: Callable[[], Awaitable[bool]]
) -> None:
    """Run expire-holds at `clock` until `done`: the session's shared server may hold many
    more lapsed holds than one run takes (realtime/jobs.py BATCH: every hold earlier tests
    left has lapsed by a clock two hours ahead). Fails once a run expires nothing more."""
    counts: list[int] = []
    for _ in range(MAX_EXPIRE_RUNS):
        counts.append(await run_job(base_url, "expire-holds", clock))
        if await done():
            return
        if counts[-1] == 0:
            break
    raise AssertionError(f"expire-holds never reached the hold (runs expired {counts})")


async def expire_every_hold(base_url: str) -> None:
    """End every hold earlier tests left on the shared server (a day ahead, all have ended),
    before people join the line: a leftover hold of the same counselor and day, expiring at a
    test's clock, would otherwise hand its time to the test's first in line."""
    clock = datetime.now(UTC) + timedelta(days=1)
    for _ in range(MAX_EXPIRE_RUNS):
        if await run_job(base_url, "expire-holds", clock) == 0:
            return
    raise AssertionError("expire-holds never ran out of ended holds")


async def test_join_and_leave_and_their_refusals(base_url: str) -> None:
    today = datetime.now(TOKYO).date()
    async with person(base_url) as someone, person(base_url, complete=True) as booked:
        counselor = (await free_slots(someone.sock))[0]["counselorIds"][0]
        refusals = {
            "from": (today.replace(day=1) - timedelta(days=1), today),  # before today
            "to": (today + timedelta(days=3), today + timedelta(days=2)),  # before "from"
        }
        for field, (first, last) in refusals.items():
            reply = await join(someone, first, last)
            assert status_of(reply) == "INVALID_ARGUMENT", reply
            assert field in reply["error"]["details"]["fields"], reply
        beyond = await join(someone, today, today + timedelta(days=61))  # horizon: 60 days
        assert list(beyond["error"]["details"]["fields"]) == ["to"], beyond
        not_a_day = await someone.call(
            "waitlist-join",
            {"appointmentId": someone.appointment_id, "from": "2026-02-30", "to": "2026-03-01"},
        )
        assert list(not_a_day["error"]["details"]["fields"]) == ["from"], not_a_day
        nobody = await join(someone, today, today + timedelta(days=7), "no-such-counselor")
        assert list(nobody["error"]["details"]["fields"]) == ["counselorId"], nobody
        others = await booked.call(
            "waitlist-join",
            {"appointmentId": someone.appointment_id, "from": str(today), "to": str(today)},
        )
        assert status_of(others) == "PERMISSION_DENIED"
        signed_out = await call_http(
            base_url, "waitlist-join", {"appointmentId": someone.appointment_id}
        )
        assert signed_out[1]["error"]["status"] == "UNAUTHENTICATED"
        # Only a draft joins: a submitted (here confirmed) booking is refused with its status.
        slot = (await free_slots(booked.sock))[3]
        assert status_of(await booked.hold(slot["start"], slot["counselorIds"][0])) == "OK"
        submitted = await booked.call(
            "appointment-updateStatus",
            {"appointmentId": booked.appointment_id, "status": "submitted"},
        )
        assert "data" in submitted, submitted
        refused = await join(booked, today, today + timedelta(days=7))
        assert status_of(refused) == "ABORTED"
        assert refused["error"]["details"]["status"] == "confirmed"
        await booked.call(
            "appointment-cancel", {"appointmentId": booked.appointment_id, "reason": "test"}
        )

        first, last = today + timedelta(days=2), today + timedelta(days=9)
        async with waiting(someone, first, last, counselor) as joined:
            assert joined["status"] == "waiting" and joined["counselorId"] == counselor
            assert (joined["from"], joined["to"]) == (first.isoformat(), last.isoformat())
            again = (await join(someone, first, first))["data"]["waitlist"]
            assert again["to"] == first.isoformat() and again["counselorId"] is None
            assert again["joinedAt"] > joined["joinedAt"]  # to the back of the line
            document = await someone.document()
            assert document["waitlist"] == again
            # Nobody writes it but the server.
            written = await someone.sock.update(someone.path, {"waitlist": None})
            assert "error" in written, written
        left = await someone.document()
        assert left["waitlist"] is None


async def test_offers_go_in_order_held_pushed_and_mailed(base_url: str) -> None:
    async with AsyncExitStack() as stack:
        first_one = await stack.enter_async_context(person(base_url, complete=True))
        second = await stack.enter_async_context(person(base_url))
        other = await stack.enter_async_context(person(base_url))
        slots = later_slots(await free_slots(first_one.sock), days=3)
        slot = slots[0]
        counselor = slot["counselorIds"][0]
        day = day_of(slot)
        apart = datetime.fromisoformat(slot["start"]) + timedelta(hours=4)  # no overlap
        next_slot = next(s for s in slots if datetime.fromisoformat(s["start"]) >= apart)
        last = max(day, day_of(next_slot))
        # The first joins, the second joins, the first joins again: now second in line.
        await stack.enter_async_context(waiting(first_one, day, last))
        await stack.enter_async_context(waiting(second, day, last))
        await join(first_one, day, last)
        await first_one.document()  # subscribed: the offer is pushed
        service_id = (await second.document())["serviceId"]
        month = vacancies_path(service_id, slot["start"][:7])
        assert is_free(await other.sock.subscribe(month), slot, counselor)

        await frees(base_url, slot, counselor)
        offered = await pushed_waitlist(second, "offered")
        # The month document never showed the time free: the cancel and the offer went out
        # as one change (the holder's hold, then the offer).
        pushes = other.sock.pushes.get(month, [])
        assert pushes and not any(is_free(push, slot, counselor) for push in pushes)
        assert offered["offer"]["start"] == slot["start"]
        assert offered["offer"]["counselorId"] == counselor
        document = await second.document()
        assert (document["counselorId"], document["holdExpiresAt"]) == (
            counselor,
            offered["offer"]["until"],
        )
        until = datetime.fromisoformat(offered["offer"]["until"].replace("Z", "+00:00"))
        assert timedelta(minutes=119) < until - datetime.now(UTC) <= timedelta(minutes=120)
        # Held: nobody else sees it free or can hold it.
        still_free = [
            s
            for s in await free_slots(other.sock)
            if s["start"] == slot["start"] and counselor in s["counselorIds"]
        ]
        assert still_free == []
        assert status_of(await other.hold(slot["start"], counselor)) == "ABORTED"
        assert (await first_one.document())["waitlist"]["status"] == "waiting"
        mails = await outbox(base_url, second.email)
        assert any(
            "/b/review" in m["text"] and ("空き" in m["subject"] or "held" in m["subject"])
            for m in mails
        ), mails

        # The next freed time goes to the next in line; the second, offered, is passed over.
        next_counselor = next_slot["counselorIds"][0]
        await frees(base_url, next_slot, next_counselor)
        taken = await pushed_waitlist(first_one, "offered")
        assert taken["offer"]["start"] == next_slot["start"]
        # Submitting the booking accepts the offer.
        reply = await first_one.call(
            "appointment-updateStatus",
            {"appointmentId": first_one.appointment_id, "status": "submitted"},
        )
        assert "data" in reply, reply
        accepted = await first_one.document()
        assert accepted["status"] == "confirmed"
        assert accepted["waitlist"]["status"] == "accepted"


async def test_an_offer_not_taken_passes_on_and_leaving_passes_it_too(base_url: str) -> None:
    await expire_every_hold(base_url)
    async with AsyncExitStack() as stack:
        first_one = await stack.enter_async_context(person(base_url))
        second = await stack.enter_async_context(person(base_url))
        third = await stack.enter_async_context(person(base_url))
        slot = later_slots(await free_slots(first_one.sock), days=4)[0]
        counselor, day = slot["counselorIds"][0], day_of(slot)
        for someone in (first_one, second, third):
            await stack.enter_async_context(waiting(someone, day, day, counselor))
            await someone.document()
        await frees(base_url, slot, counselor)
        offered = await pushed_waitlist(first_one, "offered")
        until = datetime.fromisoformat(offered["offer"]["until"].replace("Z", "+00:00"))

        async def first_lapsed() -> bool:
            return bool((await first_one.document())["waitlist"]["status"] == "lapsed")

        await expire_holds_until(base_url, until + timedelta(minutes=1), first_lapsed)
        lapsed = await pushed_waitlist(first_one, "lapsed")
        assert lapsed["offer"] is None
        assert (await first_one.document())["counselorId"] is None
        passed = await pushed_waitlist(second, "offered")
        assert passed["offer"]["start"] == slot["start"]
        # Declining (leaving) passes it to the third.
        await second.call("waitlist-leave", {"appointmentId": second.appointment_id})
        assert (await second.document())["holdExpiresAt"] is None
        declined_to = await pushed_waitlist(third, "offered")
        assert declined_to["offer"]["start"] == slot["start"]
        # The third chooses another time instead and lets it go: they are out of the line.
        other_slot = later_slots(await free_slots(third.sock), days=5)[0]
        assert (
            status_of(await third.hold(other_slot["start"], other_slot["counselorIds"][0])) == "OK"
        )

        async def third_out() -> bool:
            return (await third.document())["waitlist"] is None

        await expire_holds_until(base_url, datetime.now(UTC) + timedelta(minutes=11), third_out)


async def test_no_offer_outside_the_days_or_for_another_counselor(base_url: str) -> None:
    async with AsyncExitStack() as stack:
        elsewhere = await stack.enter_async_context(person(base_url))
        someone_else = await stack.enter_async_context(person(base_url))
        other = await stack.enter_async_context(person(base_url))
        slots = later_slots(await free_slots(elsewhere.sock), days=3)
        slot = slots[0]
        counselor, day = slot["counselorIds"][0], day_of(slot)
        another = next(c for s in slots for c in s["counselorIds"] if c != counselor)
        later = day + timedelta(days=1)
        await stack.enter_async_context(waiting(elsewhere, later, later + timedelta(days=2)))
        await stack.enter_async_context(waiting(someone_else, day, day, another))
        await frees(base_url, slot, counselor)
        for waiter in (elsewhere, someone_else):
            assert (await waiter.document())["waitlist"]["status"] == "waiting"
        assert status_of(await other.hold(slot["start"], counselor)) == "OK"


async def test_a_time_left_by_a_reschedule_goes_to_the_first_in_line(base_url: str) -> None:
    """A booked person moves to another time: the time they leave is held for the first one
    waiting, in the move's own transaction (realtime/booking/reschedule.py)."""
    async with AsyncExitStack() as stack:
        mover = await stack.enter_async_context(person(base_url, complete=True))
        waiter = await stack.enter_async_context(person(base_url))
        slots = later_slots(await free_slots(mover.sock), days=3)
        slot = slots[0]
        counselor = slot["counselorIds"][0]
        apart = datetime.fromisoformat(slot["start"]) + timedelta(hours=4)
        target = next(s for s in slots if datetime.fromisoformat(s["start"]) >= apart)
        assert status_of(await mover.hold(slot["start"], counselor)) == "OK"
        submitted = await mover.call(
            "appointment-updateStatus",
            {"appointmentId": mover.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "confirmed"}}, submitted
        await stack.enter_async_context(waiting(waiter, day_of(slot), day_of(slot), counselor))
        await waiter.document()  # subscribed: the offer is pushed

        moved = await mover.call(
            "appointment-reschedule",
            {
                "appointmentId": mover.appointment_id,
                "start": target["start"],
                "counselorId": target["counselorIds"][0],
            },
        )
        assert moved["data"]["moved"] is True, moved
        offered = await pushed_waitlist(waiter, "offered")
        assert (offered["offer"]["start"], offered["offer"]["counselorId"]) == (
            slot["start"],
            counselor,
        )
        assert (await mover.document())["time"] == target["start"][11:16]


async def test_a_hold_released_by_an_offer_still_ends_for_its_appointment(base_url: str) -> None:
    """Two holds of one counselor on one day end; the first that expire-holds reaches frees
    its time for the one waiting, and that offer's hold releases the counselor's other ended
    hold at once (storage/repo_booking.py `release_before_hold`). Its appointment must still
    lose its time, as one expiring on its own does (it kept the time for ever before)."""
    await expire_every_hold(base_url)
    async with AsyncExitStack() as stack:
        one = await stack.enter_async_context(person(base_url))
        two = await stack.enter_async_context(person(base_url))
        waiter = await stack.enter_async_context(person(base_url))
        slot, other, counselor = two_slots_of_one_day(
            later_slots(await free_slots(one.sock), days=4)
        )
        day = day_of(slot)
        assert status_of(await one.hold(slot["start"], counselor)) == "OK"
        assert status_of(await two.hold(other["start"], counselor)) == "OK"
        await stack.enter_async_context(waiting(waiter, day, day, counselor))
        clock = datetime.now(UTC) + timedelta(minutes=11)  # both holds (10 minutes) ended

        async def both_ended() -> bool:
            documents = [await someone.document() for someone in (one, two)]
            return all(document["holdExpiresAt"] is None for document in documents)

        await expire_holds_until(base_url, clock, both_ended)
        for someone in (one, two):
            document = await someone.document()
            assert document["counselorId"] is None and document["date"] is None, document
        offered = (await waiter.document())["waitlist"]
        assert offered["status"] == "offered"
        assert offered["offer"]["start"] in {slot["start"], other["start"]}
