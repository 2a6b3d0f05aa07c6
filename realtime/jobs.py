"""Scheduled work, run by every node in a loop (each job is idempotent and row-locked).

- purge-intake: answers of an appointment that was not submitted are kept only until the
  end of the day (clinic timezone) of their last change (docs/product.md, "The booking flow").
- expire-holds: holds past their expiry stop being held; the appointment forgets its time
  and every calendar gets the slot back, or the first on the waitlist gets it held (a
  waitlist offer not taken lapses and passes on the same way). Found by the appointment's
  `hold_expires_at`, oldest first, so that a hold a newer hold of its counselor already
  released (it had expired) still ends for its appointment. A draft stays a draft; a
  pending payment whose hold lapses is `expired` (an end state, the person mailed:
  realtime/booking/expiry.py) and its checkout session is expired through the API.
- reconcile-payments: every paid session ends with exactly one confirmed booking or one
  refund, even when a webhook or a refund call was lost.
- forget-presence: presence rows of sockets whose node died.
- purge-retained: a submitted intake (or any appointment that ended) is kept for its clinic's
  `retention_days` after the appointment's day (undated: after it was submitted, else last
  changed), then its answers and personal fields are forgotten as account-erase forgets them
  (realtime/booking/deidentify.py; docs/security.md, "Erasure and retention").
- deliver-mail: outbox mails left `queued` (a node died) or `failed` (SMTP down) are tried
  again once due, with growing pauses, each claimed by one node (realtime/mail/delivery.py).
- send-reminders: the reminder mails of confirmed bookings at each clinic's offsets before
  the start, each sent once across nodes and reruns (realtime/booking/reminders.py).
- oidc-recheck: staff sessions signed in at a clinic's identity provider are asked about
  there again, and end when the person lost access or the session its maximum length
  (realtime/oidc/recheck.py).
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, time, timedelta
from functools import partial
from zoneinfo import ZoneInfo

import stripe

from realtime.booking import waitlist
from realtime.booking.deidentify import ENDED_STATUSES, deidentify
from realtime.booking.expiry import expire_unpaid
from realtime.booking.reminders import send_reminders
from realtime.changes import Change, changing
from realtime.oidc.recheck import recheck_sessions
from realtime.paths import appointment_path
from realtime.payments.apply import Kind, apply_checkout, refund
from realtime.presence import check_sessions, forget_stale_presence
from realtime.state import AppState
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.models import Appointment, SlotClaim
from storage.repo_appointments import drafts_changed_before, lock_appointment, with_payment
from storage.repo_booking import active_claim_of, holds_ended, last_hold_of
from storage.repo_catalog import get_clinic
from storage.repo_erasure import all_clinics, retained_past

log = logging.getLogger(__name__)
BATCH = 500


def start_of_day(now: datetime, timezone: str) -> datetime:
    zone = ZoneInfo(timezone)
    return datetime.combine(now.astimezone(zone).date(), time(0), tzinfo=zone)


def _holds_answers(row: Appointment) -> bool:
    return bool(row.intake) or row.consent is not None or row.patient_role is not None


# A step of a per-appointment job: inside the transaction, with the row locked, check again
# and change it; True when it did (the row is then pushed).
Step = Callable[[AppState, AsyncSession, Appointment, datetime, Change], Awaitable[bool]]


async def _each_appointment(
    state: AppState, appointment_ids: list[str], now: datetime, step: Step
) -> int:
    """Run `step` on each candidate (found by a read without locks), each in a write of its
    own through the one write path; how many it changed."""
    changed = 0
    for appointment_id in appointment_ids:
        path = appointment_path(appointment_id)
        async with changing(state, path) as change, state.db.write() as session:
            row = await lock_appointment(session, appointment_id=appointment_id)
            if row is not None and await step(state, session, row, now, change):
                mark_changed(row, now)
                change.row(path, row)
                changed += 1
    return changed


async def purge_intake(state: AppState, now: datetime) -> int:
    """Clear the answers of drafts last changed before today in their clinic's timezone."""
    async with state.db.read() as session:
        candidates = await drafts_changed_before(session, before=now, limit=BATCH)
    purged = await _each_appointment(state, candidates, now, _purge)
    if purged:
        log.info("purge-intake cleared %s unsubmitted appointment(s)", purged)
    return purged


async def _purge(
    state: AppState, session: AsyncSession, row: Appointment, now: datetime, change: Change
) -> bool:
    if (
        row.status != "draft"
        or not _holds_answers(row)
        or row.updated is None
        or row.updated >= start_of_day(now, row.timezone or "UTC")
    ):
        return False
    row.intake = {}
    row.consent = None
    row.patient_role = None
    row.agreed_to_terms = False
    return True


async def purge_retained(state: AppState, now: datetime) -> int:
    """Forget the answers of appointments kept past their clinic's retention period."""
    async with state.db.read() as session:
        candidates: list[str] = []
        for clinic in await all_clinics(session):
            period = timedelta(days=clinic.retention_days)
            today = now.astimezone(ZoneInfo(clinic.timezone)).date()
            candidates += await retained_past(
                session,
                clinic_id=clinic.id,
                ended=ENDED_STATUSES,
                before_day=(today - period).isoformat(),
                before=now - period,
                limit=BATCH,
            )
    purged = await _each_appointment(state, candidates, now, _purge_retained)
    if purged:
        log.info("purge-retained forgot the answers of %s appointment(s)", purged)
    return purged


async def _purge_retained(
    state: AppState, session: AsyncSession, row: Appointment, now: datetime, change: Change
) -> bool:
    if row.submitted_at is None and row.status not in ENDED_STATUSES:
        return False
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    assert clinic is not None
    if not _retention_over(row, clinic.timezone, clinic.retention_days, now):
        return False
    return deidentify(row)


