"""Signed one-click links of booking mails: a JWT (HS256) per link, verified claim by claim.

A booking mail's three links (my booking, reschedule, cancel; realtime/mail/links.py) carry
`&t=<token>`. Opened signed out, the client exchanges the token at `POST /auth/link` for a
session scoped to that appointment and purpose (realtime/link_scope.py); the token itself
grants nothing else.

- Made and read with joserfc, Authlib's JOSE library (`authlib.jose` is deprecated in its
  favour and warns on import; joserfc is what Authlib itself depends on).
- The key is derived from SECRET_KEY for this one use (HMAC-SHA256 of a fixed label), so
  no other use of the secret can mint or verify these tokens, and these cannot serve there.
- Claims: `iss` (this product), `aud` (the purpose: booking, reschedule, cancel), `sub` (the
  person's user id), `apt` (the appointment id), `at` (the booked start, clinic-local
  `YYYY-MM-DDTHH:MM`: a moved appointment's old links stop working), `iat`, `exp` (the
  appointment's end plus AFTER_END, never more than LONGEST after `iat`) and `jti`.
- Verification accepts HS256 alone (never `none` or another algorithm, whatever the header
  says), checks every claim, and refuses a lifetime over LONGEST even when well signed. Why a
  token was refused goes to the log only (never the token); the caller is told "no longer
  valid" whatever the reason.
- A link may be opened again until it expires (people click a mail twice): `jti` names a
  token in the log, it is not a single-use mark.
"""

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey

from realtime.contract import LINK_PURPOSES

log = logging.getLogger(__name__)

ALGORITHM = "HS256"
ISSUER = "genecounsel/booking-mail"
# The label the key is derived with: changing it retires every link already mailed.
KEY_LABEL = b"genecounsel: booking mail link tokens, v1"
# How long after the appointment's end its links still open (a late look at the receipt).
AFTER_END = timedelta(days=3)
# The longest a link lives, whatever the appointment's time.
LONGEST = timedelta(days=60)
# Longer than any token this module makes (about 400 characters): refused unread.
MAX_TOKEN_LENGTH = 1024
# The statuses in which a booking can still change: its mails carry signed links, and a
# link's session lives (realtime/link_scope.py).
OPEN_STATUSES = frozenset({"confirmed", "pending_payment"})
_CLAIMS = ("iss", "aud", "sub", "apt", "at", "iat", "exp", "jti")


@dataclass(frozen=True)
class LinkGrant:
    """What a link is about: the person, their appointment and its booked start."""

    user_id: str
    appointment_id: str
    at: str  # the booked start, clinic-local "YYYY-MM-DDTHH:MM"


def link_key(secret_key: str) -> OctKey:
    """The HMAC key of mail links, derived from SECRET_KEY for this use alone."""
    derived = hmac.new(secret_key.encode("utf-8"), KEY_LABEL, hashlib.sha256).digest()
    return OctKey.import_key(derived)


def booked_at(date: str | None, time: str | None) -> str | None:
    """The `at` claim of an appointment's booked start (None without a time)."""
    return f"{date}T{time}" if date and time else None


class LinkSigner:
    """Makes and verifies the tokens of mail links with one derived key."""

    def __init__(self, secret_key: str) -> None:
        self._key = link_key(secret_key)

    def sign(self, grant: LinkGrant, purpose: str, *, end: datetime, now: datetime) -> str:
        """A token for `purpose` on `grant`'s appointment, valid until its `end` plus
        AFTER_END (at most LONGEST from `now`)."""
        if purpose not in LINK_PURPOSES:
            raise ValueError(f"unknown link purpose {purpose!r}")
        issued = int(now.timestamp())
        expires = int(min(end + AFTER_END, now + LONGEST).timestamp())
        claims = {
            "iss": ISSUER,
            "aud": purpose,
            "sub": grant.user_id,
            "apt": grant.appointment_id,
            "at": grant.at,
            "iat": issued,
            "exp": max(expires, issued + 1),
            "jti": secrets.token_urlsafe(12),
        }
        return jwt.encode({"alg": ALGORITHM}, claims, self._key, algorithms=[ALGORITHM])

    def verify(
        self, token: object, *, purpose: str, appointment_id: str, now: datetime
    ) -> LinkGrant | None:
        """The grant of a token made here for `purpose` on `appointment_id`, still valid at
        `now`; None (the reason logged) for anything else."""
        try:
            claims = self._claims(token, purpose=purpose, appointment_id=appointment_id, now=now)
        except (JoseError, ValueError) as exc:
            log.info("mail link refused: %s (%s)", type(exc).__name__, exc)
            return None
        return LinkGrant(user_id=claims["sub"], appointment_id=claims["apt"], at=claims["at"])

    def _claims(
        self, token: object, *, purpose: str, appointment_id: str, now: datetime
    ) -> dict[str, Any]:
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
            raise ValueError("not a token of a usable length")
        decoded = jwt.decode(token, self._key, algorithms=[ALGORITHM])
        if decoded.header.get("alg") != ALGORITHM:  # decode allows no other; said twice
            raise ValueError("algorithm")
        claims = decoded.claims
        registry = jwt.JWTClaimsRegistry(
            now=int(now.timestamp()),
            **{name: {"essential": True} for name in _CLAIMS},  # type: ignore[arg-type]
        )
        registry.validate(claims)
        expected = {"iss": ISSUER, "aud": purpose, "apt": appointment_id}
        for name, value in expected.items():
            if claims[name] != value:
                raise ValueError(f"claim {name} is not this link's")
        if not all(isinstance(claims[name], str) for name in ("sub", "at", "jti")):
            raise ValueError("claims sub, at, jti must be text")
        if claims["exp"] - claims["iat"] > LONGEST.total_seconds():
            raise ValueError("lifetime longer than a link may live")
        return claims
