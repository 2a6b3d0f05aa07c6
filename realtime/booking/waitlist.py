"""The waitlist: a person for whom no time suits asks for a range of days (and a counselor);
when a matching time frees, the first in line gets it held for them.

Rules (docs/protocol.md "Waitlist"; each is tested in tests/test_waitlist.py):
1. One entry per appointment (waitlist_entries, unique). Only a draft joins; joining again
   replaces the days and goes to the back of the line. First in line is the oldest `created`
   among the entries `waiting`.
2. A freed time (a cancel by the person or the clinic, an expired hold, the old time of a
   reschedule) is offered inside the very transaction that frees it (`release_claim`, or
   `offer_freed` for a caller that records its own claim change): the freed claim is
   deactivated and the offer's hold inserted in one commit, and the claim change published
   holds both, so no one else can take the time in between and no month document shows it
   free meanwhile.
3. The time goes to the first waiting entry of the same clinic and service whose days hold
   the freed start's day (clinic zone) and who asked for the freed counselor or for anyone.
   An entry is passed over when its appointment is no longer a draft, holds a time already,
   is being written by another transaction at that moment (its row is not waited for: that
   could deadlock), or the time falls outside its pregnancy window. No one gets the time when
   it is inside the service's minimum notice or beyond its horizon.
4. The offer is a hold like any other (a SlotClaim of kind "hold") that expires after
   WAITLIST_OFFER_MINUTES. Submitting the appointment accepts it (`accepted`); when the hold
   expires the entry becomes `lapsed` (expire-holds) and the time passes on by rule 2;
   `waitlist-leave` declines it and passes it on the same way.
5. The appointment document shows the person's place (`waitlist`: from, to, counselorId,
   status, joinedAt, offer); it is written with the entry, in the same transaction, and no
   client may write it (realtime/writable.py lists what they may).
"""

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from realtime.booking.access import own_appointment
from realtime.booking.holding import pregnancy_days
from realtime.booking.holds import SlotTaken, place_hold
from realtime.booking.mail_facts import booking_facts
from realtime.booking.notify import Booking, mail_locale
from realtime.booking.publish import ClaimChange
from realtime.changes import Change, Claims, changing
from realtime.days import parse_day
from realtime.errors import FunctionError, invalid_field
from realtime.identity import Identity
from realtime.mail.links import review_url
from realtime.mail.outbox import Queued
from realtime.mail.render import render
from realtime.mail.when import format_moment
from realtime.paths import appointment_path
from realtime.state import AppState
from storage.db import AsyncSession
from storage.documents import mark_changed
from storage.models import Appointment, Clinic, Service, SlotClaim, WaitlistEntry
from storage.repo_booking import active_claim_of, counselors_of
from storage.repo_catalog import get_clinic, get_service
from storage.repo_users import get_user
from storage.repo_waitlist import add_entry, entry_of, first_in_line, lock_if_free
from storage.types import iso, utcnow

WAITING, OFFERED, ACCEPTED, LEFT, LAPSED = "waiting", "offered", "accepted", "left", "lapsed"
OPEN = (WAITING, OFFERED)

NOT_DRAFT_MESSAGE = "Only a booking that has not been submitted can join the waitlist."
PAST_MESSAGE = "The first day cannot be before today."
ORDER_MESSAGE = "The last day cannot be before the first day."
NO_COUNSELOR_MESSAGE = "This counselor does not work at this clinic."


def horizon_message(days: int) -> str:
    return f"Bookings open at most {days} days ahead."


def waitlist_view(entry: WaitlistEntry, timezone: str) -> dict[str, Any]:
    """The `waitlist` field of the appointment document: the offer's start in the clinic's
    zone with its offset (as slots are written), its end of hold in UTC (as holdExpiresAt)."""
    offer = None
    if entry.status == OFFERED and entry.offer_start is not None:
        offer = {
            "start": entry.offer_start.astimezone(ZoneInfo(timezone)).isoformat(),
            "counselorId": entry.offer_counselor_id,
            "until": iso(entry.offer_until),
        }
    return {
        "from": entry.first_day,
        "to": entry.last_day,
        "counselorId": entry.counselor_id,
        "status": entry.status,
        "joinedAt": iso(entry.created),
        "offer": offer,
    }


async def _checked_days(
    session: AsyncSession, row: Appointment, first: str, last: str, now: datetime
) -> tuple[date, date]:
    """The days asked for, or INVALID_ARGUMENT naming the field at fault: real days, from
    today (clinic zone) on, in order, within the service's horizon."""
    clinic = await get_clinic(session, clinic_id=row.clinic_id)
    service = await get_service(session, service_id=row.service_id)
    assert clinic is not None and service is not None  # foreign keys
    first_day, last_day = parse_day(first, "from"), parse_day(last, "to")
    today = now.astimezone(ZoneInfo(clinic.timezone)).date()
    if first_day < today:
        raise invalid_field("from", PAST_MESSAGE)
    if last_day < first_day:
        raise invalid_field("to", ORDER_MESSAGE)
    if last_day > today + timedelta(days=service.horizon_days):
        raise invalid_field("to", horizon_message(service.horizon_days))
    return first_day, last_day


