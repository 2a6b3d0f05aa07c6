"""The cost of a counselor's calendar feed (realtime/calendar/feed.py), without a server:
rendering N events with icalendar, against the fingerprint that lets a feed whose content did
not change be served from the cache (realtime/calendar/cache.py).

`.venv/bin/python -m infra.bench.calendar_feed [N ...]` prints, per N, the best of 5 runs of
each, and the feed's size.
"""

import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial

from realtime.calendar.feed import FeedBooking, FeedSource, feed_calendar, fingerprint
from storage.models import Appointment, Clinic, Counselor, Service, SlotClaim

RUNS = 5


def source(events: int) -> FeedSource:
    now = datetime.now(UTC)
    clinic = Clinic(
        id="demo-clinic",
        name={"ja": "デモ遺伝カウンセリングクリニック", "en": "Demo"},
        timezone="Asia/Tokyo",
        contact_email="contact@demo-clinic.example",
        service_aliases={},
    )
    counselor = Counselor(
        id="c-sato",
        clinic_id=clinic.id,
        name={"ja": "佐藤 花子", "en": "Hanako Sato"},
        email="c-sato@demo-clinic.example",
        languages=["ja", "en"],
    )
    service = Service(
        id="cancer-b2b",
        category="cancer",
        name={"ja": "がんの遺伝学的検査の遺伝カウンセリング", "en": "Hereditary cancer counseling"},
        consent_version="2026-11",
    )
    bookings = []
    for i in range(events):
        start = now + timedelta(hours=2 * i)
        row = Appointment(
            id=f"bench-{i:06d}-aaaaaaaaaaaa",
            user_id="u",
            clinic_id=clinic.id,
            service_id=service.id,
            status="confirmed",
            join_url=f"https://meet.jit.si/gc-{i:06d}-abcdefghijkl",
            intake={},
            created=now,
            updated=now,
            version=7,
        )
        claim = SlotClaim(
            appointment_id=row.id,
            counselor_id=counselor.id,
            clinic_id=clinic.id,
            service_id=service.id,
            start=start,
            end=start + timedelta(hours=1),
            blocked_until=start + timedelta(minutes=75),
            kind="booking",
            created=now,
        )
        bookings.append(FeedBooking(row, claim, service))
    return FeedSource(counselor, clinic, "ja", bookings, "https://clinic.example")


def best(work: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main(sizes: list[int]) -> None:
    print("events  render_ms  fingerprint_ms  feed_kib")
    for events in sizes:
        feed = source(events)
        render = best(partial(feed_calendar, feed))
        digest = best(partial(fingerprint, feed))
        size = len(feed_calendar(feed)) / 1024
        print(f"{events:6d}  {render * 1000:9.0f}  {digest * 1000:14.1f}  {size:8.0f}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [100, 1000, 2000])
