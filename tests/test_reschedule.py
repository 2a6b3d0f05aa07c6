"""appointment-reschedule (docs/protocol.md, "Rescheduling"; rules in realtime/booking/
reschedule.py): on both databases, through real servers."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Calendar
from sqlalchemy import update
from sqlmodel import col

from storage.db import open_database
from storage.models import Appointment, SlotClaim
from tests.support.booking import Person, free_slots, person
from tests.support.clients import Account, call_http, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_counselor_calendar import SATO_MAIL, book_with
from tests.test_payments import checkout, provider, settled
from tests.test_staff_audit import entries_of

ZONE = ZoneInfo("Asia/Tokyo")  # the demo clinic's


def moment(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def local(value: str) -> tuple[str, str]:
    """(date, time) of a start as the appointment document shows it."""
    at = moment(value).astimezone(ZONE)
    return at.strftime("%Y-%m-%d"), at.strftime("%H:%M")


async def book(someone: Person, service: str = "cancer", index: int = 0) -> dict[str, Any]:
    slot = (await free_slots(someone.sock, service))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
    submitted = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert "data" in submitted, submitted
    return slot


async def move(someone: Person, start: str, counselor_id: str) -> dict[str, Any]:
    return await someone.call(
        "appointment-reschedule",
        {"appointmentId": someone.appointment_id, "start": start, "counselorId": counselor_id},
    )


def far_slot(slots: list[dict[str, Any]], *avoid: str) -> dict[str, Any]:
    """A free slot at least a day from every start in `avoid`."""
    return next(
        s
        for s in reversed(slots)
        if all(abs(moment(s["start"]) - moment(a)) > timedelta(days=1) for a in avoid)
    )


def invitation(mail: dict[str, Any]) -> tuple[str, str, int, datetime]:
    """(METHOD, UID, SEQUENCE, DTSTART) of a mail's .ics."""
    (ics,) = [a for a in mail["attachments"] if a["filename"].endswith(".ics")]
    calendar = Calendar.from_ical(ics["content"])
    (event,) = calendar.walk("VEVENT")
    return (
        str(calendar["METHOD"]),
        str(event["UID"]),
        int(event.decoded("SEQUENCE")),
        event.decoded("DTSTART"),
    )


async def mails_to(base_url: str, to: str, words: str, count: int = 1) -> list[dict[str, Any]]:
    """The mails to `to` whose text has `words`, oldest first (waiting for `count`)."""
    for _ in range(50):
        found = [m for m in await outbox(base_url, to) if words in m["text"]]
        if len(found) >= count:
            return list(reversed(found))
        await asyncio.sleep(0.1)
    raise AssertionError(f"no mail to {to} with {words!r}")


async def test_two_people_moving_to_one_time_one_wins_and_the_old_time_frees_once(
    base_url: str,
) -> None:
    async with (
        person(base_url, complete=True) as first,
        person(base_url, complete=True) as second,
        person(base_url) as third,
    ):
        first_slot = await book(first)
        second_slot = await book(second)
        target = far_slot(await free_slots(third.sock), first_slot["start"], second_slot["start"])
        counselor = target["counselorIds"][0]
        replies = await asyncio.gather(
            move(first, target["start"], counselor), move(second, target["start"], counselor)
        )
        won = [r for r in replies if "data" in r]
        lost = [r for r in replies if "error" in r]
        assert len(won) == 1 and len(lost) == 1, replies
        assert lost[0]["error"]["status"] == "ABORTED"
        alternatives = lost[0]["error"]["details"]["alternatives"]
        assert alternatives and all(a["start"] != target["start"] for a in alternatives)
        winner, loser = (first, second) if "data" in replies[0] else (second, first)
        freed = first_slot if winner is first else second_slot
        kept = second_slot if winner is first else first_slot
        assert won[0]["data"]["moved"] is True
        assert (won[0]["data"]["date"], won[0]["data"]["time"]) == local(target["start"])
        loser_document = await loser.document()
        assert loser_document["status"] == "confirmed"
        assert (loser_document["date"], loser_document["time"]) == local(kept["start"])
        # The winner's old time shows free exactly once in its month document ...
        month = local(freed["start"])[0][:7]
        path = f"vacancies/demo-clinic/cancer-b2b/{month}"  # "cancer" is its alias
        slots = (await third.sock.subscribe(path))["snapshot"]["data"]["slots"]
        at_freed = [s for s in slots if moment(s["start"]) == moment(freed["start"])]
        assert len(at_freed) == 1 and freed["counselorIds"][0] in at_freed[0]["counselorIds"]
        at_kept = [s for s in slots if moment(s["start"]) == moment(kept["start"])]
        assert all(kept["counselorIds"][0] not in s["counselorIds"] for s in at_kept)
        # ... and a third person can hold it.
        assert "data" in await third.hold(freed["start"], freed["counselorIds"][0])


