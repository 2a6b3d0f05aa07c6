"""Calendar events of appointments (icalendar): the .ics attached to booking mails, and the
events of a counselor's calendar feed (realtime/calendar/feed.py), built the same way.

One appointment is one event everywhere: its UID is `event_uid(appointment id)` in every
mail and feed, and its SEQUENCE the appointment document's `version` when the event was
written (`sequence_of`). The version rises with every committed change, so a later mail (a
cancellation, a new time) always carries a higher SEQUENCE than an earlier one, and calendar
programs replace the event they hold (RFC 5546). A cancelled event carries no join link.
"""

from dataclasses import dataclass
from datetime import datetime

from icalendar import Calendar, Event, vCalAddress, vText

from storage.models import Appointment
from storage.types import utcnow

PRODUCT_ID = "-//genecounsel//booking//EN"
UID_DOMAIN = "genecounsel"


def event_uid(appointment_id: str) -> str:
    """The UID of an appointment's event, in every mail and feed."""
    return f"{appointment_id}@{UID_DOMAIN}"


def sequence_of(appointment: Appointment) -> int:
    """The SEQUENCE of an appointment's event as it stands now (see the module's docstring)."""
    return appointment.version


@dataclass(frozen=True)
class EventText:
    """What an event says: its title, its description, and the join link (None when the
    event must not carry one, as a cancelled appointment's)."""

    summary: str
    description: str
    join_url: str | None


def calendar_event(
    *,
    uid: str,
    start: datetime,
    end: datetime,
    text: EventText,
    sequence: int,
    stamp: datetime,
    cancelled: bool = False,
) -> Event:
    """One VEVENT in UTC. The join link, when there is one, is the URL and the LOCATION (where
    Google Calendar, Outlook and Apple Calendar show a meeting's address)."""
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", text.summary)
    if text.description:
        event.add("description", text.description)
    if text.join_url and not cancelled:
        event.add("url", text.join_url)
        event.add("location", vText(text.join_url))
    event.add("sequence", sequence)
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    event.add("transp", "OPAQUE")
    return event


def invitation(
    *,
    uid: str,
    start: datetime,
    end: datetime,
    summary: str,
    description: str,
    url: str,
    organizer_email: str,
    attendee_email: str,
    sequence: int = 0,
    cancelled: bool = False,
) -> str:
    """An iTIP message (RFC 5546) for one attendee: METHOD REQUEST for a booked time, CANCEL
    for a cancelled one. A cancellation never carries the join link, whatever is passed."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("method", "CANCEL" if cancelled else "REQUEST")
    event = calendar_event(
        uid=uid,
        start=start,
        end=end,
        text=EventText(
            summary=summary,
            description="" if cancelled and url and url in description else description,
            join_url=None if cancelled else url or None,
        ),
        sequence=sequence,
        stamp=utcnow(),
        cancelled=cancelled,
    )
    event["organizer"] = vCalAddress(f"mailto:{organizer_email}")
    attendee = vCalAddress(f"mailto:{attendee_email}")
    attendee.params["role"] = vText("REQ-PARTICIPANT")
    event.add("attendee", attendee, encode=False)
    calendar.add_component(event)
    return str(calendar.to_ical().decode("utf-8"))
