"""Applying a checkout session's outcome once, then what follows its commit."""

import logging
from typing import Any, Literal

import stripe

from realtime.booking.notify import mail_locale
from realtime.booking.publish import publish_claim_change, publish_feed
from realtime.documents import push_row
from realtime.mail.render import render
from realtime.paths import appointment_path
from realtime.payments.outcomes import Outcome, ended, paid
from realtime.payments.sessions import appointment_of
from realtime.state import AppState
from storage.documents import mark_changed
from storage.errors import Conflict
from storage.repo_appointments import get_appointment
from storage.repo_catalog import get_clinic
from storage.repo_payments import record_event
from storage.repo_users import get_user
from storage.types import utcnow

log = logging.getLogger(__name__)

Kind = Literal["paid", "expired", "failed"]


async def apply_checkout(
    state: AppState, *, event_id: str, event_type: str, kind: Kind, checkout: dict[str, Any]
) -> None:
    """Apply once per event id; the id is stored in the transaction of the effects."""
    appointment_id = appointment_of(checkout)
    outcome = Outcome()
    path = appointment_path(str(appointment_id))  # "None" when the session names none
    async with state.publisher.ordered(path):
        try:
            async with state.db.write() as session:
                await record_event(session, event_id=event_id, event_type=event_type, at=utcnow())
                row = (
                    await get_appointment(session, appointment_id=appointment_id, for_update=True)
                    if appointment_id
                    else None
                )
                if row is None:
                    return
                before = (row.status, row.payment)
                if kind == "paid":
                    outcome = await paid(state, session, row, checkout)
                else:
                    outcome = await ended(session, row, checkout, kind)
                changed = (row.status, row.payment) != before
                if changed:
                    mark_changed(row, utcnow())
        except Conflict:
            log.info("payment event %s was applied already", event_id)
            return
        if changed:
            await push_row(state, path, row)
    await _after(state, row.clinic_id, row.id, outcome)


async def _after(state: AppState, clinic_id: str, appointment_id: str, outcome: Outcome) -> None:
    for mail in outcome.mails:
        state.mailer.deliver(mail)
    if outcome.moments:
        await publish_claim_change(state, clinic_id=clinic_id, moments=outcome.moments)
    else:
        await publish_feed(state, clinic_id=clinic_id)
    if outcome.refund:
        await refund(state, appointment_id, *outcome.refund)


async def refund(state: AppState, appointment_id: str, payment_intent: str, reason: str) -> bool:
    """Refund through the API, then record it and tell the person and the clinic. A failure
    leaves `refund_pending` for the reconciliation job to try again."""
    try:
        refund_id = await state.payments.refund(
            payment_intent=payment_intent, appointment_id=appointment_id, reason=reason
        )
    except stripe.StripeError:
        log.exception("refund of %s failed; reconciliation will retry", appointment_id)
        return False
    path = appointment_path(appointment_id)
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
            if row is None or (row.payment or {}).get("status") == "refunded":
                return True
            row.payment = {**(row.payment or {}), "status": "refunded", "refundId": refund_id}
            mark_changed(row, utcnow())
            user = await get_user(session, user_id=row.user_id)
            clinic = await get_clinic(session, clinic_id=row.clinic_id)
            assert user is not None and clinic is not None
            locale = mail_locale(row)
            context = {"appointment_id": row.id, "reason": reason}
            mails = [
                await state.mailer.queue(
                    session,
                    to=user.email,
                    links=[],
                    mail=render("payment_refunded", locale, **context),
                ),
                await state.mailer.queue(
                    session,
                    to=clinic.contact_email,
                    links=[],
                    mail=render("payment_refunded_clinic", "ja", **context),
                ),
            ]
        await push_row(state, path, row)
    for mail in mails:
        state.mailer.deliver(mail)
    await publish_feed(state, clinic_id=row.clinic_id)
    return True
