"""Who is calling: bearer token or session cookie -> Identity, for HTTP and sockets.

The e-mail-link sign-in replaces the dev token helper (realtime/http.py) in the next
issue; the session table, hashing and lookup here are already the real ones.
"""

from collections.abc import Mapping
from datetime import timedelta
from http.cookies import SimpleCookie
from typing import Any

from starlette.responses import Response

from realtime.identity import Identity, LinkScope, SecondFactor
from realtime.link_tokens import OPEN_STATUSES
from realtime.state import AppState
from storage.repo_users import LinkedAppointment, SessionOwner, owner_of_session, owner_of_token
from storage.types import utcnow

SESSION_COOKIE = "gc_session"
MAX_TOKEN_LENGTH = 256


def bearer_from_headers(headers: Mapping[str, str]) -> str | None:
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def cookie_token(cookie_header: str | None) -> str | None:
    if not cookie_header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except Exception:
        return None
    morsel = jar.get(SESSION_COOKIE)
    return morsel.value if morsel else None


def socket_token(environ: Mapping[str, Any], auth: object) -> str | None:
    """A socket authenticates with `auth: {"token": ...}` or with the session cookie."""
    if isinstance(auth, dict) and isinstance(auth.get("token"), str):
        return str(auth["token"])
    return cookie_token(environ.get("HTTP_COOKIE"))


async def resolve(state: AppState, token: str | None) -> Identity | None:
    """The signed-in identity of a token; a session idle past the limit is over."""
    found = await resolve_owner(state, token)
    return identity_of(found)


async def resolve_owner(state: AppState, token: str | None) -> SessionOwner | None:
    """Whose live session a token is, with the appointment their record points at (a
    socket's connect needs both: one point read, realtime/sockets.py)."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    now = utcnow()
    active_since = now - timedelta(seconds=state.settings.inactivity_seconds)
    return await state.db.run_read(
        lambda statements: owner_of_token(
            statements, token=token, active_since=active_since, now=now
        )
    )


async def resolve_again(state: AppState, who: Identity) -> Identity | None:
    """The identity of a session read again (a socket's, whose session may have passed its
    second factor since the handshake); None once the session is over."""
    now = utcnow()
    active_since = now - timedelta(seconds=state.settings.inactivity_seconds)
    owner = await state.db.run_read(
        lambda statements: owner_of_session(
            statements, session_id=who.session_id, active_since=active_since, now=now
        )
    )
    return identity_of(owner)


def identity_of(owner: SessionOwner | None) -> Identity | None:
    """The identity a session's owner signs in as."""
    if owner is None:
        return None
    if owner.link is not None:
        return _link_identity(owner, owner.link)
    staff = owner.staff_role is not None
    return Identity(
        uid=owner.uid,
        email=owner.email,
        session_id=owner.session_id,
        role=owner.staff_role or "client",
        clinic_id=owner.clinic_id,
        counselor_id=owner.counselor_id,
        second_factor=_second_factor(owner) if staff else None,
    )


def _second_factor(owner: SessionOwner) -> SecondFactor:
    """Where a staff session stands: passed, waiting for a code, or not enrolled yet."""
    if owner.second_factor_passed:
        return "ok"
    return "required" if owner.totp_confirmed else "enrol"


def set_session_cookie(response: Response, token: str, *, https: bool) -> None:
    """The browser's session: HttpOnly (no script reads it), SameSite=Lax (sent on the
    top-level navigations that bring a person back from an identity provider, not on
    another site's requests), Secure under https."""
    response.set_cookie(
        SESSION_COOKIE, token, httponly=True, samesite="lax", secure=https, path="/"
    )


def _link_identity(owner: SessionOwner, linked: LinkedAppointment) -> Identity | None:
    """The identity of a mail link's session: a client scoped to its one appointment, only
    while that appointment can still change (cancelled, ended or erased: the session is
    over). Never staff, whoever the address is."""
    if (
        linked.status not in OPEN_STATUSES
        or linked.clinic_id is None
        or linked.service_id is None
        or linked.expires_at is None
    ):
        return None
    return Identity(
        uid=owner.uid,
        email=owner.email,
        session_id=owner.session_id,
        role="client",
        clinic_id=None,
        link=LinkScope(
            purpose=linked.purpose,
            appointment_id=linked.appointment_id,
            clinic_id=linked.clinic_id,
            service_id=linked.service_id,
            expires_at=linked.expires_at,
        ),
    )
