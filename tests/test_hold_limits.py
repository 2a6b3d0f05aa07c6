"""Holds do not last forever (docs/protocol.md "Booking", realtime/booking/holds.py rule 5):
a booking attempt holds for at most HOLD_TOTAL_MINUTES in all, renewals and moves included,
an open checkout apart; a hold needs consent; holds are rate-limited per user and per IP.
On SQLite and on PostgreSQL + Redis.

Time is moved by back-dating the appointment's claims in the database (as if its first hold
had been placed minutes ago), so that no test waits for the clock.
"""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from storage.db import open_database
from storage.models import Appointment, SlotClaim
from storage.types import iso
from tests.conftest import BACKENDS
from tests.support.booking import Person, free_slots, give_consent, person, run_job
from tests.support.databases import REDIS_URL, redis_namespace
from tests.support.server import ServerProcess

COOLOFF = timedelta(minutes=30)  # HOLD_COOLOFF_MINUTES, the default


def when(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def backdate(
    server: ServerProcess, someone: Person, by: timedelta, *, expiries: bool = False
) -> None:
    """Move the creation of every claim of the appointment `by` into the past: its booking
    attempt began that much earlier. Its holds' expiries stay as they are (a live hold stays
    live), unless `expiries`: then the whole history moves back."""
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            claims = await session.exec(
                select(SlotClaim).where(SlotClaim.appointment_id == someone.appointment_id)
            )
            for claim in claims.all():
                claim.created -= by
                if expiries and claim.expires_at is not None:
                    claim.expires_at -= by
    finally:
        await db.close()


def hold_limit(reply: dict[str, Any]) -> datetime:
    """The refusal of a hold past the cap; when a new attempt may start."""
    assert reply["error"]["status"] == "ABORTED", reply
    details = reply["error"]["details"]
    assert details["reason"] == "holdLimit", details
    assert "hold" in reply["error"]["message"]
    return when(details["retryAfter"])


async def two_slots(someone: Person) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two free times on different days (they cannot overlap), late in the range."""
    by_day: dict[str, dict[str, Any]] = {}
    for slot in reversed(await free_slots(someone.sock)):
        by_day.setdefault(slot["start"][:10], slot)
    late = list(by_day.values())
    return late[1], late[3]


async def test_a_hold_renewed_again_and_again_stays_held(server: ServerProcess) -> None:
    """As the review renews it (every few minutes): each renewal is held, not refused as
    taken by the person's own earlier hold (the month cache compares claims by value)."""
    async with person(server.url) as someone:
        slot, _ = await two_slots(someone)
        replies = [await someone.hold(slot["start"], slot["counselorIds"][0]) for _ in range(5)]
        assert all("data" in reply for reply in replies), replies
        expiries = [when(reply["data"]["holdExpiresAt"]) for reply in replies]
        assert expiries == sorted(expiries)


async def test_renewing_past_the_cap_is_refused(server: ServerProcess) -> None:
    async with person(server.url) as someone:
        slot, _ = await two_slots(someone)
        start, counselor = slot["start"], slot["counselorIds"][0]
        first = await someone.hold(start, counselor)
        assert "data" in first, first
        # 15 minutes into the attempt a renewal still gets the full HOLD_MINUTES.
        await backdate(server, someone, timedelta(minutes=15))
        renewed = when((await someone.hold(start, counselor))["data"]["holdExpiresAt"])
        assert timedelta(minutes=9) < renewed - datetime.now(UTC) <= timedelta(minutes=10)
        # 25 minutes in, a renewal would end earlier than the hold it renews: refused, and
        # the hold keeps its expiry (nothing of it is lost).
        await backdate(server, someone, timedelta(minutes=10))
        refused = await someone.hold(start, counselor)
        retry_after = hold_limit(refused)
        assert retry_after >= renewed + COOLOFF - timedelta(seconds=1)
        document = await someone.document()
        assert document["holdExpiresAt"] is not None
        assert when(document["holdExpiresAt"]) == renewed
        assert document["counselorId"] == counselor


async def test_a_hold_says_how_far_its_renewals_may_go(server: ServerProcess) -> None:
    """The reply names the attempt's end (what the review's countdown shows: renewals never
    go past it) and the server's clock; the end stays put while the hold is renewed."""
    async with person(server.url) as someone:
        slot, _ = await two_slots(someone)
        start, counselor = slot["start"], slot["counselorIds"][0]
        first = (await someone.hold(start, counselor))["data"]
        ends_by = when(first["holdEndsBy"])
        server_time = when(first["serverTime"])
        assert abs(server_time - datetime.now(UTC)) < timedelta(seconds=5)
        assert ends_by - server_time == timedelta(minutes=30)  # HOLD_TOTAL_MINUTES
        assert when(first["holdExpiresAt"]) <= ends_by
        renewed = (await someone.hold(start, counselor))["data"]
        assert when(renewed["holdEndsBy"]) == ends_by
        assert when(renewed["holdExpiresAt"]) > when(first["holdExpiresAt"])


async def test_moving_to_another_time_does_not_reset_the_cap(server: ServerProcess) -> None:
    async with person(server.url) as someone:
        a, b = await two_slots(someone)
        assert "data" in await someone.hold(a["start"], a["counselorIds"][0])
        await backdate(server, someone, timedelta(minutes=25))
        # The move is held, but only until the attempt's 30 minutes are over.
        moved = await someone.hold(b["start"], b["counselorIds"][0])
        until = when(moved["data"]["holdExpiresAt"]) - datetime.now(UTC)
        assert timedelta(minutes=4) < until <= timedelta(minutes=5), until
        # Past the 30 minutes no move or renewal is held; the moved hold stays where it is.
        await backdate(server, someone, timedelta(minutes=6))
        hold_limit(await someone.hold(a["start"], a["counselorIds"][0]))
        hold_limit(await someone.hold(b["start"], b["counselorIds"][0]))
        document = await someone.document()
        assert document["counselorId"] == b["counselorIds"][0]
        assert document["time"] == b["start"][11:16]


async def test_the_cap_ends_with_the_cool_off(server: ServerProcess) -> None:
    """An attempt ends once nothing was held for HOLD_COOLOFF_MINUTES: then a hold is whole."""
    async with person(server.url) as someone:
        slot, _ = await two_slots(someone)
        start, counselor = slot["start"], slot["counselorIds"][0]
        held = when((await someone.hold(start, counselor))["data"]["holdExpiresAt"])
        # The hold lapsed (the job released it) 25 minutes ago: still within the cool-off.
        assert await run_job(server.url, "expire-holds", held + timedelta(seconds=1)) >= 1
        await backdate(server, someone, timedelta(minutes=35), expiries=True)
        retry_after = hold_limit(await someone.hold(start, counselor))
        assert retry_after == held - timedelta(minutes=35) + COOLOFF
        # 31 minutes after it lapsed, a hold starts a new attempt.
        await backdate(server, someone, timedelta(minutes=6), expiries=True)
        again = await someone.hold(start, counselor)
        until = when(again["data"]["holdExpiresAt"]) - datetime.now(UTC)
        assert timedelta(minutes=9) < until <= timedelta(minutes=10)


async def test_a_hold_needs_consent(server: ServerProcess) -> None:
    async with person(server.url, consent=False) as someone:
        slot, _ = await two_slots(someone)
        refused = await someone.hold(slot["start"], slot["counselorIds"][0])
        error = refused["error"]
        assert error["status"] == "INVALID_ARGUMENT", refused
        assert error["details"]["codes"] == {"consent": "consentRequired"}
        assert "consent" in error["details"]["fields"]
        document = await someone.document()
        assert document["counselorId"] is None and document["holdExpiresAt"] is None
        await give_consent(someone, "cancer")
        assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])


