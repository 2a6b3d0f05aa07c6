"""A clinic and the services it offers, kept a minute per process.

Read on every publish after a claim change (which documents to version) and every
vacancies-read (alias, offer, service rules). Clinics and services are reference data that
no function changes, edited outside the server like the counselors' schedules, whose edits
the month cache also takes up to MAX_AGE_SECONDS to show (realtime/booking/slot_cache.py).
"""

import time

from realtime.booking.slot_cache import MAX_AGE_SECONDS
from storage.db import AsyncSession, Database
from storage.models import Clinic, Service
from storage.repo_booking import catalog_of

MAX_CATALOGS = 1_000  # clinics kept (all dropped when full: rare)

_CATALOGS: dict[tuple[str, str], tuple[float, tuple[Clinic, list[Service]]]] = {}


async def clinic_catalog(
    db: Database, session: AsyncSession, clinic_id: str
) -> tuple[Clinic, list[Service]] | None:
    """The clinic and its services by id (a fresh list: callers may sort it), or None for an
    unknown clinic or one that offers nothing (not kept: it may be added any moment)."""
    key = (str(db.engine.url), clinic_id)
    held = _CATALOGS.get(key)
    if held is not None and time.monotonic() - held[0] <= MAX_AGE_SECONDS:
        return held[1][0], list(held[1][1])
    found = await catalog_of(session, clinic_id=clinic_id)
    if found is None:
        _CATALOGS.pop(key, None)
        return None
    if len(_CATALOGS) >= MAX_CATALOGS:
        _CATALOGS.clear()
    _CATALOGS[key] = (time.monotonic(), found)
    return found[0], list(found[1])
