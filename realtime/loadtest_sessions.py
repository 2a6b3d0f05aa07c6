"""The load-test session issuer (docs/security.md, "Load-test sessions"): with LOADTEST_KEY
set, `POST /auth/loadtest-session` `{"data": {"email"}}` with the header `X-Loadtest-Key`
issues a session for an address of the reserved domain `loadtest.invalid` and nothing else.

Never a back door: the route exists only while the key is set (a weak key, or a key on a
production server without LOADTEST_ALLOW_PRODUCTION, refuses the start: realtime/
production.py); `.invalid` addresses can receive no mail, so no real person's account can
be named; the session has no second factor, so a staff membership of such an address would
still ask for one; every use, refused or not, is logged."""

import hmac
import logging
from typing import Any

from realtime.changes import changing
from realtime.errors import FunctionError, invalid_field
from realtime.signin import SignedIn, normalize_email
from realtime.state import AppState
from storage.repo_users import create_session, get_or_create_user

log = logging.getLogger(__name__)

KEY_HEADER = "x-loadtest-key"
LOADTEST_DOMAIN = "loadtest.invalid"
WRONG_KEY = "This load-test key is not valid."
NOT_A_LOADTEST_ADDRESS = f"Load-test sessions are only for addresses @{LOADTEST_DOMAIN}."


def key_matches(expected: str, given: str | None) -> bool:
    """In constant time: the comparison must not tell how much of a guess was right."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


async def issue(state: AppState, *, key: str | None, data: Any, client_ip: str | None) -> SignedIn:
    expected = state.settings.loadtest_key
    if expected is None or not key_matches(expected, key):
        log.warning("load-test session refused: wrong or missing key (client %s)", client_ip)
        raise FunctionError("PERMISSION_DENIED", WRONG_KEY)
    email = normalize_email(data.get("email") if isinstance(data, dict) else None)
    if email.rpartition("@")[2] != LOADTEST_DOMAIN:
        log.warning(
            "load-test session refused: address outside %s (client %s)", LOADTEST_DOMAIN, client_ip
        )
        raise invalid_field("email", NOT_A_LOADTEST_ADDRESS)
    async with changing(state), state.db.write() as session:
        user = await get_or_create_user(session, email=email)
        token = await create_session(session, user_id=user.id, second_factor_at=None)
    log.warning("load-test session issued for %s (client %s)", email, client_ip)
    return SignedIn(uid=user.id, email=user.email, token=token)
