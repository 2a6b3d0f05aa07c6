"""The callable registry and the one dispatcher behind HTTP and the socket `call` event.

A function is a plain async function registered under its wire name with the pydantic
model of its input. Transports only parse, call `dispatch`, and format the answer.
"""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from realtime.errors import FunctionError, unexpected_error
from realtime.identity import Identity
from realtime.link_scope import out_of_scope, scoped_call
from realtime.ratelimit import enforce
from realtime.state import AppState
from realtime.text import CONTROL_CHARACTERS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CallContext:
    state: AppState
    identity: Identity | None
    client_ip: str | None = None

    async def limit_per_ip(
        self, name: str, limit: int, *, also: dict[str, int] | None = None
    ) -> None:
        """RESOURCE_EXHAUSTED past `limit` calls of `name` from this client IP in the
        rate-limit window; calls whose IP is unknown share one count. `also`: other keys
        (key -> limit) counted in the same round trip, every one of them counted."""
        await enforce(
            self.state.limiter,
            {f"{name}:{self.client_ip or 'unknown'}": limit, **(also or {})},
            window_seconds=self.state.settings.rate_limit_window_seconds,
        )


Handler = Callable[[CallContext, Any], Awaitable[Any]]


@dataclass(frozen=True)
class Function:
    name: str
    handler: Handler
    input: type[BaseModel] | None
    # The handler gets the raw data and validates it against `input` itself, after it has
    # authorized the caller (staff calls: realtime/functions/staff.py).
    authorize_first: bool = False


REGISTRY: dict[str, Function] = {}


def callable_function(
    name: str,
    input: type[BaseModel] | None = None,
    *,
    authorize_first: bool = False,
) -> Callable[[Handler], Handler]:
    """Register `handler` under the wire name `name`. With `authorize_first` (every staff
    call) the handler is given the raw data instead of the validated `input`: it authorizes
    the caller first (realtime/rules.py; from the clinic or appointment the data names,
    where it names one) and only then validates it with `validated(input, data)`."""

    def register(handler: Handler) -> Handler:
        if name in REGISTRY:
            raise RuntimeError(f"function {name} registered twice")
        REGISTRY[name] = Function(name, handler, input, authorize_first)
        return handler

    return register


def _validation_details(error: ValidationError) -> dict[str, Any]:
    """`fields`: path -> message; `codes`: path -> message key, for the refusals the client
    words itself in the person's language (control characters, realtime/text.py)."""
    fields: dict[str, str] = {}
    codes: dict[str, str] = {}
    for item in error.errors(include_url=False, include_input=False):
        path = ".".join(str(part) for part in item["loc"]) or "data"
        fields[path] = item["msg"]
        if item["type"] == CONTROL_CHARACTERS:
            codes[path] = CONTROL_CHARACTERS
    return {"fields": fields, "codes": codes} if codes else {"fields": fields}


def invalid_request(error: ValidationError) -> FunctionError:
    """The refusal of an input its pydantic model rejected (callables and socket events)."""
    return FunctionError(
        "INVALID_ARGUMENT", "The request is not valid.", _validation_details(error)
    )


Model = TypeVar("Model", bound=BaseModel)


def validated(model: type[Model], data: Any) -> Model:
    """An input validated by its handler (after authorizing), refused as dispatch refuses."""
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        raise invalid_request(exc) from None


async def dispatch(context: CallContext, name: str, data: Any) -> Any:
    """Run a function; any failure leaves as a FunctionError fit for the wire. A mail link's
    session runs a call outside its scope as signed out (realtime/link_scope.py): a call
    that needs a sign-in is then refused as out of the link's scope."""
    function = REGISTRY.get(name)
    if function is None:
        raise FunctionError("NOT_FOUND", f"No function named {name!r}.")
    identity = scoped_call(context.identity, name, data)
    if identity is not context.identity:
        try:
            return await _run(function, replace(context, identity=identity), data)
        except FunctionError as exc:
            if exc.status == "UNAUTHENTICATED":
                raise out_of_scope() from None
            raise
    return await _run(function, context, data)


async def _run(function: Function, context: CallContext, data: Any) -> Any:
    name = function.name
    argument: Any = data
    if function.input is not None and not function.authorize_first:
        try:
            argument = function.input.model_validate(data if data is not None else {})
        except ValidationError as exc:
            raise invalid_request(exc) from None
    try:
        return await function.handler(context, argument)
    except FunctionError:
        raise
    except Exception as exc:
        log.exception("function %s failed", name)
        raise unexpected_error(exc) from None
