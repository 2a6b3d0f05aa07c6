"""Counselors' calendar feeds and the counselor's booking mails (docs/protocol.md, "Counselor
calendar feeds" and "Mail"): on both databases, through real servers, read back as a
calendar program and a mail reader would."""

import secrets
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from icalendar import Calendar, Component

from infra.bench.calendar_feed import source as bench_source
from realtime.access_log import without_query
from realtime.calendar.cache import FeedCache, RenderedFeed
from realtime.calendar.feed import FeedSource, fingerprint
from tests.support.booking import Person, free_slots, person
from tests.support.clients import Account, call_http, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_staff_signin import dev_session

COUNSELOR = "sato@demo-clinic.example"
ADMIN = "staff@demo-clinic.example"
SATO_MAIL = "c-sato@demo-clinic.example"
READ, ROTATE = "staff-calendarFeed-read", "staff-calendarFeed-rotate"
# What the intake of tests.support.booking says about the person: never in a feed.
INTAKE_FACTS = ("ヤマダ", "ハナコ", "hanako@example.jp", "03-1234-5678")


async def book_with(someone: Person, counselor_id: str) -> dict[str, Any]:
    """A confirmed appointment of `someone` with that counselor; the slot it took."""
    slot = next(s for s in await free_slots(someone.sock) if counselor_id in s["counselorIds"])
    assert "data" in await someone.hold(slot["start"], counselor_id)
    submitted = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert submitted == {"data": {"status": "confirmed"}}, submitted
    return slot


async def rotate(base_url: str, token: str, **data: Any) -> str:
    code, reply = await call_http(base_url, ROTATE, data, token)
    assert code == 200, reply
    url: str = reply["data"]["url"]
    return url


async def fetch(base_url: str, url: str) -> httpx.Response:
    """GET a feed address as a calendar program would (the path on this test server)."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(urlsplit(url).path)


def events_of(ics: bytes | str) -> dict[str, Component]:
    calendar = Calendar.from_ical(ics)
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def attachment(mail: dict[str, Any]) -> Calendar:
    found = [a for a in mail["attachments"] if a["filename"].endswith(".ics")]
    assert len(found) == 1, mail["attachments"]
    assert found[0]["contentType"] == "text/calendar"
    return Calendar.from_ical(found[0]["content"])


async def mails_about(base_url: str, to: str, appointment_id: str) -> list[dict[str, Any]]:
    """The mails to `to` that name the appointment, oldest first."""
    mails = [m for m in await outbox(base_url, to) if appointment_id in m["text"]]
    return list(reversed(mails))


def counselor_sequences(mails: list[dict[str, Any]], uid: str) -> list[tuple[str, int]]:
    """(METHOD, SEQUENCE) of each mail's invitation, checking the UID."""
    found = []
    for mail in mails:
        calendar = attachment(mail)
        (event,) = calendar.walk("VEVENT")
        assert str(event["UID"]) == uid
        found.append((str(calendar["METHOD"]), int(event.decoded("SEQUENCE"))))
    return found


async def test_a_counselor_subscribes_to_their_booked_times(base_url: str) -> None:
    sato = await sign_in(base_url, COUNSELOR)
    url = await rotate(base_url, sato.token)
    assert url.startswith(base_url + "/calendar/") and url.endswith(".ics")
    async with person(base_url, complete=True) as someone:
        slot = await book_with(someone, "c-sato")
        join_url = (await someone.document())["joinUrl"]
        uid = f"{someone.appointment_id}@genecounsel"

        reply = await fetch(base_url, url)
        assert reply.status_code == 200
        assert reply.headers["content-type"] == "text/calendar; charset=utf-8"
        calendar = Calendar.from_ical(reply.content)
        assert str(calendar["X-WR-CALNAME"]).startswith("遺伝カウンセリング：佐藤 花子")
        assert "X-PUBLISHED-TTL:PT1H" in reply.text
        assert "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in reply.text
        event = events_of(reply.content)[uid]
        assert event.decoded("DTSTART") == datetime.fromisoformat(slot["start"])
        assert str(event["SUMMARY"]) == "がんの遺伝学的検査の遺伝カウンセリング"
        assert str(event["URL"]) == join_url and str(event["LOCATION"]) == join_url
        assert join_url in str(event["DESCRIPTION"])
        assert str(event["STATUS"]) == "CONFIRMED"
        for fact in (*INTAKE_FACTS, someone.email):
            assert fact not in reply.text, fact
        # Unchanged, the feed answers 304 to a program that kept its ETag.
        async with httpx.AsyncClient(base_url=base_url) as http:
            again = await http.get(
                urlsplit(url).path, headers={"If-None-Match": reply.headers["etag"]}
            )
        assert again.status_code == 304

        # The person cancels: the counselor is told (why, by whom), and the feed drops it.
        cancelled = await someone.call(
            "appointment-cancel",
            {"appointmentId": someone.appointment_id, "reason": "体調不良のため"},
        )
        assert cancelled == {"data": {"status": "cancelled", "refund": None}}, cancelled
    assert uid not in events_of((await fetch(base_url, url)).content)

    confirm, cancel = await mails_about(base_url, SATO_MAIL, someone.appointment_id)
    assert confirm["subject"].startswith("【遺伝カウンセリング予約】予約確定：")
    assert cancel["subject"].startswith("【遺伝カウンセリング予約】予約キャンセル：")
    assert "予約がキャンセルされました。" in cancel["text"]
    assert "取り消しされ" not in cancel["text"] + cancel["subject"]
    assert "理由：体調不良のため" in cancel["text"]
    assert "キャンセルした方：予約者ご本人" in cancel["text"]
    assert join_url in confirm["text"] and confirm["links"] == [join_url]
    assert join_url not in cancel["text"] and cancel["links"] == []
    sequences = counselor_sequences([confirm, cancel], uid)
    assert [method for method, _ in sequences] == ["REQUEST", "CANCEL"]
    assert sequences[0][1] < sequences[1][1]
    (cancelled_event,) = attachment(cancel).walk("VEVENT")
    assert "URL" not in cancelled_event and "LOCATION" not in cancelled_event
    assert join_url not in cancel["attachments"][0]["content"]

    # The person's own mails: the invitation, then a cancellation without the link.
    theirs = await mails_about(base_url, someone.email, "")
    by_subject = {m["subject"]: m for m in theirs}
    cancel_mail = next(m for s, m in by_subject.items() if "キャンセルを承りました" in s)
    assert join_url not in cancel_mail["text"] and cancel_mail["links"] == []
    assert join_url not in cancel_mail["attachments"][0]["content"]
    assert "理由：体調不良のため" in cancel_mail["text"]
    (person_event,) = attachment(cancel_mail).walk("VEVENT")
    assert str(person_event["UID"]) == uid
    assert int(person_event.decoded("SEQUENCE")) == sequences[1][1]


