"""Mails of booking events: the person's confirmation or cancellation and the counselor's
notice, each with the appointment's event attached (.ics: REQUEST when confirmed, CANCEL
when cancelled; one UID and a rising SEQUENCE, realtime/mail/invitation.py). A cancellation
mail never carries the join link. Queued in the caller's transaction, delivered after
commit."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from realtime import audit
from realtime.booking.access import catalog_of, clinic_appointment
from realtime.booking.mail_facts import booking_facts, link_list
from realtime.booking.refunds import refund_facts
from realtime.changes import changing
from realtime.contract import DEFAULT_LOCALE, LOCALES
from realtime.errors import FunctionError
from realtime.identity import Identity
from realtime.mail.invitation import event_uid, invitation, sequence_of
from realtime.mail.outbox import Mailer, Queued
from realtime.mail.render import render
from realtime.mail.signature import signature_of
from realtime.mail.when import format_moment, format_span
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Appointment, Clinic, Counselor, Service, SlotClaim
from storage.repo_booking import active_claim_of, get_counselor, last_booked_claim_of
from storage.repo_users import get_user


def mail_locale(appointment: Appointment) -> str:
    """The e-mail language the person chose on the calendar (`locale` of docs/protocol.md,
    "The appointment document")."""
    return appointment.locale if appointment.locale in LOCALES else DEFAULT_LOCALE


def counselor_locale(counselor: Counselor) -> str:
    """The language of what a counselor reads (mails, their calendar feed): their first
    language the product speaks."""
    return next((lang for lang in counselor.languages if lang in LOCALES), DEFAULT_LOCALE)


@dataclass(frozen=True)
class Booking:
    """An appointment with the time it holds or held: what a booking mail speaks of."""

    appointment: Appointment
    clinic: Clinic
    service: Service
    claim: SlotClaim

    @property
    def join_url(self) -> str:
        return self.appointment.join_url or ""

    def when(self, locale: str) -> str:
        """The booked span in the clinic's zone, written for `locale` (what staff read)."""
        return format_span(self.claim.start, self.claim.end, self.clinic.timezone, locale)

    def when_for_person(self, locale: str) -> str:
        """The booked span for the person who booked: the clinic's, and theirs beside it when
        the zone their browser gave (`personTimezone`) reads differently."""
        zone = self.appointment.person_timezone
        return format_span(self.claim.start, self.claim.end, self.clinic.timezone, locale, zone)

    def when_short(self, locale: str, *, for_person: bool = True) -> str:
        """The start alone, short, in one zone (a subject line): the person's when their clock
        differs (`for_person`), else the clinic's."""
        zone = self.appointment.person_timezone if for_person else None
        return format_moment(self.claim.start, self.clinic.timezone, locale, zone)

    def service_name(self, locale: str) -> str:
        return self.service.name.get(locale, self.service.id)

    @property
    def cancelled_by(self) -> str:
        """Who cancelled: `clinic` (staff, with `byClinic`) or `person` (the one who booked)."""
        return "clinic" if (self.appointment.cancellation or {}).get("by") == "clinic" else "person"

    @property
    def cancel_reason(self) -> str:
        reason = (self.appointment.cancellation or {}).get("reason")
        return reason if isinstance(reason, str) else ""

    def ics(self, event: str, locale: str, *, organizer: str, attendee: str) -> dict[str, str]:
        """The .ics attachment of a mail about this booking: REQUEST with the join link when
        confirmed, CANCEL without it when cancelled (realtime/mail/invitation.py)."""
        cancelled = event == "cancelled"
        join_url = "" if cancelled else self.join_url
        content = invitation(
            uid=event_uid(self.appointment.id),
            start=self.claim.start,
            end=self.claim.end,
            summary=self.service_name(locale),
            description=join_url,
            url=join_url,
            organizer_email=organizer,
            attendee_email=attendee,
            sequence=sequence_of(self.appointment),
            cancelled=cancelled,
        )
        return {"filename": "invitation.ics", "contentType": "text/calendar", "content": content}


async def last_booking_facts(
    mailer: Mailer, session: AsyncSession, row: Appointment, locale: str
) -> dict[str, Any] | None:
    """The `facts` of the time `row` last had booked (active or released), for a mail sent
    after the fact (a refund after a cancel); None when it never had one."""
    claim = await last_booked_claim_of(session, appointment_id=row.id)
    if claim is None:
        return None
    clinic, service = await catalog_of(session, row)
    counselor = await get_counselor(session, counselor_id=claim.counselor_id)
    return booking_facts(Booking(row, clinic, service, claim), locale, mailer.links, counselor)


async def booking_mails(
    mailer: Mailer, session: AsyncSession, event: str, booking: Booking
) -> list[Queued]:
    """Queue the mails of a booking event (confirmed | cancelled) in the caller's
    transaction: the person's first (the .ics invitation attached), then the counselor's."""
    user = await get_user(session, user_id=booking.appointment.user_id)
    counselor = await get_counselor(session, counselor_id=booking.claim.counselor_id)
    assert user is not None and counselor is not None
    return [
        await _client_mail(mailer, session, event, booking, user.email, counselor),
        await _counselor_mail(mailer, session, event, booking, counselor),
    ]


