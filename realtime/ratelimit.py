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
    async def hit(self, limits: dict[str, int], *, window_seconds: int) -> list[bool]:
        """Count one request for each key of `limits` (key -> limit) in this window; for
        each, in order, whether it is still within its limit."""
        ...


class RedisLimiter:
    def __init__(self, client: aioredis.Redis, namespace: str) -> None:
        self.client = client
        self.prefix = f"{namespace}:ratelimit:"

    async def hit(self, limits: dict[str, int], *, window_seconds: int) -> list[bool]:
        """All keys in one round trip (a hold counts two: its user and its address)."""
        async with self.client.pipeline(transaction=True) as pipe:
            for key in limits:
                name = f"{self.prefix}{key}"
                pipe.incr(name)
                pipe.expire(name, window_seconds, nx=True)
            replies = await pipe.execute()
        counts = replies[::2]
        return [int(count) <= limit for count, limit in zip(counts, limits.values(), strict=True)]


class MemoryLimiter:
    def __init__(self) -> None:
        self._windows: dict[str, tuple[float, int]] = {}

    async def hit(self, limits: dict[str, int], *, window_seconds: int) -> list[bool]:
        return [self._hit(key, limit, window_seconds) for key, limit in limits.items()]

    def _hit(self, key: str, limit: int, window_seconds: int) -> bool:
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
        await enforce(limiter, {key: limit}, window_seconds=window_seconds)


async def enforce(limiter: Limiter, limits: dict[str, int], *, window_seconds: int) -> None:
    """Count every key of `limits` (key -> limit); RESOURCE_EXHAUSTED if any is over. If
    Redis is down the request passes (and the health check reports the outage): signing in
    matters more than counting."""
    try:
        allowed = await limiter.hit(limits, window_seconds=window_seconds)
    except aioredis.RedisError:
        names = ", ".join(key.split(":", 1)[0] for key in limits)
        log.warning("rate limit store unavailable; letting %s through", names)
        return
    if not all(allowed):
        raise FunctionError("RESOURCE_EXHAUSTED", TOO_MANY)
