"""Applying a checkout session's outcome once, then what follows its commit."""

import logging
from functools import partial
from typing import Any, Literal

import stripe

from realtime.booking.notify import last_booking_facts, mail_locale
from realtime.booking.refunds import CANCELLED_BY_PERSON
from realtime.changes import changing
from realtime.mail.money import format_amount
from realtime.mail.outbox import Queued
from realtime.mail.render import render
from realtime.mail.signature import signature_of
from realtime.paths import appointment_path
from realtime.payments.outcomes import ended, paid
from realtime.payments.sessions import appointment_of
from realtime.state import AppState
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.errors import Conflict
from storage.models import Appointment
from storage.repo_appointments import get_appointment
from storage.repo_catalog import get_clinic
from storage.repo_payments import record_event
from storage.repo_users import get_user
from storage.types import iso, utcnow

log = logging.getLogger(__name__)

Kind = Literal["paid", "expired", "failed"]

# A refund made because the clinic cancelled (realtime/booking/cancel.py): the person's notice
# speaks of the cancellation, not of a booking that could not be confirmed.
CANCELLED_BY_CLINIC = "cancelled_by_clinic"
# The person's notice of a refund, by its reason (default: payment_refunded). A refund of
# the person's own cancel has none: their cancellation mail said what comes back and when.
_PERSON_NOTICE: dict[str, str | None] = {
    CANCELLED_BY_CLINIC: "payment_refunded_cancelled",
    CANCELLED_BY_PERSON: None,
}


async def apply_checkout(
    state: AppState, *, event_id: str, event_type: str, kind: Kind, checkout: dict[str, Any]
) -> None:
    """Apply once per event id; the id is stored in the transaction of the effects. A refund
    the outcome calls for is made through the API after the commit."""
    appointment_id = appointment_of(checkout)
    path = appointment_path(str(appointment_id))  # "None" when the session names none
    try:
        async with changing(state, path) as change, state.db.write() as session:
            await record_event(session, event_id=event_id, event_type=event_type, at=utcnow())
            row = (
                await get_appointment(session, appointment_id=appointment_id, for_update=True)
                if appointment_id
                else None
            )
            if row is None:
                return
            before = (row.status, row.payment)
            owed = None
            if kind == "paid":
                owed = await paid(state, session, row, checkout, change)
            else:
                await ended(session, row, checkout, kind, change)
            if (row.status, row.payment) != before:
                mark_changed(row, utcnow())
                change.row(path, row)
            change.feed(row.clinic_id)
            if owed is not None:
                change.then(partial(refund, state, row.id, owed.payment_intent, owed.reason))
            intent = (row.payment or {}).get("paymentIntent")
            if kind == "paid" and (row.payment or {}).get("status") == "paid" and intent:
                change.then(partial(store_receipt, state, row.id, str(intent)))
    except Conflict:
        log.info("payment event %s was applied already", event_id)


async def store_receipt(state: AppState, appointment_id: str, payment_intent: str) -> None:
    """Best effort, after a payment landed: its receipt's address from the provider, kept on
    the payment for My booking (`receiptUrl`). A failure leaves the page without the link."""
    if (await _payment_of(state, appointment_id)).get("receiptUrl"):
        return
    try:
        url = await state.payments.receipt_url(payment_intent)
    except stripe.StripeError as exc:
        log.info("receipt of %s not read: %s", appointment_id, exc)
        return
    if url is None:
        return
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
        payment = (row.payment if row is not None else None) or {}
        if row is None or payment.get("paymentIntent") != payment_intent:
            return
        row.payment = {**payment, "receiptUrl": url}
        mark_changed(row, utcnow())
        change.row(path, row)


async def _payment_of(state: AppState, appointment_id: str) -> dict[str, Any]:
    async with state.db.read() as session:
        row = await get_appointment(session, appointment_id=appointment_id)
    return (row.payment if row is not None else None) or {}


async def refund(
    state: AppState,
    appointment_id: str,
    payment_intent: str,
    reason: str,
    amount: int | None = None,
) -> bool:
    """Refund `amount` (None: the whole payment) through the API, then record it (`refunded`,
    `refundAmount`, `refundedAt`) and tell the person and the clinic. A failure leaves
    `refund_pending` for the reconciliation job to try again with the same amount; a retry
    of a refund the provider made already gets that refund back (provider.py), and one
    recorded already changes nothing."""
    try:
        refund_id, refunded = await state.payments.refund(
            payment_intent=payment_intent,
            appointment_id=appointment_id,
            reason=reason,
            amount=amount,
        )
    except stripe.StripeError:
        log.exception("refund of %s failed; reconciliation will retry", appointment_id)
        return False
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await get_appointment(session, appointment_id=appointment_id, for_update=True)
        if row is None or (row.payment or {}).get("status") == "refunded":
            return True
        now = utcnow()
        row.payment = {
            **(row.payment or {}),
            "status": "refunded",
            "refundId": refund_id,
            "refundAmount": refunded,
            "refundedAt": iso(now),
        }
        mark_changed(row, now)
        change.row(path, row)
        change.mail(*await _refund_mails(state, session, row, reason))
        change.feed(row.clinic_id)
    return True


async def _refund_mails(
    state: AppState, session: AsyncSession, row: Appointment, reason: str
) -> list[Queued]:
    """The person's notice of a refund, in their language, when its reason has one (after a
    cancel by the clinic: with the facts of the time it had), and the clinic's, with the
    amount refunded."""
    user = await get_user(session, user_id=row.user_id)
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    assert user is not None and clinic is not None
    payment = row.payment or {}
    amount, currency = payment.get("refundAmount"), payment.get("currency")

    def written(locale: str) -> str:
        """The amount refunded, for `locale` ("" when not recorded: the full amount)."""
        return (
            format_amount(amount, str(currency), locale)
            if isinstance(amount, int) and currency
            else ""
        )

    context = {"appointment_id": row.id, "reason": reason}
    mails: list[Queued] = []
    notice = _PERSON_NOTICE.get(reason, "payment_refunded")
    # An erased person's address is gone; account-erase's confirmation told them of the
    # refund (realtime/booking/erase.py).
    if notice is not None and user.erased_at is None:
        locale = mail_locale(row)
        facts = await last_booking_facts(state.mailer, session, row, locale)
        mail = render(
            notice,
            locale,
            facts=facts,
            refunded=written(locale),
            signature=signature_of(clinic, locale),
            **context,
        )
        mails.append(await state.mailer.queue(session, to=user.email, links=[], mail=mail))
    clinic_mail = render("payment_refunded_clinic", "ja", amount=written("ja"), **context)
    mails.append(
        await state.mailer.queue(session, to=clinic.contact_email, links=[], mail=clinic_mail)
    )
    return mails
