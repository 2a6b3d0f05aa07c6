"""Reminder mails before a booked time (docs/product.md, "Reminders"; the job
`send-reminders`, realtime/jobs.py).

Each clinic names its offsets (`Clinic.reminder_offsets`, minutes before the start). The rules,
enforced here and by the unique key of the `reminders` table (appointment, offset, start):

- Exactly once: the reminder's row is inserted in the transaction that queues its mail. A
  second node or a rerun finds the row (the appointment's row lock serialises them) or hits
  the unique key (`Conflict`): its transaction, mail included, is dropped.
- Only the latest due offset is mailed: when several fall due at once (the job did not run, or
  the booking came late), the earlier ones are claimed without a mail, so that a late "in 7
  days" never follows a "tomorrow".
- None whose moment came before the time was booked, or less than `QUIET_AFTER_BOOKING` after
  it: the confirmation has just told the person (a booking made 3 days ahead gets the 1-day
  and 2-hour reminders, not a 7-day one). Such offsets are claimed without a mail too.
- Only `confirmed` appointments with a booked time still ahead; a moved time has a new start,
  so its reminders are planned afresh by the key.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from realtime.booking.access import catalog_of
from realtime.booking.mail_facts import booking_facts, link_list
from realtime.booking.notify import Booking, mail_locale
from realtime.changes import changing
from realtime.mail.outbox import Queued
from realtime.mail.render import render
from realtime.state import AppState
from storage.db import AsyncSession
from storage.errors import Conflict
from storage.models import SlotClaim
from storage.repo_appointments import lock_appointment
from storage.repo_booking import active_claim_of, get_counselor
from storage.repo_reminders import (
    claim_reminders,
    claimed_offsets,
    due_reminders,
    reminder_offsets_by_clinic,
)
from storage.repo_users import get_user

log = logging.getLogger(__name__)
BATCH = 500
# No reminder falls due this soon after its time was booked (the confirmation has just come).
QUIET_AFTER_BOOKING = timedelta(hours=1)


@dataclass(frozen=True)
class Lead:
    """How long before the start a reminder is, as its mail words it ("tomorrow",
    "in 2 hours"): the offset in its largest whole unit."""

    count: int
    unit: Literal["day", "hour", "minute"]


def lead_of(offset_minutes: int) -> Lead:
    if offset_minutes % (24 * 60) == 0:
        return Lead(offset_minutes // (24 * 60), "day")
    if offset_minutes % 60 == 0:
        return Lead(offset_minutes // 60, "hour")
    return Lead(offset_minutes, "minute")


def offsets_of(stored: list[int]) -> list[int]:
    """A clinic's offsets, largest first; anything but a positive whole number of minutes is
    left out (the column is JSON)."""
    valid = {o for o in stored if isinstance(o, int) and not isinstance(o, bool) and o > 0}
    return sorted(valid, reverse=True)


def due_offsets(offsets: list[int], start: datetime, now: datetime) -> list[int]:
    """The offsets whose moment (start minus offset) has come by `now`, for a start ahead."""
    if start <= now:
        return []
    return [o for o in offsets if start - timedelta(minutes=o) <= now]


def wanted(offset: int, claim: SlotClaim) -> bool:
    """Whether a reminder at this offset is worth a mail: its moment comes at least
    `QUIET_AFTER_BOOKING` after the time was booked (the claim was taken)."""
    return claim.start - timedelta(minutes=offset) >= claim.created + QUIET_AFTER_BOOKING


async def send_reminders(state: AppState, now: datetime) -> int:
    """Mail the reminders due by `now`; how many were mailed.

    Candidates are found per clinic and offset by a read without locks: the bookings whose
    latest due offset is that one (the start lies between now plus the next smaller offset
    and now plus this one) and which have no row for it. Each is then settled in a write of
    its own."""
    async with state.db.read() as session:
        clinics = await reminder_offsets_by_clinic(session)
        candidates: list[tuple[str, datetime]] = []
        for clinic_id, stored in clinics:
            offsets = offsets_of(stored)
            for offset, smaller in zip(offsets, [*offsets[1:], 0], strict=True):
                candidates += await due_reminders(
                    session,
                    clinic_id=clinic_id,
                    offset_minutes=offset,
                    after=now + timedelta(minutes=smaller),
                    until=now + timedelta(minutes=offset),
                    limit=BATCH,
                )
    sent = 0
    for appointment_id, start in candidates:
        sent += await _remind(state, appointment_id, start, now)
    if sent:
        log.info("send-reminders mailed %s reminder(s)", sent)
    return sent


async def _remind(state: AppState, appointment_id: str, start: datetime, now: datetime) -> int:
    """Claim the due offsets of one booked time and mail the latest when it is wanted; 1 when
    a mail was queued. A claim made meanwhile elsewhere drops the whole transaction."""
    try:
        async with changing(state) as change, state.db.write() as session:
            row = await lock_appointment(session, appointment_id=appointment_id)
            if row is None or row.status != "confirmed":
                return 0
            claim = await active_claim_of(session, appointment_id=row.id)
            if claim is None or claim.kind != "booking" or claim.start != start:
                return 0  # moved or released since the read: planned by its new start
            clinic, service = await catalog_of(session, row)
            due = due_offsets(offsets_of(clinic.reminder_offsets), claim.start, now)
            done = await claimed_offsets(session, appointment_id=row.id, start=claim.start)
            missing = [o for o in due if o not in done]
            if not missing:
                return 0
            await claim_reminders(
                session, appointment_id=row.id, start=claim.start, offsets=missing, at=now
            )
            latest = min(due)
            if latest not in missing or not wanted(latest, claim):
                return 0
            user = await get_user(session, user_id=row.user_id)
            if user is None or user.erased_at is not None:
                return 0  # nobody to write to (account-erase cancels open bookings anyway)
            booking = Booking(row, clinic, service, claim)
            change.mail(await _reminder_mail(state, session, booking, user.email, latest))
            return 1
    except Conflict:
        log.info("a reminder of %s was claimed already", appointment_id)
        return 0


async def _reminder_mail(
    state: AppState, session: AsyncSession, booking: Booking, email: str, offset: int
) -> Queued:
    """The person's reminder, in the appointment's language, with the booking's facts and
    the join link."""
    counselor = await get_counselor(session, counselor_id=booking.claim.counselor_id)
    locale = mail_locale(booking.appointment)
    facts = booking_facts(booking, locale, state.mailer.links, counselor)
    join_url = booking.join_url
    return await state.mailer.queue(
        session,
        to=email,
        mail=render(
            "booking_reminder",
            locale,
            facts=facts,
            lead=lead_of(offset),
            join_url=join_url,
        ),
        links=([join_url] if join_url else []) + link_list(facts),
    )
