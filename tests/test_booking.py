"""Live vacancies, holds, submission, confirmation and cancel, on both databases."""

import asyncio
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from tests.support.booking import free_slots, person, run_job
from tests.support.clients import connect, outbox, sign_in

TOKYO = ZoneInfo("Asia/Tokyo")


def status_of(reply: dict[str, Any]) -> str:
    if "error" in reply:
        return str(reply["error"]["status"])
    return "OK"


async def test_vacancies_cover_most_weekdays_in_the_clinic_timezone(base_url: str) -> None:
    async with person(base_url) as someone:
        slots = await free_slots(someone.sock, days=60)
    days = {datetime.fromisoformat(s["start"]).date() for s in slots}
    assert len([d for d in days if d.weekday() < 5]) >= 30
    first = datetime.fromisoformat(slots[0]["start"])
    assert first.utcoffset() == timedelta(hours=9)
    assert first > datetime.now(UTC) + timedelta(hours=24)  # minimum notice
    assert all(s["counselorIds"] for s in slots)
    assert datetime.fromisoformat(slots[-1]["start"]).date() <= datetime.now(
        TOKYO
    ).date() + timedelta(days=60)


async def test_vacancies_read_by_service_id_or_entry_alias_and_its_refusals(base_url: str) -> None:
    async with person(base_url) as someone:
        today = datetime.now(TOKYO).date()
        days = {"from": today.isoformat(), "to": (today + timedelta(days=30)).isoformat()}

        async def read(clinic: str, service: str) -> dict[str, Any]:
            return await someone.call(
                "vacancies-read", {"clinicId": clinic, "serviceId": service, **days}
            )

        by_alias = await read("demo-clinic", "cancer")
        assert by_alias == await read("demo-clinic", "cancer-b2b")
        assert by_alias["data"]["timezone"] == "Asia/Tokyo" and by_alias["data"]["slots"]
        unknown = await read("no-such-clinic", "cancer")
        assert status_of(unknown) == "NOT_FOUND"
        assert status_of(await read("demo-clinic", "no-such-service")) == "NOT_FOUND"
        too_long = {"from": today.isoformat(), "to": (today + timedelta(days=90)).isoformat()}
        refused = await someone.call(
            "vacancies-read", {"clinicId": "demo-clinic", "serviceId": "cancer", **too_long}
        )
        assert status_of(refused) == "INVALID_ARGUMENT"


async def test_a_hold_takes_the_slot_from_every_calendar(base_url: str) -> None:
    async with person(base_url) as holder, person(base_url) as watcher:
        slot = (await free_slots(holder.sock))[0]
        start = datetime.fromisoformat(slot["start"])
        month = start.strftime("%Y-%m")
        doc = f"vacancies/demo-clinic/cancer-b2b/{month}"
        before = (await watcher.sock.subscribe(doc))["snapshot"]
        counselor = slot["counselorIds"][0]
        reply = await holder.hold(slot["start"], counselor)
        expires = datetime.fromisoformat(reply["data"]["holdExpiresAt"].replace("Z", "+00:00"))
        assert timedelta(minutes=9) < expires - datetime.now(UTC) <= timedelta(minutes=10)
        await watcher.sock.wait_for_version(doc, before["version"] + 1)
        pushed = watcher.sock.pushes[doc][-1]["data"]["slots"]
        same = [s for s in pushed if s["start"] == slot["start"]]
        assert not same or counselor not in same[0]["counselorIds"]
        appointment = await holder.document()
        assert appointment["counselorId"] == counselor
        assert (appointment["date"], appointment["time"]) == (
            start.strftime("%Y-%m-%d"),
            start.strftime("%H:%M"),
        )
        taken = await watcher.hold(slot["start"], counselor)
        assert status_of(taken) == "ABORTED"
        alternatives = taken["error"]["details"]["alternatives"]
        assert len(alternatives) == 3
        assert all(
            a["start"] != slot["start"] or counselor not in a["counselorIds"] for a in alternatives
        )
        # The nearest free times first.
        distances = [
            abs((datetime.fromisoformat(a["start"]) - start).total_seconds()) for a in alternatives
        ]
        assert distances == sorted(distances)


