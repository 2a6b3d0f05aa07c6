"""The addresses a booking mail links to: the person's booking page and its two actions.

The client routes them (docs/product.md, "My booking"): `/b/booking?id=...` shows the
appointment, `&action=cancel` opens its cancel dialog, `/b/reschedule?id=...` its calendar;
a waitlist offer links to the review step, `/b/review`, where a draft goes on to its submit.
Each asks for a sign-in first when the reader has no session, then continues there. The
appointment id is not personal data; nothing else goes into these URLs.
"""

from urllib.parse import urlencode


def _url(public_url: str, path: str, **query: str) -> str:
    return f"{public_url.rstrip('/')}{path}?{urlencode(query)}"


def my_booking_url(public_url: str, appointment_id: str) -> str:
    return _url(public_url, "/b/booking", id=appointment_id)


def cancel_url(public_url: str, appointment_id: str) -> str:
    return _url(public_url, "/b/booking", id=appointment_id, action="cancel")


def reschedule_url(public_url: str, appointment_id: str) -> str:
    return _url(public_url, "/b/reschedule", id=appointment_id)


def review_url(public_url: str) -> str:
    """The booking's review step (the person's one open appointment: no id needed)."""
    return f"{public_url.rstrip('/')}/b/review"
