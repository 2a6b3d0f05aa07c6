"""What a checkout session's outcome does to its appointment (rules in __init__.py).

Called inside one transaction with the appointment row locked; what must happen after the
commit (pushes, mails, a refund through the API) is returned in `Outcome`.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from realtime.booking.confirm import confirm_booking
from realtime.booking.holds import SlotTaken, place_hold
from realtime.booking.status import transition
from realtime.collections import document_data
from realtime.intake.validate import missing_answers
from realtime.mail.outbox import Queued
from realtime.payments.sessions import known_sessions
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import Appointment, Clinic, Service
from storage.repo_booking import active_claim_of
from storage.repo_catalog import get_clinic, get_service
from storage.types import utcnow


@dataclass
class Outcome:
    mails: list[Queued] = field(default_factory=list)
    moments: list[datetime] = field(default_factory=list)  # claim changes to publish
    refund: tuple[str, str] | None = None  # (payment intent, reason)


async def _catalog(session: AsyncSession, row: Appointment) -> tuple[Clinic, Service]:
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    service = await get_service(session, service_id=row.service_id)
    assert clinic is not None and service is not None
    return clinic, service


def _set_payment(row: Appointment, **changes: Any) -> None:
    row.payment = {**(row.payment or {}), **changes}  # a new dict: the JSON column changes


async def _release(session: AsyncSession, row: Appointment, outcome: Outcome) -> None:
    claim = await active_claim_of(session, appointment_id=row.id)
    if claim is not None:
        claim.active = False
        outcome.moments.append(claim.start)
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
    this session while it was pending_payment, and then the hold lapsed) and it could still
    be submitted now. A payment for a draft that never was (a hold only: no consent, intake
    or terms) is refunded instead, whoever made the session."""
    return (
        session_id in known_sessions(row.payment)
        and row.agreed_to_terms
        and not missing_answers(document_data(row), service.category)
    )


async def paid(
    state: AppState, session: AsyncSession, row: Appointment, checkout: dict[str, Any]
) -> Outcome:
    outcome = Outcome()
    payment = row.payment or {}
    session_id, intent = checkout["id"], checkout.get("payment_intent")
    if payment.get("paidSessionId") == session_id:
        return outcome  # this payment was applied already
    clinic, service = await _catalog(session, row)
    amount_ok = (
        checkout.get("amount_total") == service.price_amount
        and str(checkout.get("currency", "")).lower() == (service.price_currency or "").lower()
    )
    reason = None if amount_ok else "amount_mismatch"
    if reason is None and row.status == "draft" and not _was_submitted(row, service, session_id):
        reason = "not_submitted"
    if reason is None and row.status in ("pending_payment", "draft"):
        claim = await active_claim_of(session, appointment_id=row.id)
        if claim is None:
            claim = await _take_again(state, session, row, service)
            if claim is not None:
                outcome.moments.append(claim.start)
        if claim is not None:
            outcome.mails = await confirm_booking(state, session, row, clinic, service, claim)
            _set_payment(row, status="paid", paidSessionId=session_id, paymentIntent=intent)
            return outcome
        reason = "slot_taken"
    elif reason is None:
        reason = "not_bookable"  # confirmed by another session, or cancelled
    if row.status == "pending_payment":
        row.status = transition(row.status, "draft")
        await _release(session, row, outcome)
    _set_payment(
        row,
        status="refund_pending",
        paidSessionId=session_id,
        paymentIntent=intent,
        refundReason=reason,
    )
    if intent:
        outcome.refund = (str(intent), reason)
    return outcome


async def ended(
    session: AsyncSession, row: Appointment, checkout: dict[str, Any], status: str
) -> Outcome:
    """A session expired or its payment failed: back to draft, only if it is the current one."""
    outcome = Outcome()
    payment = row.payment or {}
    if row.status != "pending_payment" or payment.get("sessionId") != checkout["id"]:
        return outcome  # forward only: nothing to undo
    row.status = transition(row.status, "draft")
    await _release(session, row, outcome)
    _set_payment(row, status=status)
    return outcome
