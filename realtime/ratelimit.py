"""Fixed-window request limits: in Redis when configured (shared by every node), else here.

Durable facts never live in Redis; a limit forgotten by a Redis restart is harmless.
"""

import logging
import time
from typing import Protocol

import redis.asyncio as aioredis

from realtime.errors import FunctionError

log = logging.getLogger(__name__)
# The in-process limiter forgets old windows once it holds this many keys.
MEMORY_KEYS = 50_000


class Limiter(Protocol):
    async def hit(self, key: str, *, limit: int, window_seconds: int) -> bool:
        """Count one request for `key`; False when it is over `limit` in this window."""
        ...


class RedisLimiter:
    def __init__(self, client: aioredis.Redis, namespace: str) -> None:
        self.client = client
        self.prefix = f"{namespace}:ratelimit:"

    async def hit(self, key: str, *, limit: int, window_seconds: int) -> bool:
        name = f"{self.prefix}{key}"
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.incr(name)
            pipe.expire(name, window_seconds, nx=True)
            count, _ = await pipe.execute()
        return int(count) <= limit


class MemoryLimiter:
    def __init__(self) -> None:
        self._windows: dict[str, tuple[float, int]] = {}

    async def hit(self, key: str, *, limit: int, window_seconds: int) -> bool:
        now = time.monotonic()
        ends, count = self._windows.get(key, (0.0, 0))
        if now >= ends:
            ends, count = now + window_seconds, 0
        if len(self._windows) >= MEMORY_KEYS:
            self._windows = {k: v for k, v in self._windows.items() if v[0] > now}
        self._windows[key] = (ends, count + 1)
        return count + 1 <= limit


def create_limiter(client: aioredis.Redis | None, namespace: str) -> Limiter:
    return RedisLimiter(client, namespace) if client is not None else MemoryLimiter()


TOO_MANY = "Too many requests. Please wait a few minutes and try again."


async def enforce_each(limiter: Limiter, limits: dict[str, int], *, window_seconds: int) -> None:
    """Each key within its limit (key -> limit), in order: the first exceeded refuses and
    the keys after it are not counted."""
    for key, limit in limits.items():
        await enforce(limiter, key, limit=limit, window_seconds=window_seconds)


async def enforce(limiter: Limiter, key: str, *, limit: int, window_seconds: int) -> None:
    """RESOURCE_EXHAUSTED over the limit. If Redis is down the request passes (and the
    health check reports the outage): signing in matters more than counting."""
    try:
        allowed = await limiter.hit(key, limit=limit, window_seconds=window_seconds)
    except aioredis.RedisError:
        log.warning("rate limit store unavailable; letting %s through", key.split(":", 1)[0])
        return
    if not allowed:
        raise FunctionError("RESOURCE_EXHAUSTED", TOO_MANY)
