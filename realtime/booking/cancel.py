"""appointment-cancel: the person cancels; the time is freed for everyone, they are signed
out everywhere (the appointment was their reason to be signed in), a payment is refunded by
the service's cancellation policy (realtime/booking/refunds.py) and they are mailed when a
time had been booked, held or a meeting link sent.

With `byClinic`, staff cancel: the time is freed, a payment refunded in full, the person
mailed in the appointment's language and left signed in, and the action audited.
"""

from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial
from typing import Any

from realtime import audit
from realtime.booking import waitlist
from realtime.booking.access import catalog_of, own_appointment, staff_write
from realtime.booking.notify import (
    Booking,
    booking_mails,
    clinic_cancel_mails,
    reservation_cancelled_mail,
)
from realtime.booking.refunds import (
    CANCELLED_BY_PERSON,
    Quote,
    clinic_quote,
    paid_of,
    person_quote,
    record,
    refund_reply,
)
from realtime.booking.status import transition
from realtime.changes import Change, changing
from realtime.identity import Identity
from realtime.paths import appointment_path
from realtime.payments.apply import CANCELLED_BY_CLINIC, refund
from realtime.state import AppState
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.models import Appointment
from storage.repo_booking import active_claim_of
from storage.repo_users import revoke_user_sessions
from storage.types import iso, utcnow


async def cancel(
    state: AppState, who: Identity, appointment_id: str, reason: str
) -> dict[str, Any] | None:
    """The person's cancel; the refund it asked for (`refund` of the reply), None when
    nothing had been paid."""
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await own_appointment(session, who, appointment_id)
        now = utcnow()
        await cancel_own(state, session, change, row, reason, now)
        # The user record keeps naming it: signed in again, the person sees it ended and
        # starts a new one when they wish, from a copy of its answers if they agree
        # (realtime/booking/rebook.py).
        ended = await revoke_user_sessions(session, user_id=row.user_id, at=now)
        change.end_sessions(ended, after_reply=True)
    return refund_reply(row.payment)


async def cancel_own(
    state: AppState,
    session: AsyncSession,
    change: Change,
    row: Appointment,
    reason: str,
    now: datetime,
) -> None:
    """The person's cancel of their appointment `row` (locked by the caller) inside the
    caller's write: the status, the refund the cancellation policy gives, the time freed
    with its mails, the document and the feed. appointment-cancel and account-erase
    (realtime/booking/erase.py) both cancel through it, so every rule of the person's
    cancel applies to both."""
    row.status = transition(row.status, "cancelled")
    row.cancellation = {"reason": reason, "at": iso(now)}
    await waitlist.cancelled(session, row)
    await refund_by_policy(state, session, row, now, change)  # counted from the held start
    await _free_time(state, session, row, change, now)
    row.hold_expires_at = None
    mark_changed(row, now)
    change.row(appointment_path(row.id), row)
    change.feed(row.clinic_id)


async def refund_by_policy(
    state: AppState, session: AsyncSession, row: Appointment, now: datetime, change: Change
) -> None:
    """A paid appointment: record the policy's refund of the person's cancel, counted from
    the booked start, and ask for it after the commit (none when the share is nothing)."""
    if paid_of(row.payment) is None:
        return
    _, service = await catalog_of(session, row)
    claim = await active_claim_of(session, appointment_id=row.id)
    quote = person_quote(row.payment, service, claim.start if claim else None, now)
    _ask_refund(state, row, quote, CANCELLED_BY_PERSON, change)


def _ask_refund(
    state: AppState, row: Appointment, quote: Quote, reason: str, change: Change
) -> None:
    """Record the refund `quote` gives on the appointment's payment and, when there is one,
    make it through the API after the commit, once the cancel has answered: the reply never
    waits on the provider (realtime/payments/apply.py `refund`; the reconciliation job
    retries it with the same amount when the call fails or the node stops first)."""
    assert quote.paid is not None
    row.payment = record(row.payment or {}, quote, reason)
    if quote.amount > 0:
        make = partial(refund, state, row.id, quote.paid.payment_intent, reason, quote.amount)
        change.then(partial(_after_reply, state, make))


async def _after_reply(state: AppState, make: Callable[[], Awaitable[bool]]) -> None:
    state.publisher.after_reply(make)


async def _free_time(
    state: AppState, session: AsyncSession, row: Appointment, change: Change, now: datetime
) -> None:
    """Release the appointment's claim, if any (its time goes to the first on the waitlist:
    realtime/booking/waitlist.py), and queue the cancellation mails: the person's and the
    counselor's when the person had a booking or a meeting link, the person's short notice
    when the time was only held."""
    claim = await active_claim_of(session, appointment_id=row.id)
    if claim is None:
        return
    await waitlist.release_claim(state, session, change, claim, now)
    clinic, service = await catalog_of(session, row)
    booking = Booking(row, clinic, service, claim)
    if claim.kind == "booking" or row.join_url:
        change.mail(*await booking_mails(state.mailer, session, "cancelled", booking))
    else:  # a time held while booking (a draft, or waiting for the payment)
        change.mail(await reservation_cancelled_mail(state.mailer, session, booking))


async def cancel_by_clinic(
    state: AppState,
    who: Identity | None,
    appointment_id: object,
    reason_of: Callable[[], str],
    *,
    address: str | None,
) -> dict[str, Any] | None:
    """Staff cancel an appointment of their clinic; the refund asked for, as `cancel`.
    `appointment_id` is the raw value of the call, authorized (realtime/rules.py
    `require_staff`, `may_act_on`) before the input is validated: `reason_of` validates it
    and gives the reason."""
    async with staff_write(state, who, appointment_id) as (change, session, row, staff):
        path = appointment_path(row.id)
        reason = reason_of()
        now = utcnow()
        before = row.status
        row.status = transition(row.status, "cancelled")
        row.cancellation = {"reason": reason, "at": iso(now), "by": "clinic"}
        await waitlist.cancelled(session, row)
        claim = await active_claim_of(session, appointment_id=row.id)
        if claim is not None:
            await waitlist.release_claim(state, session, change, claim, now)
        row.hold_expires_at = None
        refunding = paid_of(row.payment) is not None
        if refunding:  # always in full
            _ask_refund(state, row, clinic_quote(row.payment), CANCELLED_BY_CLINIC, change)
        change.mail(
            *await clinic_cancel_mails(
                state.mailer, session, row, claim, reason=reason, refund=refunding
            )
        )
        mark_changed(row, now)
        change.row(path, row)
        change.feed(row.clinic_id)
        await audit.record_on(
            session,
            staff,
            row,
            audit.APPOINTMENT_CANCEL,
            change=change,
            detail={"from": before, "refund": refunding},
            address=address,
        )
    return refund_reply(row.payment)
