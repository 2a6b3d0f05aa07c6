"""A randomised soak of holds, moves, expiries and cancels: after every step no counselor
has two overlapping active claims, and the free slots the server answers (from its month
cache) are those the database holds, on SQLite and on PostgreSQL."""

import asyncio
import random
from collections import defaultdict
from contextlib import AsyncExitStack
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from typing import Any

from sqlmodel import col, select

from realtime.booking.vacancies import load_free_times
from storage.db import open_database
from storage.models import SlotClaim
from storage.repo_catalog import get_clinic, get_service
from storage.types import utcnow
from tests.support.booking import Person, free_slots, person, run_job
from tests.support.server import ServerProcess

STEPS = 60
PEOPLE = 6


async def overlaps(database_url: str) -> list[tuple[int, int]]:
    db = open_database(database_url)
    try:
        async with db.read() as session:
            claims = (await session.exec(select(SlotClaim).where(col(SlotClaim.active)))).all()
    finally:
        await db.close()
    by_counselor: dict[str, list[SlotClaim]] = defaultdict(list)
    for claim in claims:
        by_counselor[claim.counselor_id].append(claim)
    found: list[tuple[int, int]] = []
    for mine in by_counselor.values():
        mine.sort(key=lambda c: c.start)
        for a, b in pairwise(mine):
            if b.start < a.blocked_until:
                assert a.id is not None and b.id is not None
                found.append((a.id, b.id))
    return found


async def computed_afresh(database_url: str, first: date, last: date) -> list[dict[str, Any]]:
    """The free slots of the cancer service straight from the database (no cache), as
    vacancies-read answers them."""
    db = open_database(database_url)
    try:
        async with db.read() as session:
            clinic = await get_clinic(session, clinic_id="demo-clinic")
            service = await get_service(session, service_id="cancer-b2b")
            assert clinic is not None and service is not None
            now = utcnow()
            computed = await load_free_times(
                session, clinic=clinic, service=service, first_day=first, last_day=last, now=now
            )
            slots = computed.times.slots(now=now)
    finally:
        await db.close()
    return [{**s.to_wire(), "counselorIds": list(s.counselor_ids)} for s in slots]


async def test_soak_keeps_counselors_free_of_overlaps(server: ServerProcess) -> None:
    rng = random.Random(20261125)
    base = server.url
    async with AsyncExitStack() as stack:
        people: list[Person] = [
            await stack.enter_async_context(person(base)) for _ in range(PEOPLE)
        ]
        # A crowded morning: neighbouring half-hours of few counselors, so moves collide.
        pool = (await free_slots(people[0].sock, days=14))[:8]
        first = datetime.fromisoformat(pool[0]["start"]).date()
        last = first + timedelta(days=3)
        days = {"from": first.isoformat(), "to": last.isoformat()}
        outcomes: dict[str, int] = defaultdict(int)
        for step in range(STEPS):
            action = rng.random()
            if action < 0.75:
                movers = rng.sample(people, k=rng.randint(1, 3))
                targets = [rng.choice(pool) for _ in movers]
                replies = await asyncio.gather(
                    *(
                        p.hold(t["start"], rng.choice(t["counselorIds"]))
                        for p, t in zip(movers, targets, strict=True)
                    )
                )
                for reply in replies:
                    outcomes["ok" if "data" in reply else reply["error"]["status"]] += 1
            elif action < 0.9:
                later = datetime.now(UTC) + timedelta(minutes=rng.choice([5, 11]))
                outcomes["expired"] += await run_job(base, "expire-holds", later)
            else:
                leaving = rng.choice(people)
                reply = await leaving.call(
                    "appointment-cancel",
                    {"appointmentId": leaving.appointment_id, "reason": "soak"},
                )
                outcomes["cancelled"] += "data" in reply
                people.remove(leaving)
                people.append(await stack.enter_async_context(person(base)))
            assert await overlaps(server.env["DATABASE_URL"]) == [], f"step {step}"
            # The server's answer (month cache, moved along by each change) is what the
            # database says (before or after it: the minimum notice moves with the clock).
            before = await computed_afresh(server.env["DATABASE_URL"], first, last)
            reply = await people[0].call(
                "vacancies-read", {"clinicId": "demo-clinic", "serviceId": "cancer", **days}
            )
            after = await computed_afresh(server.env["DATABASE_URL"], first, last)
            assert reply["data"]["slots"] in (before, after), f"step {step}"
    assert outcomes["ok"] > 10 and outcomes["ABORTED"] > 5, outcomes
