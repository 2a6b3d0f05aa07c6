"""Card payment through infra/stripe_local (a real process speaking Stripe's API and sending
Stripe-signed webhooks): money and slots always agree, on SQLite and PostgreSQL."""

import asyncio
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest_asyncio

from tests.support.booking import Person, free_slots, person, run_job
from tests.support.clients import outbox
from tests.support.server import ServerProcess
from tests.support.stripe_local import WEBHOOK_SECRET, StripeLocal

PRICE = {"amount_total": 16500, "currency": "jpy"}  # prenatal-b2c (storage/demo.py)


async def hold_first_free(someone: Person, index: int = 0) -> None:
    slot = (await free_slots(someone.sock, "prenatal"))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])


@pytest_asyncio.fixture
async def paying(server: ServerProcess) -> AsyncIterator[Person]:
    """A person with a complete prenatal-b2c intake, a held slot, submitted: pending payment."""
    async with person(server.url, "prenatal", complete=True) as someone:
        await hold_first_free(someone)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        yield someone


@pytest_asyncio.fixture
async def holding(server: ServerProcess) -> AsyncIterator[Person]:
    """A prenatal-b2c draft that is a hold only: consent given, no intake, terms not agreed,
    never submitted (the appointment of issue #12's forged payment)."""
    async with person(server.url, "prenatal") as someone:
        info = await someone.call("service-read", {"id": "prenatal", "clinicId": "demo-clinic"})
        consent = {"appointmentId": someone.appointment_id}
        assert "data" in await someone.call(
            "appointment-consent", {**consent, "version": info["data"]["consentVersion"]}
        )
        await hold_first_free(someone, 1)
        yield someone


async def checkout(someone: Person) -> dict[str, Any]:
    reply = await someone.call(
        "stripe-createCheckoutSession", {"appointmentId": someone.appointment_id}
    )
    assert "data" in reply, reply
    data: dict[str, Any] = reply["data"]
    return data


async def settled(someone: Person, wanted: str) -> dict[str, Any]:
    for _ in range(100):
        document = await someone.document()
        if (document["payment"] or {}).get("status") == wanted:
            return document
        await asyncio.sleep(0.1)
    raise AssertionError(f"payment never became {wanted}: {document['payment']}")


def provider(server: ServerProcess) -> StripeLocal:
    local: StripeLocal = server.payments
    return local


async def session_at_provider(
    stripe: StripeLocal, appointment_id: str, *, currency: str, amount: str, name: str
) -> str:
    """A Checkout Session made straight at the provider for `appointment_id`, as a person
    with the secret key could, bypassing stripe-createCheckoutSession; returns its id."""
    async with httpx.AsyncClient(base_url=stripe.url) as http:
        created = await http.post(
            "/v1/checkout/sessions",
            headers={"Authorization": "Bearer sk_test_local"},
            data={
                "mode": "payment",
                "success_url": "http://x/ok",
                "cancel_url": "http://x/no",
                "line_items[0][price_data][currency]": currency,
                "line_items[0][price_data][unit_amount]": amount,
                "line_items[0][price_data][product_data][name]": name,
                "line_items[0][quantity]": "1",
                "metadata[appointmentId]": appointment_id,
            },
        )
    session_id: str = created.json()["id"]
    return session_id


async def test_paying_confirms_the_booking(server: ServerProcess, paying: Person) -> None:
    session = await checkout(paying)
    assert session["sessionId"].startswith("cs_") and session["url"].startswith("http://127.0.0.1")
    pending = await paying.document()
    assert pending["payment"]["status"] == "open"
    held_until = datetime.fromisoformat(pending["holdExpiresAt"].replace("Z", "+00:00"))
    assert held_until - datetime.now(UTC) > timedelta(minutes=30)  # covers the session
    assert (await checkout(paying))["sessionId"] == session["sessionId"]  # one open session
    await provider(server).control("POST", f"/sessions/{session['sessionId']}/pay?wait=1")
    confirmed = await settled(paying, "paid")
    assert confirmed["status"] == "confirmed" and confirmed["joinUrl"]
    status = await paying.call("stripe-getSessionStatus", {"sessionId": session["sessionId"]})
    assert status["data"]["paymentStatus"] == "paid"
    assert status["data"]["appointmentStatus"] == "confirmed"
    mails = await outbox(server.url, paying.email)
    assert any("confirmed" in m["subject"] or "確定" in m["subject"] for m in mails)


