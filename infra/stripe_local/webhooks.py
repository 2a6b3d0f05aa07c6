"""Webhook delivery: Stripe-signed POSTs, sent after the triggering request, retried, recorded."""

import asyncio
import hmac
import logging
import time
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

import httpx

log = logging.getLogger("stripe_local.webhooks")

USER_AGENT = "Stripe/1.0 (+https://stripe.com/docs/webhooks)"


def signature_header(payload: str, secret: str, timestamp: int | None = None) -> str:
    """Stripe's scheme: `t=<ts>,v1=<hex HMAC-SHA256(secret, "<ts>.<payload>")>`."""
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode("utf-8"), f"{t}.{payload}".encode(), sha256).hexdigest()
    return f"t={t},v1={mac}"


@dataclass
class WebhookSettings:
    url: str | None
    secret: str
    attempts: int = 4
    backoff: float = 0.5
    timeout: float = 10.0


@dataclass
class Attempt:
    number: int
    at: float
    status_code: int | None
    error: str | None
    duration_ms: int

    def to_json(self) -> dict[str, Any]:
        return {
            "attempt": self.number,
            "at": self.at,
            "status_code": self.status_code,
            "error": self.error,
            "duration_ms": self.duration_ms,
        }


@dataclass
class Delivery:
    """One send of one event (a resend is a new delivery of the same event)."""

    id: int
    event_id: str
    url: str | None
    started_at: float
    state: str = "pending"  # pending | succeeded | failed | skipped | cancelled
    attempts: list[Attempt] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def status_code(self) -> int | None:
        return self.attempts[-1].status_code if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "event_id": self.event_id,
            "url": self.url,
            "started_at": self.started_at,
            "state": self.state,
            "status_code": self.status_code,
            "attempts": len(self.attempts),
            "attempt_log": [a.to_json() for a in self.attempts],
        }


class Deliverer:
    """Sends each delivery in its own task; retries non-2xx answers and connection errors."""

    def __init__(self, settings: WebhookSettings) -> None:
        self.settings = settings
        self._client: httpx.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._counter = 0

    async def start(self) -> None:
        self._client = httpx.AsyncClient(trust_env=False, follow_redirects=False)

    async def aclose(self) -> None:
        await self.cancel_all()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def cancel_all(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def deliver(self, event_id: str, payload: str) -> Delivery:
        """Record a delivery and start sending it (after the current request returns)."""
        self._counter += 1
        delivery = Delivery(
            id=self._counter,
            event_id=event_id,
            url=self.settings.url,
            started_at=time.time(),
        )
        if self.settings.url is None:
            delivery.state = "skipped"
            delivery.done.set()
            return delivery
        task = asyncio.get_running_loop().create_task(
            self._run(delivery, self.settings.url, self.settings.secret, payload)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return delivery

    async def _run(self, delivery: Delivery, url: str, secret: str, payload: str) -> None:
        try:
            # Let the triggering request's response go out first, as Stripe does.
            await asyncio.sleep(0)
            body = payload.encode("utf-8")
            for number in range(1, max(1, self.settings.attempts) + 1):
                if number > 1:
                    await asyncio.sleep(self.settings.backoff * 2 ** (number - 2))
                started = time.monotonic()
                status_code: int | None = None
                error: str | None = None
                try:
                    assert self._client is not None, "deliverer not started"
                    response = await self._client.post(
                        url,
                        content=body,
                        headers={
                            "Content-Type": "application/json; charset=utf-8",
                            "User-Agent": USER_AGENT,
                            "Stripe-Signature": signature_header(payload, secret),
                        },
                        timeout=self.settings.timeout,
                    )
                    status_code = response.status_code
                except httpx.HTTPError as exc:
                    error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                delivery.attempts.append(
                    Attempt(
                        number=number,
                        at=time.time(),
                        status_code=status_code,
                        error=error,
                        duration_ms=int((time.monotonic() - started) * 1000),
                    )
                )
                if status_code is not None and 200 <= status_code < 300:
                    delivery.state = "succeeded"
                    return
                log.warning(
                    "webhook %s attempt %d to %s failed: %s",
                    delivery.event_id,
                    number,
                    url,
                    status_code if status_code is not None else error,
                )
            delivery.state = "failed"
        except asyncio.CancelledError:
            delivery.state = "cancelled"
            raise
        finally:
            delivery.done.set()
