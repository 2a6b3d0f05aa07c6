"""stripe-local as a real process, driven with the official `stripe` SDK.

A small raw-asyncio HTTP receiver stands in for the product: it records the webhooks
(verified here with `stripe.Webhook.construct_event`) and answers the success and cancel
URLs the hosted page redirects to.
"""

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import pytest_asyncio
import stripe
from stripe.params.checkout import SessionCreateParams

ROOT = Path(__file__).resolve().parents[1]
SECRET = "whsec_test_stripe_local"
API_KEY = "sk_test_local"
PRODUCT = "遺伝カウンセリング（60分）"

# stripe 16.1's async HTTPX client passes the body as `data=` bytes, which httpx 0.28
# deprecates; pytest here turns warnings into errors, so this one is let through.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Use 'content=<...>' to upload raw bytes/text content:DeprecationWarning"
)


# ----- the webhook receiver / merchant site -----


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A raw HTTP/1.1 server: records every request; POSTs answer the queued statuses."""

    port: int = 0
    requests: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def clear(self) -> None:
        self.requests.clear()
        self.statuses.clear()

    @property
    def webhooks(self) -> list[Received]:
        return [r for r in self.requests if r.method == "POST" and r.path == "/stripe/webhook"]

    async def wait_for_webhooks(self, count: int, timeout: float = 10.0) -> list[Received]:
        async with self.changed:
            await asyncio.wait_for(
                self.changed.wait_for(lambda: len(self.webhooks) >= count), timeout
            )
        return self.webhooks

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await reader.readline()
            if not line:
                return
            method, target, _ = line.decode("latin-1").split(" ", 2)
            headers: dict[str, str] = {}
            while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = header.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            status = self.statuses.pop(0) if method == "POST" and self.statuses else 200
            async with self.changed:
                self.requests.append(Received(method, target.split("?")[0], headers, body))
                self.changed.notify_all()
            payload = b"ok" if status < 300 else b"failing on purpose"
            writer.write(
                f"HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode()
                + payload
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()


# ----- the server process -----


@dataclass
class StripeLocalProcess:
    process: asyncio.subprocess.Process
    url: str
    ready_line: str
    log_path: Path

    async def stop(self) -> None:
        """End the process (and its group) by its PID."""
        if self.process.returncode is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                os.killpg(self.process.pid, signal.SIGKILL)
                await self.process.wait()


async def start_stripe_local(
    log_dir: Path, *args: str, env: dict[str, str] | None = None
) -> StripeLocalProcess:
    stdout_path = log_dir / "stripe-local.out"
    log_path = log_dir / "stripe-local.log"
    with stdout_path.open("wb") as stdout, log_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "infra.stripe_local",
            "--port",
            "0",
            *args,
            cwd=ROOT,
            stdout=stdout,
            stderr=stderr,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match = re.search(
            r"^stripe-local listening on (http://127\.0\.0\.1:\d+)$",
            stdout_path.read_text(),
            re.MULTILINE,
        )
        if match:
            return StripeLocalProcess(process, match.group(1), match.group(0), log_path)
        if process.returncode is not None:
            raise RuntimeError(f"stripe-local exited early:\n{log_path.read_text()}")
        await asyncio.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    await process.wait()
    raise TimeoutError("stripe-local did not print its ready line")


@pytest_asyncio.fixture(scope="session")
async def receiver() -> AsyncIterator[Receiver]:
    receiver = Receiver()
    await receiver.start()
    yield receiver
    await receiver.stop()


@pytest_asyncio.fixture(scope="session")
async def stripe_local(
    receiver: Receiver, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[StripeLocalProcess]:
    process = await start_stripe_local(
        tmp_path_factory.mktemp("stripe-local"),
        "--webhook-url",
        f"{receiver.url}/stripe/webhook",
        "--webhook-secret",
        SECRET,
        "--webhook-backoff",
        "0.05",
    )
    yield process
    await process.stop()


@pytest_asyncio.fixture(autouse=True)
async def fresh(stripe_local: StripeLocalProcess, receiver: Receiver) -> None:
    async with httpx.AsyncClient() as http:
        (await http.post(f"{stripe_local.url}/_control/reset")).raise_for_status()
    receiver.clear()


@pytest.fixture
def client(stripe_local: StripeLocalProcess) -> stripe.StripeClient:
    # The SDK configuration the product uses with stripe 16.1, pointed at stripe-local.
    return stripe.StripeClient(
        API_KEY, base_addresses={"api": stripe_local.url}, max_network_retries=0
    )


# ----- helpers -----


def session_params(receiver: Receiver, **overrides: Any) -> SessionCreateParams:
    """The product's Checkout Session params."""
    params: SessionCreateParams = {
        "mode": "payment",
        "line_items": [
            {
                "price_data": {
                    "currency": "jpy",
                    "unit_amount": 16500,
                    "product_data": {"name": PRODUCT},
                },
                "quantity": 1,
            }
        ],
        "success_url": f"{receiver.url}/booking/paid?session_id={{CHECKOUT_SESSION_ID}}",
        "cancel_url": f"{receiver.url}/booking/cancelled?appointment=appt_42",
        "client_reference_id": "appt_42",
        "metadata": {"appointmentId": "appt_42"},
        "locale": "ja",
        "expires_at": int(time.time()) + 31 * 60,
        "customer_email": "hanako@example.com",
        "payment_intent_data": {"metadata": {"appointmentId": "appt_42"}},
    }
    return cast(SessionCreateParams, {**params, **overrides})


