"""What every mail about a booked time tells (docs/product.md, "Mails"): the service, the
time (start and end, the zones named), the counselor, the amount paid, the cancellation policy,
the links to the person's booking page and its actions, and the clinic's signature.

A template of a mail to the person about a booked time includes, in its language:

    {% include "<lang>/_booking_facts.txt" %}   (and .html): service, when, counselor, amount
    {% include "<lang>/_booking_footer.txt" %}  (and .html): while the booking can still be
        changed, the cancellation policy (`_booking_policy.txt`) and the three links; always the
        clinic's signature (`_signature`)

with `facts=booking_facts(...)` in its context, and queues the mail with
`links=link_list(facts)` (plus a join link if it carries one). Its subject may use
`facts.when_short` (the start, short, in the reader's zone). So the wording of these facts
lives once per language, and a new mail (rescheduled, reminder, waitlist offer) says nothing
of its own about them.

`facts` (a dict; templates read it with dots):
- `service`, `counselor` ("" when none), `amount` (the amount paid, written for the locale;
  "" when nothing was paid or it was refunded);
- `when`: the span in the clinic's zone, and the person's own beside it when it differs
  (realtime/mail/when.py `format_span`); `when_short`: the start alone, in the person's zone
  when it differs, else the clinic's (`format_moment`);
- `policy`: `priced`, `free_hours`, `free_until`, `late_percent`, `notice_hours`,
  `movable_until` (deadlines as `format_moment` writes them; the arithmetic is
  realtime/booking/policy.py);
- `links`: `Links(booking, reschedule, cancel)`, each signed for its purpose (`&t=`,
  realtime/link_tokens.py), or None once the booking cannot be changed (cancelled, ended):
  then the footer has the signature alone;
- `signature`: `name`, `email`, `phone` of the clinic (realtime/mail/signature.py);
  `clinic` and `contact` (`email`, `phone`) say the same for older templates.
"""

from typing import TYPE_CHECKING, Any

from realtime.booking.policy import CancellationPolicy
from realtime.link_tokens import OPEN_STATUSES, LinkGrant, booked_at
from realtime.mail.links import Links, MailLinks
from realtime.mail.money import format_amount
from realtime.mail.signature import signature_of
from realtime.mail.when import format_moment
from realtime.payments.amount import fixed_price
from storage.models import Counselor
from storage.types import utcnow

if TYPE_CHECKING:  # notify.py builds its mails with these facts
    from realtime.booking.notify import Booking


def amount_paid(booking: "Booking", locale: str) -> str:
    """The amount paid, written for `locale`; "" when nothing was paid (or it was refunded)."""
    payment = booking.appointment.payment or {}
    amount, currency = payment.get("amount"), payment.get("currency")
    if payment.get("status") != "paid" or not isinstance(amount, int) or not currency:
        return ""
    return format_amount(amount, str(currency), locale)


def policy_facts(booking: "Booking", locale: str) -> dict[str, Any]:
    """The cancellation policy of the booking's service, as the templates word it: whether a
    price applies, until when (hours before the start, and that moment) a cancel is free and a
    move allowed, and the later share. The moments are short and in one zone, the reader's
    (`format_moment`): beside the booked time, which names both, that reads true and brief."""
    policy = CancellationPolicy.of(booking.service)
    zone = booking.appointment.person_timezone
    clinic_zone = booking.clinic.timezone
    start = booking.claim.start
    return {
        "priced": bool(fixed_price(booking.appointment, booking.service)[0]),
        "free_hours": policy.free_cancel_hours,
        "free_until": format_moment(policy.free_until(start), clinic_zone, locale, zone),
        "late_percent": policy.late_refund_percent,
        "notice_hours": policy.min_notice_hours,
        "movable_until": format_moment(policy.movable_until(start), clinic_zone, locale, zone),
    }


def signed_links(booking: "Booking", links: MailLinks) -> Links | None:
    """The booking's three signed links (realtime/mail/links.py), or None once the booking
    cannot be changed any more (cancelled, ended) or holds no time."""
    appointment = booking.appointment
    at = booked_at(appointment.date, appointment.time)
    if appointment.status not in OPEN_STATUSES or at is None:
        return None
    grant = LinkGrant(user_id=appointment.user_id, appointment_id=appointment.id, at=at)
    return links.booking_links(grant, end=booking.claim.end, now=utcnow())


def booking_facts(
    booking: "Booking", locale: str, links: MailLinks, counselor: Counselor | None
) -> dict[str, Any]:
    """The `facts` of a booking mail to the person, in `locale`. `links` is None once the
    booking cannot be changed any more (cancelled, ended)."""
    clinic = booking.clinic
    return {
        "service": booking.service_name(locale),
        "when": booking.when_for_person(locale),
        "when_short": booking.when_short(locale),
        "counselor": counselor.name.get(locale, counselor.id) if counselor else "",
        "amount": amount_paid(booking, locale),
        "policy": policy_facts(booking, locale),
        "links": signed_links(booking, links),
        "clinic": clinic.name.get(locale, clinic.id),
        "contact": {"email": clinic.contact_email, "phone": clinic.contact_phone or ""},
        "signature": signature_of(clinic, locale),
    }


def link_list(facts: dict[str, Any]) -> list[str]:
    """The links of `facts`, for the outbox's `links` (tests and the dev outbox read them)."""
    links = facts.get("links")
    return [links.booking, links.reschedule, links.cancel] if isinstance(links, Links) else []
