"""Which copy of a paid checkout session to apply, if any (docs/protocol.md, Card payment).

A webhook's signature proves only that its sender knows STRIPE_WEBHOOK_SECRET. A session the
appointment's own checkout made is applied as the event gives it; any other session id is
asked of the provider (with STRIPE_SECRET_KEY, which a forger does not hold) and applied as
the provider has it, only when the provider knows it and it names this appointment.
"""

import logging
from typing import Any

import stripe

from realtime.payments.sessions import appointment_of, known_sessions
from realtime.state import AppState
from storage.repo_appointments import get_appointment

log = logging.getLogger(__name__)


async def checkout_to_apply(state: AppState, checkout: dict[str, Any]) -> dict[str, Any] | None:
    """The session to apply for a paid event, or None to ignore the event. A provider error
    other than "no such session" propagates: the webhook answers 503 and is sent again."""
    appointment_id, session_id = appointment_of(checkout), str(checkout.get("id") or "")
    if appointment_id is None or not session_id:
        return None
    async with state.db.read() as session:
        row = await get_appointment(session, appointment_id=appointment_id)
    if row is None:
        return None
    if session_id in known_sessions(row.payment):
        return checkout
    try:
        provider_copy = await state.payments.retrieve_session(session_id)
    except stripe.InvalidRequestError:
        log.warning("paid event for unknown checkout session ignored (%s)", appointment_id)
        return None
    if provider_copy.get("id") != session_id or appointment_of(provider_copy) != appointment_id:
        log.warning("paid event for another appointment's session ignored (%s)", appointment_id)
        return None
    return provider_copy
