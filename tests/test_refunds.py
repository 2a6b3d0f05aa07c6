"""Cancelling and refunds (docs/product.md, "Cancelling and refunds"): a paid booking
cancelled by the person is refunded by its service's policy, through infra/stripe_local,
exactly once whatever is replayed or retried; the clinic's cancel refunds in full; a
reservation not yet booked is cancelled with a mail. On SQLite and PostgreSQL.

The policy of the demo's priced service (prenatal-b2c) is set for each test in the database,
so that the booked start is before or after the free limit whatever day the suite runs."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import select

from storage.db import open_database
from storage.models import Appointment, Service
from tests.conftest import unique_email
from tests.support.booking import Person, person, run_job
from tests.support.clients import Account, call_http, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_payments import checkout, hold_first_free, provider, settled

SERVICE = "prenatal-b2c"  # 16,500 JPY (storage/demo.py)
PAID = 16500
DEMO_POLICY = (48, 50)


@asynccontextmanager
async def policy(server: ServerProcess, free_hours: int, late_percent: int) -> AsyncIterator[None]:
    """The service's cancellation policy set to `free_hours` / `late_percent` for the block."""
    await _set_policy(server, free_hours, late_percent)
    try:
        yield
    finally:
        await _set_policy(server, *DEMO_POLICY)


async def _set_policy(server: ServerProcess, free_hours: int, late_percent: int) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            service = (await session.exec(select(Service).where(Service.id == SERVICE))).one()
            service.free_cancel_hours = free_hours
            service.late_refund_percent = late_percent
    finally:
        await db.close()


# A free limit far beyond any bookable time (every cancel is late), or just before the start.
LATE, EARLY = 24 * 365, 1


@asynccontextmanager
async def paid_booking(server: ServerProcess) -> AsyncIterator[Person]:
    """A prenatal-b2c appointment, paid through the local Stripe server: confirmed."""
    async with person(server.url, "prenatal", complete=True) as someone:
        await hold_first_free(someone)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}, submitted
        session = (await checkout(someone))["sessionId"]
        await provider(server).control("POST", f"/sessions/{session}/pay?wait=1")
        assert (await settled(someone, "paid"))["status"] == "confirmed"
        yield someone


async def quote(someone: Person) -> dict[str, Any]:
    reply = await someone.call("appointment-cancelQuote", {"appointmentId": someone.appointment_id})
    assert "data" in reply, reply
    data: dict[str, Any] = reply["data"]
    return data


async def cancel(someone: Person) -> dict[str, Any]:
    reply = await someone.call(
        "appointment-cancel", {"appointmentId": someone.appointment_id, "reason": ""}
    )
    assert "data" in reply, reply
    data: dict[str, Any] = reply["data"]
    return data


async def payment_of(server: ServerProcess, someone: Person) -> dict[str, Any]:
    """The appointment's payment as stored (the person is signed out by their cancel)."""
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            row = await session.get(Appointment, someone.appointment_id)
            assert row is not None and row.payment is not None
            return dict(row.payment)
    finally:
        await db.close()


async def stored(server: ServerProcess, someone: Person, wanted: str) -> dict[str, Any]:
    """The payment once its status is `wanted` (a refund is made after the cancel's reply)."""
    for _ in range(100):
        payment = await payment_of(server, someone)
        if payment["status"] == wanted:
            return payment
        await asyncio.sleep(0.1)
    raise AssertionError(f"payment never became {wanted}: {payment}")


async def refunds_at_provider(server: ServerProcess, someone: Person) -> list[dict[str, Any]]:
    session = (await payment_of(server, someone))["paidSessionId"]
    refunds: list[dict[str, Any]] = (await provider(server).control("GET", f"/sessions/{session}"))[
        "refunds"
    ]
    return refunds


async def cancel_mail(server: ServerProcess, someone: Person) -> str:
    mails = await outbox(server.url, someone.email)
    cancelled = [m for m in mails if "cancel" in m["subject"] or "キャンセル" in m["subject"]]
    assert len(cancelled) == 1, [m["subject"] for m in mails]
    text: str = cancelled[0]["text"]
    return text


def start_of(document: dict[str, Any]) -> datetime:
    start: str = document["payment"]["slot"]["start"]
    return datetime.fromisoformat(start.replace("Z", "+00:00"))


async def test_a_cancel_before_the_free_limit_is_refunded_in_full(server: ServerProcess) -> None:
    async with policy(server, EARLY, 50), paid_booking(server) as someone:
        offer = await quote(someone)
        start = start_of(await someone.document())
        assert offer == {
            "refund": {"amount": PAID, "currency": "JPY"},
            "freeUntil": (start - timedelta(hours=EARLY))
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "share": 100,
        }
        reply = await cancel(someone)
        assert reply == {
            "status": "cancelled",
            "refund": {"status": "refund_pending", "amount": PAID, "currency": "JPY", "share": 100},
        }
        payment = await stored(server, someone, "refunded")
        assert payment["refundAmount"] == PAID and payment["refundedAt"]
        assert [r["amount"] for r in await refunds_at_provider(server, someone)] == [PAID]
    text = await cancel_mail(server, someone)
    assert "16,500" in text and ("全額" in text or "full amount" in text), text


