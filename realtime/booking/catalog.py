"""A clinic and the services it offers, kept per application while their version holds.

Read on every publish after a claim change (which documents to version) and every
vacancies-read (alias, offer, service rules). `service-update` (realtime/functions/
services_admin.py) raises the clinic's catalog version (`catalog_path`, a row of
`document_versions`) in its own transaction, so every node sees an edit at once: a reader
uses what it holds only when it was read at the current version or later. The version costs
no query of its own where the caller reads versions anyway (vacancies-read reads it with the
month versions); elsewhere (the publishing after a claim change) it is one primary-key read.
An entry is also dropped after MAX_AGE_SECONDS (the clinic row itself is edited outside the
server).
"""

import time

from realtime.booking.slot_cache import MAX_AGE_SECONDS
from realtime.paths import catalog_path
from storage.db import AsyncSession
from storage.models import Clinic, Service
from storage.repo_booking import catalog_of, version_of

MAX_CATALOGS = 1_000  # clinics kept (all dropped when full: rare)

Catalog = tuple[Clinic, list[Service]]


class Catalogs:
    """The clinics read lately, by id, with their catalog version and the time they were
    read. One per application and its database (built by create_app, held on AppState:
    `state.caches.catalogs`)."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[int, float, Catalog]] = {}

    def held(self, clinic_id: str) -> Catalog | None:
        """What is kept of the clinic, without checking its version (to resolve an entry
        alias before the versions are read; then `get` with the version read)."""
        held = self._held.get(clinic_id)
        if held is None or time.monotonic() - held[1] > MAX_AGE_SECONDS:
            return None
        return held[2][0], list(held[2][1])

    async def get(
        self, session: AsyncSession, clinic_id: str, *, version: int | None = None
    ) -> Catalog | None:
        """The clinic and its services by id (a fresh list: callers may sort it), or None
        for an unknown clinic or one that offers nothing (not kept: it may be added any
        moment). `version`: the clinic's catalog version when the caller has read it (else
        it is read here)."""
        if version is None:
            version = await version_of(session, path=catalog_path(clinic_id))
        held = self._held.get(clinic_id)
        if (
            held is not None
            and held[0] >= version
            and time.monotonic() - held[1] <= MAX_AGE_SECONDS
        ):
            return held[2][0], list(held[2][1])
        found = await catalog_of(session, clinic_id=clinic_id)
        if found is None:
            self._held.pop(clinic_id, None)
            return None
        if len(self._held) >= MAX_CATALOGS:
            self._held.clear()
        self._held[clinic_id] = (version, time.monotonic(), found)
        return found[0], list(found[1])
