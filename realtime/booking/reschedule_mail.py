"""The mails of a moved appointment (docs/product.md, "Rescheduling"): the person's, with
the old and the new time and the booking's facts, and the counselors': the new one gets the
updated invitation (REQUEST), and a counselor who no longer has it a CANCEL. Every .ics
carries the appointment's one UID and its new version as SEQUENCE
(realtime/mail/invitation.py), so calendar programs replace the event they hold."""

from realtime.booking.mail_facts import booking_facts, link_list
from realtime.booking.notify import Booking, counselor_locale, mail_locale
from realtime.mail.outbox import Mailer, Queued
from realtime.mail.render import render
from storage.db import AsyncSession
from storage.models import Counselor
from storage.repo_booking import get_counselor
from storage.repo_users import get_user

EVENT = "rescheduled"  # the counselor_notification template's event


async def rescheduled_mails(
    mailer: Mailer, session: AsyncSession, before: Booking, after: Booking
) -> list[Queued]:
    """Queue, in the caller's transaction: the person's mail, the new counselor's, and the
    old counselor's when the counselor changed. `before` holds the released claim."""
    user = await get_user(session, user_id=after.appointment.user_id)
    counselor = await get_counselor(session, counselor_id=after.claim.counselor_id)
    assert user is not None and counselor is not None
    queued = [
        await _person_mail(mailer, session, before, after, user.email, counselor),
        await _counselor_mail(mailer, session, before, after, counselor, kept=True),
    ]
    if before.claim.counselor_id != after.claim.counselor_id:
        previous = await get_counselor(session, counselor_id=before.claim.counselor_id)
        if previous is not None:
            queued.append(
                await _counselor_mail(mailer, session, before, after, previous, kept=False)
            )
    return queued


async def _person_mail(
    mailer: Mailer,
    session: AsyncSession,
    before: Booking,
    after: Booking,
    email: str,
    counselor: Counselor,
) -> Queued:
    locale = mail_locale(after.appointment)
    facts = booking_facts(after, locale, mailer.links, counselor)
    join_url = after.join_url
    mail = render(
        "booking_rescheduled",
        locale,
        facts=facts,
        old_when=before.when_for_person(locale),
        when=after.when_for_person(locale),
        join_url=join_url,
    )
    organizer = after.clinic.contact_email
    return await mailer.queue(
        session,
        to=email,
        mail=mail,
        links=([join_url] if join_url else []) + link_list(facts),
        attachments=[after.ics(EVENT, locale, organizer=organizer, attendee=email)],
    )


async def _counselor_mail(
    mailer: Mailer,
    session: AsyncSession,
    before: Booking,
    after: Booking,
    counselor: Counselor,
    *,
    kept: bool,
) -> Queued:
    """`kept`: the counselor has the appointment at its new time (REQUEST, join link);
    otherwise it left them (CANCEL of the old time, no join link)."""
    locale = counselor_locale(counselor)
    join_url = after.join_url if kept else ""
    organizer = after.clinic.contact_email
    ics = (
        after.ics(EVENT, locale, organizer=organizer, attendee=counselor.email)
        if kept
        else before.ics("cancelled", locale, organizer=organizer, attendee=counselor.email)
    )
    mail = render(
        "counselor_notification",
        locale,
        event=EVENT,
        appointment_id=after.appointment.id,
        when=after.when(locale),
        when_short=after.when_short(locale, for_person=False),
        old_when=before.when(locale),
        moved_away=not kept,
        counselor=counselor.name.get(locale, counselor.id),
        service=after.service_name(locale),
        join_url=join_url,
        cancelled_by="",
        reason="",
    )
    return await mailer.queue(
        session,
        to=counselor.email,
        mail=mail,
        links=[join_url] if join_url else [],
        attachments=[ics],
    )