async def test_a_month_is_pushed_in_version_order_and_ends_current(base_url: str) -> None:
    """Holds at once of different times of one month: the versions (raised inside each
    hold's transaction) reach a watcher rising, and the last push is the month as it is."""
    async with AsyncExitStack() as stack:
        watcher = await stack.enter_async_context(person(base_url))
        slots = await free_slots(watcher.sock)
        month = slots[0]["start"][:7]
        doc = f"vacancies/demo-clinic/cancer-b2b/{month}"
        by_day: dict[str, dict[str, Any]] = {}
        for slot in slots:
            if slot["start"][:7] == month:
                by_day.setdefault(slot["start"][:10], slot)
        targets = list(by_day.values())[:6]  # one per day: they cannot overlap
        start = (await watcher.sock.subscribe(doc))["snapshot"]["version"]
        holders = [await stack.enter_async_context(person(base_url)) for _ in targets]
        pairs = zip(holders, targets, strict=True)
        replies = await asyncio.gather(
            *(h.hold(t["start"], t["counselorIds"][0]) for h, t in pairs)
        )
        assert [status_of(r) for r in replies] == ["OK"] * len(targets)
        await watcher.sock.wait_for_version(doc, start + len(targets))
        seen = watcher.sock.versions(doc)
        assert seen == sorted(set(seen)), seen
        current = (await watcher.sock.subscribe(doc))["snapshot"]
        assert current["version"] == seen[-1]
        assert watcher.sock.pushes[doc][-1]["data"] == current["data"]


async def test_exactly_one_winner_when_many_race_for_one_slot(base_url: str) -> None:
    async with person(base_url) as first:
        slot = (await free_slots(first.sock))[3]
        counselor = slot["counselorIds"][0]
        people = [person(base_url) for _ in range(12)]
        entered = [await p.__aenter__() for p in people]
        try:
            replies = await asyncio.gather(*(p.hold(slot["start"], counselor) for p in entered))
        finally:
            for p in people:
                await p.__aexit__(None, None, None)
    assert sorted(status_of(r) for r in replies) == ["ABORTED"] * 11 + ["OK"]


async def test_as_many_winners_as_slots(base_url: str) -> None:
    async with person(base_url) as first:
        # One slot on each of three days: they cannot overlap each other.
        by_day: dict[str, dict[str, Any]] = {}
        for slot in await free_slots(first.sock):
            by_day.setdefault(slot["start"][:10], slot)
        targets = [(s["start"], s["counselorIds"][0]) for s in list(by_day.values())[1:4]]
        people = [person(base_url) for _ in range(15)]
        entered = [await p.__aenter__() for p in people]
        try:
            replies = await asyncio.gather(
                *(p.hold(*targets[i % len(targets)]) for i, p in enumerate(entered))
            )
        finally:
            for p in people:
                await p.__aexit__(None, None, None)
    assert [status_of(r) for r in replies].count("OK") == len(targets)


async def test_a_newer_hold_releases_the_older(base_url: str) -> None:
    async with person(base_url) as someone, person(base_url) as other:
        slots = await free_slots(someone.sock)
        a, b = slots[20], slots[40]
        assert status_of(await someone.hold(a["start"], a["counselorIds"][0])) == "OK"
        assert status_of(await someone.hold(b["start"], b["counselorIds"][0])) == "OK"
        assert status_of(await other.hold(a["start"], a["counselorIds"][0])) == "OK"
        # Holding the same slot again renews it.
        assert status_of(await someone.hold(b["start"], b["counselorIds"][0])) == "OK"


async def test_a_hold_moves_to_an_overlapping_time_of_the_same_counselor(base_url: str) -> None:
    """One's own hold does not make the next half-hour of the same counselor busy."""
    async with person(base_url) as someone:
        slots = {s["start"]: s["counselorIds"] for s in await free_slots(someone.sock)}

        def half_hour_later(start: str) -> str:
            return (datetime.fromisoformat(start) + timedelta(minutes=30)).isoformat()

        start, counselor = next(
            (start, c)
            for start, ids in slots.items()
            for c in ids
            if c in slots.get(half_hour_later(start), [])
        )
        later = half_hour_later(start)
        assert status_of(await someone.hold(start, counselor)) == "OK"
        assert status_of(await someone.hold(later, counselor)) == "OK"
        assert (await someone.document())["time"] == later[11:16]
        # And back again: the hold at `later` does not block its own move either.
        assert status_of(await someone.hold(start, counselor)) == "OK"