async def test_a_clinic_cancellation_tells_the_counselor_who_and_why(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, complete=True) as someone:
        await book_with(someone, "c-brown")
        join_url = (await someone.document())["joinUrl"]
        code, reply = await call_http(
            base_url,
            "appointment-cancel",
            {"appointmentId": someone.appointment_id, "reason": "Counselor ill", "byClinic": True},
            staff.token,
        )
        assert code == 200, reply
    confirm, cancel = await mails_about(
        base_url, "c-brown@demo-clinic.example", someone.appointment_id
    )
    # c-brown reads English.
    assert confirm["subject"].startswith("[Genetic Counseling Booking] Booking confirmed: ")
    assert cancel["subject"].startswith("[Genetic Counseling Booking] Booking canceled: ")
    assert "Canceled by: the clinic" in cancel["text"]
    assert "Reason: Counselor ill" in cancel["text"]
    assert join_url not in cancel["text"] and cancel["links"] == []
    uid = f"{someone.appointment_id}@genecounsel"
    assert [m for m, _ in counselor_sequences([confirm, cancel], uid)] == ["REQUEST", "CANCEL"]
    clinic_mail = next(
        m
        for m in await outbox(base_url, someone.email)
        if "クリニックにてキャンセルさせていただきました" in m["text"]
    )
    assert join_url not in clinic_mail["text"] and clinic_mail["links"] == []
    assert join_url not in clinic_mail["attachments"][0]["content"]


async def test_a_completed_appointment_stays_and_a_no_show_leaves(base_url: str) -> None:
    sato = await sign_in(base_url, COUNSELOR)
    url = await rotate(base_url, sato.token)
    outcomes: dict[str, str] = {}
    for outcome in ("completed", "no_show"):
        async with person(base_url, complete=True) as someone:
            await book_with(someone, "c-sato")
        code, reply = await call_http(
            base_url,
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": outcome},
            sato.token,
        )
        assert code == 200, reply
        outcomes[outcome] = f"{someone.appointment_id}@genecounsel"
    listed = events_of((await fetch(base_url, url)).content)
    assert outcomes["completed"] in listed and outcomes["no_show"] not in listed
    async with httpx.AsyncClient(base_url=base_url) as http:
        head = await http.head(urlsplit(url).path)
    assert head.status_code == 200 and head.headers["content-type"].startswith("text/calendar")


async def test_a_rotated_or_unknown_key_answers_404_and_nothing_else(base_url: str) -> None:
    sato = await sign_in(base_url, COUNSELOR)
    first = await rotate(base_url, sato.token)
    assert (await fetch(base_url, first)).status_code == 200
    code, reply = await call_http(base_url, READ, {}, sato.token)
    assert code == 200 and reply["data"]["exists"] is True and reply["data"]["url"] is None
    second = await rotate(base_url, sato.token)
    assert second != first
    assert (await fetch(base_url, second)).status_code == 200
    unknown_path = (await fetch(base_url, base_url + "/calendar/nothing-here")).json()
    wrong = f"{base_url}/calendar/{secrets.token_urlsafe(32)}.ics"
    for address in (first, wrong, f"{base_url}/calendar/short.ics"):
        refused = await fetch(base_url, address)
        assert refused.status_code == 404, address
        assert (
            refused.json()
            == unknown_path
            == {"error": {"status": "NOT_FOUND", "message": "Not found."}}
        )


