"""The addresses a booking mail links to: the person's booking page and its two actions.

The client routes them (docs/product.md, "My booking"): `/b/booking?id=...` shows the
appointment, `&action=cancel` opens its cancel dialog, `/b/reschedule?id=...` its calendar;
a waitlist offer links to the review step, `/b/review`, where a draft goes on to its submit.
The three links of a booking that can still change carry `&t=<token>`, a signed token of
one purpose on that appointment (realtime/link_tokens.py): opened signed out, it opens a
session that may do only that (realtime/link_scope.py); without it (or once it no longer
works) the page asks for a sign-in first, then continues there. The appointment id is not
personal data and the token holds only ids and times; nothing else goes into these URLs.
"""

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlencode

from realtime.contract import LINK_TOKEN_PARAM
from realtime.link_tokens import LinkGrant, LinkSigner


def _url(public_url: str, path: str, **query: str) -> str:
    return f"{public_url.rstrip('/')}{path}?{urlencode(query)}"


def _token(token: str | None) -> dict[str, str]:
    return {LINK_TOKEN_PARAM: token} if token else {}


def my_booking_url(public_url: str, appointment_id: str, token: str | None = None) -> str:
    return _url(public_url, "/b/booking", id=appointment_id, **_token(token))


def cancel_url(public_url: str, appointment_id: str, token: str | None = None) -> str:
    return _url(public_url, "/b/booking", id=appointment_id, action="cancel", **_token(token))


def reschedule_url(public_url: str, appointment_id: str, token: str | None = None) -> str:
    return _url(public_url, "/b/reschedule", id=appointment_id, **_token(token))


def review_url(public_url: str) -> str:
    """The booking's review step (the person's one open appointment: no id needed)."""
    return f"{public_url.rstrip('/')}/b/review"


@dataclass(frozen=True)
class Links:
    booking: str
    reschedule: str
    cancel: str


@dataclass(frozen=True)
class MailLinks:
    """The base of every link in mails (PUBLIC_URL) and the signer of their tokens."""

    public_url: str
    signer: LinkSigner

    def booking_links(self, grant: LinkGrant, *, end: datetime, now: datetime) -> Links:
        """The three signed links of a booking whose time ends at `end`."""

        def token(purpose: str) -> str:
            return self.signer.sign(grant, purpose, end=end, now=now)

        base, appointment_id = self.public_url, grant.appointment_id
        return Links(
            booking=my_booking_url(base, appointment_id, token("booking")),
            reschedule=reschedule_url(base, appointment_id, token("reschedule")),
            cancel=cancel_url(base, appointment_id, token("cancel")),
        )
