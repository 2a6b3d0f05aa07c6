"""Reminder mails (realtime/booking/reminders.py, docs/product.md "Reminders"): the job
`send-reminders` run at a set clock, on both databases (two nodes at once: test_multinode)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from realtime.booking.reminders import Lead, due_offsets, lead_of, offsets_of
from realtime.mail.when import format_span
from tests.support.booking import Person, free_slots, person, run_job
from tests.support.clients import call_http, outbox

DAY = timedelta(days=1)
TOKYO = "Asia/Tokyo"  # the demo clinic's zone
SESSION = timedelta(minutes=60)  # the demo cancer-b2b service's session
# The subjects of the reminder mails (templates booking_reminder.subject.txt).
REMINDER_SUBJECTS = ("Reminder:", "ご予約は")


def test_the_offset_is_worded_in_its_largest_whole_unit() -> None:
    assert lead_of(10080) == Lead(7, "day")
    assert lead_of(1440) == Lead(1, "day")
    assert lead_of(120) == Lead(2, "hour")
    assert lead_of(90) == Lead(90, "minute")


def test_stored_offsets_are_cleaned_and_the_due_ones_found() -> None:
    assert offsets_of([120, 10080, 1440, 120, 0, -5, True, "60"]) == [10080, 1440, 120]  # type: ignore[list-item]
    start = datetime(2026, 12, 10, 1, 0, tzinfo=UTC)
    offsets = [10080, 1440, 120]
    assert due_offsets(offsets, start, start - 7 * DAY - timedelta(minutes=1)) == []
    assert due_offsets(offsets, start, start - 7 * DAY) == [10080]
    assert due_offsets(offsets, start, start - timedelta(hours=1)) == offsets
    assert due_offsets(offsets, start, start) == []  # started: nothing any more


async def reminders(base_url: str, email: str) -> list[dict[str, Any]]:
    """The person's reminder mails, oldest first."""
    mails = await outbox(base_url, email)
    return [m for m in reversed(mails) if any(w in m["subject"] for w in REMINDER_SUBJECTS)]


@asynccontextmanager
async def booked(
    base_url: str,
    *,
    ahead: tuple[timedelta, timedelta],
    locale: str = "ja",
    zone: str | None = None,
) -> AsyncIterator[tuple[Person, datetime]]:
    """A confirmed booking (free service) whose start lies within `ahead` of now."""
    async with person(base_url, complete=True) as someone:
        now = datetime.now(UTC)
        slot = next(
            s
            for s in await free_slots(someone.sock)
            if ahead[0] <= datetime.fromisoformat(s["start"]) - now <= ahead[1]
        )
        hold = {
            "appointmentId": someone.appointment_id,
            "start": slot["start"],
            "counselorId": slot["counselorIds"][0],
        }
        if zone is not None:
            hold["personTimezone"] = zone
        held = await someone.call("appointment-hold", hold)
        assert "data" in held, held
        await someone.sock.update(someone.path, {"locale": locale})
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "confirmed"}}
        yield someone, datetime.fromisoformat(slot["start"])


async def test_each_due_reminder_is_mailed_once_and_only_the_latest_of_several(
    base_url: str,
) -> None:
    async with booked(
        base_url, ahead=(8 * DAY, 20 * DAY), locale="en", zone="America/Los_Angeles"
    ) as (someone, start):
        document = await someone.document()
    await run_job(base_url, "send-reminders", start - 7 * DAY - timedelta(minutes=1))
    assert await reminders(base_url, someone.email) == []
    for _ in range(2):
        await run_job(base_url, "send-reminders", start - 7 * DAY)
    [week] = await reminders(base_url, someone.email)
    assert "Reminder: your appointment is in 7 days: " in week["subject"]
    assert "in 7 days" in week["text"]
    # Both zones, as every booking mail writes a time (realtime/mail/when.py).
    both = format_span(start, start + SESSION, TOKYO, "en", "America/Los_Angeles")
    assert both != format_span(start, start + SESSION, TOKYO, "en") and both in week["text"]
    assert document["joinUrl"] in week["text"] and week["links"][0] == document["joinUrl"]
    ids = [f"id={someone.appointment_id}" in link for link in week["links"][1:]]
    assert len(ids) == 3 and all(ids)  # my booking, reschedule, cancel
    assert week["attachments"] == []
    # The job did not run for a day: the 1-day and 2-hour reminders are both due, and only
    # the 2-hour one goes out; the 1-day one never follows.
    for clock in (start - timedelta(hours=1), start - timedelta(minutes=30)):
        await run_job(base_url, "send-reminders", clock)
    sent = await reminders(base_url, someone.email)
    assert [m["subject"].split(" is ", 1)[1].split(":")[0] for m in sent] == [
        "in 7 days",
        "in 2 hours",
    ]


async def test_none_due_before_the_booking_and_japanese_in_the_clinics_zone(
    base_url: str,
) -> None:
    """Booked three to six days ahead: the 7-day moment came before the booking, so it is
    never mailed (not even late); the 1-day one is, in the appointment's language."""
    async with booked(base_url, ahead=(2 * DAY + timedelta(hours=3), 6 * DAY)) as (someone, start):
        pass
    await run_job(base_url, "send-reminders", start - DAY - timedelta(minutes=1))
    assert await reminders(base_url, someone.email) == []
    await run_job(base_url, "send-reminders", start - DAY)
    [tomorrow] = await reminders(base_url, someone.email)
    assert "ご予約は明日です：" in tomorrow["subject"]
    assert "遺伝カウンセリングのご予約は明日です。" in tomorrow["text"]
    assert format_span(start, start + SESSION, TOKYO, "ja") in tomorrow["text"]
    assert "7日後" not in tomorrow["text"]


async def test_none_for_a_cancelled_appointment_and_its_time_rebooked_gets_its_own(
    base_url: str,
) -> None:
    async with booked(base_url, ahead=(8 * DAY, 20 * DAY)) as (first, start):
        counselor = (await first.document())["counselorId"]
        # Over HTTP: the cancel ends the person's sessions, their socket with them.
        cancelled = await call_http(
            base_url,
            "appointment-cancel",
            {"appointmentId": first.appointment_id, "reason": "予定変更"},
            first.token,
        )
        assert cancelled == (200, {"data": {"status": "cancelled", "refund": None}})
    # The same time booked again by someone else: a new appointment, so new reminders.
    async with person(base_url, complete=True) as second:
        held = await second.hold(start.isoformat(), counselor)
        assert "data" in held, held
        submitted = await second.call(
            "appointment-updateStatus",
            {"appointmentId": second.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "confirmed"}}
    await run_job(base_url, "send-reminders", start - DAY)
    assert await reminders(base_url, first.email) == []
    assert len(await reminders(base_url, second.email)) == 1