async def join(
    state: AppState,
    who: Identity,
    *,
    appointment_id: str,
    first: str,
    last: str,
    counselor_id: str | None,
) -> dict[str, Any]:
    """waitlist-join: the caller's draft waits for a time between the days (rule 1)."""
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await own_appointment(session, who, appointment_id)
        if row.status != "draft":
            raise FunctionError("ABORTED", NOT_DRAFT_MESSAGE, {"status": row.status})
        now = utcnow()
        first_day, last_day = await _checked_days(session, row, first, last, now)
        if counselor_id is not None:
            counselors = await counselors_of(session, clinic_id=row.clinic_id)
            if counselor_id not in {c.id for c in counselors}:
                raise invalid_field("counselorId", NO_COUNSELOR_MESSAGE)
        entry = await entry_of(session, appointment_id=row.id)
        if entry is not None and entry.status == OFFERED:
            await _withdraw_offer(state, session, change, row, entry, now)
        if entry is None:
            entry = WaitlistEntry(
                appointment_id=row.id,
                clinic_id=row.clinic_id,
                service_id=row.service_id,
                first_day=first_day.isoformat(),
                last_day=last_day.isoformat(),
                created=now,
            )
        entry.service_id = row.service_id
        entry.counselor_id = counselor_id
        entry.first_day, entry.last_day = first_day.isoformat(), last_day.isoformat()
        entry.status, entry.created = WAITING, now  # to the back of the line
        entry.offer_start = entry.offer_counselor_id = entry.offer_until = None
        await add_entry(session, entry=entry)
        row.waitlist = waitlist_view(entry, row.timezone or "UTC")
        mark_changed(row, now)
        change.row(path, row)
        return row.waitlist


async def leave(state: AppState, who: Identity, *, appointment_id: str) -> dict[str, Any] | None:
    """waitlist-leave: out of the line; an offer held for the caller is declined and passes
    to the next (rule 4). Leaving when not waiting changes nothing."""
    path = appointment_path(appointment_id)
    async with changing(state, path) as change, state.db.write() as session:
        row = await own_appointment(session, who, appointment_id)
        entry = await entry_of(session, appointment_id=row.id)
        if entry is None or entry.status not in OPEN:
            return None
        now = utcnow()
        if entry.status == OFFERED:
            await _withdraw_offer(state, session, change, row, entry, now)
        _close(entry, LEFT)
        row.waitlist = None
        mark_changed(row, now)
        change.row(path, row)
        return None


async def _withdraw_offer(
    state: AppState,
    session: AsyncSession,
    change: Change,
    row: Appointment,
    entry: WaitlistEntry,
    now: datetime,
) -> None:
    """The offered time, when the appointment still holds it, goes back and on (rule 2)."""
    claim = await active_claim_of(session, appointment_id=row.id)
    if claim is not None and claim.kind == "hold" and _is_offer(entry, claim):
        change.moving(row)
        row.counselor_id = row.date = row.time = row.hold_expires_at = None
        _close(entry, LEFT)  # not offered the same time again below
        await release_claim(state, session, change, claim, now)


def _close(entry: WaitlistEntry, status: str) -> None:
    entry.status = status
    entry.offer_start = entry.offer_counselor_id = entry.offer_until = None


def _is_offer(entry: WaitlistEntry, claim: SlotClaim) -> bool:
    """Is `claim` the time offered to `entry` (not one the person chose since)?"""
    return (
        entry.status == OFFERED
        and claim.start == entry.offer_start
        and claim.counselor_id == entry.offer_counselor_id
    )


async def submitted(session: AsyncSession, row: Appointment, claim: SlotClaim) -> None:
    """The appointment was submitted with `claim` (in the caller's transaction, which pushes
    the row): the offer taken is `accepted`; someone who booked another time leaves."""
    if row.waitlist is None:
        return
    entry = await entry_of(session, appointment_id=row.id)
    if entry is None or entry.status not in OPEN:
        return
    accepted = _is_offer(entry, claim)
    _close(entry, ACCEPTED if accepted else LEFT)
    row.waitlist = waitlist_view(entry, row.timezone or "UTC") if accepted else None


async def cancelled(session: AsyncSession, row: Appointment) -> None:
    """The appointment was cancelled: it leaves the line (before its time is passed on)."""
    if row.waitlist is None:
        return
    entry = await entry_of(session, appointment_id=row.id)
    if entry is not None and entry.status in OPEN:
        _close(entry, LEFT)
    row.waitlist = None


