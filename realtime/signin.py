"""Sign-in by e-mail link (docs/protocol.md, "Sign-in by e-mail link").

- A link's token is random, stored only as its SHA-256, used once, and expires after
  SIGN_IN_LINK_TTL_SECONDS (10 minutes).
- Opening the link (a GET, as mail scanners do) loads the client and consumes nothing; only
  POST /auth/confirm with the matching address uses it.
- Asking for a link gives the same answer for every well-formed address, and is limited per
  address and per client IP.
- Confirming with another address than the link's (a typo on another device) is refused as
  "email-mismatch" and leaves the link usable, SIGN_IN_LINK_ADDRESS_ATTEMPTS times; the next
  wrong address spends the link, so its address cannot be guessed by trying.
"""

import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

from realtime.changes import changing
from realtime.entry import resolve_entry
from realtime.errors import FunctionError
from realtime.mail.render import render
from realtime.mail.signature import signature_of
from realtime.oidc.config import provider_of
from realtime.ratelimit import enforce_each
from realtime.state import AppState
from realtime.text import clean, half_width
from storage.db import AsyncSession
from storage.models import SignInLink
from storage.repo_signin import add_link, link_for_update, lock_links_of, retire_other_links
from storage.repo_staff import staff_member
from storage.repo_users import create_session, get_or_create_user, hash_token
from storage.types import utcnow

EMAIL_PATTERN = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")
MAX_EMAIL_LENGTH = 254
INVALID_EMAIL = "Invalid email address."
LINK_INVALID = "The authentication link is no longer valid. Please start a new session."
EMAIL_MISMATCH = "This is not the address the link was sent to."
USE_IDENTITY_PROVIDER = "Staff of this clinic sign in with the clinic's identity provider."


def normalize_email(value: object) -> str:
    """The address as stored and compared, or INVALID_ARGUMENT.

    One address, one account: trimmed, in Unicode NFC (one spelling of an accented letter,
    RFC 6532), lower-cased (no provider treats case as meaningful in practice), the domain
    without its trailing dot(s) (`example.com.` is the DNS root form of `example.com`).
    Provider-specific rules (Gmail's dots, `+tags`) are not applied: elsewhere they would merge
    addresses of different people.
    """
    if not isinstance(value, str) or clean(value, multiline=False) is None:
        raise _invalid_email()
    typed = half_width(value).strip()  # an address typed in full-width letters
    local, at, domain = unicodedata.normalize("NFC", typed).lower().rpartition("@")
    email = f"{local}{at}{domain.rstrip('.')}"
    if len(email) > MAX_EMAIL_LENGTH or not EMAIL_PATTERN.fullmatch(email):
        raise _invalid_email()
    return email


def _invalid_email() -> FunctionError:
    return FunctionError("INVALID_ARGUMENT", INVALID_EMAIL, {"fields": {"email": INVALID_EMAIL}})


def link_invalid() -> FunctionError:
    return FunctionError("INVALID_ARGUMENT", LINK_INVALID, {"reason": "link-invalid"})


def email_mismatch() -> FunctionError:
    return FunctionError(
        "INVALID_ARGUMENT",
        EMAIL_MISMATCH,
        {"reason": "email-mismatch", "fields": {"email": EMAIL_MISMATCH}},
    )


async def another_wrong_address_allowed(state: AppState, link: SignInLink) -> bool:
    """Count a wrong address against `link`: True while the link may still be tried.

    Counted by the limiter (Redis when configured) over the link's lifetime: a restart that
    forgets the count gives a few more tries of a link that expires in minutes anyway.
    """
    settings = state.settings
    key = f"link-wrong-address:{link.token_hash}"
    (allowed,) = await state.limiter.hit(
        {key: settings.sign_in_link_address_attempts},
        window_seconds=settings.sign_in_link_ttl_seconds,
    )
    return allowed


async def request_link(
    state: AppState,
    *,
    email: str,
    locale: str,
    clinic_id: str | None,
    service_id: str | None,
    client_ip: str | None,
) -> None:
    settings = state.settings
    limits = {f"link-ip:{client_ip}": settings.sign_in_links_per_ip} if client_ip else {}
    limits[f"link-address:{email}"] = settings.sign_in_links_per_address
    await enforce_each(state.limiter, limits, window_seconds=settings.rate_limit_window_seconds)
    token = secrets.token_urlsafe(32)
    link = f"{settings.public_url.rstrip('/')}/login-confirmation?{urlencode({'token': token})}"
    now = utcnow()
    async with changing(state) as change, state.db.write() as session:
        entry = await resolve_entry(
            session,
            clinic_id=clinic_id,
            service_id=service_id,
            default_clinic_id=settings.default_clinic_id,
        )
        await add_link(
            session,
            link=SignInLink(
                token_hash=hash_token(token),
                email=email,
                locale=locale,
                clinic_id=entry.clinic.id,
                service_id=entry.service_id,
                created=now,
                expires_at=now + timedelta(seconds=settings.sign_in_link_ttl_seconds),
            ),
        )
        minutes = max(1, settings.sign_in_link_ttl_seconds // 60)
        queued = await state.mailer.queue(
            session,
            to=email,
            mail=render(
                "auth_link",
                locale,
                link=link,
                minutes=minutes,
                signature=signature_of(entry.clinic, locale),
            ),
            links=[link],
        )
        change.mail(queued)


@dataclass(frozen=True)
class SignedIn:
    uid: str
    email: str
    token: str


async def confirm(state: AppState, *, email: object, token: object) -> SignedIn:
    """Use a link once: the address must match, the link be unused and unexpired."""
    if not isinstance(token, str) or not 20 <= len(token) <= 128:
        raise link_invalid()
    address = normalize_email(email)
    async with state.db.write() as session:
        signed_in = await _use_link(state, session, address=address, token=token)
    if signed_in is None:
        raise link_invalid()  # spent by one wrong address too many (committed above)
    return signed_in


async def _refuse_provider_staff(state: AppState, session: AsyncSession, address: str) -> None:
    """Staff of a clinic with its own identity provider sign in there only (realtime/oidc):
    a person removed at the provider must not keep a way in by mail. The link stays
    unused (the refusal rolls back), and says where to go instead."""
    member = await staff_member(session, email=address)
    if member is None or member.removed_at is not None:
        return
    if await provider_of(state.settings, session, member.clinic_id) is not None:
        raise FunctionError(
            "PERMISSION_DENIED",
            USE_IDENTITY_PROVIDER,
            {"reason": "use-identity-provider", "clinicId": member.clinic_id},
        )


async def _use_link(
    state: AppState, session: AsyncSession, *, address: str, token: str
) -> SignedIn | None:
    """Sign in with the link, or raise (nothing changed), or spend the link and return None."""
    await lock_links_of(session, email=address)
    link = await link_for_update(session, token=token)
    now = utcnow()
    if link is None or link.used_at is not None or link.expires_at <= now:
        raise link_invalid()
    if link.email != address:
        if await another_wrong_address_allowed(state, link):
            # Not used up: the right person can still type the address again.
            raise email_mismatch()
        link.used_at = now
        return None
    await _refuse_provider_staff(state, session, address)
    link.used_at = now
    # An older (or newer) mail left in an inbox must not sign anyone in any more.
    await retire_other_links(session, used=link, at=now)
    user = await get_or_create_user(
        session,
        email=address,
        entry_clinic_id=link.clinic_id,
        entry_service_id=link.service_id,
    )
    bearer = await create_session(session, user_id=user.id)
    return SignedIn(uid=user.id, email=user.email, token=bearer)
