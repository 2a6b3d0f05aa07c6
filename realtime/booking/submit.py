"""appointment-updateStatus: a person submits their booking; staff record its outcome.

A submit needs every answer, the terms agreed to and a live hold. A free service is
confirmed at once (realtime/booking/confirm.py); a priced one waits for its payment
(`pending_payment`, realtime/payments). Staff set `completed` or `no_show` on appointments of
their clinic, as the state machine allows (realtime/booking/status.py).
"""

from collections.abc import Callable

from realtime import audit
from realtime.booking.access import catalog_of, own_appointment, staff_write
from realtime.booking.confirm import confirm_booking
from realtime.booking.notify import Booking
from realtime.booking.status import transition
from realtime.changes import changing
from realtime.collections import document_data
from realtime.errors import FunctionError
from realtime.identity import Identity
from realtime.intake.definition import message
from realtime.intake.validate import missing_answers
from realtime.paths import appointment_path
from realtime.state import AppState
from storage.documents import mark_changed
from storage.models import Appointment
from storage.repo_booking import active_claim_of
from storage.types import utcnow

HOLD_EXPIRED_MESSAGE = "Your hold has expired. Please choose a time again."


async def submit(state: AppState, who: Identity, appointment_id: str) -> Appointment:
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await own_appointment(session, who, appointment_id)
        clinic, service = await catalog_of(session, row)
        if row.status != "draft":
            transition(row.status, "confirmed")  # refuses with the statuses named
        missing = missing_answers(document_data(row), service.category)
        if missing:
            raise FunctionError("INVALID_ARGUMENT", message("reviewMissing"), {"missing": missing})
        if not row.agreed_to_terms:
            raise FunctionError(
                "INVALID_ARGUMENT", message("terms"), {"codes": {"agreedToTerms": "terms"}}
            )
        now = utcnow()
        claim = await active_claim_of(session, appointment_id=row.id)
        if (
            claim is None
            or claim.kind != "hold"
            or claim.expires_at is None
            or claim.expires_at <= now
        ):
            raise FunctionError("ABORTED", HOLD_EXPIRED_MESSAGE)
        # When the person handed in their answers (a retention period counts from it).
        row.submitted_at = now
        if service.price_amount:
            row.status = transition(row.status, "pending_payment")
        else:
            booking = Booking(row, clinic, service, claim)
            change.mail(*await confirm_booking(state, session, booking))
        mark_changed(row, now)
        change.row(path, row)
        change.feed(row.clinic_id)
    return row


async def set_outcome(
    state: AppState,
    who: Identity | None,
    appointment_id: object,
    status_of: Callable[[], str],
    *,
    address: str | None = None,
) -> Appointment:
    """Staff: how a confirmed appointment ended; audited in the same transaction.
    `appointment_id` is the raw value of the call, authorized (realtime/rules.py) before
    `status_of` validates the input and gives the status."""
    async with staff_write(state, who, appointment_id) as (change, session, row, staff):
        path = appointment_path(row.id)
        status = status_of()
        before = row.status
        row.status = transition(row.status, status)
        await audit.record_on(
            session,
            staff,
            row,
            audit.APPOINTMENT_STATUS,
            change=change,
            detail={"from": before, "to": status},
            address=address,
        )
        mark_changed(row, utcnow())
        change.row(path, row)
        change.feed(row.clinic_id)
    return row
