"""The authorization code flow with PKCE, state and nonce (docs/protocol.md, "Staff sign-in
through the clinic's identity provider").

`start` keeps what the callback will need in the database (one row per sign-in, so any
node may receive the callback): the state (as a SHA-256), the nonce, the PKCE verifier and
the hash of a random value given to the browser in a cookie, so that a callback carried to
another browser (login CSRF) is refused. `callback` takes that row once, exchanges the code
with Authlib's OAuth client, verifies the ID token, finds the staff member of THAT clinic
(by the provider's subject, or on the first sign-in by a verified e-mail of a member not
linked yet) and starts a session as the e-mail sign-in does. Every refusal is a `Refused`
with a reason of `STAFF_SIGN_IN_ERRORS`; the details go to the log only.
"""

import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx2
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import AsyncOAuth2Client

from realtime import audit
from realtime.changes import Change, changing
from realtime.errors import FunctionError
from realtime.identity import Identity
from realtime.oidc.config import Provider, provider_of
from realtime.oidc.discovery import Metadata, ProviderUnavailable
from realtime.oidc.id_token import TokenRefused, Verified, key_id, verify
from realtime.oidc.sealing import seal
from realtime.signin import SignedIn, normalize_email
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import OidcLogin, OidcSession, StaffMember
from storage.repo_oidc import (
    add_login,
    add_oidc_session,
    member_of_subject,
    session_of_token,
    take_login,
)
from storage.repo_staff import lock_staff_member
from storage.repo_users import create_session, get_or_create_user, hash_token
from storage.types import utcnow

log = logging.getLogger(__name__)
CALLBACK_PATH = "/auth/oidc/callback"
STAFF_HOME = "/staff"
BASE_SCOPES = "openid email profile"
OFFLINE_SCOPE = "offline_access"  # a refresh token, where the provider offers the scope