async def test_a_paid_booking_keeps_its_payment_and_the_mails_update_the_invitation(
    server: ServerProcess,
) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        await someone.sock.update(someone.path, {"locale": "en"})
        old = await book(someone, "prenatal", 3)
        session = (await checkout(someone))["sessionId"]
        await provider(server).control("POST", f"/sessions/{session}/pay?wait=1")
        paid = await settled(someone, "paid")
        assert paid["status"] == "confirmed"
        target = far_slot(await free_slots(someone.sock, "prenatal"), old["start"])
        reply = await move(someone, target["start"], "any")
        assert "data" in reply, reply
        after = await someone.document()
        assert after["payment"] == paid["payment"]
        assert after["joinUrl"] == paid["joinUrl"]
        assert (after["status"], after["date"], after["time"]) == (
            "confirmed",
            *local(target["start"]),
        )
        # The same time again: nothing moves.
        again = await move(someone, target["start"], after["counselorId"])
        assert again["data"]["moved"] is False
        assert await someone.document() == after
    confirmed = (await mails_to(server.url, someone.email, "is confirmed"))[0]
    moved = (await mails_to(server.url, someone.email, "has been changed"))[0]
    method, uid, sequence, start = invitation(moved)
    first = invitation(confirmed)
    assert (method, uid) == ("REQUEST", first[1]) and sequence > first[2]
    assert start == moment(target["start"])
    assert "Before:" in moved["text"] and "/b/reschedule?id=" in moved["text"]
    assert f"/b/booking?id={someone.appointment_id}" in " ".join(moved["links"])


async def test_a_pending_payment_moves_with_its_checkout(server: ServerProcess) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        old = await book(someone, "prenatal", 5)
        session = (await checkout(someone))["sessionId"]
        before = await someone.document()
        assert before["status"] == "pending_payment"
        target = far_slot(await free_slots(someone.sock, "prenatal"), old["start"])
        counselor = target["counselorIds"][0]
        assert "data" in await move(someone, target["start"], counselor)
        moved = await someone.document()
        assert moved["status"] == "pending_payment"
        assert moved["holdExpiresAt"] == before["holdExpiresAt"]
        assert moved["payment"]["sessionId"] == session
        assert moment(moved["payment"]["slot"]["start"]) == moment(target["start"])
        assert moved["payment"]["slot"]["counselorId"] == counselor
        await provider(server).control("POST", f"/sessions/{session}/pay?wait=1")
        paid = await settled(someone, "paid")
        assert (paid["status"], paid["date"], paid["time"]) == (
            "confirmed",
            *local(target["start"]),
        )


