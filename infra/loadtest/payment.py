"""Paying a priced booking (`--pay`): a Checkout Session through the product, paid on the
local Stripe-compatible server (infra/stripe_local/README.md, "Test controls"), whose
webhook confirms the booking. Only against a deployment that uses that server."""

import time
from urllib.parse import urlsplit

import httpx

from infra.loadtest.context import Booking, Context, Expectation
from infra.loadtest.wire import CallFailed, LiveSocket

MEASURE = "pay checkout"


async def pay(ctx: Context, sock: LiveSocket, booking: Booking) -> None:
    created = await sock.call(
        "stripe-createCheckoutSession", {"appointmentId": booking.appointment_id}
    )
    session_id = created["data"]["sessionId"]
    parts = urlsplit(created["data"]["url"])
    sent = ctx.recorder.now()
    begun = time.monotonic()
    try:
        async with httpx.AsyncClient(
            base_url=f"{parts.scheme}://{parts.netloc}", timeout=ctx.options.call_timeout
        ) as http:
            # `wait`: the answer comes once the webhook has been delivered (and answered).
            reply = await http.post(f"/_control/sessions/{session_id}/pay", params={"wait": "1"})
        reply.raise_for_status()
    except Exception as exc:
        ctx.recorder.error(f"{MEASURE}:{type(exc).__name__}", repr(exc))
        raise CallFailed(MEASURE) from exc
    ctx.recorder.sample(MEASURE, time.monotonic() - begun)
    ctx.recorder.count("requests")
    booking.paid = True
    ctx.expectations.append(
        Expectation(booking.appointment_id, "confirmed", sent, ctx.recorder.now())
    )
    ctx.recorder.count("bookings paid")
