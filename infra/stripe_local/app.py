"""The ASGI app: Stripe's `/v1` API, the hosted checkout page and `/_control/`."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

from starlette.applications import Starlette

from infra.stripe_local import api, control, hosted
from infra.stripe_local.service import StripeLocal
from infra.stripe_local.webhooks import WebhookSettings

log = logging.getLogger("stripe_local")


@dataclass
class Config:
    webhook_url: str | None = None
    webhook_secret: str = "whsec_local"
    # How the hosted page's URL starts; learned from the first request if unset.
    public_url: str | None = None
    webhook_attempts: int = 4
    webhook_backoff: float = 0.5  # seconds before the 2nd attempt; doubles after each failure
    webhook_timeout: float = 10.0
    sweep_interval: float = 1.0  # how often open sessions past `expires_at` are expired


def create_app(config: Config) -> Starlette:
    service = StripeLocal(
        WebhookSettings(
            url=config.webhook_url,
            secret=config.webhook_secret,
            attempts=config.webhook_attempts,
            backoff=config.webhook_backoff,
            timeout=config.webhook_timeout,
        ),
        public_url=config.public_url,
    )

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(config.sweep_interval)
            async with service.lock:
                service.sweep()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.deliverer.start()
        task = asyncio.get_running_loop().create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await service.deliverer.aclose()

    app = Starlette(
        routes=[*control.routes(), *hosted.routes(), *api.routes()],
        lifespan=lifespan,
    )
    app.state.stripe = service
    return app