async def test_duplicate_and_out_of_order_events_change_nothing(
    server: ServerProcess, paying: Person
) -> None:
    session = (await checkout(paying))["sessionId"]
    stripe = provider(server)
    await stripe.control("POST", f"/sessions/{session}/pay?wait=1")
    confirmed = await settled(paying, "paid")
    events = await stripe.control("GET", f"/events?session={session}")
    completed = next(e for e in events["data"] if e["type"] == "checkout.session.completed")
    await stripe.control("POST", f"/events/{completed['id']}/resend?wait=1")
    await stripe.control(
        "POST", f"/sessions/{session}/fire?wait=1", json={"type": "checkout.session.expired"}
    )
    after = await paying.document()
    assert after["status"] == "confirmed"
    assert after["payment"] == confirmed["payment"]


async def test_bad_signatures_are_refused(server: ServerProcess) -> None:
    body = b'{"id": "evt_x", "type": "checkout.session.completed", "data": {"object": {}}}'
    async with httpx.AsyncClient(base_url=server.url) as http:
        for signature in ("", "t=1,v1=deadbeef", f"t={int(datetime.now(UTC).timestamp())},v1=00"):
            reply = await http.post(
                "/stripe/webhook", content=body, headers={"Stripe-Signature": signature}
            )
            assert reply.status_code == 400


async def test_a_session_that_expires_returns_the_appointment_to_draft(
    server: ServerProcess, paying: Person
) -> None:
    session = (await checkout(paying))["sessionId"]
    await provider(server).control("POST", f"/sessions/{session}/timeout?wait=1")
    document = await settled(paying, "expired")
    assert document["status"] == "draft" and document["counselorId"] is None


async def test_a_payment_for_the_wrong_amount_is_refunded_not_confirmed(
    server: ServerProcess, paying: Person
) -> None:
    stripe = provider(server)
    forged = await session_at_provider(
        stripe, paying.appointment_id, currency="jpy", amount="100", name="cheap"
    )
    await stripe.control("POST", f"/sessions/{forged}/pay?wait=1")
    document = await settled(paying, "refunded")
    assert document["status"] != "confirmed"
    assert document["payment"]["refundReason"] == "amount_mismatch"
    detail = await stripe.control("GET", f"/sessions/{forged}")
    assert detail["refunds"], detail


async def test_a_late_payment_after_the_slot_went_elsewhere_is_refunded(
    server: ServerProcess, paying: Person
) -> None:
    stripe = provider(server)
    session = (await checkout(paying))["sessionId"]
    slot = (await paying.document())["payment"]["slot"]
    await stripe.control("POST", "/config", json={"webhook_url": "http://127.0.0.1:9/dead"})
    try:
        await stripe.control("POST", f"/sessions/{session}/pay")
        later = datetime.now(UTC) + timedelta(hours=1)
        assert await run_job(server.url, "expire-holds", later) >= 1
        async with person(server.url) as other:
            taken = await other.hold(slot["start"], slot["counselorId"])
            assert "data" in taken, taken
            await stripe.control(
                "POST", "/config", json={"webhook_url": f"{server.url}/stripe/webhook"}
            )
            events = await stripe.control("GET", f"/events?session={session}")
            completed = next(e for e in events["data"] if e["type"] == "checkout.session.completed")
            await stripe.control("POST", f"/events/{completed['id']}/resend?wait=1")
            document = await settled(paying, "refunded")
            # Its hold lapsed unpaid: the attempt ended (`expired`); the late money goes back.
            assert document["status"] == "expired"
            assert document["payment"]["refundReason"] == "not_bookable"
            assert (await other.document())["counselorId"] == slot["counselorId"]
    finally:
        await stripe.control(
            "POST", "/config", json={"webhook_url": f"{server.url}/stripe/webhook"}
        )
    told = await outbox(server.url, "contact@demo-clinic.example")
    assert any(paying.appointment_id in m["subject"] for m in told)


async def test_reconciliation_applies_a_lost_webhook(server: ServerProcess, paying: Person) -> None:
    stripe = provider(server)
    session = (await checkout(paying))["sessionId"]
    await stripe.control("POST", "/config", json={"webhook_url": "http://127.0.0.1:9/dead"})
    try:
        await stripe.control("POST", f"/sessions/{session}/pay")
    finally:
        await stripe.control(
            "POST", "/config", json={"webhook_url": f"{server.url}/stripe/webhook"}
        )
    assert (await paying.document())["status"] == "pending_payment"
    assert await run_job(server.url, "reconcile-payments", datetime.now(UTC)) >= 1
    assert (await settled(paying, "paid"))["status"] == "confirmed"


