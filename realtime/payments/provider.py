"""The official Stripe SDK, pointed at Stripe or at a server speaking its API (STRIPE_API_BASE)."""

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import stripe

from realtime.settings import Settings


def stripe_client(settings: Settings) -> stripe.StripeClient:
    if settings.stripe_api_base:
        return stripe.StripeClient(
            settings.stripe_secret_key,
            base_addresses={"api": settings.stripe_api_base},
            max_network_retries=0,
        )
    return stripe.StripeClient(settings.stripe_secret_key, max_network_retries=2)


def _plain(obj: stripe.StripeObject) -> dict[str, Any]:
    plain: dict[str, Any] = obj.to_dict()
    return plain


class PaymentProvider:
    """The calls the product makes, async, with Stripe's objects as plain dicts."""

    def __init__(self, client: stripe.StripeClient) -> None:
        self.client = client

    async def create_session(
        self,
        *,
        appointment_id: str,
        attempt: int,
        amount: int,
        currency: str,
        product_name: str,
        locale: str,
        email: str,
        success_url: str,
        cancel_url: str,
        expires_at: datetime,
    ) -> dict[str, Any]:
        session = await self.client.v1.checkout.sessions.create_async(
            {
                "mode": "payment",
                "line_items": [
                    {
                        "price_data": {
                            "currency": currency.lower(),
                            "unit_amount": amount,
                            "product_data": {"name": product_name},
                        },
                        "quantity": 1,
                    }
                ],
                "success_url": success_url,
                "cancel_url": cancel_url,
                "client_reference_id": appointment_id,
                "metadata": {"appointmentId": appointment_id, "attempt": str(attempt)},
                "payment_intent_data": {"metadata": {"appointmentId": appointment_id}},
                "locale": locale,
                "customer_email": email,
                "expires_at": int(expires_at.timestamp()),
            },
            {"idempotency_key": f"checkout-{appointment_id}-{attempt}"},
        )
        return _plain(session)

    async def retrieve_session(self, session_id: str) -> dict[str, Any]:
        return _plain(await self.client.v1.checkout.sessions.retrieve_async(session_id))

    async def expire_session(self, session_id: str) -> None:
        await self.client.v1.checkout.sessions.expire_async(session_id)

    async def refund(
        self, *, payment_intent: str, appointment_id: str, reason: str, amount: int | None = None
    ) -> tuple[str, int]:
        """Refund `amount` (smallest currency unit; None: all that is left) of the payment;
        the refund's id and amount. One idempotency key per payment intent: a payment is
        refunded once, and a retry with the same parameters (the reconciliation job reads
        them from the appointment) gets the refund made the first time."""
        params: dict[str, Any] = {
            "payment_intent": payment_intent,
            "metadata": {"appointmentId": appointment_id, "why": reason},
        }
        if amount is not None:
            params["amount"] = amount
        refund = await self.client.v1.refunds.create_async(
            params,  # type: ignore[arg-type]
            {"idempotency_key": f"refund-{payment_intent}"},
        )
        return str(refund.id), int(refund.amount)

    async def receipt_url(self, payment_intent: str) -> str | None:
        """The address of the payment's receipt (its charge's `receipt_url`), None if none."""
        intent = await self.client.v1.payment_intents.retrieve_async(
            payment_intent, {"expand": ["latest_charge"]}
        )
        charge = intent.latest_charge
        url = None if charge is None or isinstance(charge, str) else charge.receipt_url
        # Shown as a link on My booking: a web address only, never another scheme.
        if not isinstance(url, str) or urlsplit(url).scheme not in ("https", "http"):
            return None
        return url
