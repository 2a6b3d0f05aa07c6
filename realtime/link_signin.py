"""`POST /auth/link`: a booking mail's signed link exchanged for a session scoped to it.

The body `{"token", "purpose", "appointmentId"}` names what the page the link opened is
for (`/b/booking?id=` booking, `&action=cancel` cancel, `/b/reschedule?id=` reschedule).
The token must be one of ours for exactly that purpose and appointment
(realtime/link_tokens.py), and the appointment must still be the person's, booked at the time
the token names (a moved or cancelled appointment's old links no longer open anything).

- Signed out, or in another link's session: a new session scoped to that appointment and
  purpose (realtime/link_scope.py), ending after LINK_SESSION_SECONDS or at the appointment's
  end, whichever comes first; a previous link session of this browser is revoked.
- Signed in as the link's owner (a full session): nothing changes, the token is not needed.
- Signed in as someone else: refused, PERMISSION_DENIED `reason: "other-account"`.
- Any other token: INVALID_ARGUMENT `reason: "booking-link-invalid"`, the same whatever the
  cause (the cause is logged by link_tokens.py or here).
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from realtime.changes import changing
from realtime.contract import LINK_PURPOSES
from realtime.errors import FunctionError, invalid_field
from realtime.identity import Identity
from realtime.link_tokens import OPEN_STATUSES, LinkGrant, booked_at
from realtime.ratelimit import enforce_each
from realtime.signin import SignedIn
from realtime.state import AppState
from storage.db import AsyncSession
from storage.repo_appointments import get_appointment
from storage.repo_booking import active_claim_of
from storage.repo_users import create_session, get_user, revoke_session
from storage.types import utcnow

log = logging.getLogger(__name__)

# The longest a link's session lives (it ends sooner with its appointment).
LINK_SESSION_SECONDS = 30 * 60
LINK_INVALID = "This link no longer works. Sign in to see your booking."
OTHER_ACCOUNT = "This link belongs to another account. Sign out first to use it."


def link_invalid() -> FunctionError:
    return FunctionError("INVALID_ARGUMENT", LINK_INVALID, {"reason": "booking-link-invalid"})


@dataclass(frozen=True)
class LinkRequest:
    token: str
    purpose: str
    appointment_id: str


def link_request(body: dict[str, object]) -> LinkRequest:
    """The body's three fields, or INVALID_ARGUMENT naming the first bad one."""
    token, purpose, appointment_id = (
        body.get("token"),
        body.get("purpose"),
        body.get("appointmentId"),
    )
    if purpose not in LINK_PURPOSES or not isinstance(purpose, str):
        raise invalid_field("purpose", f"purpose must be one of {', '.join(LINK_PURPOSES)}.")
    if not isinstance(appointment_id, str) or not 0 < len(appointment_id) <= 64:
        raise invalid_field("appointmentId", "appointmentId must be an appointment's id.")
    if not isinstance(token, str) or not token:
        raise link_invalid()
    return LinkRequest(token=token, purpose=purpose, appointment_id=appointment_id)


async def open_link_session(
    state: AppState, caller: Identity | None, request: LinkRequest, client_ip: str | None
) -> SignedIn | None:
    """A new scoped session for the link, or None when the caller's own full session already
    covers it; raises as the module docstring says."""
    settings = state.settings
    await enforce_each(
        state.limiter,
        {f"booking-link-ip:{client_ip or 'unknown'}": settings.sign_in_links_per_ip},
        window_seconds=settings.rate_limit_window_seconds,
    )
    now = utcnow()
    grant = state.mailer.links.signer.verify(
        request.token, purpose=request.purpose, appointment_id=request.appointment_id, now=now
    )
    if grant is None:
        raise link_invalid()
    if caller is not None and caller.link is None:
        if caller.uid == grant.user_id:
            return None
        raise FunctionError("PERMISSION_DENIED", OTHER_ACCOUNT, {"reason": "other-account"})
    async with changing(state) as change, state.db.write() as session:
        end = await _linked_end(session, grant, now)
        user = await get_user(session, user_id=grant.user_id)
        if end is None or user is None or user.erased_at is not None:
            raise link_invalid()
        if caller is not None:  # another link's session of this browser: replaced
            await revoke_session(session, session_id=caller.session_id, at=now)
            change.end_sessions([caller.session_id], after_reply=True)
        expires_at = min(now + timedelta(seconds=LINK_SESSION_SECONDS), end)
        token = await create_session(
            session, user_id=user.id, link=(request.purpose, grant.appointment_id, expires_at)
        )
    return SignedIn(uid=user.id, email=user.email, token=token)


async def _linked_end(session: AsyncSession, grant: LinkGrant, now: datetime) -> datetime | None:
    """The end of the appointment's booked time, while the grant still describes it: the
    person's, open (confirmed or awaiting payment), at the time the link was mailed for, not
    over yet. None (logged) otherwise."""
    row = await get_appointment(session, appointment_id=grant.appointment_id, for_update=False)
    claim = await active_claim_of(session, appointment_id=grant.appointment_id)
    reason = None
    if row is None or row.user_id != grant.user_id:
        reason = "not this person's appointment"
    elif row.status not in OPEN_STATUSES:
        reason = f"appointment is {row.status}"
    elif booked_at(row.date, row.time) != grant.at:
        reason = "appointment moved since the mail"
    elif claim is None or claim.end <= now:
        reason = "appointment has no time ahead"
    if reason is not None or claim is None:
        log.info("mail link refused: %s", reason)
        return None
    return claim.end
