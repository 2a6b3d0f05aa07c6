"""Sessions signed in at a clinic's provider are asked about again (docs/security.md,
"Identity providers"): a person removed there loses access here at the next check.

Every OIDC_CHECK_SECONDS a session's refresh token is spent at the provider's token
endpoint. `invalid_grant` (the account was disabled or deleted, the grant revoked, the
refresh token expired), a provider no longer configured for the clinic, a token this
SECRET_KEY cannot unseal, or OIDC_SESSION_MAX_SECONDS since the sign-in: the session is
revoked and its sockets closed on every node, as staff removal does. A provider that cannot
be reached keeps the session until the next check (and never past the maximum length).
A session without a refresh token (the provider gave none) lasts the maximum length.

Each due session is claimed by one node in one statement, so a rotating refresh token is
never spent twice.
"""

import logging
from datetime import datetime, timedelta

import httpx2
from authlib.integrations.base_client.errors import OAuthError

from realtime.changes import changing
from realtime.oidc.config import provider_of
from realtime.oidc.discovery import ProviderUnavailable
from realtime.oidc.flow import client_for
from realtime.oidc.sealing import Unreadable, seal, unseal
from realtime.state import AppState
from storage.models import OidcSession
from storage.repo_oidc import claim_due_checks, forget_logins, get_oidc_session
from storage.repo_users import revoke_session

log = logging.getLogger(__name__)
BATCH = 200
# Refusals of the token endpoint that mean the grant is over (RFC 6749, 5.2).
GRANT_OVER = frozenset({"invalid_grant", "unauthorized_client"})


async def recheck_sessions(state: AppState, now: datetime) -> int:
    """Check the due sessions of every node's staff; returns how many ended."""
    check = timedelta(seconds=state.settings.oidc_check_seconds)
    async with state.db.write() as session:
        due = await claim_due_checks(session, now=now, next_check_at=now + check, limit=BATCH)
        await forget_logins(session, expired_before=now)
    ended = 0
    for session_id in due:
        async with state.db.read() as session:
            row = await get_oidc_session(session, session_id=session_id)
        if row is not None and not await _still_allowed(state, row, now):
            await _end(state, session_id, now)
            ended += 1
    if ended:
        log.info("oidc-recheck ended %s session(s)", ended)
    return ended


async def _still_allowed(state: AppState, row: OidcSession, now: datetime) -> bool:
    if now >= row.expires_at:
        return False
    async with state.db.read() as session:
        provider = await provider_of(state.settings, session, row.clinic_id)
    if provider is None or provider.issuer != row.issuer:
        return False
    if row.refresh_token_sealed is None:
        return True
    try:
        refresh = unseal(state.settings.secret_key, row.refresh_token_sealed)
        metadata = await state.oidc.metadata(provider.issuer)
        async with client_for(state, provider) as client:
            token = await client.refresh_token(metadata.token_endpoint, refresh_token=refresh)
    except Unreadable:
        return False
    except OAuthError as exc:
        if exc.error in GRANT_OVER:
            return False
        log.warning("oidc-recheck: %s refused a refresh: %s", provider.issuer, exc.error)
        return True
    except (ProviderUnavailable, httpx2.HTTPError, ValueError) as exc:
        log.warning("oidc-recheck: %s unreachable: %s", provider.issuer, type(exc).__name__)
        return True
    await _keep(state, row.session_id, token.get("refresh_token"), refresh, now)
    return True


async def _keep(state: AppState, session_id: int, new: object, old: str, now: datetime) -> None:
    """A rotated refresh token replaces the spent one (the old one no longer works)."""
    async with state.db.write() as session:
        row = await get_oidc_session(session, session_id=session_id)
        if row is None:
            return
        row.checked_at = now
        if isinstance(new, str) and new and new != old:
            row.refresh_token_sealed = seal(state.settings.secret_key, new)


async def _end(state: AppState, session_id: int, now: datetime) -> None:
    async with changing(state) as change, state.db.write() as session:
        await revoke_session(session, session_id=session_id, at=now)
        change.end_sessions([session_id], after_reply=False)
