"""The in-memory Stripe account: sessions, payments, refunds, events and their rules.

Every method that reads or changes state is synchronous and is called with `lock` held,
so each request's check-then-change runs as one step under asyncio; webhook sending
happens afterwards in the deliverer's own tasks.
"""

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

from infra.stripe_local.errors import StripeError, card_declined, invalid, missing, required
from infra.stripe_local.models import (
    JSON,
    Event,
    LineItem,
    PaymentIntent,
    Refund,
    Session,
    format_amount,
    now,
)
from infra.stripe_local.webhooks import Deliverer, Delivery, WebhookSettings

# The version the events carry when the creating request did not send Stripe-Version.
DEFAULT_API_VERSION = "2026-10-28.endive"

MIN_EXPIRY = 30 * 60
MAX_EXPIRY = 24 * 60 * 60

SESSION_EVENT_TYPES = (
    "checkout.session.completed",
    "checkout.session.expired",
    "checkout.session.async_payment_failed",
    "checkout.session.async_payment_succeeded",
)

LOCALES = (
    *("auto", "bg", "cs", "da", "de", "el", "en", "en-GB", "es", "es-419", "et", "fi", "fil"),
    *("fr", "fr-CA", "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "ms", "mt", "nb", "nl"),
    *("pl", "pt", "pt-BR", "ro", "ru", "sk", "sl", "sv", "th", "tr", "vi", "zh", "zh-HK", "zh-TW"),
)

# Params of POST /v1/checkout/sessions this server uses.
SESSION_PARAMS = {
    "mode",
    "line_items",
    "success_url",
    "cancel_url",
    "client_reference_id",
    "metadata",
    "locale",
    "expires_at",
    "customer_email",
    "payment_intent_data",
    "expand",
    "ui_mode",
}
# Real Stripe params accepted and ignored (they change nothing in a local test checkout).
SESSION_IGNORED_PARAMS = {
    "after_expiration",
    "allow_promotion_codes",
    "automatic_tax",
    "billing_address_collection",
    "consent_collection",
    "currency",
    "custom_fields",
    "custom_text",
    "customer_creation",
    "invoice_creation",
    "payment_method_collection",
    "payment_method_configuration",
    "payment_method_options",
    "payment_method_types",
    "phone_number_collection",
    "saved_payment_method_options",
    "shipping_address_collection",
    "shipping_options",
    "submit_type",
    "tax_id_collection",
}
REFUND_PARAMS = {"payment_intent", "charge", "amount", "metadata", "reason", "expand"}
REFUND_IGNORED_PARAMS = {
    "instructions_email",
    "origin",
    "refund_application_fee",
    "reverse_transfer",
}
REFUND_REASONS = ("duplicate", "fraudulent", "requested_by_customer")

# Stripe's test cards that fail; every other number pays.
DECLINED_CARDS = {
    "4000000000000002": "generic_decline",
    "4000000000009995": "insufficient_funds",
}
DEFAULT_CARD = "4242424242424242"

_URL = re.compile(r"^https?://[^\s/]+", re.IGNORECASE)


@dataclass(frozen=True)
class RequestInfo:
    """The API request behind an event (`event.request`); None fields for automatic ones."""

    id: str | None = None
    idempotency_key: str | None = None


@dataclass
class IdempotentResult:
    method: str
    path: str
    params: dict[str, Any]
    status: int
    body: JSON


class StripeLocal:
    def __init__(self, webhooks: WebhookSettings, public_url: str | None = None) -> None:
        self.lock = asyncio.Lock()
        self.webhooks = webhooks
        self.deliverer = Deliverer(webhooks)
        self.public_url = public_url
        self._clear()

    def _clear(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.payment_intents: dict[str, PaymentIntent] = {}
        self.charges: dict[str, str] = {}  # charge id -> payment intent id
        self.refunds: dict[str, Refund] = {}
        self.events: dict[str, Event] = {}
        self.deliveries: dict[str, list[Delivery]] = {}
        self.idempotency: dict[tuple[str, str], IdempotentResult] = {}

    async def reset(self) -> None:
        """Forget everything and stop deliveries still being retried."""
        await self.deliverer.cancel_all()
        self._clear()

    # ----- rendering -----

    def base_url(self) -> str:
        return self.public_url or "http://127.0.0.1"

    def session_json(self, session: Session, expand: list[str] | None = None) -> JSON:
        body = session.to_json(self.base_url())
        for name in expand or []:
            if name == "line_items":
                body["line_items"] = session.line_items_json()
            elif name == "payment_intent":
                if session.payment_intent is not None:
                    body["payment_intent"] = self.payment_intents[session.payment_intent].to_json()
            else:
                raise invalid("expand", f"This property cannot be expanded ({name}).")
        return body

    def payment_intent_json(self, pi: PaymentIntent, expand: list[str] | None = None) -> JSON:
        body = pi.to_json()
        for name in expand or []:
            if name == "latest_charge":
                body["latest_charge"] = self.charge_json(pi)
            else:
                raise invalid("expand", f"This property cannot be expanded ({name}).")
        return body

    def charge_json(self, pi: PaymentIntent) -> JSON:
        body = pi.charge_json([self.refunds[r].to_json() for r in pi.refund_ids])
        # As on Stripe: a page the payer may open and print (hosted.py `receipt`).
        body["receipt_url"] = f"{self.base_url()}/receipts/{pi.charge_id}"
        return body

    # ----- checkout sessions -----

    def create_session(self, params: dict[str, Any], *, api_version: str | None) -> Session:
        for name in params:
            if name not in SESSION_PARAMS and name not in SESSION_IGNORED_PARAMS:
                raise invalid(name, f"Received unknown parameter: {name}", "parameter_unknown")
        mode = _string(params, "mode")
        if mode is None:
            raise required("mode")
        if mode not in ("payment", "setup", "subscription"):
            raise invalid(
                "mode", f"Invalid mode: must be one of payment, setup, or subscription ({mode})"
            )
        if mode != "payment":
            raise invalid("mode", f"stripe-local supports only mode=payment, not {mode}.")
        ui_mode = _string(params, "ui_mode")
        if ui_mode not in (None, "hosted"):
            raise invalid("ui_mode", f"stripe-local supports only ui_mode=hosted, not {ui_mode}.")

        created = now()
        line_items = _line_items(params.get("line_items"))
        currency = line_items[0].currency
        for index, item in enumerate(line_items):
            if item.currency != currency:
                raise invalid(
                    f"line_items[{index}][price_data][currency]",
                    "All line items must have the same currency.",
                )

        expires_at = created + MAX_EXPIRY
        if "expires_at" in params:
            expires_at = _integer(params, "expires_at")
            if expires_at < created + MIN_EXPIRY:
                raise invalid(
                    "expires_at",
                    "The `expires_at` timestamp must be at least 30 minutes from Checkout "
                    "Session creation.",
                    "parameter_invalid_integer",
                )
            if expires_at > created + MAX_EXPIRY:
                raise invalid(
                    "expires_at",
                    "The `expires_at` timestamp must be less than 24 hours from Checkout "
                    "Session creation.",
                    "parameter_invalid_integer",
                )

        success_url = _url(params, "success_url")
        cancel_url = _url(params, "cancel_url")
        client_reference_id = _string(params, "client_reference_id")
        if client_reference_id is not None and len(client_reference_id) > 200:
            raise invalid(
                "client_reference_id",
                "Invalid client_reference_id: must be at most 200 characters",
            )
        locale = _string(params, "locale")
        if locale is not None and locale not in LOCALES:
            raise invalid("locale", f"Invalid locale: must be one of {', '.join(LOCALES)}")
        customer_email = _string(params, "customer_email")
        if customer_email is not None and not re.fullmatch(r"[^@\s]+@[^@\s]+", customer_email):
            raise invalid("customer_email", f"Invalid email address: {customer_email}")

        pi_data = params.get("payment_intent_data") or {}
        if not isinstance(pi_data, dict):
            raise invalid("payment_intent_data", "Invalid payment_intent_data: must be a hash")
        pi_metadata = _metadata(pi_data.get("metadata"), "payment_intent_data[metadata]")
        pi_description = pi_data.get("description")

        session = Session(
            created=created,
            expires_at=expires_at,
            mode=mode,
            currency=currency,
            line_items=line_items,
            success_url=success_url,
            cancel_url=cancel_url,
            client_reference_id=client_reference_id,
            metadata=_metadata(params.get("metadata"), "metadata"),
            locale=locale,
            customer_email=customer_email,
            payment_intent_metadata=pi_metadata,
            payment_intent_description=pi_description if isinstance(pi_description, str) else None,
            api_version=api_version or DEFAULT_API_VERSION,
        )
        self.sessions[session.id] = session
        return session

    def get_session(self, session_id: str) -> Session:
        session = self.sessions.get(session_id)
        if session is None:
            raise missing("checkout.session", session_id)
        return session

    def expire_session(self, session_id: str, request: RequestInfo) -> Session:
        session = self.get_session(session_id)
        self.sweep_session(session)
        if session.status != "open":
            raise StripeError(
                400,
                'Only Checkout Sessions with a status in ["open"] can be expired. '
                f"This Checkout Session has a status of `{session.status}`.",
            )
        session.status = "expired"
        self.emit("checkout.session.expired", session, request)
        return session

    def sweep_session(self, session: Session) -> bool:
        """Expire an open session whose `expires_at` has passed (and send the event)."""
        if session.status == "open" and now() >= session.expires_at:
            session.status = "expired"
            self.emit("checkout.session.expired", session, RequestInfo())
            return True
        return False

    def sweep(self) -> int:
        return sum(self.sweep_session(s) for s in list(self.sessions.values()))

    def timeout_session(self, session_id: str) -> Session:
        """As if `expires_at` had passed now: what Stripe does on its own at expiry."""
        session = self.get_session(session_id)
        if session.status != "open":
            raise StripeError(
                400, f"This Checkout Session is not open (status `{session.status}`)."
            )
        session.expires_at = min(session.expires_at, now())
        self.sweep_session(session)
        return session

    def pay(
        self,
        session_id: str,
        *,
        card: str | None = None,
        email: str | None = None,
        name: str | None = None,
    ) -> Session:
        """Pay an open session with a test card (what the hosted page's Pay button does)."""
        session = self.get_session(session_id)
        self.sweep_session(session)
        if session.status != "open":
            raise StripeError(
                400,
                f"This Checkout Session is no longer open (status `{session.status}`).",
                code="checkout_session_not_open",
            )
        number = re.sub(r"\D", "", card or DEFAULT_CARD)
        if len(number) < 12:
            raise StripeError(
                402,
                "Your card number is incomplete.",
                type="card_error",
                code="incomplete_number",
                param="card",
            )
        decline_code = DECLINED_CARDS.get(number)
        if decline_code is not None:
            error = card_declined()
            error.extra["decline_code"] = decline_code
            if decline_code == "insufficient_funds":
                error.message = "Your card has insufficient funds."
            raise error
        payer_email = email or session.customer_email
        pi = PaymentIntent(
            amount=session.amount_total,
            currency=session.currency,
            metadata=dict(session.payment_intent_metadata),
            description=session.payment_intent_description,
            receipt_email=None,
            session_id=session.id,
        )
        self.payment_intents[pi.id] = pi
        self.charges[pi.charge_id] = pi.id
        session.status = "complete"
        session.payment_status = "paid"
        session.payment_intent = pi.id
        session.customer_details = {
            "address": None,
            "email": payer_email,
            "name": name or None,
            "phone": None,
            "tax_exempt": "none",
            "tax_ids": [],
        }
        self.emit("checkout.session.completed", session, RequestInfo())
        return session

    def fire(self, session_id: str, event_type: str) -> Event:
        """Send an event of `event_type` for the session as it is now (state unchanged)."""
        session = self.get_session(session_id)
        if event_type not in SESSION_EVENT_TYPES:
            raise invalid("type", f"type must be one of {', '.join(SESSION_EVENT_TYPES)}")
        return self.emit(event_type, session, RequestInfo())

    # ----- payment intents and refunds -----

    def get_payment_intent(
        self, pi_id: str, *, param: str = "id", status: int = 404
    ) -> PaymentIntent:
        pi = self.payment_intents.get(pi_id)
        if pi is None:
            raise missing("payment_intent", pi_id, param=param, status=status)
        return pi

    def get_charge(self, charge_id: str, *, param: str = "id", status: int = 404) -> PaymentIntent:
        pi_id = self.charges.get(charge_id)
        if pi_id is None:
            raise missing("charge", charge_id, param=param, status=status)
        return self.payment_intents[pi_id]

    def get_refund(self, refund_id: str) -> Refund:
        refund = self.refunds.get(refund_id)
        if refund is None:
            raise missing("refund", refund_id)
        return refund

    def create_refund(self, params: dict[str, Any]) -> Refund:
        for name in params:
            if name not in REFUND_PARAMS and name not in REFUND_IGNORED_PARAMS:
                raise invalid(name, f"Received unknown parameter: {name}", "parameter_unknown")
        pi_id = _string(params, "payment_intent")
        charge_id = _string(params, "charge")
        if pi_id is not None:
            pi = self.get_payment_intent(pi_id, param="payment_intent", status=400)
            if charge_id is not None and charge_id != pi.charge_id:
                raise invalid("charge", f"Charge {charge_id} does not belong to {pi_id}.")
        elif charge_id is not None:
            pi = self.get_charge(charge_id, param="charge", status=400)
        else:
            raise StripeError(
                400,
                "One of the following params should be provided for this request: "
                "payment_intent or charge.",
                code="parameter_missing",
            )
        reason = _string(params, "reason")
        if reason is not None and reason not in REFUND_REASONS:
            raise invalid(
                "reason",
                "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer",
            )
        metadata = _metadata(params.get("metadata"), "metadata")
        remaining = pi.amount - pi.amount_refunded
        amount = _integer(params, "amount") if "amount" in params else remaining
        if remaining <= 0:
            raise StripeError(
                400,
                f"Charge {pi.charge_id} has already been refunded.",
                code="charge_already_refunded",
            )
        if amount <= 0:
            raise invalid("amount", "Invalid positive integer", "parameter_invalid_integer")
        if amount > remaining:
            raise StripeError(
                400,
                f"Refund amount ({format_amount(amount, pi.currency)}) is greater than "
                f"unrefunded amount on charge ({format_amount(remaining, pi.currency)})",
                code="amount_too_large",
                param="amount",
            )
        refund = Refund(
            amount=amount,
            currency=pi.currency,
            payment_intent=pi.id,
            charge=pi.charge_id,
            metadata=metadata,
            reason=reason,
        )
        self.refunds[refund.id] = refund
        pi.amount_refunded += amount
        pi.refund_ids.append(refund.id)
        return refund

    # ----- events -----

    def emit(self, event_type: str, session: Session, request: RequestInfo) -> Event:
        event = Event(
            type=event_type,
            api_version=session.api_version,
            data_object=self.session_json(session),
            request_id=request.id,
            idempotency_key=request.idempotency_key,
            session_id=session.id,
        )
        pending = 1 if self.webhooks.url else 0
        event.payload = _dumps(event.to_json(pending))
        self.events[event.id] = event
        self.deliveries[event.id] = [self.deliverer.deliver(event.id, event.payload)]
        return event

    def get_event(self, event_id: str) -> Event:
        event = self.events.get(event_id)
        if event is None:
            raise missing("event", event_id)
        return event

    def resend(self, event_id: str) -> Delivery:
        """Deliver the same event (same id, same body, fresh signature) once more."""
        event = self.get_event(event_id)
        delivery = self.deliverer.deliver(event.id, event.payload)
        self.deliveries[event.id].append(delivery)
        return delivery

    def event_json(self, event: Event) -> JSON:
        return _loads(event.payload)

    def event_record(self, event: Event) -> JSON:
        deliveries = self.deliveries.get(event.id, [])
        return {
            "id": event.id,
            "type": event.type,
            "created": event.created,
            "session_id": event.session_id,
            "deliveries": [d.to_json() for d in deliveries],
            "event": _loads(event.payload),
        }


def _dumps(value: JSON) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _loads(value: str) -> JSON:
    loaded: JSON = json.loads(value)
    return loaded


# ----- param helpers -----


def _string(params: dict[str, Any], name: str) -> str | None:
    value = params.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid(name, f"Invalid string: {name} must be a string")
    return value if value != "" else None


def _integer(params: dict[str, Any], name: str) -> int:
    value = params.get(name)
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    raise invalid(name, f"Invalid integer: {value}", "parameter_invalid_integer")


def _url(params: dict[str, Any], name: str) -> str | None:
    value = _string(params, name)
    if value is not None and not _URL.match(value):
        raise invalid(name, "Not a valid URL", "url_invalid")
    return value


def _metadata(value: Any, param: str) -> dict[str, str]:
    if value is None or value == "":
        return {}
    if isinstance(value, list):
        value = {str(i): v for i, v in enumerate(value)}
    if not isinstance(value, dict):
        raise invalid(param, f"Invalid {param}: must be a hash")
    result: dict[str, str] = {}
    for key, item in value.items():
        if not isinstance(item, str):
            raise invalid(f"{param}[{key}]", f"Invalid {param}[{key}]: must be a string")
        if len(key) > 40:
            raise invalid(param, f"Metadata keys can have up to 40 characters ({key}).")
        if len(item) > 500:
            raise invalid(param, f"Metadata values can have up to 500 characters ({key}).")
        if item != "":
            result[key] = item
    if len(result) > 50:
        raise invalid(param, "Metadata can have up to 50 keys.")
    return result


def _line_items(value: Any) -> list[LineItem]:
    if value is None or value == "":
        raise required("line_items")
    if not isinstance(value, list) or not value:
        raise invalid("line_items", "Invalid array: line_items must be a list of hashes")
    items: list[LineItem] = []
    for index, raw in enumerate(value):
        prefix = f"line_items[{index}]"
        if not isinstance(raw, dict):
            raise invalid(prefix, f"Invalid hash: {prefix}")
        if "price" in raw:
            raise missing("price", str(raw["price"]), param=f"{prefix}[price]", status=400)
        price_data = raw.get("price_data")
        if not isinstance(price_data, dict):
            raise StripeError(
                400,
                f"You must specify either `price` or `price_data` in {prefix}.",
                code="parameter_missing",
                param=prefix,
            )
        currency = _string(price_data, "currency")
        if currency is None:
            raise required(f"{prefix}[price_data][currency]")
        if "unit_amount" not in price_data:
            raise required(f"{prefix}[price_data][unit_amount]")
        unit_amount = _integer(price_data, "unit_amount")
        if unit_amount < 0:
            raise invalid(
                f"{prefix}[price_data][unit_amount]",
                "This value must be greater than or equal to 0.",
                "parameter_invalid_integer",
            )
        if "product" in price_data:
            raise missing(
                "product",
                str(price_data["product"]),
                param=f"{prefix}[price_data][product]",
                status=400,
            )
        product_data = price_data.get("product_data")
        name = _string(product_data, "name") if isinstance(product_data, dict) else None
        if name is None:
            raise required(f"{prefix}[price_data][product_data][name]")
        if "quantity" not in raw:
            raise required(f"{prefix}[quantity]")
        quantity = _integer(raw, "quantity")
        if quantity < 1:
            raise invalid(
                f"{prefix}[quantity]",
                "This value must be greater than or equal to 1.",
                "parameter_invalid_integer",
            )
        description = product_data.get("description") if isinstance(product_data, dict) else None
        items.append(
            LineItem(
                name=name,
                unit_amount=unit_amount,
                quantity=quantity,
                currency=currency.lower(),
                description=description if isinstance(description, str) else None,
            )
        )
    return items