def forged_session(appointment_id: str, **fields: Any) -> dict[str, Any]:
    """A paid checkout session as a forger writes it: right amount, this appointment."""
    return {
        "id": f"cs_forged_{secrets.token_hex(8)}",
        "object": "checkout.session",
        "status": "complete",
        "payment_status": "paid",
        "payment_intent": f"pi_forged_{secrets.token_hex(8)}",
        "client_reference_id": appointment_id,
        "metadata": {"appointmentId": appointment_id},
        **PRICE,
        **fields,
    }


async def send_signed(server: ServerProcess, checkout: dict[str, Any]) -> None:
    """A `checkout.session.completed` signed with the server's webhook secret, as anyone who
    knows the secret (issue #12: the local default one) can send it."""
    body = json.dumps(
        {
            "id": f"evt_forged_{secrets.token_hex(8)}",
            "object": "event",
            "type": "checkout.session.completed",
            "data": {"object": checkout},
        }
    ).encode()
    stamp = int(time.time())
    mac = hmac.new(WEBHOOK_SECRET.encode(), f"{stamp}.".encode() + body, hashlib.sha256)
    async with httpx.AsyncClient(base_url=server.url) as http:
        reply = await http.post(
            "/stripe/webhook",
            content=body,
            headers={"Stripe-Signature": f"t={stamp},v1={mac.hexdigest()}"},
        )
    assert reply.status_code == 200, reply.text


async def test_a_forged_payment_never_confirms_a_draft(
    server: ServerProcess, holding: Person
) -> None:
    await send_signed(server, forged_session(holding.appointment_id))
    document = await holding.document()
    assert document["status"] == "draft" and document["payment"] is None
    assert not document["joinUrl"] and document["counselorId"]  # still only a hold
    mails = await outbox(server.url, holding.email)
    assert not any("confirmed" in m["subject"] or "確定" in m["subject"] for m in mails)


async def test_a_paid_event_for_a_session_that_is_not_the_appointments_confirms_nothing(
    server: ServerProcess, paying: Person
) -> None:
    own = (await checkout(paying))["sessionId"]
    await send_signed(server, forged_session(paying.appointment_id))  # unknown to the provider
    async with person(server.url, "prenatal", complete=True) as other:
        await hold_first_free(other, 2)
        assert "data" in await other.call(
            "appointment-updateStatus",
            {"appointmentId": other.appointment_id, "status": "submitted"},
        )
        foreign = (await checkout(other))["sessionId"]
        await provider(server).control("POST", f"/sessions/{foreign}/pay?wait=1")
        await settled(other, "paid")
        real = await provider(server).control("GET", f"/sessions/{foreign}")
        # Another appointment's real, paid session, relabelled for this one.
        await send_signed(
            server,
            forged_session(
                paying.appointment_id, id=foreign, payment_intent=real["payment_intent"]["id"]
            ),
        )
    document = await paying.document()
    assert document["status"] == "pending_payment"
    assert document["payment"]["status"] == "open" and document["payment"]["sessionId"] == own


async def test_a_real_payment_for_a_draft_never_submitted_is_refunded_and_the_clinic_told(
    server: ServerProcess, holding: Person
) -> None:
    stripe = provider(server)
    session = await session_at_provider(
        stripe,
        holding.appointment_id,
        currency=str(PRICE["currency"]),
        amount=str(PRICE["amount_total"]),
        name="no submit",
    )
    await stripe.control("POST", f"/sessions/{session}/pay?wait=1")
    document = await settled(holding, "refunded")
    assert document["status"] == "draft" and not document["joinUrl"]
    assert document["payment"]["refundReason"] == "not_submitted"
    assert (await stripe.control("GET", f"/sessions/{session}"))["refunds"]
    told = await outbox(server.url, "contact@demo-clinic.example")
    assert any(holding.appointment_id in m["subject"] for m in told)


async def test_a_paid_booking_keeps_its_receipt_address(server: ServerProcess) -> None:
    """Once the payment lands, its receipt's address (the charge's `receipt_url`) is kept on
    the payment, shown by My booking, and opens the provider's receipt page."""
    async with person(server.url, "prenatal", complete=True) as someone:
        await hold_first_free(someone, 5)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}, submitted
        session = await checkout(someone)
        await provider(server).control("POST", f"/sessions/{session['sessionId']}/pay?wait=1")
        await settled(someone, "paid")
        url = None
        for _ in range(100):
            mine = await someone.call("appointments-mine", {})
            url = mine["data"]["appointments"][0]["payment"].get("receiptUrl")
            if url:
                break
            await asyncio.sleep(0.1)
        assert url and url.startswith(provider(server).url + "/receipts/ch_"), url
        assert (await someone.document())["payment"]["receiptUrl"] == url
    async with httpx.AsyncClient() as http:
        page = await http.get(url)
    assert page.status_code == 200 and "16,500" in page.text
