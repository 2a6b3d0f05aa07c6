"""POST /stripe/webhook: verified on the raw body, applied once, answered fast."""

import logging
from typing import Any

import stripe
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from realtime.payments.apply import Kind, apply_checkout
from realtime.state import AppState

log = logging.getLogger(__name__)

# Event type -> what it means for the appointment. Other types are acknowledged and ignored.
KINDS: dict[str, Kind] = {
    "checkout.session.completed": "paid",
    "checkout.session.async_payment_succeeded": "paid",
    "checkout.session.expired": "expired",
    "checkout.session.async_payment_failed": "failed",
}


async def stripe_webhook(request: Request) -> Response:
    state: AppState = request.app.state.app
    payload = await request.body()
    try:
        event: Any = stripe.Webhook.construct_event(
            payload,
            request.headers.get("stripe-signature", ""),
            state.settings.stripe_webhook_secret,
        )
    except (ValueError, stripe.SignatureVerificationError):
        return JSONResponse({"error": "invalid signature"}, status_code=400)
    kind = KINDS.get(event["type"])
    checkout = event["data"]["object"].to_dict()
    if kind == "paid" and checkout.get("payment_status") not in ("paid", "no_payment_required"):
        kind = None  # completed but not paid yet (delayed methods): wait for the next event
    if kind is not None:
        await apply_checkout(
            state, event_id=event["id"], event_type=event["type"], kind=kind, checkout=checkout
        )
    return JSONResponse({"received": True})
