"""What the booking hot paths keep between calls, one set per application.

Built by create_app with the application's database and held on AppState
(`state.caches`), so that every cache belongs to one database and lives as long as the
application; nothing is kept in module globals (docs/architecture.md, "The layers").
The AUTOCOMMIT engine of realtime/booking/sessions.py is the database's own
(`Database.autocommit_bind`).
"""

from dataclasses import dataclass

from realtime.booking.catalog import Catalogs
from realtime.booking.looks import FirstLooks
from realtime.booking.slot_cache import SlotCache
from realtime.calendar.cache import FeedCache
from storage.db import Database


@dataclass(frozen=True)
class BookingCaches:
    months: SlotCache  # free times per month document version (slot_cache.py)
    looks: FirstLooks  # a hold's first look, coalesced (looks.py)
    catalogs: Catalogs  # clinics and their services, kept a minute (catalog.py)
    feeds: FeedCache  # counselors' calendar feeds as last rendered (realtime/calendar/cache.py)

    @classmethod
    def of(cls, db: Database) -> "BookingCaches":
        return cls(months=SlotCache(), looks=FirstLooks(db), catalogs=Catalogs(), feeds=FeedCache())
