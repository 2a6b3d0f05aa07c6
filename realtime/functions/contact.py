"""contact-send: the contact form (/contact in docs/product.md, "Screens and routes"), stored
and mailed to the clinic; the sender gets an acknowledgement in the form's language.

The acknowledgement never repeats the message nor the name: the message may hold health data,
and the address is typed by hand, so a mistyped one would hand both to a stranger. What it says
(received, the usual answer time, the clinic's signature) is the same whoever asked, so an
address entered by someone else learns nothing and can be sent nothing of the sender's choosing.
"""

from typing import Annotated, Any

from pydantic import StringConstraints

from realtime.changes import changing
from realtime.contract import CONTACT_REPLY_BUSINESS_DAYS
from realtime.dispatch import CallContext, callable_function
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.functions.send_email import Locale
from realtime.mail.render import render
from realtime.mail.signature import signature_of
from realtime.signin import EMAIL_PATTERN
from realtime.text import MultiLine, OneLine
from storage.models import ContactMessage
from storage.repo_catalog import get_clinic
from storage.repo_records import add_contact_message
from storage.types import utcnow

INCOMPLETE = "Some of the fields are incomplete."


class ContactSend(Input):
    clinicId: Id | None = None
    appointmentId: Id | None = None
    name: Annotated[OneLine, StringConstraints(max_length=200)] = ""
    email: Annotated[OneLine, StringConstraints(max_length=254)] = ""
    message: Annotated[MultiLine, StringConstraints(max_length=5000)] = ""
    # The form's language: the acknowledgement's (the clinic's copy stays in Japanese).
    locale: Locale = "ja"


def _check(request: ContactSend) -> None:
    codes: dict[str, str] = {}
    for field in ("name", "email", "message"):
        if not getattr(request, field).strip():
            codes[field] = "required"
    if "email" not in codes and not EMAIL_PATTERN.fullmatch(request.email.strip().lower()):
        codes["email"] = "email"
    if codes:
        raise FunctionError(
            "INVALID_ARGUMENT",
            INCOMPLETE,
            {"fields": {field: INCOMPLETE for field in codes}, "codes": codes},
        )


@callable_function("contact-send", ContactSend)
async def contact_send(context: CallContext, request: ContactSend) -> dict[str, Any]:
    """Anyone may write (signed in or not); limited per client IP."""
    state = context.state
    _check(request)
    await context.limit_per_ip("contact", state.settings.contact_messages_per_ip)
    async with changing(state) as change, state.db.write() as session:
        clinic_id = request.clinicId or state.settings.default_clinic_id
        clinic = await get_clinic(session, clinic_id=clinic_id) if clinic_id else None
        if clinic is None:
            raise FunctionError("NOT_FOUND", "No such clinic.")
        message = ContactMessage(
            clinic_id=clinic.id,
            appointment_id=request.appointmentId,
            name=request.name.strip(),
            email=request.email.strip().lower(),
            message=request.message.strip(),
            created=utcnow(),
        )
        add_contact_message(session, message=message)
        queued = await state.mailer.queue(
            session,
            to=clinic.contact_email,
            links=[],
            mail=render(
                "contact_message",
                "ja",
                name=message.name,
                email=message.email,
                appointment_id=message.appointment_id or "-",
                message=message.message,
            ),
        )
        acknowledgement = await state.mailer.queue(
            session,
            to=message.email,
            links=[],
            mail=render(
                "contact_received",
                request.locale,
                reply_days=CONTACT_REPLY_BUSINESS_DAYS,
                signature=signature_of(clinic, request.locale),
            ),
        )
        change.mail(queued, acknowledgement)
    return {"sent": True}