async def test_who_may_read_and_rotate_a_feed(base_url: str) -> None:
    sato = await sign_in(base_url, COUNSELOR)
    admin = await sign_in(base_url, ADMIN)
    client = await sign_in(base_url, f"client-{secrets.token_hex(4)}@example.com")
    limited = await dev_session(base_url, COUNSELOR, second_factor=False)
    for name in (READ, ROTATE):
        # Not signed in, a client, staff before the second factor.
        assert (await call_http(base_url, name, {}))[0] == 401
        code, reply = await call_http(base_url, name, {"counselorId": "c-sato"}, client.token)
        assert (code, reply["error"]["status"]) == (403, "PERMISSION_DENIED")
        code, reply = await call_http(base_url, name, {"bad": 1}, limited.token)
        assert code == 401 and reply["error"]["details"] == {"secondFactor": "required"}
        # A counselor: their own only; another's, or one that does not exist, alike 403,
        # before the input is validated.
        for other in ("c-tanaka", "nobody", 5):
            data = {"counselorId": other, "extra": True}
            assert (await call_http(base_url, name, data, sato.token))[0] == 403, other
        code, reply = await call_http(base_url, name, {"extra": True}, sato.token)
        assert code == 400 and "extra" in reply["error"]["details"]["fields"]
        # The clinic_admin: any counselor of the clinic, named.
        code, reply = await call_http(base_url, name, {}, admin.token)
        assert code == 400 and "counselorId" in reply["error"]["details"]["fields"]
        assert (await call_http(base_url, name, {"counselorId": "nobody"}, admin.token))[0] == 403
    tanaka = await rotate(base_url, admin.token, counselorId="c-tanaka")
    feed = await fetch(base_url, tanaka)
    assert feed.status_code == 200
    # c-tanaka reads Japanese only; the feed is theirs.
    assert "田中 美咲" in str(Calendar.from_ical(feed.content)["X-WR-CALNAME"])
    code, reply = await call_http(base_url, READ, {"counselorId": "c-tanaka"}, admin.token)
    assert code == 200 and reply["data"]["exists"] is True
    # The rotation is in the clinic's audit log.
    code, reply = await call_http(
        base_url, "staff-audit-read", {"clinicId": "demo-clinic"}, admin.token
    )
    assert code == 200
    rotations = [e for e in reply["data"]["entries"] if e["action"] == "calendarFeed.rotate"]
    assert rotations[0]["detail"] == {"counselorId": "c-tanaka"}
    assert rotations[0]["email"] == ADMIN


def test_logs_never_keep_a_feed_key() -> None:
    key = secrets.token_urlsafe(32)
    assert without_query(f"/calendar/{key}.ics") == "/calendar/[key]"
    assert without_query(f"/calendar/{key}.ics?x=1") == "/calendar/[key]"
    assert without_query("/login-confirmation?token=abc") == "/login-confirmation"


def test_a_feed_is_rendered_again_only_when_what_it_shows_changes() -> None:
    feed = bench_source(3)
    digest = fingerprint(feed)
    same = FeedSource(
        feed.counselor, feed.clinic, feed.locale, list(feed.bookings), feed.public_url
    )
    assert fingerprint(same) == digest
    feed.bookings[1].appointment.version += 1  # any change of an appointment: a new feed
    assert fingerprint(feed) != digest
    assert fingerprint(FeedSource(feed.counselor, feed.clinic, "en", feed.bookings, "x")) != (
        fingerprint(feed)
    )
    cache = FeedCache(size=2)
    cache.put("a", RenderedFeed("1", b"a1"))
    cache.put("b", RenderedFeed("1", b"b1"))
    assert cache.get("a", "1") == RenderedFeed("1", b"a1")
    assert cache.get("a", "2") is None  # changed since: rendered again
    cache.put("c", RenderedFeed("1", b"c1"))  # "b" was used least recently
    assert cache.get("b", "1") is None and cache.get("a", "1") is not None


@pytest.fixture(scope="module")
def few_feeds_per_ip(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server allowing 3 feed requests per client IP in the window."""
    logs = tmp_path_factory.mktemp("feeds-ip")
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{logs / 'feeds.db'}",
            "CALENDAR_FEEDS_PER_IP": "3",
        },
        log_path=logs / "feeds.log",
    ).start()
    yield server
    server.stop()


async def test_feeds_are_rate_limited_per_ip(few_feeds_per_ip: ServerProcess) -> None:
    url = few_feeds_per_ip.url
    sato = await sign_in(url, COUNSELOR)
    feed = await rotate(url, sato.token)
    wrong = f"{url}/calendar/{secrets.token_urlsafe(32)}.ics"
    statuses = [(await fetch(url, address)).status_code for address in (feed, wrong, feed, feed)]
    assert statuses == [200, 404, 200, 429]
