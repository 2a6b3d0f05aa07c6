"""appointment-reschedule: move a booked time to another free one, in one transaction.

Rules (docs/protocol.md, "Rescheduling"; each is tested in tests/test_reschedule.py):
1. Only a `confirmed` or `pending_payment` appointment moves (else ABORTED with
   `details.status`), by its owner or staff of its clinic (a counselor: their own
   appointments, kept with themselves; every staff move audited as `appointment.reschedule`).
2. Not inside the service's minimum notice of the current start (policy.py
   `movable_until`: ABORTED with `details.movableUntil`); the new time follows the free-slot
   rules of a new booking (minimum notice, horizon, pregnancy window).
3. The new claim is placed while the old one is released, in one transaction (holds.py
   `place_hold`): the database's constraint decides between two people racing for one time;
   the loser gets ABORTED with the nearest free times and keeps their old time (their
   transaction is rolled back as a whole). Most refusals come from the cached months
   first (holding.py `first_look`), without a write transaction.
4. A booking stays a booking; a pending payment stays a hold with the same expiry, and its
   checkout's `payment.slot` names the new time, so a late payment confirms that one
   (realtime/payments/outcomes.py). `payment` is otherwise kept; the join link too.
5. The same time as now: nothing is written, the reply says `moved: false`.
6. The person and the counselor are mailed the new invitation (same UID, the appointment's
   new version as SEQUENCE); a counselor who no longer has it gets a CANCEL.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from realtime import audit
from realtime.booking import waitlist
from realtime.booking.access import clinic_appointment
from realtime.booking.holding import (
    ANY_COUNSELOR,
    TAKEN_MESSAGE,
    Choice,
    Refused,
    first_look,
)
from realtime.booking.holds import SlotTaken, place_hold
from realtime.booking.notify import Booking
from realtime.booking.policy import CancellationPolicy
from realtime.booking.publish import ClaimChange, busy_of, version_in
from realtime.booking.reschedule_mail import rescheduled_mails
from realtime.booking.schedule import Slot
from realtime.changes import Claims, changing
from realtime.errors import FunctionError, no_access
from realtime.identity import Identity
from realtime.paths import appointment_path
from realtime.rules import may_act_on
from realtime.state import AppState
from storage.documents import mark_changed
from storage.models import Appointment, Clinic, Service, SlotClaim
from storage.repo_appointments import get_appointment
from storage.repo_booking import active_claim_of
from storage.types import iso, utcnow

MOVABLE_STATUSES = frozenset({"confirmed", "pending_payment"})
NOT_MOVABLE_MESSAGE = "Only a booked appointment can be moved."
TOO_LATE_MESSAGE = (
    "This appointment starts too soon to be moved. You can still cancel it, or contact the clinic."
)


@dataclass(frozen=True)
class Mover:
    """Who moves the appointment: its owner, or staff of its clinic (`staff`)."""

    who: Identity
    staff: bool
    address: str | None = None

    def may_move(self, row: Appointment) -> bool:
        return may_act_on(self.who, row) if self.staff else row.user_id == self.who.uid

    def may_take(self, counselor_id: str) -> bool:
        """A counselor keeps their appointments with themselves; others may choose anyone."""
        return not self.staff or self.who.is_admin or counselor_id == self.who.counselor_id


@dataclass(frozen=True)
class Moved:
    """The appointment after the call, and whether its time changed."""

    row: Appointment
    moved: bool


async def authorize_staff(state: AppState, who: Identity, appointment_id: object) -> None:
    """A staff move is authorized on the raw appointment id before its input is validated
    (realtime/rules.py `require_staff`, `may_act_on`)."""
    async with state.db.read() as session:
        await clinic_appointment(session, who, appointment_id, for_update=False)


def booked_start(row: Appointment, clinic: Clinic) -> datetime | None:
    """The start the appointment document shows (its day and time in the clinic's zone)."""
    if not row.date or not row.time:
        return None
    local = datetime.fromisoformat(f"{row.date}T{row.time}")
    return local.replace(tzinfo=ZoneInfo(clinic.timezone)).astimezone(UTC)


def _require_status(row: Appointment) -> None:
    if row.status not in MOVABLE_STATUSES:
        raise FunctionError("ABORTED", NOT_MOVABLE_MESSAGE, {"status": row.status})


def _require_notice(service: Service, start: datetime | None, now: datetime) -> None:
    """Rule 2: the current time may still be left."""
    if start is None:
        return
    until = CancellationPolicy.of(service).movable_until(start)
    if now > until:
        raise FunctionError("ABORTED", TOO_LATE_MESSAGE, {"movableUntil": iso(until)})


def _same(start: datetime, counselor: str, at: datetime | None, counselor_now: str | None) -> bool:
    return at == start and counselor in (ANY_COUNSELOR, counselor_now)


def _pick(offered: Slot | None, requested: str, current: str | None, mover: Mover) -> str | None:
    """The counselor the new time is taken with: the one asked for, or with "any" the
    current counselor when free then, else the first free one the mover may choose."""
    if offered is None:
        return None
    free = [c for c in offered.counselor_ids if mover.may_take(c)]
    if requested == ANY_COUNSELOR:
        return current if current in free else next(iter(free), None)
    return requested if requested in free else None


async def reschedule(
    state: AppState,
    mover: Mover,
    *,
    appointment_id: str,
    start: datetime,
    counselor: str,
    person_zone: str | None = None,
) -> Moved:
    """Move the appointment to `start` with `counselor` (or "any"); ABORTED with the
    nearest free times when that time cannot be taken."""
    if counselor != ANY_COUNSELOR and not mover.may_take(counselor):
        raise no_access()

    def admit(row: Appointment) -> None:
        if not mover.may_move(row):
            raise no_access()
        _require_status(row)

    try:
        choice = await first_look(state, appointment_id, start, admit)
        row = choice.row
        current = booked_start(row, choice.clinic)
        _require_notice(choice.service, current, choice.now)
        if _same(start, counselor, current, row.counselor_id):
            return Moved(row, False)
        if _pick(choice.offered(row), counselor, row.counselor_id, mover) is None:
            raise Refused(choice.alternatives())  # decided from the cached months
        return await _move(state, mover, choice, counselor, person_zone)
    except Refused as refused:
        raise FunctionError(
            "ABORTED", TAKEN_MESSAGE, {"alternatives": refused.alternatives}
        ) from None


async def _move(
    state: AppState, mover: Mover, choice: Choice, counselor: str, person_zone: str | None
) -> Moved:
    """Rules 3 to 6 in one transaction, under the appointment's lock."""
    clinic, service, start = choice.clinic, choice.service, choice.start
    path = appointment_path(choice.row.id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await get_appointment(session, appointment_id=choice.row.id, for_update=True)
        if row is None or not mover.may_move(row):
            raise no_access()
        _require_status(row)
        old = await active_claim_of(session, appointment_id=row.id)
        now = utcnow()
        if old is None or (old.kind == "hold" and (old.expires_at or now) <= now):
            # A pending payment whose hold lapsed: it is on its way back to a draft.
            raise FunctionError("ABORTED", NOT_MOVABLE_MESSAGE, {"status": row.status})
        _require_notice(service, old.start, now)
        if _same(start, counselor, old.start, old.counselor_id):
            return Moved(row, False)
        counselor_id = _pick(choice.offered(row), counselor, old.counselor_id, mover)
        if counselor_id is None:
            raise Refused(choice.alternatives())
        booked = old.kind == "booking"
        try:
            held = await place_hold(
                session,
                appointment=row,
                service=service,
                counselor_id=counselor_id,
                start=start,
                # a pending payment keeps its hold until its checkout ends (rule 4)
                expires_at=now + timedelta(minutes=1) if booked else old.expires_at or now,
                now=now,
                check_overlap=state.db.sqlite,
                savepoint=False,  # refused: the whole transaction is rolled back
            )
        except SlotTaken:
            raise Refused(choice.alternatives(taken=counselor_id)) from None
        new = held.claim
        if booked:
            new.kind, new.expires_at = "booking", None
        # The released old time goes to the first on the waitlist, in this transaction.
        offered = await waitlist.offer_freed(state, session, change, old, now)
        before = Booking(row, clinic, service, old)  # the released claim: the old time
        change.moving(row)  # its bookings window tells the day it leaves
        local = start.astimezone(ZoneInfo(clinic.timezone))
        row.counselor_id = counselor_id
        row.date, row.time = local.strftime("%Y-%m-%d"), local.strftime("%H:%M")
        if person_zone is not None:
            row.person_timezone = person_zone
        _move_checkout(row, new)
        mark_changed(row, now)  # the new version is the invitation's SEQUENCE
        moments = [start, old.start]
        versioned = await version_in(
            state, session, clinic_id=clinic.id, moments=moments, service_id=service.id
        )
        change.row(path, row)
        change.claims_changed(
            Claims(
                clinic.id,
                moments,
                service.id,
                ClaimChange([busy_of(new)], [busy_of(old)], new.expires_at),
                versioned,
            )
        )
        if offered is not None:  # its own change: the offer's hold lapses at its own time
            change.claims_changed(
                Claims(clinic.id, [old.start], service.id, ClaimChange.of(added=offered))
            )
        change.feed(clinic.id)
        after = Booking(row, clinic, service, new)
        change.mail(*await rescheduled_mails(state.mailer, session, before, after))
        if mover.staff:
            await audit.record_on(
                session,
                mover.who,
                row,
                audit.APPOINTMENT_RESCHEDULE,
                change=change,
                detail={
                    "from": iso(old.start),
                    "to": iso(start),
                    "counselorFrom": old.counselor_id,
                    "counselorTo": counselor_id,
                },
                address=mover.address,
            )
    return Moved(row, True)


def _move_checkout(row: Appointment, claim: SlotClaim) -> None:
    """Rule 4: the slot of a payment still awaited is the new time (a new dict: the JSON
    column changes). A paid booking's payment is left as it was."""
    payment = row.payment or {}
    if row.status == "pending_payment" and isinstance(payment.get("slot"), dict):
        slot = {"counselorId": claim.counselor_id, "start": claim.start.isoformat()}
        row.payment = {**payment, "slot": slot}