async def test_the_pregnancy_window_narrows_the_days_for_that_person_only(base_url: str) -> None:
    """The window is applied per reader (the month cache holds every day)."""
    today = datetime.now(TOKYO).date()
    first_allowed = today + timedelta(days=10)  # week 10 of a pregnancy due in 220 days
    async with person(base_url, "prenatal") as pregnant, person(base_url, "prenatal") as other:
        info = await pregnant.call("service-read", {"id": "prenatal", "clinicId": "demo-clinic"})
        await pregnant.call(
            "appointment-consent",
            {"appointmentId": pregnant.appointment_id, "version": info["data"]["consentVersion"]},
        )
        edd = (today + timedelta(days=220)).isoformat()
        assert "version" in await pregnant.sock.update(
            pregnant.path, {"intake.currentPregnancy.edd": edd}
        )
        theirs = await free_slots(pregnant.sock, "prenatal")
        everyone = await free_slots(other.sock, "prenatal")
        assert theirs and all(
            datetime.fromisoformat(s["start"]).date() >= first_allowed for s in theirs
        )
        early = [s for s in everyone if datetime.fromisoformat(s["start"]).date() < first_allowed]
        assert early, "the range should have days before the window"
        refused = await pregnant.hold(early[0]["start"], early[0]["counselorIds"][0])
        assert status_of(refused) == "ABORTED"
        assert all(
            datetime.fromisoformat(a["start"]).date() >= first_allowed
            for a in refused["error"]["details"]["alternatives"]
        )
        assert status_of(await other.hold(early[0]["start"], early[0]["counselorIds"][0])) == "OK"


async def test_any_counselor(base_url: str) -> None:
    async with person(base_url) as someone:
        slot = (await free_slots(someone.sock))[5]
        assert status_of(await someone.hold(slot["start"], "any")) == "OK"
        assert (await someone.document())["counselorId"] in slot["counselorIds"]


async def test_slots_that_are_not_offered_cannot_be_held(base_url: str) -> None:
    async with person(base_url) as someone:
        slot = (await free_slots(someone.sock))[0]
        start = datetime.fromisoformat(slot["start"])
        for wrong in (
            start + timedelta(minutes=7),
            start.replace(hour=3),
            start - timedelta(days=2),
        ):
            assert (
                status_of(await someone.hold(wrong.isoformat(), slot["counselorIds"][0]))
                == "ABORTED"
            )
        assert status_of(await someone.hold("tomorrow", "any")) == "INVALID_ARGUMENT"
        assert status_of(await someone.hold(slot["start"], "c-nobody")) == "ABORTED"


async def test_submit_needs_intake_terms_and_a_live_hold(base_url: str) -> None:
    async with person(base_url) as someone:
        submit = {"appointmentId": someone.appointment_id, "status": "submitted"}
        missing = await someone.call("appointment-updateStatus", submit)
        assert status_of(missing) == "INVALID_ARGUMENT"
        assert "contact" in missing["error"]["details"]["missing"]
    async with person(base_url, complete=True) as ready:
        submit = {"appointmentId": ready.appointment_id, "status": "submitted"}
        assert status_of(await ready.call("appointment-updateStatus", submit)) == "ABORTED"


async def test_confirmation_with_join_link_mails_and_feed(base_url: str) -> None:
    staff = await sign_in(base_url, "staff@demo-clinic.example")
    async with person(base_url, complete=True) as someone, connect(base_url, staff.token) as desk:
        feed = "clinics/demo-clinic/bookings"
        start_version = (await desk.subscribe(feed))["snapshot"]["version"]
        slot = (await free_slots(someone.sock))[2]
        counselor = slot["counselorIds"][0]
        await someone.hold(slot["start"], counselor)
        await someone.sock.update(someone.path, {"locale": "en"})
        reply = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert reply == {"data": {"status": "confirmed"}}
        appointment = await someone.document()
        assert appointment["status"] == "confirmed"
        assert appointment["joinUrl"].startswith("https://meet.jit.si/gc-")
        assert len(appointment["joinUrl"]) > 40
        await desk.wait_for_version(feed, start_version + 2)
        rows = desk.pushes[feed][-1]["data"]["bookings"]
        assert any(
            r["appointmentId"] == someone.appointment_id and r["status"] == "confirmed"
            for r in rows
        )
        # Staff record the outcome; the client cannot.
        outcome = {"appointmentId": someone.appointment_id, "status": "completed"}
        assert (
            status_of(await someone.call("appointment-updateStatus", outcome))
            == "PERMISSION_DENIED"
        )
        assert (await desk.call("appointment-updateStatus", outcome))["data"][
            "status"
        ] == "completed"
    client_mail = (await outbox(base_url, someone.email))[0]
    assert "confirmed" in client_mail["subject"]
    assert appointment["joinUrl"] in client_mail["text"]
    local = datetime.fromisoformat(slot["start"])
    tokyo = local.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{tokyo:%H:%M}–" in client_mail["text"] and "Japan Standard Time" in client_mail["text"]
    assert "Asia/Tokyo" not in client_mail["text"]
    counselor_mail = (await outbox(base_url, f"{counselor}@demo-clinic.example"))[0]
    assert someone.appointment_id in counselor_mail["text"]
    assert "ヤマダ" not in counselor_mail["text"]  # no intake data in mail


