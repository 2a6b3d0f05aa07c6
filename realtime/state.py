"""What every handler needs: settings, database, publisher, caches. One per app.

Everything a process keeps between calls lives here, built by create_app (realtime/app.py):
no module keeps a cache of its own (docs/architecture.md, "The layers")."""

from dataclasses import dataclass, field

import redis.asyncio as aioredis
from starlette.requests import Request

from realtime.booking.caches import BookingCaches
from realtime.collections import Collection
from realtime.mail.outbox import Mailer
from realtime.oidc.discovery import Directory
from realtime.payments.provider import PaymentProvider
from realtime.push import Publisher
from realtime.ratelimit import Limiter
from realtime.settings import Settings
from storage.db import Database


@dataclass
class AppState:
    settings: Settings
    db: Database
    publisher: Publisher
    redis: aioredis.Redis | None
    mailer: Mailer
    limiter: Limiter
    payments: PaymentProvider
    caches: BookingCaches  # of the booking hot paths, for this application's database
    collections: dict[str, Collection]  # live documents by path pattern (realtime/rules.py)
    # Identity providers' metadata and keys, cached by this node (realtime/oidc/discovery.py).
    oidc: Directory = field(default_factory=lambda: Directory(timeout_seconds=10.0))


def state_of(request: Request) -> AppState:
    """The application's state, as an HTTP handler reaches it (set by create_app)."""
    state: AppState = request.app.state.app
    return state
