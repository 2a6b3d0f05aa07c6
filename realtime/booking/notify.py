"""Mails of booking events: the client's confirmation (.ics attached) or cancellation, and
the counselor's notification. Queued in the caller's transaction, delivered after commit."""

from datetime import datetime

from realtime.contract import DEFAULT_LOCALE, LOCALES
from realtime.mail.invitation import invitation
from realtime.mail.outbox import Mailer, Queued
from realtime.mail.render import render
from realtime.mail.when import format_when
from storage.db import AsyncSession
from storage.models import Appointment, Clinic, Counselor, Service
from storage.repo_booking import get_counselor
from storage.repo_users import get_user


def mail_locale(appointment: Appointment) -> str:
    """The e-mail language the person chose on the calendar (`locale` of docs/protocol.md,
    "The appointment document")."""
    return appointment.locale if appointment.locale in LOCALES else DEFAULT_LOCALE


async def queue_booking_mails(
    mailer: Mailer,
    session: AsyncSession,
    *,
    event: str,  # confirmed | cancelled
    appointment: Appointment,
    client_email: str,
    clinic: Clinic,
    service: Service,
    counselor: Counselor,
    start: datetime,
    end: datetime,
    organizer_email: str,
) -> list[Queued]:
    locale = mail_locale(appointment)
    when = format_when(start, clinic.timezone, locale)
    join_url = appointment.join_url or ""
    context = {
        "when": when,
        "clinic": clinic.name.get(locale, clinic.id),
        "counselor": counselor.name.get(locale, counselor.id),
        "service": service.name.get(locale, service.id),
        "join_url": join_url,
    }
    ics = invitation(
        uid=f"{appointment.id}@genecounsel",
        start=start,
        end=end,
        summary=str(context["service"]),
        description=join_url,
        url=join_url,
        organizer_email=organizer_email,
        attendee_email=client_email,
        sequence=1 if event == "cancelled" else 0,
        cancelled=event == "cancelled",
    )
    template = "booking_confirmed" if event == "confirmed" else "booking_cancelled"
    queued = [
        await mailer.queue(
            session,
            to=client_email,
            mail=render(template, locale, **context),
            links=[join_url] if event == "confirmed" else [],
            attachments=[
                {"filename": "invitation.ics", "contentType": "text/calendar", "content": ics}
            ],
        )
    ]
    counselor_locale = next((lang for lang in counselor.languages if lang in LOCALES), "ja")
    queued.append(
        await mailer.queue(
            session,
            to=counselor.email,
            mail=render(
                "counselor_notification",
                counselor_locale,
                event=event,
                appointment_id=appointment.id,
                when=format_when(start, clinic.timezone, counselor_locale),
                counselor=counselor.name.get(counselor_locale, counselor.id),
                service=service.name.get(counselor_locale, service.id),
                join_url=join_url,
            ),
            links=[join_url] if join_url else [],
        )
    )
    return queued


async def booking_mails(
    mailer: Mailer,
    session: AsyncSession,
    event: str,
    row: Appointment,
    clinic: Clinic,
    service: Service,
    counselor_id: str,
    start: datetime,
    end: datetime,
) -> list[Queued]:
    """The mails of a booking event, looking up the person and the counselor."""
    user = await get_user(session, user_id=row.user_id)
    counselor = await get_counselor(session, counselor_id=counselor_id)
    assert user is not None and counselor is not None
    return await queue_booking_mails(
        mailer,
        session,
        event=event,
        appointment=row,
        client_email=user.email,
        clinic=clinic,
        service=service,
        counselor=counselor,
        start=start,
        end=end,
        organizer_email=clinic.contact_email,
    )
