"""providerCodes-read, providerCode-update and providerCode-check: the referring
institutions of a clinic and their 4-character codes, which the questionnaire's first step
checks (docs/protocol.md, "Provider codes").

Reading and editing are for the clinic's administrators (authorized before the input is
validated). The check is for anyone signed in, since the person answering the questionnaire
asks it; it is rate-limited per person and per client IP, every call counted, so that the
codes cannot be found by trying them one after another. An unknown code and an inactive
one are refused alike (realtime/intake/provider_code.py), as the intake's write refuses them.
"""

from typing import Annotated, Any

from pydantic import StringConstraints

from realtime import audit
from realtime.changes import changing
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import invalid_field
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.intake.provider_code import FORM, unknown_code
from realtime.rules import require_identity, require_staff
from realtime.text import OneLine
from storage.models import ProviderCode
from storage.repo_provider_codes import active_code, codes_of, put_code
from storage.types import iso, utcnow

NAME_LENGTH = 200
Code = Annotated[str, StringConstraints(max_length=40)]  # its form: the rule, with its message
Name = Annotated[OneLine, StringConstraints(max_length=NAME_LENGTH * 2)]


def code_wire(row: ProviderCode) -> dict[str, Any]:
    return {"code": row.code, "name": row.name, "active": row.active, "updated": iso(row.updated)}


def checked_code(value: str) -> str:
    """A code of the right form, as typed (case kept), or the rule's refusal naming `code`."""
    if FORM.pattern is None or not FORM.pattern.fullmatch(value):
        raise invalid_field("code", FORM.message["en"])
    return value


class CodesRead(Input):
    clinicId: Id


@callable_function("providerCodes-read", CodesRead, authorize_first=True)
async def provider_codes_read(context: CallContext, data: Any) -> dict[str, Any]:
    require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(CodesRead, data)
    async with context.state.db.read() as session:
        rows = await codes_of(session, clinic_id=request.clinicId)
    return {"codes": [code_wire(row) for row in rows]}


class CodeUpdate(Input):
    clinicId: Id
    code: Code
    name: Name
    active: bool


@callable_function("providerCode-update", CodeUpdate, authorize_first=True)
async def provider_code_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Add a code or change its institution's name and whether it is accepted."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(CodeUpdate, data)
    code = checked_code(request.code)
    name = request.name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise invalid_field("name", f"name must have 1 to {NAME_LENGTH} characters.")
    async with changing(state) as change, state.db.write() as session:
        row, before = await put_code(
            session,
            clinic_id=request.clinicId,
            code=code,
            name=name,
            active=request.active,
            at=utcnow(),
        )
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=request.clinicId,
            action=audit.PROVIDER_CODE_UPDATE,
            detail={
                "code": code,
                "before": None
                if before is None
                else {"name": before.name, "active": before.active},
                "after": {"name": name, "active": request.active},
            },
            address=context.client_ip,
        )
        answer = code_wire(row)
    return answer


class CodeCheck(Input):
    clinicId: Id
    code: Code


@callable_function("providerCode-check", CodeCheck)
async def provider_code_check(context: CallContext, request: CodeCheck) -> dict[str, Any]:
    """The institution of an active code of the clinic, for the person's first step."""
    who = require_identity(context.identity)
    settings = context.state.settings
    await context.limit_per_ip(
        "code-check-ip",
        settings.code_checks_per_ip,
        also={f"code-check-user:{who.uid}": settings.code_checks_per_user},
    )
    code = checked_code(request.code)
    async with context.state.db.read() as session:
        row = await active_code(session, clinic_id=request.clinicId, code=code)
    if row is None:
        raise unknown_code("code")
    return {"name": row.name}
