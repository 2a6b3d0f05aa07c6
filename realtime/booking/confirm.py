"""Confirming a booking: the one place a hold becomes a booking (free services at submit,
priced ones when their payment arrives)."""

from realtime.booking.meeting import meeting_link
from realtime.booking.notify import Booking, booking_mails
from realtime.booking.status import transition
from realtime.mail.outbox import Queued
from realtime.state import AppState
from storage.db import AsyncSession


async def confirm_booking(state: AppState, session: AsyncSession, booking: Booking) -> list[Queued]:
    """Inside the caller's transaction: status, booking, join link, queued mails."""
    row, claim = booking.appointment, booking.claim
    row.status = transition(row.status, "confirmed")
    claim.kind, claim.expires_at, row.hold_expires_at = "booking", None, None
    row.join_url = meeting_link(state.settings.meeting_base_url)
    return await booking_mails(state.mailer, session, "confirmed", booking)