async def create_session(
    client: stripe.StripeClient, receiver: Receiver, **overrides: Any
) -> stripe.checkout.Session:
    return await client.v1.checkout.sessions.create_async(
        params=session_params(receiver, **overrides)
    )


async def control(stripe_local: StripeLocalProcess, path: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.post(f"{stripe_local.url}/_control/{path}", json=body)


async def control_events(stripe_local: StripeLocalProcess) -> list[dict[str, Any]]:
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{stripe_local.url}/_control/events")
    events: list[dict[str, Any]] = response.json()["data"]
    return events


def verify(received: Received) -> stripe.Event:
    event: stripe.Event = stripe.Webhook.construct_event(
        received.body, received.headers["stripe-signature"], SECRET
    )
    return event


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)


class PageParser(HTMLParser):
    """Forms (action, named inputs, button texts), labels and alerts of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.forms: list[Form] = []
        self.labels: dict[str, str] = {}
        self.input_ids: list[str] = []
        self.alerts: list[str] = []
        self._text: list[str] | None = None
        self._label_for: str | None = None
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang")
        elif tag == "form":
            self.forms.append(Form(action=a.get("action", "")))
        elif tag == "input" and self.forms:
            self.forms[-1].fields[a["name"]] = a.get("value", "")
            self.input_ids.append(a.get("id", ""))
        elif tag in ("button", "label") or a.get("role") == "alert":
            self._in = "alert" if a.get("role") == "alert" else tag
            self._label_for = a.get("for")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._text is None or tag not in ("button", "label", "p"):
            return
        text = "".join(self._text).strip()
        if self._in == "button" and self.forms:
            self.forms[-1].buttons.append(text)
        elif self._in == "label" and self._label_for:
            self.labels[self._label_for] = text
        elif self._in == "alert":
            self.alerts.append(text)
        self._text = None
        self._in = None


def parse_page(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    return parser


def form_with_button(page: PageParser, name: str) -> Form:
    return next(f for f in page.forms if name in f.buttons)


# ----- the process -----


async def test_process_announces_itself_and_answers_health(
    stripe_local: StripeLocalProcess,
) -> None:
    assert re.fullmatch(
        r"stripe-local listening on http://127\.0\.0\.1:\d+", stripe_local.ready_line
    )
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{stripe_local.url}/_control/health")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


async def test_settings_come_from_the_environment(tmp_path: Path, receiver: Receiver) -> None:
    process = await start_stripe_local(
        tmp_path,
        env={
            "STRIPE_LOCAL_WEBHOOK_URL": f"{receiver.url}/stripe/webhook",
            "STRIPE_LOCAL_WEBHOOK_SECRET": "whsec_from_env",
        },
    )
    try:
        async with httpx.AsyncClient() as http:
            health = (await http.get(f"{process.url}/_control/health")).json()
        assert health["webhook_url"] == f"{receiver.url}/stripe/webhook"
    finally:
        await process.stop()


# ----- the API -----


async def test_api_requires_a_test_secret_key(stripe_local: StripeLocalProcess) -> None:
    async with httpx.AsyncClient() as http:
        anonymous = await http.get(f"{stripe_local.url}/v1/checkout/sessions/cs_test_x")
        live = await http.get(
            f"{stripe_local.url}/v1/checkout/sessions/cs_test_x",
            headers={"Authorization": "Bearer sk_live_0123456789"},
        )
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["type"] == "invalid_request_error"
    assert "You did not provide an API key" in anonymous.json()["error"]["message"]
    assert live.status_code == 401
    assert live.json()["error"]["message"].startswith("Invalid API Key provided: sk_live_")
    sdk = stripe.StripeClient(
        "sk_live_0123456789", base_addresses={"api": stripe_local.url}, max_network_retries=0
    )
    with pytest.raises(stripe.AuthenticationError):
        await sdk.v1.checkout.sessions.retrieve_async("cs_test_x")


async def test_create_session_with_the_products_params(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    before = int(time.time())
    params = session_params(receiver)
    session = await client.v1.checkout.sessions.create_async(params=params)

    assert re.fullmatch(r"cs_test_[A-Za-z0-9]+", session.id)
    assert session.object == "checkout.session"
    assert session.url == f"{stripe_local.url}/checkout/{session.id}"
    assert session.status == "open"
    assert session.payment_status == "unpaid"
    assert session.amount_total == 16500
    assert session.amount_subtotal == 16500
    assert session.currency == "jpy"
    assert session.client_reference_id == "appt_42"
    assert session.to_dict()["metadata"] == {"appointmentId": "appt_42"}
    assert session.expires_at == params["expires_at"]
    assert session.success_url == params["success_url"]
    assert "{CHECKOUT_SESSION_ID}" in str(session.success_url)
    assert session.cancel_url == params["cancel_url"]
    assert session.payment_intent is None
    assert before <= session.created <= int(time.time())
    assert session.livemode is False
    assert session.mode == "payment"
    assert session.locale == "ja"
    assert session.customer_email == "hanako@example.com"

    with_items = await client.v1.checkout.sessions.retrieve_async(
        session.id, params={"expand": ["line_items"]}
    )
    assert with_items.line_items is not None
    [item] = with_items.line_items.data
    assert item.description == PRODUCT
    assert item.quantity == 1
    assert item.price is not None and item.price.unit_amount == 16500


async def test_same_idempotency_key_same_params_gives_the_same_session(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    params = session_params(receiver)
    options: stripe.RequestOptions = {"idempotency_key": "booking-appt_42-attempt-1"}
    first = await client.v1.checkout.sessions.create_async(params=params, options=options)
    again = await client.v1.checkout.sessions.create_async(params=params, options=options)
    assert again.id == first.id
    assert again.to_dict() == first.to_dict()

    changed = session_params(receiver, expires_at=params.get("expires_at"))
    changed["client_reference_id"] = "appt_43"
    with pytest.raises(stripe.IdempotencyError) as raised:
        await client.v1.checkout.sessions.create_async(params=changed, options=options)
    assert raised.value.http_status == 400
    assert "Keys for idempotent requests can only be used with the same parameters" in str(
        raised.value
    )

    other = await client.v1.checkout.sessions.create_async(
        params=params, options={"idempotency_key": "booking-appt_42-attempt-2"}
    )
    assert other.id != first.id

    # A replay is marked as Stripe marks it; a key is bound to its first endpoint.
    async with httpx.AsyncClient() as http:
        replayed = await http.post(
            f"{stripe_local.url}/v1/checkout/sessions/{first.id}/expire",
            headers={"Authorization": f"Bearer {API_KEY}", "Idempotency-Key": "expire-1"},
        )
        replay = await http.post(
            f"{stripe_local.url}/v1/checkout/sessions/{first.id}/expire",
            headers={"Authorization": f"Bearer {API_KEY}", "Idempotency-Key": "expire-1"},
        )
        reused = await http.post(
            f"{stripe_local.url}/v1/checkout/sessions",
            data={"mode": "payment"},
            headers={"Authorization": f"Bearer {API_KEY}", "Idempotency-Key": "expire-1"},
        )
    assert replayed.status_code == replay.status_code == 200
    assert replay.headers["idempotent-replayed"] == "true"
    assert replay.json() == replayed.json()
    assert reused.status_code == 400
    assert reused.json()["error"]["type"] == "idempotency_error"


async def test_expires_at_must_be_30_minutes_to_24_hours_ahead(
    client: stripe.StripeClient, receiver: Receiver
) -> None:
    for expires_at in (int(time.time()) + 10 * 60, int(time.time()) + 25 * 3600):
        with pytest.raises(stripe.InvalidRequestError) as raised:
            await create_session(client, receiver, expires_at=expires_at)
        assert raised.value.http_status == 400
        assert raised.value.param == "expires_at"
        error = cast(dict[str, Any], raised.value.json_body)["error"]
        assert error["type"] == "invalid_request_error"
        assert "`expires_at`" in error["message"]
    without_expiry = session_params(receiver)
    del without_expiry["expires_at"]
    default = await client.v1.checkout.sessions.create_async(params=without_expiry)
    assert default.expires_at == default.created + 24 * 3600


async def test_unknown_params_and_missing_sessions_answer_stripes_errors(
    client: stripe.StripeClient, stripe_local: StripeLocalProcess
) -> None:
    with pytest.raises(stripe.InvalidRequestError) as raised:
        await client.v1.checkout.sessions.retrieve_async("cs_test_unknown")
    assert raised.value.http_status == 404
    async with httpx.AsyncClient() as http:
        missing = await http.get(
            f"{stripe_local.url}/v1/checkout/sessions/cs_test_unknown",
            headers={"Authorization": f"Bearer {API_KEY}"},
        )
        unknown = await http.post(
            f"{stripe_local.url}/v1/checkout/sessions",
            data={"mode": "payment", "colour": "blue"},
            headers={"Authorization": f"Bearer {API_KEY}"},
        )
    assert missing.status_code == 404
    error = missing.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["code"] == "resource_missing"
    assert error["param"] == "id"
    assert error["message"] == "No such checkout.session: 'cs_test_unknown'"
    assert unknown.status_code == 400
    assert unknown.json()["error"]["message"] == "Received unknown parameter: colour"


# ----- paying, webhooks -----


async def test_paying_completes_the_session_and_sends_a_signed_webhook(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    paid = await control(stripe_local, f"sessions/{session.id}/pay")
    assert paid.status_code == 200

    [webhook] = await receiver.wait_for_webhooks(1)
    assert webhook.headers["content-type"].startswith("application/json")
    assert re.fullmatch(r"t=\d+,v1=[0-9a-f]{64}", webhook.headers["stripe-signature"])
    event = verify(webhook)
    assert event.type == "checkout.session.completed"
    assert event.object == "event"
    assert event.id.startswith("evt_")
    assert event.livemode is False
    assert event.api_version
    obj = event.to_dict()["data"]["object"]
    assert obj["id"] == session.id
    assert obj["object"] == "checkout.session"
    assert obj["status"] == "complete"
    assert obj["payment_status"] == "paid"
    assert obj["metadata"] == {"appointmentId": "appt_42"}
    assert obj["client_reference_id"] == "appt_42"
    assert str(obj["payment_intent"]).startswith("pi_")

    # A tampered body, or the wrong secret, fails verification.
    tampered = webhook.body.replace(b'"paid"', b'"unpaid"')
    assert tampered != webhook.body
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.Webhook.construct_event(tampered, webhook.headers["stripe-signature"], SECRET)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.Webhook.construct_event(
            webhook.body, webhook.headers["stripe-signature"], "whsec_other"
        )

    retrieved = await client.v1.checkout.sessions.retrieve_async(session.id)
    assert retrieved.status == "complete"
    assert retrieved.payment_status == "paid"
    assert retrieved.payment_intent == obj["payment_intent"]
    pi = await client.v1.payment_intents.retrieve_async(str(retrieved.payment_intent))
    assert pi.object == "payment_intent"
    assert pi.amount == pi.amount_received == 16500
    assert pi.currency == "jpy"
    assert pi.status == "succeeded"
    assert pi.to_dict()["metadata"] == {"appointmentId": "appt_42"}
    assert str(pi.latest_charge).startswith("ch_")

    [record] = await control_events(stripe_local)
    assert record["id"] == event.id
    [delivery] = record["deliveries"]
    assert delivery["state"] == "succeeded"
    assert delivery["status_code"] == 200
    assert delivery["attempts"] == 1

    again = await control(stripe_local, f"sessions/{session.id}/pay")
    assert again.status_code == 400


async def test_declined_card_leaves_the_session_open(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    declined = await control(
        stripe_local, f"sessions/{session.id}/pay", {"card": "4000 0000 0000 0002"}
    )
    assert declined.status_code == 402
    assert declined.json()["error"]["code"] == "card_declined"
    assert (await client.v1.checkout.sessions.retrieve_async(session.id)).status == "open"
    assert await control_events(stripe_local) == []


async def test_failed_deliveries_are_retried_and_recorded(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    receiver.statuses.extend([500, 503])
    await control(stripe_local, f"sessions/{session.id}/pay?wait=1")
    webhooks = await receiver.wait_for_webhooks(3)
    assert len({verify(w).id for w in webhooks}) == 1
    [record] = await control_events(stripe_local)
    [delivery] = record["deliveries"]
    assert delivery["state"] == "succeeded"
    assert delivery["attempts"] == 3
    assert [a["status_code"] for a in delivery["attempt_log"]] == [500, 503, 200]


async def test_resend_delivers_the_same_event_again(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    await control(stripe_local, f"sessions/{session.id}/pay?wait=1")
    [first] = await receiver.wait_for_webhooks(1)
    event_id = verify(first).id
    resent = await control(stripe_local, f"events/{event_id}/resend?wait=1")
    assert resent.status_code == 200
    assert resent.json()["state"] == "succeeded"
    first, second = await receiver.wait_for_webhooks(2)
    assert verify(second).id == event_id
    assert second.body == first.body
    [record] = await control_events(stripe_local)
    assert [d["state"] for d in record["deliveries"]] == ["succeeded", "succeeded"]
    missing = await control(stripe_local, "events/evt_unknown/resend")
    assert missing.status_code == 404


async def test_expire_sends_the_expired_webhook(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    expired = await client.v1.checkout.sessions.expire_async(
        session.id, options={"idempotency_key": "expire-appt_42"}
    )
    assert expired.status == "expired"
    assert expired.payment_status == "unpaid"
    assert expired.url is None
    [webhook] = await receiver.wait_for_webhooks(1)
    event = verify(webhook)
    assert event.type == "checkout.session.expired"
    assert event.data.object["id"] == session.id
    assert event.data.object["status"] == "expired"
    assert event.request is not None
    assert event.request.idempotency_key == "expire-appt_42"

    with pytest.raises(stripe.InvalidRequestError) as raised:
        await client.v1.checkout.sessions.expire_async(session.id)
    assert raised.value.http_status == 400
    assert 'status in ["open"]' in str(raised.value)
    assert (await control(stripe_local, f"sessions/{session.id}/pay")).status_code == 400


async def test_timeout_expires_as_stripe_does_at_expires_at(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    response = await control(stripe_local, f"sessions/{session.id}/timeout?wait=1")
    assert response.json()["session"]["status"] == "expired"
    [webhook] = await receiver.wait_for_webhooks(1)
    assert verify(webhook).type == "checkout.session.expired"
    assert verify(webhook).request is not None


async def test_fire_sends_any_session_event_for_out_of_order_tests(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    expired = await control(
        stripe_local, f"sessions/{session.id}/fire?wait=1", {"type": "checkout.session.expired"}
    )
    assert expired.status_code == 200
    await control(stripe_local, f"sessions/{session.id}/pay?wait=1")
    failed = await control(
        stripe_local,
        f"sessions/{session.id}/fire?wait=1",
        {"type": "checkout.session.async_payment_failed"},
    )
    assert failed.status_code == 200
    events = [verify(w) for w in await receiver.wait_for_webhooks(3)]
    types = sorted(e.type for e in events)
    assert types == [
        "checkout.session.async_payment_failed",
        "checkout.session.completed",
        "checkout.session.expired",
    ]
    by_type = {e.type: e.data.object["status"] for e in events}
    # Each carries the session as it was when sent; firing changes nothing.
    assert by_type["checkout.session.expired"] == "open"
    assert by_type["checkout.session.async_payment_failed"] == "complete"
    assert (await client.v1.checkout.sessions.retrieve_async(session.id)).status == "complete"
    bad = await control(stripe_local, f"sessions/{session.id}/fire", {"type": "charge.refunded"})
    assert bad.status_code == 400


# ----- refunds -----


async def test_refunds_up_to_the_amount_paid(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    paid = (await control(stripe_local, f"sessions/{session.id}/pay")).json()
    pi_id = paid["session"]["payment_intent"]

    refund = await client.v1.refunds.create_async(
        params={
            "payment_intent": pi_id,
            "metadata": {"appointmentId": "appt_42"},
            "reason": "requested_by_customer",
        },
        options={"idempotency_key": "refund-appt_42"},
    )
    assert refund.id.startswith("re_")
    assert refund.object == "refund"
    assert refund.amount == 16500
    assert refund.currency == "jpy"
    assert refund.payment_intent == pi_id
    assert refund.status == "succeeded"
    assert refund.to_dict()["metadata"] == {"appointmentId": "appt_42"}
    assert refund.reason == "requested_by_customer"
    assert refund.created > 0
    assert (await client.v1.refunds.retrieve_async(refund.id)).to_dict() == refund.to_dict()

    again = await client.v1.refunds.create_async(
        params={
            "payment_intent": pi_id,
            "metadata": {"appointmentId": "appt_42"},
            "reason": "requested_by_customer",
        },
        options={"idempotency_key": "refund-appt_42"},
    )
    assert again.id == refund.id  # a retried refund is not a second refund

    with pytest.raises(stripe.InvalidRequestError) as raised:
        await client.v1.refunds.create_async(params={"payment_intent": pi_id, "amount": 1})
    assert raised.value.http_status == 400
    assert raised.value.code == "charge_already_refunded"

    pi = await client.v1.payment_intents.retrieve_async(pi_id, params={"expand": ["latest_charge"]})
    charge = pi.latest_charge
    assert isinstance(charge, stripe.Charge)
    assert charge.amount_refunded == 16500
    assert charge.refunded is True


async def test_partial_refunds_and_refunding_more_than_paid(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    pi_id = (await control(stripe_local, f"sessions/{session.id}/pay")).json()["session"][
        "payment_intent"
    ]
    with pytest.raises(stripe.InvalidRequestError) as raised:
        await client.v1.refunds.create_async(params={"payment_intent": pi_id, "amount": 20000})
    assert raised.value.code == "amount_too_large"
    assert raised.value.param == "amount"
    assert "¥20,000" in str(raised.value) and "¥16,500" in str(raised.value)

    part = await client.v1.refunds.create_async(params={"payment_intent": pi_id, "amount": 5000})
    assert part.amount == 5000
    with pytest.raises(stripe.InvalidRequestError) as too_much:
        await client.v1.refunds.create_async(params={"payment_intent": pi_id, "amount": 12000})
    assert "¥11,500" in str(too_much.value)
    rest = await client.v1.refunds.create_async(params={"payment_intent": pi_id})
    assert rest.amount == 11500

    async with httpx.AsyncClient() as http:
        state = (await http.get(f"{stripe_local.url}/_control/sessions/{session.id}")).json()
    assert state["charge"]["amount_refunded"] == 16500
    assert state["charge"]["refunded"] is True
    assert [r["amount"] for r in state["refunds"]] == [5000, 11500]

    with pytest.raises(stripe.InvalidRequestError) as unknown:
        await client.v1.refunds.create_async(params={"payment_intent": "pi_unknown"})
    assert unknown.value.code == "resource_missing"
    assert unknown.value.param == "payment_intent"


# ----- the hosted page -----


async def test_hosted_page_in_japanese_pays_and_redirects_to_the_success_url(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    assert session.url is not None
    async with httpx.AsyncClient(follow_redirects=True) as http:
        page = await http.get(session.url)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        parsed = parse_page(page.text)
        assert parsed.lang == "ja"
        assert "¥16,500" in page.text
        assert PRODUCT in page.text
        pay_form = form_with_button(parsed, "支払う")
        assert form_with_button(parsed, "キャンセル").action.endswith("/cancel")
        assert pay_form.fields["card_number"] == "4242 4242 4242 4242"
        assert pay_form.fields["email"] == "hanako@example.com"
        # Every input has a label.
        assert all(parsed.labels.get(i) for i in parsed.input_ids)
        assert parsed.labels["card_number"] == "カード番号"

        done = await http.post(stripe_local.url + pay_form.action, data=pay_form.fields)
    assert done.status_code == 200
    assert [r.status_code for r in done.history] == [303]
    assert str(done.url) == f"{receiver.url}/booking/paid?session_id={session.id}"

    [webhook] = await receiver.wait_for_webhooks(1)
    event = verify(webhook)
    assert event.type == "checkout.session.completed"
    assert event.data.object["customer_details"]["email"] == "hanako@example.com"
    retrieved = await client.v1.checkout.sessions.retrieve_async(session.id)
    assert retrieved.status == "complete"
    assert retrieved.payment_status == "paid"

    async with httpx.AsyncClient() as http:
        closed = await http.get(f"{stripe_local.url}/checkout/{session.id}")
    assert "このお支払いは完了しています。" in closed.text
    assert not [f for f in parse_page(closed.text).forms if "支払う" in f.buttons]


async def test_hosted_page_in_english_shows_a_declined_card(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver, locale="en")
    assert session.url is not None
    async with httpx.AsyncClient() as http:
        parsed = parse_page((await http.get(session.url)).text)
        assert parsed.lang == "en"
        pay_form = form_with_button(parsed, "Pay")
        assert form_with_button(parsed, "Cancel")
        fields = {**pay_form.fields, "card_number": "4000 0000 0000 0002"}
        declined = await http.post(stripe_local.url + pay_form.action, data=fields)
    assert declined.status_code == 200
    page = parse_page(declined.text)
    assert page.alerts == ["Your card was declined. Try another card."]
    assert form_with_button(page, "Pay").fields["card_number"] == "4000 0000 0000 0002"
    assert (await client.v1.checkout.sessions.retrieve_async(session.id)).status == "open"
    assert receiver.webhooks == []


async def test_cancel_returns_to_the_cancel_url_and_the_session_stays_open(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    assert session.url is not None
    async with httpx.AsyncClient() as http:
        parsed = parse_page((await http.get(session.url)).text)
        cancel_form = form_with_button(parsed, "キャンセル")
        response = await http.post(stripe_local.url + cancel_form.action)
    assert response.status_code == 303
    assert response.headers["location"] == session.cancel_url
    assert (await client.v1.checkout.sessions.retrieve_async(session.id)).status == "open"


async def test_expired_sessions_page_says_so(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver, locale="en")
    await client.v1.checkout.sessions.expire_async(session.id)
    async with httpx.AsyncClient() as http:
        page = await http.get(f"{stripe_local.url}/checkout/{session.id}")
        pay = await http.post(
            f"{stripe_local.url}/checkout/{session.id}/pay",
            data={"card_number": "4242424242424242"},
        )
        unknown = await http.get(f"{stripe_local.url}/checkout/cs_test_unknown")
    assert "This checkout session has expired." in page.text
    assert not parse_page(page.text).forms
    assert "This checkout session has expired." in pay.text
    assert unknown.status_code == 404
    assert (await client.v1.checkout.sessions.retrieve_async(session.id)).status == "expired"


# ----- module-level SDK configuration -----


def _with_module_config(url: str, call: Callable[[], Any]) -> Any:
    saved = (stripe.api_key, stripe.api_base, stripe.max_network_retries)
    stripe.api_key, stripe.api_base, stripe.max_network_retries = API_KEY, url, 0
    try:
        return call()
    finally:
        stripe.api_key, stripe.api_base, stripe.max_network_retries = saved


async def test_module_level_sdk_configuration_works_too(
    receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    params = session_params(receiver)

    def create_and_expire() -> tuple[str, str | None]:
        session = stripe.checkout.Session.create(**params)
        return session.id, stripe.checkout.Session.expire(session.id).status

    session_id, status = await asyncio.to_thread(
        _with_module_config, stripe_local.url, create_and_expire
    )
    assert session_id.startswith("cs_test_")
    assert status == "expired"
    [webhook] = await receiver.wait_for_webhooks(1)
    assert verify(webhook).data.object["id"] == session_id


async def test_reset_forgets_everything(
    client: stripe.StripeClient, receiver: Receiver, stripe_local: StripeLocalProcess
) -> None:
    session = await create_session(client, receiver)
    await control(stripe_local, f"sessions/{session.id}/pay?wait=1")
    assert len(await control_events(stripe_local)) == 1
    assert (await control(stripe_local, "reset")).status_code == 200
    assert await control_events(stripe_local) == []
    with pytest.raises(stripe.InvalidRequestError):
        await client.v1.checkout.sessions.retrieve_async(session.id)
    async with httpx.AsyncClient() as http:
        config = (await http.get(f"{stripe_local.url}/_control/config")).json()
    assert config["webhook_url"] == f"{receiver.url}/stripe/webhook"
