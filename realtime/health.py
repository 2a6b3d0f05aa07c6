"""Health answers: `/healthz` tells monitoring the truth about every dependency, and
`/healthz/balancer` tells a load balancer whether to send this node requests
(docs/operations.md, "The balancer's settings").

They differ on Redis. Redis only fans pushes out and counts rate limits: while it is down a
node still answers every call and opens sockets from the database, the truth (limits let
requests through; clients resubscribe once pushes resume). A balancer checking `/healthz`
would take every node out at once over one shared Redis blip, so its check asks the
database only, and never waits on Redis.
"""

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from realtime.state import AppState, state_of
from storage.db import ping

# Longest wait for one dependency's answer; within HAProxy's `timeout check 2s`.
HEALTH_TIMEOUT_SECONDS = 2.0
OK, DOWN = "ok", "down"


async def database_check(state: AppState) -> str:
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS), state.db.read() as session:
            await ping(session)
    except Exception:
        return DOWN
    return OK


async def redis_check(state: AppState) -> str | None:
    """None without Redis (one node alone)."""
    if state.redis is None:
        return None
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS):
            await state.redis.ping()
    except Exception:
        return DOWN
    return OK


def answer(checks: dict[str, str]) -> Response:
    """200 when every check is ok, else 503 naming the one that is down."""
    healthy = all(value == OK for value in checks.values())
    return JSONResponse(
        {"status": "ok" if healthy else "unavailable", **checks},
        status_code=200 if healthy else 503,
    )


async def healthz(request: Request) -> Response:
    """For monitoring: the database and, where configured, Redis."""
    state = state_of(request)
    checks = {"database": await database_check(state)}
    redis = await redis_check(state)
    if redis is not None:
        checks["redis"] = redis
    return answer(checks)


async def balancer_health(request: Request) -> Response:
    """For the load balancer's check: can this node serve requests (its database answers)."""
    return answer({"database": await database_check(state_of(request))})
