"""account-erase and the retention purge, on both databases: after an erasure no table holds
anything of the person (docs/security.md, "Erasure and retention")."""

import asyncio
import secrets
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

from storage.models import DEFAULT_RETENTION_DAYS, Appointment, User
from tests.support.booking import Person, free_slots, person, run_job
from tests.support.clients import Account, call_http, connect, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_payments import checkout, hold_first_free, provider, settled

CONTACT_NOTE = "娘の検査結果について相談したいです"
KATAKANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモ"


def own_answers() -> dict[str, str]:
    """Answers no other test's person gives (the server is shared by the whole session, so
    the scan of every table must look for values of this person only)."""
    rng = secrets.SystemRandom()
    day = rng.randrange(10, 29)
    return {
        "intake.contactInfo.lastName": "".join(rng.choice(KATAKANA) for _ in range(8)),
        "intake.contactInfo.firstName": "".join(rng.choice(KATAKANA) for _ in range(8)),
        "intake.contactInfo.phone": f"090-{rng.randrange(10**4):04d}-{rng.randrange(10**4):04d}",
        "intake.contactInfo.email": f"own-{secrets.token_hex(6)}@example.jp",
        "intake.profile.femaleDob": f"19{rng.randrange(70, 99)}-0{rng.randrange(1, 9)}-{day:02d}",
    }


def status_of(reply: dict[str, Any]) -> str:
    return str(reply["error"]["status"]) if "error" in reply else "OK"


async def book(someone: Person, index: int) -> dict[str, Any]:
    """Hold the `index`th free slot and submit: confirmed (the cancer service is free)."""
    slot = (await free_slots(someone.sock))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
    submitted = await someone.call(
        "appointment-updateStatus",
        {"appointmentId": someone.appointment_id, "status": "submitted"},
    )
    assert submitted == {"data": {"status": "confirmed"}}, submitted
    return slot


async def rows_containing(database_url: str, needles: list[str]) -> list[tuple[str, str]]:
    """(table, needle) for every row of every table whose values contain a needle."""
    found: list[tuple[str, str]] = []
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            for table in SQLModel.metadata.sorted_tables:
                for row in (await connection.execute(select(table))).all():
                    text = " ".join(str(value) for value in row)
                    found += [(table.name, n) for n in needles if n.lower() in text.lower()]
    finally:
        await engine.dispose()
    return found


async def stored(database_url: str, model: Any, key: str) -> Any:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            row = (await connection.execute(select(model).where(model.id == key))).first()
    finally:
        await engine.dispose()
    return row


async def test_erasure_leaves_nothing_of_the_person(server: ServerProcess) -> None:
    base_url, database_url = server.url, server.env["DATABASE_URL"]
    answers = own_answers()
    async with person(base_url, complete=True) as someone, person(base_url) as other:
        assert "version" in await someone.sock.update(someone.path, answers)
        await someone.sock.update(someone.path, {"locale": "en"})
        slot = await book(someone, 4)
        counselor = slot["counselorIds"][0]
        name = f"{answers['intake.contactInfo.lastName']} {answers['intake.contactInfo.firstName']}"
        message = {
            "name": name,
            "email": someone.email,
            "message": CONTACT_NOTE,
            "appointmentId": someone.appointment_id,
        }
        assert (await call_http(base_url, "contact-send", message))[0] == 200
        # An unused sign-in link of the address (its row names the address; so does its mail).
        link = await call_http(base_url, "sendEmail-authLink", {"email": someone.email})
        assert link[0] == 200, link
        assert status_of(await other.hold(slot["start"], counselor)) == "ABORTED"
        ended: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        async with connect(base_url, someone.token) as second:

            def on_session(data: dict[str, Any]) -> None:
                if not ended.done():
                    ended.set_result(data)

            second.client.on("session", on_session)
            reply = await someone.call("account-erase", {})
            assert reply == {"data": {"erased": True}}
            assert (await asyncio.wait_for(ended, 10))["state"] == "expired"
        # The slot is free for everyone again.
        assert status_of(await other.hold(slot["start"], counselor)) == "OK"
    async with httpx.AsyncClient(base_url=base_url) as http:
        who = await http.get("/auth/session", headers={"Authorization": f"Bearer {someone.token}"})
    assert who.json() == {"data": None}
    assert (await call_http(base_url, "account-erase", {}, someone.token))[0] == 401

    # One mail left to the address: the confirmation, in the person's language.
    mails = await outbox(base_url, someone.email)
    assert len(mails) == 1 and "consent is withdrawn" in mails[0]["subject"], mails
    assert "canceled" in mails[0]["text"] and "cannot be undone" in mails[0]["text"]

    # No table holds anything of the person but that one mail's address.
    personal = [
        someone.email,
        *answers.values(),
        name,
        CONTACT_NOTE,
    ]
    left = await rows_containing(database_url, personal)
    assert left == [("mail_outbox", someone.email)], left

    # The booking stays, de-identified: day, time, counselor, status; consent withdrawn.
    kept = await stored(database_url, Appointment, someone.appointment_id)
    assert kept.status == "cancelled" and kept.counselor_id == counselor and kept.date
    assert kept.intake == {} and kept.patient_role is None and kept.join_url is None
    assert kept.person_timezone is None and "reason" not in kept.cancellation
    assert set(kept.consent) == {"version", "givenAt", "withdrawnAt"}
    user = await stored(database_url, User, someone.uid)
    assert user.email == f"erased-{someone.uid}@erased.invalid" and user.erased_at
    assert user.appointment_id is None and user.locale is None

    # The same address later is a new person who sees nothing from before.
    again = await sign_in(base_url, someone.email)
    assert again.uid != someone.uid
    async with connect(base_url, again.token) as sock:
        mine = await sock.subscribe(f"users/{again.uid}")
        assert mine["snapshot"]["data"]["appointmentId"] is None
        assert status_of(await sock.subscribe(someone.path)) == "PERMISSION_DENIED"


