"""GET /calendar/appointments/{id}.ics: the person's own appointment as a calendar file, for
"Add to calendar" (Apple Calendar and any other program that opens .ics files;
docs/protocol.md, "My appointments").

The event is the one the booking mails carry (realtime/mail/invitation.py): the same UID and
the SEQUENCE of the appointment as it stands, so a calendar that imported both keeps one
event and the newer wins. Only the owner gets it, by bearer token or session cookie; anyone
else, signed out or not, gets the 404 of an unknown id (an id says nothing about whether it
exists). A cancelled appointment is served as a cancelled event without the join link.
"""

import asyncio
from dataclasses import dataclass

from icalendar import Calendar
from starlette.responses import JSONResponse, Response

from realtime.booking.access import RAW_ID
from realtime.booking.mine import Span, span_of
from realtime.booking.notify import mail_locale
from realtime.calendar.serve import CONTENT_TYPE, NOT_FOUND
from realtime.identity import Identity
from realtime.mail.invitation import PRODUCT_ID, EventText, calendar_event, event_uid, sequence_of
from realtime.state import AppState
from storage.models import Appointment, Service
from storage.repo_appointments import get_appointment
from storage.repo_catalog import get_service
from storage.types import utcnow

# An event is offered for an appointment that holds or held a booked time.
WITH_EVENT = frozenset({"pending_payment", "confirmed", "cancelled", "completed", "no_show"})


@dataclass(frozen=True)
class OwnEvent:
    row: Appointment
    service: Service
    span: Span


async def own_event(state: AppState, who: Identity | None, appointment_id: str) -> OwnEvent | None:
    """The caller's appointment with its time, or None (not theirs, unknown, no time)."""
    if who is None or not RAW_ID.fullmatch(appointment_id):
        return None
    async with state.db.read() as session:
        row = await get_appointment(session, appointment_id=appointment_id)
        if row is None or row.user_id != who.uid or row.status not in WITH_EVENT:
            return None
        service = await get_service(session, service_id=row.service_id)
    span = span_of(row, service) if service is not None else None
    return OwnEvent(row, service, span) if service is not None and span is not None else None


def event_file(found: OwnEvent) -> bytes:
    """A VCALENDAR of one event (METHOD PUBLISH: a file to import, not an invitation)."""
    row = found.row
    cancelled = row.status == "cancelled"
    locale = mail_locale(row)
    join_url = row.join_url if row.status == "confirmed" else None
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add_component(
        calendar_event(
            uid=event_uid(row.id),
            start=found.span.start,
            end=found.span.end,
            text=EventText(
                summary=found.service.name.get(locale, found.service.id),
                description=join_url or "",
                join_url=join_url,
            ),
            sequence=sequence_of(row),
            stamp=utcnow(),
            cancelled=cancelled,
        )
    )
    return bytes(calendar.to_ical())


async def appointment_calendar(
    state: AppState, who: Identity | None, appointment_id: str
) -> Response:
    """The response of GET /calendar/appointments/{id}.ics for the caller `who`."""
    found = await own_event(state, who, appointment_id)
    if found is None:
        return JSONResponse(NOT_FOUND.to_wire(), status_code=NOT_FOUND.http_status)
    body = await asyncio.to_thread(event_file, found)
    headers = {
        # Private to the owner: no shared cache keeps it, and nothing keeps a stale copy.
        "Cache-Control": "private, no-store",
        "Content-Disposition": 'attachment; filename="appointment.ics"',
    }
    return Response(body, media_type=CONTENT_TYPE, headers=headers)
