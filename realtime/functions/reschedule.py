"""appointment-reschedule (docs/protocol.md, "Rescheduling"): its input and reply. What it
does, and the rules of a move, are in realtime/booking/reschedule.py."""

from typing import Annotated, Any

from pydantic import StringConstraints

from realtime.booking.reschedule import Mover, authorize_staff, reschedule
from realtime.dispatch import CallContext, callable_function, validated
from realtime.functions.booking import _limit_holds, _moment, _person_zone
from realtime.functions.inputs import Id, Input
from realtime.rules import require_identity


class AppointmentReschedule(Input):
    appointmentId: Id
    start: Annotated[str, StringConstraints(max_length=40)]
    counselorId: Id  # or "any": the current counselor when free then, else a free one
    # Optional: the person's own IANA zone (their browser's), as appointment-hold takes it.
    personTimezone: Annotated[str, StringConstraints(max_length=64)] | None = None


@callable_function("appointment-reschedule", AppointmentReschedule, authorize_first=True)
async def appointment_reschedule(context: CallContext, data: Any) -> dict[str, Any]:
    """The owner, or staff of the clinic (authorized on the raw appointment id before the
    input is validated, and audited), moves a booked time."""
    who = require_identity(context.identity)
    if who.is_staff:
        raw = data.get("appointmentId") if isinstance(data, dict) else None
        await authorize_staff(context.state, who, raw)
    else:
        await _limit_holds(context, who)  # a move costs what a hold does
    request = validated(AppointmentReschedule, data)
    moved = await reschedule(
        context.state,
        Mover(who, who.is_staff, context.client_ip),
        appointment_id=request.appointmentId,
        start=_moment(request.start),
        counselor=request.counselorId,
        person_zone=_person_zone(request.personTimezone),
    )
    row = moved.row
    return {
        "status": row.status,
        "date": row.date,
        "time": row.time,
        "counselorId": row.counselor_id,
        "moved": moved.moved,
    }