async def test_an_open_checkout_keeps_its_slot_past_the_cap(server: ServerProcess) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        slot = (await free_slots(someone.sock, "prenatal"))[-2]
        assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
        await backdate(server, someone, timedelta(minutes=28))  # 2 minutes of the cap left
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        opened = await someone.call(
            "stripe-createCheckoutSession", {"appointmentId": someone.appointment_id}
        )
        assert "data" in opened, opened
        held_until = when((await someone.document())["holdExpiresAt"])
        assert held_until - datetime.now(UTC) > timedelta(minutes=30)
        # Well past the cap, the checkout still holds the slot.
        await run_job(server.url, "expire-holds", datetime.now(UTC) + timedelta(minutes=20))
        document = await someone.document()
        assert document["status"] == "pending_payment"
        assert document["counselorId"] == slot["counselorIds"][0]
        assert when(document["holdExpiresAt"]) == held_until


async def age_checkout(
    server: ServerProcess, someone: Person, *, opened_ago: timedelta, ends_in: timedelta
) -> None:
    """As if the pending payment's first session had opened `opened_ago`, and the current
    session ended `ends_in` from now (so that a new one is made)."""
    db = open_database(server.env["DATABASE_URL"])
    now = datetime.now(UTC)
    try:
        async with db.write() as session:
            row = await session.get(Appointment, someone.appointment_id)
            assert row is not None and row.payment is not None
            row.payment = {
                **row.payment,
                "firstOpenedAt": iso(now - opened_ago),
                "expiresAt": iso(now + ends_in),
            }
    finally:
        await db.close()


