"""stripe-createCheckoutSession and stripe-getSessionStatus."""

from datetime import datetime, timedelta
from typing import Annotated, Any

import stripe
from pydantic import StringConstraints

from realtime.booking.notify import mail_locale
from realtime.booking.submit import HOLD_EXPIRED_MESSAGE
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function
from realtime.errors import FunctionError, no_access
from realtime.functions.inputs import Id, Input
from realtime.identity import Identity
from realtime.paths import appointment_path
from realtime.payments.amount import fixed_price
from realtime.payments.sessions import earlier_sessions
from realtime.rules import require_identity
from realtime.state import AppState
from storage.documents import mark_changed
from storage.models import Appointment
from storage.repo_appointments import get_appointment
from storage.repo_booking import active_claim_of
from storage.repo_catalog import get_service
from storage.repo_users import get_user
from storage.types import iso, utcnow

SESSION_ID = Annotated[str, StringConstraints(pattern=r"^cs_[A-Za-z0-9_]{1,250}$")]
# An open session this close to its end is not handed out again.
REUSE_MARGIN = timedelta(minutes=2)
# Statuses of a payment still in the period that its first checkout session began: another
# session continues that period (and its cap) instead of starting a new one.
SAME_PERIOD = frozenset({"open", "creating", "failed"})
PAYMENT_TIME_OVER = "The time to pay for this booking is over. Please choose a time again."


def payment_period_start(payment: dict[str, Any], now: datetime) -> datetime:
    """When this pending payment's first checkout session was opened (or `now` for a first).

    Each new checkout session extends the hold over itself; without a cap
    (CHECKOUT_HOLD_MAX_MINUTES from this start), asking for a new session just before each
    one ends would keep a time forever (docs/security.md, "Holds"). A payment that expired
    went back to draft and was submitted again after a new hold, itself capped: a new period.
    """
    first = payment.get("firstOpenedAt") if payment.get("status") in SAME_PERIOD else None
    return datetime.fromisoformat(first) if isinstance(first, str) else now


class CreateCheckout(Input):
    appointmentId: Id


async def _owned(state: AppState, who: Identity, appointment_id: str) -> Appointment:
    async with state.db.read() as session:
        row = await get_appointment(session, appointment_id=appointment_id)
    if row is None or row.user_id != who.uid:
        raise no_access()
    return row


@callable_function("stripe-createCheckoutSession", CreateCheckout)
async def create_checkout(context: CallContext, request: CreateCheckout) -> dict[str, Any]:
    who = require_identity(context.identity)
    state = context.state
    path = appointment_path(request.appointmentId)
    async with changing(state, path) as change:
        row = await _owned(state, who, request.appointmentId)
        payment = row.payment or {}
        now = utcnow()
        if row.status != "pending_payment":
            raise FunctionError("ABORTED", "This appointment is not waiting for a payment.")
        if payment.get("status") == "open" and payment.get("expiresAt", "") > iso(
            now + REUSE_MARGIN
        ):
            return {"sessionId": payment["sessionId"], "url": payment["url"]}
        started = payment_period_start(payment, now)
        cap = started + timedelta(minutes=state.settings.checkout_hold_max_minutes)
        if cap <= now + REUSE_MARGIN:
            raise FunctionError("ABORTED", PAYMENT_TIME_OVER, {"reason": "holdLimit"})
        # A session whose answer was lost is asked for again with the same key (same session).
        attempt = int(payment.get("attempt", 0)) + (0 if payment.get("status") == "creating" else 1)
        checkout, expires_at = await _new_session(state, who, row, attempt)
        async with state.db.write() as session:
            locked = await get_appointment(session, appointment_id=row.id, for_update=True)
            assert locked is not None
            row = locked
            claim = await active_claim_of(session, appointment_id=row.id)
            if row.status != "pending_payment" or claim is None:
                raise FunctionError("ABORTED", HOLD_EXPIRED_MESSAGE)
            grace = timedelta(minutes=state.settings.payment_grace_minutes)
            hold_until = min(expires_at + grace, cap)
            claim.expires_at = row.hold_expires_at = hold_until
            row.payment = {
                "status": "open",
                "sessionId": checkout["id"],
                "earlierSessionIds": earlier_sessions(row.payment, checkout["id"]),
                "url": checkout["url"],
                "attempt": attempt,
                "amount": checkout["amount_total"],
                "currency": checkout["currency"],
                "expiresAt": iso(expires_at),
                "firstOpenedAt": iso(started),
                "slot": {"counselorId": claim.counselor_id, "start": claim.start.isoformat()},
            }
            mark_changed(row, utcnow())
            change.row(path, row)
            change.feed(row.clinic_id)
    return {"sessionId": checkout["id"], "url": checkout["url"]}


async def _new_session(
    state: AppState, who: Identity, row: Appointment, attempt: int
) -> tuple[dict[str, Any], Any]:
    async with state.db.write() as session:
        locked = await get_appointment(session, appointment_id=row.id, for_update=True)
        assert locked is not None
        locked.payment = {**(locked.payment or {}), "status": "creating", "attempt": attempt}
        service = await get_service(session, service_id=row.service_id)
        user = await get_user(session, user_id=row.user_id)
        assert service is not None and user is not None
        amount, currency = fixed_price(locked, service)  # a price changed since stays unseen
    if not amount:
        raise FunctionError("ABORTED", "This appointment is not waiting for a payment.")
    expires_at = utcnow() + timedelta(minutes=state.settings.checkout_session_minutes)
    base = state.settings.public_url.rstrip("/")
    locale = mail_locale(row)
    try:
        checkout = await state.payments.create_session(
            appointment_id=row.id,
            attempt=attempt,
            amount=amount,
            currency=currency or "JPY",
            product_name=service.name.get(locale, service.id),
            locale=locale,
            email=user.email,
            success_url=f"{base}/b/payment-confirmed?sessionId={{CHECKOUT_SESSION_ID}}",
            cancel_url=f"{base}/b/review?payment=cancelled",
            expires_at=expires_at,
        )
    except stripe.StripeError:
        raise FunctionError(
            "UNAVAILABLE", "The payment service is not available. Please try again."
        ) from None
    return checkout, expires_at


class SessionStatus(Input):
    sessionId: SESSION_ID


@callable_function("stripe-getSessionStatus", SessionStatus)
async def session_status(context: CallContext, request: SessionStatus) -> dict[str, Any]:
    """The session as the provider sees it, and the appointment as we do (owner only)."""
    who = require_identity(context.identity)
    state = context.state
    try:
        checkout = await state.payments.retrieve_session(request.sessionId)
    except stripe.InvalidRequestError:
        raise FunctionError("NOT_FOUND", "No such payment session.") from None
    except stripe.StripeError:
        raise FunctionError("UNAVAILABLE", "The payment service is not available.") from None
    appointment_id = (checkout.get("metadata") or {}).get("appointmentId")
    row = await _owned(state, who, str(appointment_id or ""))
    return {
        "status": checkout.get("status"),
        "paymentStatus": checkout.get("payment_status"),
        "appointmentId": row.id,
        "appointmentStatus": row.status,
        "payment": (row.payment or {}).get("status"),
    }
