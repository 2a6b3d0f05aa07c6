"""analytics-log: first-party analytics, stored without personal data.

Only whitelisted events and parameters are kept; no uid, e-mail, IP or URL is stored, so an
event cannot be tied back to a person or to their health data.
"""

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel

from realtime.dispatch import CallContext, callable_function
from realtime.functions.inputs import Input
from realtime.text import MultiLine
from storage.models import AnalyticsEvent
from storage.repo_records import add_analytics_event
from storage.types import utcnow

EVENTS_PER_IP = 120


class LoginParams(Input):
    method: Literal["email-link-authentication"]
    hostname: Annotated[str, Field(max_length=253, pattern=r"^[A-Za-z0-9.-]+$")]


class ExceptionParams(Input):
    description: Annotated[MultiLine, Field(max_length=500)]
    fatal: bool = False


class LoginEvent(Input):
    name: Literal["login"]
    params: LoginParams


class ExceptionEvent(Input):
    name: Literal["exception"]
    params: ExceptionParams


class AnalyticsLog(RootModel[Annotated[LoginEvent | ExceptionEvent, Field(discriminator="name")]]):
    pass


@callable_function("analytics-log", AnalyticsLog)
async def analytics_log(context: CallContext, request: AnalyticsLog) -> dict[str, Any]:
    event = request.root
    state = context.state
    await context.limit_per_ip("analytics", EVENTS_PER_IP)
    async with state.db.write() as session:
        add_analytics_event(
            session,
            event=AnalyticsEvent(
                name=event.name, params=event.params.model_dump(), created=utcnow()
            ),
        )
    return {"logged": True}
