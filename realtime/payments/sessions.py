"""An appointment's own checkout sessions: those stripe-createCheckoutSession made for it.

Its `payment.sessionId` is the current one and `payment.earlierSessionIds` the ones before
(the newest EARLIER_KEPT). A paid event for any other session id is applied only once the
provider confirms the session is this appointment's (realtime/payments/verify.py).
"""

from typing import Any

# Older ones still verify through the provider, so the list need not grow without end.
EARLIER_KEPT = 20


def appointment_of(checkout: dict[str, Any]) -> str | None:
    """The appointment a checkout session was made for (its metadata, as we create it)."""
    metadata = checkout.get("metadata") or {}
    found = metadata.get("appointmentId") or checkout.get("client_reference_id")
    return str(found) if found else None


def known_sessions(payment: dict[str, Any] | None) -> set[str]:
    payment = payment or {}
    known = {str(s) for s in payment.get("earlierSessionIds") or []}
    if payment.get("sessionId"):
        known.add(str(payment["sessionId"]))
    return known


def earlier_sessions(previous: dict[str, Any] | None, new_session_id: str) -> list[str]:
    """`earlierSessionIds` once `new_session_id` replaces the current session of `previous`."""
    previous = previous or {}
    earlier = [str(s) for s in previous.get("earlierSessionIds") or []]
    current = previous.get("sessionId")
    if current and current != new_session_id and current not in earlier:
        earlier.append(str(current))
    return earlier[-EARLIER_KEPT:]
