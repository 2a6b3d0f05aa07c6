"""The content of a counselor's calendar feed: an iCalendar (RFC 5545) of their booked times.

What a feed says is what the counselor's mails say, no more: the service, the time (UTC),
the join link, the appointment id and the link to it in the staff screens. Never the
person's name, contact or answers (the feed's address is handed to outside calendar
services). Each appointment is the event of its mails (same UID; SEQUENCE its current
version, realtime/mail/invitation.py); cancelled ones are simply not listed, which makes
subscribing programs drop them at their next refresh.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from icalendar import Calendar, vDuration

from realtime.mail.invitation import (
    PRODUCT_ID,
    EventText,
    calendar_event,
    event_uid,
    sequence_of,
)
from realtime.mail.render import render_text
from storage.models import Appointment, Clinic, Counselor, Service, SlotClaim

# The window of times listed, around the moment of the request.
PAST = timedelta(days=30)
AHEAD = timedelta(days=365)
# How often subscribers are asked to fetch again (Outlook and Apple read these; Google
# Calendar keeps its own pace, several hours).
REFRESH = timedelta(hours=1)
# At most this many events in one feed: a full-time counselor has about 2,000 sessions in the
# window; the cap only bounds the work a single request can cause.
MAX_EVENTS = 5000


def window(now: datetime) -> tuple[datetime, datetime]:
    """[since, until) of the start times a feed lists."""
    return now - PAST, now + AHEAD


@dataclass(frozen=True)
class FeedBooking:
    appointment: Appointment
    claim: SlotClaim
    service: Service


def feed_calendar(
    *,
    counselor: Counselor,
    clinic: Clinic,
    locale: str,
    bookings: Sequence[FeedBooking],
    public_url: str,
) -> bytes:
    """The feed of `counselor`, worded in `locale`."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    names = {
        "counselor": counselor.name.get(locale, counselor.id),
        "clinic": clinic.name.get(locale, clinic.id),
    }
    calendar.add("x-wr-calname", render_text("calendar_feed.name", locale, **names))
    calendar.add("x-wr-timezone", clinic.timezone)
    calendar.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    base = public_url.rstrip("/")
    for booking in bookings:
        row, claim = booking.appointment, booking.claim
        join_url = row.join_url or ""
        description = render_text(
            "calendar_feed.event",
            locale,
            join_url=join_url,
            appointment_id=row.id,
            staff_url=f"{base}/staff/appointments/{row.id}",
        )
        calendar.add_component(
            calendar_event(
                uid=event_uid(row.id),
                start=claim.start,
                end=claim.end,
                text=EventText(
                    summary=booking.service.name.get(locale, booking.service.id),
                    description=description.strip(),
                    join_url=join_url or None,
                ),
                sequence=sequence_of(row),
                # The last change of the appointment: the feed reads the same until
                # something changes, so its ETag holds (realtime/calendar/serve.py).
                stamp=row.updated or row.created,
            )
        )
    body: bytes = calendar.to_ical()
    return body
