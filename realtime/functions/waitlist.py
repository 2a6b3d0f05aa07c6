"""waitlist-join and waitlist-leave: thin adapters of realtime/booking/waitlist.py."""

from typing import Annotated, Any

from pydantic import Field, StringConstraints

from realtime.booking.waitlist import join, leave
from realtime.dispatch import CallContext, callable_function, validated
from realtime.functions.inputs import Id, Input
from realtime.rules import require_identity

Day = Annotated[str, StringConstraints(max_length=10)]  # YYYY-MM-DD: realtime/days.py checks it


class WaitlistJoin(Input):
    appointmentId: Id
    from_: Day = Field(alias="from")
    to: Day
    counselorId: Id | None = None


class WaitlistLeave(Input):
    appointmentId: Id


@callable_function("waitlist-join", WaitlistJoin, authorize_first=True)
async def waitlist_join(context: CallContext, data: Any) -> dict[str, Any]:
    """The owner's draft waits for a time between two days (clinic zone), with one counselor
    or any; replies with the appointment's `waitlist` as its document shows it."""
    who = require_identity(context.identity)
    request = validated(WaitlistJoin, data)
    waiting = await join(
        context.state,
        who,
        appointment_id=request.appointmentId,
        first=request.from_,
        last=request.to,
        counselor_id=request.counselorId,
    )
    return {"waitlist": waiting}


@callable_function("waitlist-leave", WaitlistLeave, authorize_first=True)
async def waitlist_leave(context: CallContext, data: Any) -> dict[str, Any]:
    """Out of the line (an offer held for the owner is declined and passes on)."""
    who = require_identity(context.identity)
    request = validated(WaitlistLeave, data)
    return {"waitlist": await leave(context.state, who, appointment_id=request.appointmentId)}