async def test_a_person_abroad_reads_their_own_time_beside_the_clinics_in_mails(
    base_url: str,
) -> None:
    """The browser's zone sent with the hold (`personTimezone`) is validated against the tz
    database, kept on the appointment, and the person's mails give both times; the
    counselor's stays in the clinic's time alone."""
    async with person(base_url, complete=True) as someone:
        slot = (await free_slots(someone.sock))[3]
        counselor = slot["counselorIds"][0]
        hold = {"appointmentId": someone.appointment_id, "start": slot["start"]}
        for hostile in ["../../etc/passwd", "Not/AZone", "asia/tokyo", "", "A" * 65, 9]:
            refused = await someone.call(
                "appointment-hold",
                {**hold, "counselorId": counselor, "personTimezone": hostile},
            )
            assert status_of(refused) == "INVALID_ARGUMENT", hostile
        reply = await someone.call(
            "appointment-hold",
            {**hold, "counselorId": counselor, "personTimezone": "America/Los_Angeles"},
        )
        assert "holdExpiresAt" in reply["data"]
        # A renewal without the field keeps the zone recorded.
        await someone.hold(slot["start"], counselor)
        assert (await someone.document())["personTimezone"] == "America/Los_Angeles"
        await someone.sock.update(someone.path, {"locale": "en"})
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "confirmed"}}
    start = datetime.fromisoformat(slot["start"])
    tokyo, la = (
        start.astimezone(ZoneInfo("Asia/Tokyo")),
        start.astimezone(ZoneInfo("America/Los_Angeles")),
    )
    mail = (await outbox(base_url, someone.email))[0]["text"]
    # Start and end, the zones named as people say them, never an IANA id.
    clinic_day = f"{tokyo:%A}, {tokyo:%B} {tokyo.day}, {tokyo.year}, {tokyo:%H:%M}–"
    own_day = f"{la:%A}, {la:%B} {la.day}, {la.year}, {(la.hour % 12) or 12}:{la:%M}"
    assert f"When: {clinic_day}" in mail
    assert f" Japan Standard Time / your time: {own_day}" in mail and " Pacific Time\n" in mail
    assert "Asia/Tokyo" not in mail and "America/Los_Angeles" not in mail
    counselor_mail = (await outbox(base_url, f"{counselor}@demo-clinic.example"))[-1]["text"]
    # This counselor reads Japanese: the clinic's time alone.
    assert "（日本標準時）" in counselor_mail
    assert "米国太平洋時間" not in counselor_mail and "Pacific Time" not in counselor_mail


async def test_cancel_frees_the_slot_signs_out_and_mails(base_url: str) -> None:
    async with person(base_url, complete=True) as someone, person(base_url) as next_one:
        slot = (await free_slots(someone.sock))[6]
        counselor = slot["counselorIds"][0]
        await someone.hold(slot["start"], counselor)
        await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert status_of(await next_one.hold(slot["start"], counselor)) == "ABORTED"
        ended: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def on_session(data: dict[str, Any]) -> None:
            if not ended.done():
                ended.set_result(data)

        someone.sock.client.on("session", on_session)
        reply = await someone.call(
            "appointment-cancel",
            {"appointmentId": someone.appointment_id, "reason": "予定が合わない"},
        )
        assert reply == {"data": {"status": "cancelled", "refund": None}}
        assert (await asyncio.wait_for(ended, 10))["state"] == "expired"
        assert status_of(await next_one.hold(slot["start"], counselor)) == "OK"
    cancelled = (await outbox(base_url, someone.email))[0]
    assert "canceled" in cancelled["subject"] or "キャンセル" in cancelled["subject"]
    async with httpx.AsyncClient(base_url=base_url) as http:
        who = await http.get("/auth/session", headers={"Authorization": f"Bearer {someone.token}"})
    assert who.json() == {"data": None}


async def test_expired_holds_return_to_every_calendar(base_url: str) -> None:
    async with person(base_url) as holder, person(base_url) as other:
        slot = (await free_slots(holder.sock))[8]
        counselor = slot["counselorIds"][0]
        await holder.hold(slot["start"], counselor)
        assert await run_job(base_url, "expire-holds", datetime.now(UTC)) == 0
        assert (
            await run_job(base_url, "expire-holds", datetime.now(UTC) + timedelta(minutes=11)) >= 1
        )
        cleared = await holder.document()
        assert cleared["counselorId"] is None and cleared["holdExpiresAt"] is None
        assert status_of(await other.hold(slot["start"], counselor)) == "OK"
