"""The objects kept in memory, each rendered as Stripe renders it."""

import secrets
import string
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

ZERO_DECIMAL = frozenset(
    {"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga"}
    | {"pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"}
)
SYMBOLS = {"jpy": "¥", "usd": "$", "eur": "€", "gbp": "£", "cny": "CN¥", "krw": "₩"}
_ALPHABET = string.ascii_letters + string.digits


def new_id(prefix: str, length: int = 24) -> str:
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(length))


def now() -> int:
    return int(time.time())


def format_amount(amount: int, currency: str) -> str:
    """¥16,500 / $12.34 (amounts are in the currency's smallest unit)."""
    currency = currency.lower()
    number = f"{amount:,}" if currency in ZERO_DECIMAL else f"{amount / 100:,.2f}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{number}" if symbol else f"{number} {currency.upper()}"


@dataclass
class LineItem:
    name: str
    unit_amount: int
    quantity: int
    currency: str
    description: str | None = None
    id: str = field(default_factory=lambda: new_id("li_"))
    price_id: str = field(default_factory=lambda: new_id("price_"))
    product_id: str = field(default_factory=lambda: new_id("prod_", 14))
    created: int = field(default_factory=now)

    @property
    def amount(self) -> int:
        return self.unit_amount * self.quantity

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "object": "item",
            "amount_discount": 0,
            "amount_subtotal": self.amount,
            "amount_tax": 0,
            "amount_total": self.amount,
            "currency": self.currency,
            "description": self.name,
            "price": {
                "id": self.price_id,
                "object": "price",
                "active": False,
                "billing_scheme": "per_unit",
                "created": self.created,
                "currency": self.currency,
                "custom_unit_amount": None,
                "livemode": False,
                "lookup_key": None,
                "metadata": {},
                "nickname": None,
                "product": self.product_id,
                "recurring": None,
                "tax_behavior": "unspecified",
                "tiers_mode": None,
                "transform_quantity": None,
                "type": "one_time",
                "unit_amount": self.unit_amount,
                "unit_amount_decimal": str(self.unit_amount),
            },
            "quantity": self.quantity,
        }


@dataclass
class Session:
    created: int
    expires_at: int
    mode: str
    currency: str
    line_items: list[LineItem]
    success_url: str | None
    cancel_url: str | None
    client_reference_id: str | None
    metadata: dict[str, str]
    locale: str | None
    customer_email: str | None
    payment_intent_metadata: dict[str, str]
    payment_intent_description: str | None
    api_version: str
    id: str = field(default_factory=lambda: new_id("cs_test_a1", 56))
    status: str = "open"
    payment_status: str = "unpaid"
    payment_intent: str | None = None
    customer_details: JSON | None = None

    @property
    def amount_total(self) -> int:
        return sum(item.amount for item in self.line_items)

    @property
    def product_name(self) -> str:
        return ", ".join(item.name for item in self.line_items)

    def page_path(self) -> str:
        return f"/checkout/{self.id}"

    def redirect_url(self, url: str) -> str:
        """Where Stripe sends the payer after paying: the {CHECKOUT_SESSION_ID} template filled."""
        return url.replace("{CHECKOUT_SESSION_ID}", self.id)

    def line_items_json(self) -> JSON:
        return {
            "object": "list",
            "data": [item.to_json() for item in self.line_items],
            "has_more": False,
            "url": f"/v1/checkout/sessions/{self.id}/line_items",
        }

    def to_json(self, public_url: str) -> JSON:
        return {
            "id": self.id,
            "object": "checkout.session",
            "adaptive_pricing": None,
            "after_expiration": None,
            "allow_promotion_codes": None,
            "amount_subtotal": self.amount_total,
            "amount_total": self.amount_total,
            "automatic_tax": {"enabled": False, "liability": None, "status": None},
            "billing_address_collection": None,
            "cancel_url": self.cancel_url,
            "client_reference_id": self.client_reference_id,
            "client_secret": None,
            "collected_information": None,
            "consent": None,
            "consent_collection": None,
            "created": self.created,
            "currency": self.currency,
            "currency_conversion": None,
            "custom_fields": [],
            "custom_text": {
                "after_submit": None,
                "shipping_address": None,
                "submit": None,
                "terms_of_service_acceptance": None,
            },
            "customer": None,
            "customer_creation": "if_required",
            "customer_details": self.customer_details,
            "customer_email": self.customer_email,
            "discounts": [],
            "expires_at": self.expires_at,
            "invoice": None,
            "invoice_creation": None,
            "livemode": False,
            "locale": self.locale,
            "metadata": dict(self.metadata),
            "mode": self.mode,
            "payment_intent": self.payment_intent,
            "payment_link": None,
            "payment_method_collection": "if_required",
            "payment_method_configuration_details": None,
            "payment_method_options": {},
            "payment_method_types": ["card"],
            "payment_status": self.payment_status,
            "phone_number_collection": {"enabled": False},
            "recovered_from": None,
            "saved_payment_method_options": None,
            "setup_intent": None,
            "shipping_address_collection": None,
            "shipping_cost": None,
            "shipping_options": [],
            "status": self.status,
            "submit_type": None,
            "subscription": None,
            "success_url": self.success_url,
            "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
            "ui_mode": "hosted",
            # As on Stripe, the hosted page's URL is given only while the session is open.
            "url": public_url + self.page_path() if self.status == "open" else None,
        }


