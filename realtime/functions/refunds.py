"""appointment-cancelQuote (docs/protocol.md, "Cancelling and refunds"): what a cancel made
now would give back, for the owner to read before confirming it (and for the clinic's staff).
The cancel itself is appointment-cancel (realtime/functions/booking.py)."""

from typing import Any

from realtime.booking.access import catalog_of, clinic_appointment, raw_id
from realtime.booking.refunds import person_quote
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import no_access
from realtime.functions.inputs import Id, Input
from realtime.rules import require_identity
from storage.db import AsyncSession
from storage.models import Appointment
from storage.repo_appointments import get_appointment
from storage.repo_booking import active_claim_of
from storage.types import utcnow


class CancelQuote(Input):
    appointmentId: Id


@callable_function("appointment-cancelQuote", CancelQuote, authorize_first=True)
async def appointment_cancel_quote(context: CallContext, data: Any) -> dict[str, Any]:
    """`{"refund": {"amount", "currency"} | null, "freeUntil", "share"}`: the person's own
    cancel by the service's policy, from what was actually paid and the booked start.
    Authorized on the raw appointment id (owner, or staff of its clinic) before the input
    is validated."""
    who = require_identity(context.identity)
    raw = data.get("appointmentId") if isinstance(data, dict) else None
    async with context.state.db.read() as session:
        row = (
            await clinic_appointment(session, who, raw, for_update=False)
            if who.is_staff
            else await _own(session, who.uid, raw)
        )
        validated(CancelQuote, data)
        _, service = await catalog_of(session, row)
        claim = await active_claim_of(session, appointment_id=row.id)
        quote = person_quote(row.payment, service, claim.start if claim else None, utcnow())
    return quote.reply()


async def _own(session: AsyncSession, uid: str, raw: object) -> Appointment:
    """The caller's own appointment by the call's raw id; PERMISSION_DENIED for any other
    (and for anything that is not an id)."""
    known = raw_id(raw)
    row = await get_appointment(session, appointment_id=known) if known else None
    if row is None or row.user_id != uid:
        raise no_access()
    return row
