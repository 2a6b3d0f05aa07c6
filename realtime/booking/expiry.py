"""A pending payment whose hold lapsed unpaid: `expired` (realtime/booking/status.py).

The checkout session ended and the grace after it passed without a payment, so the time
goes back to everyone and the booking attempt ends: the person is mailed, in the
appointment's language, that the reservation expired, with the link to their booking page
where they may start again from a copy of their answers (realtime/booking/rebook.py). A
payment that still arrives for it later is refunded (realtime/payments/outcomes.py).
"""

from realtime.booking.access import catalog_of
from realtime.booking.mail_facts import booking_facts
from realtime.booking.notify import Booking, mail_locale
from realtime.booking.status import transition
from realtime.mail.links import my_booking_url
from realtime.mail.outbox import Queued
from realtime.mail.render import render
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Appointment, SlotClaim
from storage.repo_users import get_user


async def expire_unpaid(
    state: AppState, session: AsyncSession, row: Appointment, claim: SlotClaim
) -> Queued:
    """Mark the pending payment `expired` (its payment too) and queue the person's mail;
    the caller releases the hold and expires the checkout session."""
    row.status = transition(row.status, "expired")
    row.payment = {**(row.payment or {}), "status": "expired"}
    clinic, service = await catalog_of(session, row)
    user = await get_user(session, user_id=row.user_id)
    assert user is not None
    locale = mail_locale(row)
    link = my_booking_url(state.settings.public_url, row.id)
    booking = Booking(row, clinic, service, claim)
    facts = booking_facts(booking, locale, state.mailer.links, None)
    mail = render("booking_expired", locale, facts=facts, booking_url=link)
    return await state.mailer.queue(session, to=user.email, mail=mail, links=[link])