@dataclass
class PaymentIntent:
    amount: int
    currency: str
    metadata: dict[str, str]
    description: str | None
    receipt_email: str | None
    session_id: str
    id: str = field(default_factory=lambda: new_id("pi_"))
    charge_id: str = field(default_factory=lambda: new_id("ch_"))
    payment_method_id: str = field(default_factory=lambda: new_id("pm_"))
    balance_transaction_id: str = field(default_factory=lambda: new_id("txn_"))
    created: int = field(default_factory=now)
    amount_refunded: int = 0
    refund_ids: list[str] = field(default_factory=list)

    @property
    def refunded(self) -> bool:
        return self.amount_refunded >= self.amount

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "object": "payment_intent",
            "amount": self.amount,
            "amount_capturable": 0,
            "amount_details": {"tip": {}},
            "amount_received": self.amount,
            "application": None,
            "application_fee_amount": None,
            "automatic_payment_methods": None,
            "canceled_at": None,
            "cancellation_reason": None,
            "capture_method": "automatic_async",
            "client_secret": f"{self.id}_secret_{self.charge_id[3:]}",
            "confirmation_method": "automatic",
            "created": self.created,
            "currency": self.currency,
            "customer": None,
            "description": self.description,
            "last_payment_error": None,
            "latest_charge": self.charge_id,
            "livemode": False,
            "metadata": dict(self.metadata),
            "next_action": None,
            "on_behalf_of": None,
            "payment_method": self.payment_method_id,
            "payment_method_options": {},
            "payment_method_types": ["card"],
            "processing": None,
            "receipt_email": self.receipt_email,
            "review": None,
            "setup_future_usage": None,
            "shipping": None,
            "source": None,
            "statement_descriptor": None,
            "statement_descriptor_suffix": None,
            "status": "succeeded",
            "transfer_data": None,
            "transfer_group": None,
        }

    def charge_json(self, refunds: list[JSON]) -> JSON:
        return {
            "id": self.charge_id,
            "object": "charge",
            "amount": self.amount,
            "amount_captured": self.amount,
            "amount_refunded": self.amount_refunded,
            "balance_transaction": self.balance_transaction_id,
            "captured": True,
            "created": self.created,
            "currency": self.currency,
            "customer": None,
            "description": self.description,
            "disputed": False,
            "failure_code": None,
            "failure_message": None,
            "livemode": False,
            "metadata": dict(self.metadata),
            "outcome": {
                "network_status": "approved_by_network",
                "reason": None,
                "risk_level": "normal",
                "seller_message": "Payment complete.",
                "type": "authorized",
            },
            "paid": True,
            "payment_intent": self.id,
            "payment_method": self.payment_method_id,
            "receipt_email": self.receipt_email,
            "refunded": self.refunded,
            "refunds": {
                "object": "list",
                "data": refunds,
                "has_more": False,
                "url": f"/v1/charges/{self.charge_id}/refunds",
            },
            "status": "succeeded",
        }


@dataclass
class Refund:
    amount: int
    currency: str
    payment_intent: str
    charge: str
    metadata: dict[str, str]
    reason: str | None
    id: str = field(default_factory=lambda: new_id("re_"))
    balance_transaction_id: str = field(default_factory=lambda: new_id("txn_"))
    created: int = field(default_factory=now)

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "object": "refund",
            "amount": self.amount,
            "balance_transaction": self.balance_transaction_id,
            "charge": self.charge,
            "created": self.created,
            "currency": self.currency,
            "destination_details": {"card": {"type": "refund"}, "type": "card"},
            "metadata": dict(self.metadata),
            "payment_intent": self.payment_intent,
            "reason": self.reason,
            "receipt_number": None,
            "source_transfer_reversal": None,
            "status": "succeeded",
            "transfer_reversal": None,
        }


@dataclass
class Event:
    """A Stripe `event`; its JSON body is fixed when created (resends send the same bytes)."""

    type: str
    api_version: str
    data_object: JSON
    request_id: str | None
    idempotency_key: str | None
    session_id: str | None
    id: str = field(default_factory=lambda: new_id("evt_"))
    created: int = field(default_factory=now)
    payload: str = ""

    def to_json(self, pending_webhooks: int) -> JSON:
        return {
            "id": self.id,
            "object": "event",
            "api_version": self.api_version,
            "created": self.created,
            "data": {"object": self.data_object},
            "livemode": False,
            "pending_webhooks": pending_webhooks,
            "request": {"id": self.request_id, "idempotency_key": self.idempotency_key},
            "type": self.type,
        }