class Refused(Exception):
    """A sign-in that ends on the sign-in screen with `reason` (STAFF_SIGN_IN_ERRORS)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True)
class Started:
    authorization_url: str
    browser_token: str  # the cookie binding the sign-in to this browser


@dataclass(frozen=True)
class Finished:
    signed_in: SignedIn
    next_path: str


def redirect_uri(state: AppState) -> str:
    return state.settings.public_url.rstrip("/") + CALLBACK_PATH


def staff_path(value: str | None) -> str:
    """Where to go after signing in: a path of the staff workspace, else its home."""
    if value and value.startswith(STAFF_HOME) and "//" not in value and "\\" not in value:
        return value[:500]
    return STAFF_HOME


def client_for(state: AppState, provider: Provider, scope: str | None = None) -> AsyncOAuth2Client:
    return AsyncOAuth2Client(
        client_id=provider.client_id,
        client_secret=provider.client_secret,
        token_endpoint_auth_method="client_secret_basic" if provider.client_secret else "none",
        scope=scope,
        redirect_uri=redirect_uri(state),
        code_challenge_method="S256",
        timeout=state.settings.oidc_http_timeout_seconds,
    )


async def _provider(state: AppState, clinic_id: str) -> Provider:
    async with state.db.read() as session:
        provider = await provider_of(state.settings, session, clinic_id)
    if provider is None:
        raise Refused("not-offered", clinic_id)
    return provider


async def _metadata(state: AppState, provider: Provider) -> Metadata:
    try:
        return await state.oidc.metadata(provider.issuer)
    except ProviderUnavailable as exc:
        raise Refused("provider", str(exc)) from exc


async def start(state: AppState, *, clinic_id: str, next_path: str | None) -> Started:
    provider = await _provider(state, clinic_id)
    metadata = await _metadata(state, provider)
    login_state, nonce, browser = (secrets.token_urlsafe(32) for _ in range(3))
    verifier = secrets.token_urlsafe(48)  # 64 characters (RFC 7636: 43..128)
    now = utcnow()
    async with state.db.write() as session:
        await add_login(
            session,
            login=OidcLogin(
                state_hash=hash_token(login_state),
                browser_hash=hash_token(browser),
                clinic_id=clinic_id,
                nonce=nonce,
                code_verifier=verifier,
                next_path=staff_path(next_path),
                created=now,
                expires_at=now + timedelta(seconds=state.settings.oidc_login_ttl_seconds),
            ),
        )
    scope = BASE_SCOPES + (f" {OFFLINE_SCOPE}" if metadata.offers_offline else "")
    async with client_for(state, provider, scope) as client:
        url, _ = client.create_authorization_url(
            metadata.authorization_endpoint,
            state=login_state,
            code_verifier=verifier,
            nonce=nonce,
        )
    return Started(authorization_url=str(url), browser_token=browser)


async def callback(
    state: AppState, params: dict[str, str], *, browser_token: str | None, client_ip: str | None
) -> Finished:
    login = await _take(state, params.get("state"), browser_token)
    if "error" in params:
        cancelled = params["error"] == "access_denied"
        raise Refused("cancelled" if cancelled else "provider", params["error"][:100])
    code = params.get("code")
    if not code:
        raise Refused("provider", "no code")
    provider = await _provider(state, login.clinic_id)
    metadata = await _metadata(state, provider)
    token = await _exchange(state, provider, metadata, code, login.code_verifier)
    verified = await _verify(state, provider, metadata, token.get("id_token"), login.nonce)
    mfa = verified.asserts_mfa(provider.mfa_acr)
    refresh = token.get("refresh_token")
    async with changing(state) as change, state.db.write() as session:
        member, linked = await _member(session, provider, verified)
        user = await get_or_create_user(session, email=member.email)
        now = utcnow()
        bearer = await create_session(
            session, user_id=user.id, second_factor_at=now if mfa else None
        )
        session_id = await session_of_token(session, token=bearer)
        settings = state.settings
        await add_oidc_session(
            session,
            row=OidcSession(
                session_id=session_id,
                clinic_id=provider.clinic_id,
                issuer=provider.issuer,
                subject=verified.subject,
                refresh_token_sealed=seal(settings.secret_key, refresh)
                if isinstance(refresh, str) and refresh
                else None,
                expires_at=now + timedelta(seconds=settings.oidc_session_max_seconds),
                next_check_at=now + timedelta(seconds=settings.oidc_check_seconds),
            ),
        )
        if linked:
            who = Identity(
                uid=user.id,
                email=user.email,
                session_id=session_id,
                role=member.role,
                clinic_id=member.clinic_id,
                counselor_id=member.counselor_id,
            )
            await _audit_link(session, change, who, provider, verified.subject, client_ip)
    return Finished(
        SignedIn(uid=user.id, email=user.email, token=bearer),
        next_path=staff_path(login.next_path),
    )


async def _take(state: AppState, login_state: str | None, browser_token: str | None) -> OidcLogin:
    """The sign-in a callback answers, used up now; refused when unknown, expired, used
    already (a replayed callback) or started in another browser."""
    if not login_state or len(login_state) > 200:
        raise Refused("expired", "no state")
    async with state.db.write() as session:
        login = await take_login(session, state_hash=hash_token(login_state), at=utcnow())
    if login is None:
        raise Refused("expired", "unknown, expired or used state")
    if not browser_token or hash_token(browser_token) != login.browser_hash:
        raise Refused("expired", "started in another browser")
    return login


async def _exchange(
    state: AppState, provider: Provider, metadata: Metadata, code: str, verifier: str
) -> dict[str, Any]:
    try:
        async with client_for(state, provider) as client:
            token = await client.fetch_token(
                metadata.token_endpoint,
                grant_type="authorization_code",
                code=code,
                code_verifier=verifier,
                redirect_uri=redirect_uri(state),
            )
    except OAuthError as exc:
        raise Refused("provider", f"token endpoint: {exc.error}") from exc
    except (httpx2.HTTPError, ValueError) as exc:
        raise Refused("provider", f"token endpoint: {type(exc).__name__}") from exc
    return dict(token)


async def _verify(
    state: AppState, provider: Provider, metadata: Metadata, id_token: object, nonce: str
) -> Verified:
    if not isinstance(id_token, str):
        raise Refused("token", "no id_token")
    try:
        keys = await state.oidc.keys(metadata, key_id(id_token))
    except ProviderUnavailable as exc:
        raise Refused("provider", str(exc)) from exc
    settings = state.settings
    try:
        return verify(
            id_token,
            keys,
            issuer=provider.issuer,
            client_id=provider.client_id,
            nonce=nonce,
            now=int(utcnow().timestamp()),
            skew=settings.oidc_clock_skew_seconds,
            max_age=settings.oidc_login_ttl_seconds,
        )
    except TokenRefused as exc:
        raise Refused("token", str(exc)) from exc


async def _member(
    session: AsyncSession, provider: Provider, verified: Verified
) -> tuple[StaffMember, bool]:
    """The active member of the provider's clinic this subject is, and whether it was linked
    just now. A subject seen before is its linked member's; a new one is linked to the
    member whose address the provider says it verified, if that member is of this clinic
    and not linked to another subject of this issuer."""
    member = await member_of_subject(session, issuer=provider.issuer, subject=verified.subject)
    if member is not None:
        if member.removed_at is not None or member.clinic_id != provider.clinic_id:
            raise Refused("unknown", "linked member removed or of another clinic")
        return member, False
    if verified.email is None or not verified.email_verified:
        raise Refused("unknown", "new subject without a verified e-mail")
    try:
        email = normalize_email(verified.email)
    except FunctionError as exc:
        raise Refused("unknown", "new subject with an unusable e-mail") from exc
    member = await lock_staff_member(session, email=email)
    if member is None or member.clinic_id != provider.clinic_id:
        raise Refused("unknown", "no active member of this clinic with that e-mail")
    if member.oidc_subject is not None and member.oidc_issuer == provider.issuer:
        raise Refused("unknown", "the member is linked to another subject")
    # Linked at another issuer: the clinic's administrator changed the provider, whose word
    # on the address now counts (the old issuer's sessions end at their next check).
    member.oidc_issuer = provider.issuer
    member.oidc_subject = verified.subject
    await session.flush()
    return member, True


async def _audit_link(
    session: AsyncSession,
    change: Change,
    who: Identity,
    provider: Provider,
    subject: str,
    client_ip: str | None,
) -> None:
    """A member's first sign-in at the provider linked them to its subject: the clinic's
    administrators see it in the audit log."""
    await audit.record(
        session,
        who,
        change=change,
        clinic_id=provider.clinic_id,
        action=audit.STAFF_OIDC_LINK,
        detail={"email": who.email, "issuer": provider.issuer, "subject": subject},
        address=client_ip,
    )
