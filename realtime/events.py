"""The payload of each client event of the Socket.IO endpoint, as a pydantic model.

Strict and closed like a callable's input (realtime/functions/inputs.py): a wrong type or an
unknown key is refused, never coerced or ignored. The one event adapter of realtime/sockets.py
validates every payload with `parse` before its handler runs, so handlers get typed objects;
a refusal is INVALID_ARGUMENT in the callables' format (`details.fields` names each field).
What a field's value means (a known document path, a writable field) is checked further on,
by the rules table and realtime/writable.py.
"""

from typing import Any, TypeVar, cast

from pydantic import Field, ValidationError

from realtime.dispatch import invalid_request
from realtime.errors import invalid_field
from realtime.functions.inputs import Input

NOT_AN_OBJECT = "The payload must be a JSON object."


class Call(Input):
    """`call`: a callable function by its wire name, with its input (null: none)."""

    name: str
    data: Any


class Subscribe(Input):
    """`subscribe`: follow a document; `version` is the one the client holds (the ack always
    carries the current snapshot)."""

    path: str
    version: int | None = None


class Unsubscribe(Input):
    """`unsubscribe`: stop following a document (a path not followed is no error)."""

    path: str


class Update(Input):
    """`update`: field path -> new value; refused as ABORTED unless the document is still at
    `baseVersion` when given."""

    path: str
    data: dict[str, Any]
    base_version: int | None = Field(default=None, alias="baseVersion")


class Activity(Input):
    """`activity`: the person is active, on `step` (an unusable step is ignored, not refused:
    realtime/presence.py)."""

    step: str | None = None


Event = TypeVar("Event", bound=Input)


def parse(model: type[Event], payload: object) -> Event:
    """The payload as `model`, or INVALID_ARGUMENT. The model's validator is called directly:
    `model_validate` adds about 0.3 µs to every event (docs/benchmarks.md, "Changes made to
    the server")."""
    if not isinstance(payload, dict):
        raise invalid_field("payload", NOT_AN_OBJECT)
    try:
        return cast(Event, model.__pydantic_validator__.validate_python(payload))
    except ValidationError as exc:
        raise invalid_request(exc) from None
