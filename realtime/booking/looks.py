"""A hold's first look at its appointment, coalesced across the holds in flight.

Every `appointment-hold` first reads its appointment (owner, status, intake), the clinic and
service, and the versions of the month documents around the chosen day (realtime/functions/
booking.py `_choice`). Most holds under contention are refused from that alone, so this read
is the whole database cost of a refusal; and on PostgreSQL taking a connection from the pool
costs more than the statement (the pool's ping of an idle connection is three round trips
with asyncpg: storage/db.py).

So one reader per process serves them all: the holds that arrive while a read is in flight
are answered together by the next one, one statement for the group (appointments by id, with
the versions as subqueries), and the reader keeps its connection while holds keep coming
(on PostgreSQL in autocommit, each statement seeing what is committed at that moment; on
SQLite each read is its own transaction).
Nobody waits for a timer: a hold that finds the reader idle is read at once; under load a
hold waits at most for the read before its own. Objects are not kept between reads (the
session's identity map is emptied), so every read sees the rows as they are.
"""

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from realtime.booking.sessions import autocommit
from storage.db import AsyncSession, Database
from storage.models import Appointment, Clinic, Service
from storage.repo_booking import MAX_LOOK_MONTHS, first_looks

MAX_GROUP = 200  # appointments in one read
LINGER_SECONDS = 1.0


@dataclass(frozen=True)
class Look:
    row: Appointment
    clinic: Clinic
    service: Service
    versions: dict[str, int]  # by month (`YYYY-MM`)


@dataclass(frozen=True)
class _Wanted:
    appointment_id: str
    months: tuple[str, ...]
    answer: "asyncio.Future[Look | None]"


class FirstLooks:
    """One per application and its database (built by create_app, held on AppState:
    `state.caches.looks`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._waiting: list[_Wanted] = []
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()
        self.reads = 0  # statements run (diagnostics and tests)

    async def get(self, appointment_id: str, months: Sequence[str]) -> Look | None:
        """The appointment, its clinic and service, and its months' versions (None: no such
        appointment). At most MAX_LOOK_MONTHS months."""
        assert len(months) <= MAX_LOOK_MONTHS
        wanted = _Wanted(appointment_id, tuple(months), asyncio.get_running_loop().create_future())
        self._waiting.append(wanted)
        self._arrived.set()
        if self._reader is None:
            self._reader = asyncio.create_task(self._read())
        return await wanted.answer

    async def _read(self) -> None:
        group: list[_Wanted] = []
        try:
            async with autocommit(self.db) as session:
                served = 0
                while await self._more():
                    group, self._waiting = self._waiting[:MAX_GROUP], self._waiting[MAX_GROUP:]
                    try:
                        await self._answer(session, group)
                    except Exception as exc:
                        if served:  # a connection kept idle may have died: once more, afresh
                            self._waiting[:0] = [w for w in group if not w.answer.done()]
                        else:
                            for wanted in group:
                                if not wanted.answer.done():
                                    wanted.answer.set_exception(exc)
                        group = []
                        break  # a fresh connection (pinged) for those still waiting
                    finally:
                        session.expunge_all()
                        if self.db.sqlite:  # end the read transaction: no old snapshot
                            await session.rollback()
                    group = []
                    served += 1
        except BaseException:  # cancelled (shutting down): nobody will answer them
            for wanted in [*group, *self._waiting]:
                wanted.answer.cancel()
            self._waiting = []
            raise
        finally:
            self._reader = None
            if self._waiting:
                self._reader = asyncio.create_task(self._read())

    async def _more(self) -> bool:
        """Is anyone waiting, or does someone come within LINGER_SECONDS? (The connection
        is kept that long after the last read: holds up to a second apart would otherwise
        each pay the pool's ping of an idle connection; one that died meanwhile is retried
        once.)"""
        if not self._waiting:
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), LINGER_SECONDS)
        return bool(self._waiting)

    async def _answer(self, session: AsyncSession, group: list[_Wanted]) -> None:
        """One statement for the group (one per set of months when they are too many)."""
        months = sorted({month for wanted in group for month in wanted.months})
        batches: dict[tuple[str, ...], list[_Wanted]] = {}
        for wanted in group:
            key = tuple(months) if len(months) <= MAX_LOOK_MONTHS else wanted.months
            batches.setdefault(key, []).append(wanted)
        for wanted_months, members in batches.items():
            self.reads += 1
            found = await first_looks(
                session,
                appointment_ids=sorted({w.appointment_id for w in members}),
                months=wanted_months,
            )
            for wanted in members:
                if wanted.answer.done():  # its caller is gone (cancelled)
                    continue
                look = found.get(wanted.appointment_id)
                wanted.answer.set_result(
                    None
                    if look is None
                    else Look(look[0], look[1], look[2], {m: look[3][m] for m in wanted.months})
                )