async def hold_expired(session: AsyncSession, row: Appointment, claim: SlotClaim) -> None:
    """The appointment's hold `claim` expired (expire-holds): an offer not taken lapses (rule
    4); one given up for a time the person chose and then let go of leaves the line."""
    if row.waitlist is None:
        return
    entry = await entry_of(session, appointment_id=row.id)
    if entry is None or entry.status != OFFERED:
        return
    lapsed = _is_offer(entry, claim)
    _close(entry, LAPSED if lapsed else LEFT)
    row.waitlist = waitlist_view(entry, row.timezone or "UTC") if lapsed else None


async def release_claim(
    state: AppState, session: AsyncSession, change: Change, claim: SlotClaim, now: datetime
) -> None:
    """Free `claim` and offer its time to the first in line, in the caller's transaction,
    recording one claim change with both (rule 2). For every write that frees a time."""
    claim.active = False
    await session.flush()  # the freed claim no longer blocks the offer's insert
    offered = await offer_freed(state, session, change, claim, now)
    change.claims_changed(
        Claims(
            claim.clinic_id,
            [claim.start],
            claim.service_id,
            ClaimChange.of(added=offered, removed=claim),
        )
    )


async def offer_released(
    state: AppState, session: AsyncSession, change: Change, claim: SlotClaim, now: datetime
) -> None:
    """The time of `claim`, an expired hold that a newer hold of its counselor released
    already (storage/repo_booking.py `release_before_hold`), to the first in line if it is
    still free. Only the offer is a change of claims: an expired hold blocked nothing any
    more (realtime/booking/slot_cache.py `valid_until`)."""
    offered = await offer_freed(state, session, change, claim, now)
    if offered is not None:
        change.claims_changed(
            Claims(claim.clinic_id, [claim.start], claim.service_id, ClaimChange.of(added=offered))
        )


async def offer_freed(
    state: AppState, session: AsyncSession, change: Change, freed: SlotClaim, now: datetime
) -> SlotClaim | None:
    """Hold the time of `freed` (already inactive and flushed) for the first in line who can
    take it (rule 3), record their row and mail on `change`, and return the new hold; None
    when nobody gets it. A caller recording its own claim change (a reschedule) adds the
    returned claim to it; `release_claim` does that for the others."""
    clinic = await get_clinic(session, clinic_id=freed.clinic_id)
    assert clinic is not None
    zone = ZoneInfo(clinic.timezone)
    local = freed.start.astimezone(zone)
    candidates = await first_in_line(
        session,
        clinic_id=freed.clinic_id,
        service_id=freed.service_id,
        day=local.date().isoformat(),
        counselor_id=freed.counselor_id,
        excluding=freed.appointment_id,
    )
    if not candidates:
        return None
    service = await get_service(session, service_id=freed.service_id)
    assert service is not None
    horizon = now.astimezone(zone).date() + timedelta(days=service.horizon_days)
    if freed.start < now + timedelta(hours=service.min_notice_hours) or local.date() > horizon:
        return None
    for entry in candidates:
        row = await lock_if_free(session, appointment_id=entry.appointment_id)
        if row is None or row.status != "draft":
            continue
        window = pregnancy_days(service, row)
        if window is not None and not window[0] <= local.date() <= window[1]:
            continue
        if await active_claim_of(session, appointment_id=row.id) is not None:
            continue
        until = now + timedelta(minutes=state.settings.waitlist_offer_minutes)
        try:
            held = await place_hold(
                session,
                appointment=row,
                service=service,
                counselor_id=freed.counselor_id,
                start=freed.start,
                expires_at=until,
                now=now,
                check_overlap=state.db.sqlite,
            )
        except SlotTaken:  # something else overlaps it: no one of this service can have it
            return None
        change.moving(row)
        row.counselor_id = freed.counselor_id
        row.date, row.time = local.strftime("%Y-%m-%d"), local.strftime("%H:%M")
        row.hold_expires_at = until
        entry.status = OFFERED
        entry.offer_start, entry.offer_counselor_id, entry.offer_until = (
            freed.start,
            freed.counselor_id,
            until,
        )
        row.waitlist = waitlist_view(entry, clinic.timezone)
        mark_changed(row, now)
        change.row(appointment_path(row.id), row)
        change.mail(await _offer_mail(state, session, row, clinic, service, held.claim))
        return held.claim
    return None


async def _offer_mail(
    state: AppState,
    session: AsyncSession,
    row: Appointment,
    clinic: Clinic,
    service: Service,
    claim: SlotClaim,
) -> Queued:
    """The person's mail: the time held (clinic zone, theirs beside it), until when, and the
    review step to continue to (realtime/mail/links.py)."""
    user = await get_user(session, user_id=row.user_id)
    assert user is not None
    locale = mail_locale(row)
    link = review_url(state.settings.public_url)
    zone = row.person_timezone
    facts = booking_facts(Booking(row, clinic, service, claim), locale, state.mailer.links, None)
    mail = render(
        "waitlist_offer",
        locale,
        facts=facts,
        until=format_moment(claim.expires_at or claim.start, clinic.timezone, locale, zone),
        link=link,
    )
    return await state.mailer.queue(session, to=user.email, mail=mail, links=[link])