async def test_a_late_cancel_gets_the_policy_share_once_whatever_is_replayed(
    server: ServerProcess,
) -> None:
    stripe = provider(server)
    async with policy(server, LATE, 50), paid_booking(server) as someone:
        offer = await quote(someone)
        assert offer["refund"] == {"amount": PAID // 2, "currency": "JPY"}
        assert offer["share"] == 50
        assert (await cancel(someone))["refund"]["amount"] == PAID // 2
        refunded = await stored(server, someone, "refunded")
        assert refunded["refundAmount"] == PAID // 2
        session = refunded["paidSessionId"]
        # The payment's webhook again: the same event, and a new one of the same payment.
        events = await stripe.control("GET", f"/events?session={session}")
        completed = next(e for e in events["data"] if e["type"] == "checkout.session.completed")
        await stripe.control("POST", f"/events/{completed['id']}/resend?wait=1")
        await stripe.control(
            "POST", f"/sessions/{session}/fire?wait=1", json={"type": "checkout.session.completed"}
        )
        # A node that died after the API refunded but before it recorded the refund: the
        # reconciliation job asks again, twice, and gets the same refund back.
        await _forget_the_refund(server, someone)
        now = datetime.now(UTC)
        assert await run_job(server.url, "reconcile-payments", now) >= 1
        await run_job(server.url, "reconcile-payments", now)
        after = await payment_of(server, someone)
        assert after["status"] == "refunded"
        assert after["refundId"] == refunded["refundId"]
        assert after["refundAmount"] == PAID // 2
        assert [r["amount"] for r in await refunds_at_provider(server, someone)] == [PAID // 2]
    text = await cancel_mail(server, someone)
    assert "8,250" in text and "50%" in text, text


async def _forget_the_refund(server: ServerProcess, someone: Person) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            row = await session.get(Appointment, someone.appointment_id)
            assert row is not None and row.payment is not None
            row.payment = {
                k: v for k, v in row.payment.items() if k not in ("refundId", "refundedAt")
            } | {"status": "refund_pending"}
    finally:
        await db.close()


async def test_no_share_means_no_refund_and_the_mail_says_so(server: ServerProcess) -> None:
    async with policy(server, LATE, 0), paid_booking(server) as someone:
        offer = await quote(someone)
        assert offer["refund"] == {"amount": 0, "currency": "JPY"} and offer["share"] == 0
        reply = await cancel(someone)
        assert reply["refund"] == {
            "status": "not_refunded",
            "amount": 0,
            "currency": "JPY",
            "share": 0,
        }
        await run_job(server.url, "reconcile-payments", datetime.now(UTC))
        assert (await payment_of(server, someone))["status"] == "not_refunded"
        assert await refunds_at_provider(server, someone) == []
    text = await cancel_mail(server, someone)
    assert "返金の対象外" in text or "not refunded" in text, text


async def test_the_clinics_cancel_is_refunded_in_full_even_late(
    server: ServerProcess, staff: Account
) -> None:
    async with policy(server, LATE, 0), paid_booking(server) as someone:
        staff_quote = await call_http(
            server.url,
            "appointment-cancelQuote",
            {"appointmentId": someone.appointment_id},
            staff.token,
        )
        assert staff_quote[1]["data"]["share"] == 0  # what the person's own cancel would get
        code, reply = await call_http(
            server.url,
            "appointment-cancel",
            {"appointmentId": someone.appointment_id, "reason": "急病のため", "byClinic": True},
            staff.token,
        )
        assert code == 200, reply
        assert reply["data"]["refund"]["amount"] == PAID
        assert (await stored(server, someone, "refunded"))["refundAmount"] == PAID
        assert [r["amount"] for r in await refunds_at_provider(server, someone)] == [PAID]


async def test_cancelling_a_reservation_not_yet_booked_mails_the_person(
    server: ServerProcess,
) -> None:
    async with person(server.url, "prenatal", complete=True) as waiting:
        await hold_first_free(waiting, 3)
        assert "data" in await waiting.call(
            "appointment-updateStatus",
            {"appointmentId": waiting.appointment_id, "status": "submitted"},
        )
        stranger = await sign_in(server.url, unique_email("stranger"))
        refused = await call_http(
            server.url,
            "appointment-cancelQuote",
            {"appointmentId": waiting.appointment_id},
            stranger.token,
        )
        assert refused[0] == 403, refused
        assert (await quote(waiting))["refund"] is None  # nothing paid yet
        assert await cancel(waiting) == {"status": "cancelled", "refund": None}
    async with person(server.url, "prenatal") as holding:
        await hold_first_free(holding, 4)
        assert await cancel(holding) == {"status": "cancelled", "refund": None}
    for someone in (waiting, holding):
        mails = await outbox(server.url, someone.email)
        told = [m for m in mails if "お申し込み中" in m["subject"] or "reservation" in m["subject"]]
        assert len(told) == 1, [m["subject"] for m in mails]
        assert not told[0]["attachments"]  # no invitation was ever sent
