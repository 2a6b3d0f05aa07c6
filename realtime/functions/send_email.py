"""sendEmail-authLink and sendEmail-admin (sendEmail-counselor arrives with booking)."""

import json
from typing import Annotated, Any, Literal

from pydantic import Field

from realtime.changes import changing
from realtime.contract import LOCALES
from realtime.dispatch import CallContext, callable_function
from realtime.functions.inputs import Id, Input
from realtime.mail.render import render
from realtime.signin import normalize_email, request_link
from realtime.text import AnyJson, MultiLine, OneLine

Locale = Literal["ja", "en"]
assert set(LOCALES) == {"ja", "en"}, "update the Locale literal with contract.json"


class AuthLinkRequest(Input):
    email: str
    locale: Locale = "ja"
    clinicId: Id | None = None
    serviceId: Id | None = None


@callable_function("sendEmail-authLink", AuthLinkRequest)
async def send_auth_link(context: CallContext, request: AuthLinkRequest) -> dict[str, Any]:
    await request_link(
        context.state,
        email=normalize_email(request.email),
        locale=request.locale,
        clinic_id=request.clinicId,
        service_id=request.serviceId,
        client_ip=context.client_ip,
    )
    return {"sent": True}


Text = Annotated[MultiLine, Field(max_length=2000)]


class ReportedError(Input):
    code: Annotated[OneLine, Field(max_length=64)] = "unknown"
    message: Text = ""
    details: AnyJson = None
    stack: Annotated[MultiLine, Field(max_length=8000)] = ""


class AdminReport(Input):
    userAgent: Annotated[OneLine, Field(max_length=512)] = ""
    locale: Annotated[OneLine, Field(max_length=8)] = ""
    route: Annotated[OneLine, Field(max_length=512)] = ""
    error: ReportedError
    context: AnyJson = None


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:2000]


@callable_function("sendEmail-admin", AdminReport)
async def send_admin_report(context: CallContext, report: AdminReport) -> dict[str, Any]:
    """An error report from the client to the clinic's administrator (rate-limited per IP)."""
    state = context.state
    settings = state.settings
    await context.limit_per_ip("admin-report", settings.admin_reports_per_ip)
    mail = render(
        "admin_report",
        "en",
        route=report.route.split("?", 1)[0],  # query strings may carry tokens
        report_locale=report.locale,
        user_agent=report.userAgent,
        code=report.error.code,
        message=report.error.message,
        details=_compact(report.error.details),
        stack=report.error.stack,
        context=_compact(report.context),
    )
    async with changing(state) as change, state.db.write() as session:
        change.mail(await state.mailer.queue(session, to=settings.admin_email, mail=mail, links=[]))
    return {"sent": True}