def _retention_over(row: Appointment, timezone: str, days: int, now: datetime) -> bool:
    """Kept `days` after the appointment's day (clinic zone); undated, after it was submitted
    (else last changed)."""
    period = timedelta(days=days)
    if row.date is not None:
        today = now.astimezone(ZoneInfo(timezone)).date()
        return row.date < (today - period).isoformat()
    since = row.submitted_at or row.updated or row.created
    return since < now - period


async def expire_holds(state: AppState, now: datetime) -> int:
    async with state.db.read() as session:
        ended = await holds_ended(session, now=now, limit=BATCH)
    return await _each_appointment(state, ended, now, _expire)


async def _expire(
    state: AppState, session: AsyncSession, row: Appointment, now: datetime, change: Change
) -> bool:
    if row.hold_expires_at is None or row.hold_expires_at > now:
        return False
    claim = await active_claim_of(session, appointment_id=row.id)
    if claim is not None and (claim.kind != "hold" or claim.expires_at != row.hold_expires_at):
        # Booked or held anew meanwhile: the appointment's record follows its claim (a
        # record left behind would stay a candidate for ever).
        row.hold_expires_at = claim.expires_at if claim.kind == "hold" else None
        return True
    # No active claim: a newer hold of the counselor released this one once it had expired
    # (storage/repo_booking.py `release_before_hold`); the appointment still learns of it.
    lapsed = claim or await last_hold_of(session, appointment_id=row.id)
    change.moving(row)  # it leaves its bookings window
    if lapsed is not None:
        await _hold_over(state, session, row, lapsed, change)
    row.counselor_id = row.date = row.time = row.hold_expires_at = None
    if claim is not None:  # the time goes back, or to the first on the waitlist
        await waitlist.release_claim(state, session, change, claim, now)
    elif lapsed is not None:  # released already: to the first on the waitlist, if still free
        await waitlist.offer_released(state, session, change, lapsed, now)
    return True


async def _hold_over(
    state: AppState, session: AsyncSession, row: Appointment, claim: SlotClaim, change: Change
) -> None:
    """What the end of a hold means for the appointment: a waitlist offer not taken lapses,
    and a pending payment's attempt ends (its person mailed, its checkout expired)."""
    await waitlist.hold_expired(session, row, claim)
    if row.status == "pending_payment":  # the payment window is over too: the attempt ends
        open_session = (row.payment or {}).get("sessionId")
        change.mail(await expire_unpaid(state, session, row, claim))
        change.feed(row.clinic_id)
        if open_session:
            change.then(partial(_expire_checkout, state, str(open_session)))


async def _expire_checkout(state: AppState, session_id: str) -> None:
    """Best effort: a session already paid or expired is handled by its webhook, and a
    payment arriving late is refunded (realtime/payments)."""
    try:
        await state.payments.expire_session(session_id)
    except stripe.StripeError as exc:
        log.info("checkout session %s not expired: %s", session_id, exc)


async def reconcile_payments(state: AppState, now: datetime) -> int:
    """Ask the provider about sessions still open or awaiting a refund; apply what it says."""
    async with state.db.read() as session:
        rows = await with_payment(session, limit=BATCH * 4)
    fixed = 0
    for row in rows:
        payment = row.payment or {}
        if payment.get("status") == "refund_pending" and payment.get("paymentIntent"):
            amount = payment.get("refundAmount")  # the amount first asked for, or all
            fixed += await refund(
                state,
                row.id,
                str(payment["paymentIntent"]),
                str(payment.get("refundReason", "reconciliation")),
                amount if isinstance(amount, int) else None,
            )
        elif payment.get("status") == "open" and payment.get("sessionId"):
            fixed += await _settle_open(state, str(payment["sessionId"]))
    return fixed


async def _settle_open(state: AppState, session_id: str) -> int:
    try:
        checkout = await state.payments.retrieve_session(session_id)
    except stripe.StripeError:
        return 0
    if checkout.get("payment_status") == "paid":
        kind: Kind = "paid"
    elif checkout.get("status") == "expired":
        kind = "expired"
    else:
        return 0
    await apply_checkout(
        state,
        event_id=f"reconcile:{session_id}:{kind}",
        event_type="reconciliation",
        kind=kind,
        checkout=checkout,
    )
    return 1


async def deliver_mail(state: AppState, now: datetime) -> int:
    return await state.mailer.deliver_due(now)


Job = Callable[[AppState, datetime], Awaitable[int]]
# Run by every node every JOB_INTERVAL_SECONDS.
SCHEDULED: dict[str, Job] = {
    "purge-intake": purge_intake,
    "expire-holds": expire_holds,
    "forget-presence": forget_stale_presence,
    "reconcile-payments": reconcile_payments,
    "deliver-mail": deliver_mail,
    "purge-retained": purge_retained,
    "send-reminders": send_reminders,
    "oidc-recheck": recheck_sessions,
}
# Also runnable at a set time through POST /dev/jobs/{name} (development and tests).
# Session checks have their own, faster loop (realtime/presence.py).
JOBS: dict[str, Job] = {**SCHEDULED, "expire-sessions": check_sessions}


async def run_forever(state: AppState, interval_seconds: float) -> None:
    """The scheduler loop of one node; a failing job is logged and tried next round."""
    while True:
        for name, job in SCHEDULED.items():
            try:
                await job(state, datetime.now().astimezone())
            except Exception:
                log.exception("job %s failed", name)
        await asyncio.sleep(interval_seconds)
