"""A clinic and the services it offers, kept a minute per application.

Read on every publish after a claim change (which documents to version) and every
vacancies-read (alias, offer, service rules). Clinics and services are reference data that
no function changes, edited outside the server like the counselors' schedules, whose edits
the month cache also takes up to MAX_AGE_SECONDS to show (realtime/booking/slot_cache.py).
"""

import time

from realtime.booking.slot_cache import MAX_AGE_SECONDS
from storage.db import AsyncSession
from storage.models import Clinic, Service
from storage.repo_booking import catalog_of

MAX_CATALOGS = 1_000  # clinics kept (all dropped when full: rare)


class Catalogs:
    """The clinics read lately, by id, with the time they were read. One per application
    and its database (built by create_app, held on AppState: `state.caches.catalogs`)."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[float, tuple[Clinic, list[Service]]]] = {}

    async def get(
        self, session: AsyncSession, clinic_id: str
    ) -> tuple[Clinic, list[Service]] | None:
        """The clinic and its services by id (a fresh list: callers may sort it), or None
        for an unknown clinic or one that offers nothing (not kept: it may be added any
        moment)."""
        held = self._held.get(clinic_id)
        if held is not None and time.monotonic() - held[0] <= MAX_AGE_SECONDS:
            return held[1][0], list(held[1][1])
        found = await catalog_of(session, clinic_id=clinic_id)
        if found is None:
            self._held.pop(clinic_id, None)
            return None
        if len(self._held) >= MAX_CATALOGS:
            self._held.clear()
        self._held[clinic_id] = (time.monotonic(), found)
        return found[0], list(found[1])
