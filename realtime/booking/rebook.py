"""Starting again after an appointment ended: appointment-create's `copyFrom`.

A person whose appointment ended (status.ENDED: cancelled, completed, no_show, expired) may
begin the next one from the answers they gave, when they agree to (the client asks). Only
answers travel (`intake` and `patientRole`): never the consent (given again for the new
appointment), the terms agreement, the time, the payment or the status. An answer is copied
when the new appointment's service asks its step and the field, and when it passes today the
checks every saved answer passes (realtime/intake/validate.py): an answer that no longer
holds (an expected delivery date now past) is left out, to be asked again.
"""

from dataclasses import dataclass
from datetime import date
from typing import Any

from realtime.booking.status import ENDED
from realtime.errors import FunctionError, no_access
from realtime.identity import Identity
from realtime.intake.definition import STEPS
from realtime.intake.validate import IntakeContext, Problem, check_path, holds, value_at
from realtime.nested import set_nested
from storage.db import AsyncSession
from storage.models import Appointment
from storage.repo_appointments import get_appointment

ENDED_ONLY_MESSAGE = "Only an appointment that has ended can be copied."


@dataclass(frozen=True)
class Answers:
    """What a new appointment starts with."""

    intake: dict[str, Any]
    patient_role: int | None


async def ended_source(session: AsyncSession, who: Identity, appointment_id: str) -> Appointment:
    """The caller's own ended appointment to copy: another person's (or none)
    PERMISSION_DENIED, an open one ABORTED naming its status."""
    row = await get_appointment(session, appointment_id=appointment_id)
    if row is None or row.user_id != who.uid:
        raise no_access()
    if row.status not in ENDED:
        raise FunctionError("ABORTED", ENDED_ONLY_MESSAGE, {"status": row.status})
    return row


def copied_answers(source: Appointment, *, category: str, today: date) -> Answers:
    """The answers of `source` that a new appointment of a service of `category` asks and
    that are valid today (`today` in the new appointment's clinic zone)."""
    data = {"intake": source.intake or {}, "patientRole": source.patient_role}
    context = IntakeContext(category=category, today=today, answers=data)
    copied: dict[str, Any] = {}
    for step in STEPS:
        if not holds(step.when, data, category):
            continue
        for field in step.fields:
            value = value_at(data, field.path)
            if value is None or not holds(field.when, data, category):
                continue
            try:
                kept = check_path(field.path, value, context)
            except Problem:
                continue
            copied = set_nested(copied, field.path.split("."), kept)
    role = copied.get("patientRole")
    return Answers(intake=copied.get("intake", {}), patient_role=role)
