"""POST /stripe/webhook: verified on the raw body, applied once, answered fast."""

import logging
from typing import Any

import stripe
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from realtime.payments.apply import Kind, apply_checkout
from realtime.payments.verify import checkout_to_apply
from realtime.state import AppState

log = logging.getLogger(__name__)

# Event type -> what it means for the appointment. Other types are acknowledged and ignored.
KINDS: dict[str, Kind] = {
    "checkout.session.completed": "paid",
    "checkout.session.async_payment_succeeded": "paid",
    "checkout.session.expired": "expired",
    "checkout.session.async_payment_failed": "failed",
}
PAID = ("paid", "no_payment_required")


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
    checkout: dict[str, Any] | None = event["data"]["object"].to_dict()
    if kind == "paid":
        try:
            checkout = await checkout_to_apply(state, checkout or {})
        except stripe.StripeError:
            log.warning("payment provider unreachable; event %s left for a retry", event["id"])
            return JSONResponse({"error": "payment provider unavailable"}, status_code=503)
        if checkout is None or checkout.get("payment_status") not in PAID:
            kind = None  # not ours, or completed but not paid yet (delayed methods): wait
    if kind is not None and checkout is not None:
        await apply_checkout(
            state, event_id=event["id"], event_type=event["type"], kind=kind, checkout=checkout
        )
    return JSONResponse({"received": True})