async def _client_mail(
    mailer: Mailer,
    session: AsyncSession,
    event: str,
    booking: Booking,
    email: str,
    counselor: Counselor,
) -> Queued:
    locale = mail_locale(booking.appointment)
    clinic, join_url = booking.clinic, booking.join_url
    confirmed = event == "confirmed"
    facts = booking_facts(booking, locale, mailer.links, counselor)
    context = {
        "facts": facts,
        # A cancellation never carries the join link (docs/security.md, "Mail").
        "join_url": join_url if confirmed else "",
        "reason": "" if confirmed else booking.cancel_reason,
        # What the person's cancel gives back (realtime/booking/refunds.py).
        "refund": None if confirmed else refund_facts(booking.appointment.payment, locale),
    }
    template = "booking_confirmed" if confirmed else "booking_cancelled"
    return await mailer.queue(
        session,
        to=email,
        mail=render(template, locale, **context),
        links=([join_url] if confirmed and join_url else []) + link_list(facts),
        attachments=[booking.ics(event, locale, organizer=clinic.contact_email, attendee=email)],
    )


async def reservation_cancelled_mail(
    mailer: Mailer, session: AsyncSession, booking: Booking
) -> Queued:
    """The person's short notice that a reservation not yet booked (a draft holding a time,
    or one waiting for its payment) was cancelled and the time let go: no invitation was
    sent for it, so none is cancelled, and the counselor was never told."""
    user = await get_user(session, user_id=booking.appointment.user_id)
    assert user is not None
    locale = mail_locale(booking.appointment)
    facts = booking_facts(booking, locale, mailer.links, None)
    return await mailer.queue(
        session,
        to=user.email,
        mail=render("reservation_cancelled", locale, facts=facts),
        links=link_list(facts),
    )


async def clinic_cancel_mails(
    mailer: Mailer,
    session: AsyncSession,
    row: Appointment,
    claim: SlotClaim | None,
    *,
    reason: str,
    refund: bool,
) -> list[Queued]:
    """Queue the mails of a cancellation by the clinic: the person's, in the appointment's
    language, always (with the cancelled invitation when a time was booked), then the
    counselor's when a time had been booked or a meeting link sent."""
    clinic, service = await catalog_of(session, row)
    user = await get_user(session, user_id=row.user_id)
    assert user is not None
    locale = mail_locale(row)
    booking = Booking(row, clinic, service, claim) if claim is not None else None
    attachments = []
    if booking is not None and claim is not None and claim.kind == "booking":
        attachments.append(
            booking.ics("cancelled", locale, organizer=clinic.contact_email, attendee=user.email)
        )
    counselor = await get_counselor(session, counselor_id=claim.counselor_id) if claim else None
    mail = render(
        "booking_cancelled_by_clinic",
        locale,
        facts=booking_facts(booking, locale, mailer.links, counselor) if booking else None,
        signature=signature_of(clinic, locale),
        service=service.name.get(locale, service.id),
        reason=reason,
        refund=refund,
    )
    queued = [
        await mailer.queue(session, to=user.email, mail=mail, links=[], attachments=attachments)
    ]
    if booking is not None and claim is not None and (claim.kind == "booking" or row.join_url):
        assert counselor is not None
        queued.append(await _counselor_mail(mailer, session, "cancelled", booking, counselor))
    return queued


async def _counselor_mail(
    mailer: Mailer, session: AsyncSession, event: str, booking: Booking, counselor: Counselor
) -> Queued:
    """The counselor's notice, in their first language, with the event for their calendar
    (REQUEST when confirmed, CANCEL when cancelled). A cancellation says who cancelled and
    why, and never carries the join link."""
    locale = counselor_locale(counselor)
    confirmed = event == "confirmed"
    join_url = booking.join_url if confirmed else ""
    return await mailer.queue(
        session,
        to=counselor.email,
        mail=render(
            "counselor_notification",
            locale,
            event=event,
            appointment_id=booking.appointment.id,
            when=booking.when(locale),
            when_short=booking.when_short(locale, for_person=False),
            counselor=counselor.name.get(locale, counselor.id),
            service=booking.service_name(locale),
            join_url=join_url,
            cancelled_by="" if confirmed else booking.cancelled_by,
            reason="" if confirmed else booking.cancel_reason,
        ),
        links=[join_url] if join_url else [],
        attachments=[
            booking.ics(
                event, locale, organizer=booking.clinic.contact_email, attendee=counselor.email
            )
        ],
    )


async def resend_counselor_mail(
    state: AppState,
    who: Identity | None,
    appointment_id: object,
    validate: Callable[[], object],
    *,
    address: str | None = None,
) -> None:
    """Staff: the counselor's notification of a confirmed appointment, once more; audited in
    the same transaction. `appointment_id` is the call's raw value, authorized before
    `validate` checks the whole input."""
    async with changing(state) as change, state.db.write() as session:
        row = await clinic_appointment(session, who, appointment_id, for_update=False)
        assert who is not None  # clinic_appointment refuses the signed-out
        validate()
        claim = await active_claim_of(session, appointment_id=row.id)
        if row.status != "confirmed" or claim is None:
            raise FunctionError("ABORTED", "Only a confirmed appointment has a counselor to tell.")
        clinic, service = await catalog_of(session, row)
        booking = Booking(row, clinic, service, claim)
        queued = await booking_mails(state.mailer, session, "confirmed", booking)
        change.mail(*queued[1:])  # the counselor's: the person has theirs
        await audit.record_on(
            session,
            who,
            row,
            audit.MAIL_RESEND,
            change=change,
            detail={"to": "counselor"},
            address=address,
        )
