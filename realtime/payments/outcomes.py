"""What a checkout session's outcome does to its appointment (rules in __init__.py).

Called inside one transaction with the appointment row locked; what must happen after the
commit (pushes, mails, freed times) is recorded in the write's `Change`, and a refund to make
through the API is returned.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from realtime.booking.access import catalog_of
from realtime.booking.confirm import confirm_booking
from realtime.booking.holds import SlotTaken, place_hold
from realtime.booking.notify import Booking
from realtime.booking.status import transition
from realtime.changes import Change, Claims
from realtime.collections import document_data
from realtime.intake.validate import missing_answers
from realtime.payments.amount import fixed_price, same_price
from realtime.payments.sessions import known_sessions
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Appointment, Service
from storage.repo_booking import active_claim_of
from storage.types import utcnow


@dataclass(frozen=True)
class Refund:
    """A payment to give back through the API once the outcome is committed."""

    payment_intent: str
    reason: str


def _set_payment(row: Appointment, **changes: Any) -> None:
    row.payment = {**(row.payment or {}), **changes}  # a new dict: the JSON column changes


async def _release(session: AsyncSession, row: Appointment, change: Change) -> None:
    claim = await active_claim_of(session, appointment_id=row.id)
    if claim is not None:
        claim.active = False
        change.claims_changed(Claims(row.clinic_id, [claim.start]))
    change.moving(row)  # it leaves its bookings window
    row.counselor_id = row.date = row.time = row.hold_expires_at = None


async def _take_again(
    state: AppState, session: AsyncSession, row: Appointment, service: Service
) -> Any:
    """The slot of a payment whose hold lapsed, if nobody took it meanwhile."""
    slot = (row.payment or {}).get("slot") or {}
    if not slot.get("counselorId") or not slot.get("start"):
        return None
    now = utcnow()
    try:
        held = await place_hold(
            session,
            appointment=row,
            service=service,
            counselor_id=slot["counselorId"],
            start=datetime.fromisoformat(slot["start"]),
            expires_at=now + timedelta(minutes=1),
            now=now,
            check_overlap=state.db.sqlite,
        )
    except SlotTaken:
        return None
    return held.claim


def _was_submitted(row: Appointment, service: Service, session_id: str) -> bool:
    """A draft is confirmed by a payment only when it was submitted (its own checkout made
    this session while it was pending_payment, and then the session ended) and it could still
    be submitted now. A payment for a draft that never was (a hold only: no consent, intake
    or terms) is refunded instead, whoever made the session."""
    return (
        session_id in known_sessions(row.payment)
        and row.agreed_to_terms
        and not missing_answers(document_data(row), service.category)
    )


async def paid(
    state: AppState,
    session: AsyncSession,
    row: Appointment,
    checkout: dict[str, Any],
    change: Change,
) -> Refund | None:
    payment = row.payment or {}
    session_id, intent = checkout["id"], checkout.get("payment_intent")
    if payment.get("paidSessionId") == session_id:
        return None  # this payment was applied already
    clinic, service = await catalog_of(session, row)
    amount_ok = same_price(
        checkout.get("amount_total"), checkout.get("currency"), fixed_price(row, service)
    )
    reason = None if amount_ok else "amount_mismatch"
    if reason is None and row.status == "draft" and not _was_submitted(row, service, session_id):
        reason = "not_submitted"
    if reason is None and row.status in ("pending_payment", "draft"):
        claim = await active_claim_of(session, appointment_id=row.id)
        if claim is None:
            claim = await _take_again(state, session, row, service)
            if claim is not None:
                change.claims_changed(Claims(row.clinic_id, [claim.start]))
        if claim is not None:
            booking = Booking(row, clinic, service, claim)
            change.mail(*await confirm_booking(state, session, booking))
            _set_payment(row, status="paid", paidSessionId=session_id, paymentIntent=intent)
            return None
        reason = "slot_taken"
    elif reason is None:
        reason = "not_bookable"  # confirmed by another session, cancelled or expired
    if row.status == "pending_payment":
        row.status = transition(row.status, "draft")
        await _release(session, row, change)
    _set_payment(
        row,
        status="refund_pending",
        paidSessionId=session_id,
        paymentIntent=intent,
        refundReason=reason,
    )
    return Refund(str(intent), reason) if intent else None


async def ended(
    session: AsyncSession,
    row: Appointment,
    checkout: dict[str, Any],
    status: str,
    change: Change,
) -> None:
    """A session expired or its payment failed: back to draft, only if it is the current one."""
    payment = row.payment or {}
    if row.status != "pending_payment" or payment.get("sessionId") != checkout["id"]:
        return  # forward only: nothing to undo
    row.status = transition(row.status, "draft")
    await _release(session, row, change)
    _set_payment(row, status=status)