async def test_a_paid_booking_keeps_its_payment_facts_only(server: ServerProcess) -> None:
    """The payment record keeps what a refund and the accounting need, nothing else; the
    refund by the policy is the person's cancel's (realtime/booking/cancel.py)."""
    async with person(server.url, "prenatal", complete=True) as someone:
        await hold_first_free(someone, 2)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        session = await checkout(someone)
        await provider(server).control("POST", f"/sessions/{session['sessionId']}/pay?wait=1")
        paid = (await settled(someone, "paid"))["payment"]
        assert paid["url"] and paid["slot"]
        assert await someone.call("account-erase", {}) == {"data": {"erased": True}}
    kept = await stored(server.env["DATABASE_URL"], Appointment, someone.appointment_id)
    assert kept.status == "cancelled"
    assert kept.payment["amount"] == paid["amount"] and kept.payment["currency"] == "jpy"
    assert kept.payment["paymentIntent"] == paid["paymentIntent"]
    assert not {"url", "slot", "expiresAt", "firstOpenedAt"} & set(kept.payment)


async def test_staff_and_signed_out_callers_are_refused(
    base_url: str, staff: Account, alice: Account
) -> None:
    assert (await call_http(base_url, "account-erase", {}, staff.token))[0] == 403
    assert (await call_http(base_url, "account-erase", {}))[0] == 401
    status, body = await call_http(base_url, "account-erase", {"uid": "x"}, alice.token)
    assert status == 400 and "uid" in body["error"]["details"]["fields"]


def tokyo_noon(day: date) -> datetime:
    return datetime.combine(day, time(12), tzinfo=ZoneInfo("Asia/Tokyo"))


async def test_retention_purge_forgets_answers_past_the_period_only(server: ServerProcess) -> None:
    base_url, database_url = server.url, server.env["DATABASE_URL"]
    async with person(base_url, complete=True) as older, person(base_url, complete=True) as newer:
        slots = await free_slots(older.sock)
        first = slots[10]
        later = next(s for s in slots if s["start"][:10] >= _plus_days(first["start"], 3))
        for someone, slot in ((older, first), (newer, later)):
            await book(someone, slots.index(slot))
            cancel = {"appointmentId": someone.appointment_id, "reason": "都合により"}
            assert "data" in await someone.call("appointment-cancel", cancel)
    first_day = date.fromisoformat(first["start"][:10])
    now = tokyo_noon(first_day + timedelta(days=DEFAULT_RETENTION_DAYS + 1))
    await purge_all(base_url, now - timedelta(days=2))
    assert (await stored(database_url, Appointment, older.appointment_id)).intake != {}
    await purge_all(base_url, now)
    purged = await stored(database_url, Appointment, older.appointment_id)
    assert purged.intake == {} and purged.patient_role is None
    assert purged.status == "cancelled" and purged.date == first["start"][:10]
    assert "reason" not in purged.cancellation
    kept = await stored(database_url, Appointment, newer.appointment_id)
    assert kept.intake["contactInfo"]["lastName"] == "ヤマダ"
    assert kept.cancellation["reason"] == "都合により"
    assert await run_job(base_url, "purge-retained", now) == 0  # nothing found twice


async def purge_all(base_url: str, now: datetime) -> None:
    """Run the job until it finds nothing (it takes a batch at a time; the session's
    database holds every earlier test's appointments)."""
    for _ in range(50):
        if await run_job(base_url, "purge-retained", now) == 0:
            return
    raise AssertionError("purge-retained never finished")


def _plus_days(start: str, days: int) -> str:
    return (date.fromisoformat(start[:10]) + timedelta(days=days)).isoformat()