async def test_a_move_is_refused_inside_the_minimum_notice(server: ServerProcess) -> None:
    async with person(server.url, complete=True) as someone:
        slot = await book(someone)
        soon = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(hours=2)
        db = open_database(server.env["DATABASE_URL"])
        try:  # the booking as it stands two hours before its start
            async with db.write() as session:
                connection = await session.connection()
                await connection.execute(
                    update(SlotClaim)
                    .where(col(SlotClaim.appointment_id) == someone.appointment_id)
                    .where(col(SlotClaim.active))
                    .values(start=soon, end=soon + timedelta(hours=1), blocked_until=soon)
                )
                date, time = soon.astimezone(ZONE).strftime("%Y-%m-%d %H:%M").split()
                await connection.execute(
                    update(Appointment)
                    .where(col(Appointment.id) == someone.appointment_id)
                    .values(date=date, time=time)
                )
        finally:
            await db.close()
        target = far_slot(await free_slots(someone.sock), slot["start"])
        reply = await move(someone, target["start"], "any")
        assert reply["error"]["status"] == "ABORTED", reply
        until = moment(reply["error"]["details"]["movableUntil"])
        assert until == soon - timedelta(hours=24)
        assert (await someone.document())["time"] == time


async def test_only_the_owner_moves_a_booked_appointment(base_url: str) -> None:
    async with person(base_url, complete=True) as someone, person(base_url) as other:
        slot = (await free_slots(someone.sock))[0]
        refused = await move(someone, slot["start"], "any")  # a draft has no booking
        assert refused["error"]["status"] == "ABORTED"
        assert refused["error"]["details"] == {"status": "draft"}
        await book(someone)
        target = far_slot(await free_slots(other.sock), slot["start"])
        stolen = await other.call(
            "appointment-reschedule",
            {
                "appointmentId": someone.appointment_id,
                "start": target["start"],
                "counselorId": "any",
            },
        )
        assert stolen["error"]["status"] == "PERMISSION_DENIED"
        # A new time inside the minimum notice or beyond the horizon is no free time.
        hour = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
        for start in (hour + timedelta(hours=2), hour + timedelta(days=90)):
            refused = await move(someone, start.isoformat(), "any")
            assert refused["error"]["status"] == "ABORTED", refused
            assert "alternatives" in refused["error"]["details"]
        assert (await someone.document())["time"] == local(slot["start"])[1]


async def test_staff_move_a_booking_audited_and_a_counselor_only_their_own(
    base_url: str, staff: Account
) -> None:
    sato = await sign_in(base_url, "sato@demo-clinic.example")
    async with person(base_url, complete=True) as someone, person(base_url, complete=True) as mine:
        slot = await book_with(someone, "c-tanaka")
        own = await book_with(mine, "c-sato")
        target = far_slot(await free_slots(someone.sock), slot["start"], own["start"])
        data = {"appointmentId": someone.appointment_id, "start": target["start"]}
        code, reply = await call_http(  # another counselor's appointment
            base_url, "appointment-reschedule", {**data, "counselorId": "any"}, sato.token
        )
        assert code == 403, reply
        code, reply = await call_http(
            base_url,
            "appointment-reschedule",
            {**data, "counselorId": target["counselorIds"][0]},
            staff.token,
        )
        assert code == 200, reply
        entries = await entries_of(base_url, staff.token, someone.appointment_id)
        assert entries[0]["action"] == "appointment.reschedule"
        assert moment(entries[0]["detail"]["to"]) == moment(target["start"])
        assert moment(entries[0]["detail"]["from"]) == moment(slot["start"])
        # A counselor moves their own appointment, but not to a colleague.
        sato_target = next(
            s
            for s in reversed(await free_slots(mine.sock))
            if "c-sato" in s["counselorIds"]
            and abs(moment(s["start"]) - moment(own["start"])) > timedelta(days=1)
        )
        colleague = {"appointmentId": mine.appointment_id, "start": sato_target["start"]}
        code, reply = await call_http(
            base_url,
            "appointment-reschedule",
            {**colleague, "counselorId": "c-tanaka"},
            sato.token,
        )
        assert code == 403, reply
        code, reply = await call_http(
            base_url, "appointment-reschedule", {**colleague, "counselorId": "any"}, sato.token
        )
        assert code == 200 and reply["data"]["counselorId"] == "c-sato", reply
    notices = await mails_to(base_url, SATO_MAIL, mine.appointment_id, 2)
    assert invitation(notices[-1])[0] == "REQUEST" and "日時が変更" in notices[-1]["text"]
