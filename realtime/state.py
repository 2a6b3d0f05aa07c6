"""What every handler needs: settings, database, publisher. One per app."""

from dataclasses import dataclass

import redis.asyncio as aioredis

from realtime.mail.outbox import Mailer
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
