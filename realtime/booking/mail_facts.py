"""What every mail about a booked time tells (docs/product.md, "Booking mails"): the
service, the time, the counselor, the amount paid, the cancellation policy, the links to the
person's booking page and its actions, and the clinic's contact details for the signature.

Templates include them through the partials `_booking_facts` (what, when, who, how much) and
`_booking_footer` (policy, links, signature) of each language, so that the wording of these
facts lives once per language.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from realtime.booking.policy import CancellationPolicy
from realtime.mail.links import cancel_url, my_booking_url, reschedule_url
from realtime.mail.money import format_amount
from realtime.mail.when import format_when
from storage.models import Counselor

if TYPE_CHECKING:  # notify.py builds its mails with these facts
    from realtime.booking.notify import Booking


@dataclass(frozen=True)
class Links:
    booking: str
    reschedule: str
    cancel: str


def amount_paid(booking: "Booking", locale: str) -> str:
    """The amount paid, written for `locale`; "" when nothing was paid (or it was refunded)."""
    payment = booking.appointment.payment or {}
    amount, currency = payment.get("amount"), payment.get("currency")
    if payment.get("status") != "paid" or not isinstance(amount, int) or not currency:
        return ""
    return format_amount(amount, str(currency), locale)


def policy_facts(booking: "Booking", locale: str) -> dict[str, Any]:
    """The cancellation policy of the booking's service, as the templates word it: whether a
    price applies, until when a cancel is free and a move allowed, and the later share."""
    policy = CancellationPolicy.of(booking.service)
    zone = booking.appointment.person_timezone
    clinic_zone = booking.clinic.timezone
    start = booking.claim.start
    return {
        "priced": bool(booking.service.price_amount),
        "free_until": format_when(policy.free_until(start), clinic_zone, locale, zone),
        "late_percent": policy.late_refund_percent,
        "movable_until": format_when(policy.movable_until(start), clinic_zone, locale, zone),
    }


def booking_facts(
    booking: "Booking", locale: str, public_url: str, counselor: Counselor | None
) -> dict[str, Any]:
    """The `facts` of a booking mail to the person, in `locale`. `links` is None once the
    booking cannot be changed any more (cancelled, ended)."""
    appointment, clinic = booking.appointment, booking.clinic
    open_booking = appointment.status in ("confirmed", "pending_payment")
    links = (
        Links(
            booking=my_booking_url(public_url, appointment.id),
            reschedule=reschedule_url(public_url, appointment.id),
            cancel=cancel_url(public_url, appointment.id),
        )
        if open_booking
        else None
    )
    return {
        "service": booking.service_name(locale),
        "when": booking.when_for_person(locale),
        "counselor": counselor.name.get(locale, counselor.id) if counselor else "",
        "amount": amount_paid(booking, locale),
        "policy": policy_facts(booking, locale),
        "links": links,
        "clinic": clinic.name.get(locale, clinic.id),
        "contact": {"email": clinic.contact_email, "phone": clinic.contact_phone or ""},
    }


def link_list(facts: dict[str, Any]) -> list[str]:
    """The links of `facts`, for the outbox's `links` (tests and the dev outbox read them)."""
    links = facts.get("links")
    return [links.booking, links.reschedule, links.cancel] if isinstance(links, Links) else []