async def test_new_checkout_sessions_do_not_hold_a_slot_forever(server: ServerProcess) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        slot = (await free_slots(someone.sock, "prenatal"))[-3]
        assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        checkout = {"appointmentId": someone.appointment_id}
        first = await someone.call("stripe-createCheckoutSession", checkout)
        assert "data" in first, first
        # 80 of the 90 minutes gone: a new session holds only to the cap, not to its own end.
        await age_checkout(
            server, someone, opened_ago=timedelta(minutes=80), ends_in=timedelta(minutes=1)
        )
        second = await someone.call("stripe-createCheckoutSession", checkout)
        assert second["data"]["sessionId"] != first["data"]["sessionId"]
        held_until = when((await someone.document())["holdExpiresAt"])
        assert held_until - datetime.now(UTC) < timedelta(minutes=11)
        # At the cap, no new session: the time goes back to the calendar when the hold ends.
        await age_checkout(
            server, someone, opened_ago=timedelta(minutes=89), ends_in=timedelta(minutes=1)
        )
        refused = await someone.call("stripe-createCheckoutSession", checkout)
        assert refused["error"]["status"] == "ABORTED", refused
        assert refused["error"]["details"] == {"reason": "holdLimit"}
        assert when((await someone.document())["holdExpiresAt"]) == held_until


# Rate limits: servers of their own with small limits -----------------------------------

PER_USER, PER_IP = 3, 6


@pytest.fixture(scope="module", params=BACKENDS)
def limited(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    run = tmp_path_factory.mktemp("limited")
    env = {"HOLDS_PER_USER": str(PER_USER), "HOLDS_PER_IP": str(PER_IP)}
    if request.param == "sqlite":
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{Path(run) / 'limited.db'}"
    else:
        _, url = request.getfixturevalue("own_postgres_database")
        env |= {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "REDIS_NAMESPACE": redis_namespace()}
    server = ServerProcess(env=env, log_path=run / "limited.log").start()
    yield server
    server.stop()


async def test_holds_are_limited_per_user_and_per_ip(limited: ServerProcess) -> None:
    async with person(limited.url) as first, person(limited.url) as second:
        slot, _ = await two_slots(first)
        start, counselor = slot["start"], slot["counselorIds"][0]

        async def statuses(someone: Person, calls: int) -> list[str]:
            replies = [await someone.hold(start, counselor) for _ in range(calls)]
            return ["OK" if "data" in r else r["error"]["status"] for r in replies]

        # The first person: three holds (a hold and renewals), then too many.
        assert await statuses(first, PER_USER + 1) == ["OK"] * PER_USER + ["RESOURCE_EXHAUSTED"]
        # The second, from the same address: the address has two left (the refused call
        # counted too); the second person's own limit is not reached when it is refused.
        assert await statuses(second, 3) == ["ABORTED", "ABORTED", "RESOURCE_EXHAUSTED"]
