"""The .ics invitation attached to a confirmation mail (icalendar)."""

from datetime import datetime

from icalendar import Calendar, Event, vCalAddress, vText

PRODUCT_ID = "-//genecounsel//booking//EN"


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
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("method", "CANCEL" if cancelled else "REQUEST")
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", datetime.now(start.tzinfo))
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", summary)
    event.add("description", description)
    event.add("url", url)
    event.add("location", vText(url))
    event.add("sequence", sequence)
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    event["organizer"] = vCalAddress(f"mailto:{organizer_email}")
    attendee = vCalAddress(f"mailto:{attendee_email}")
    attendee.params["role"] = vText("REQ-PARTICIPANT")
    event.add("attendee", attendee, encode=False)
    calendar.add_component(event)
    return str(calendar.to_ical().decode("utf-8"))
