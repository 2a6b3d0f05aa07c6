"""Request bodies: at most MAX_MESSAGE_BYTES, read as a stream, JSON of a bounded depth.

`LimitBodies` wraps the HTTP app so that no route can read more than the limit: a declared
`Content-Length` over it is refused before anything is read, and a chunked body is counted
as it arrives and refused the moment it passes the limit (docs/protocol.md, "Callables").
The one larger body is a clinic document's upload (`Larger`: its path prefix, its limit and
its own refusal naming the file).
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from realtime.contract import MAX_MESSAGE_BYTES
from realtime.errors import FunctionError, invalid_field

# Our deepest legitimate body is an intake repeater inside a call
# ({"data": {"data": {"intake.familyMembers": [{...}]}}}: about 6 levels); 32 is plenty, and
# well below the recursion limit that deeper JSON would hit while being parsed.
MAX_JSON_DEPTH = 32
HTTP_PAYLOAD_TOO_LARGE = 413
TOO_LARGE_MESSAGE = "The request is too large."
NOT_AN_OBJECT_MESSAGE = "The body must be a JSON object."
TOO_DEEP_MESSAGE = f"The body nests deeper than {MAX_JSON_DEPTH} levels."


class BodyTooLarge(FunctionError):
    """INVALID_ARGUMENT in the error format, answered with HTTP 413 (no contract status
    maps to 413; INVALID_ARGUMENT keeps clients from retrying it). `field` is what was too
    large (`body`, or an upload's `file`), `code` a message key the client words itself."""

    def __init__(
        self, message: str = TOO_LARGE_MESSAGE, field: str = "body", code: str | None = None
    ) -> None:
        details: dict[str, Any] = {"fields": {field: message}}
        if code is not None:
            details["codes"] = {field: code}
        super().__init__("INVALID_ARGUMENT", message, details)

    @property
    def http_status(self) -> int:
        return HTTP_PAYLOAD_TOO_LARGE


def declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def too_large_response(error: BodyTooLarge) -> list[Message]:
    """The 413 as ASGI messages. The connection stays open: uvicorn discards the rest of the
    body without keeping it (closing now would reset the connection under the client before
    it reads the answer), and the request read deadline (realtime/connections.py) ends a
    body that never stops."""
    body = json.dumps(error.to_wire()).encode()
    return [
        {
            "type": "http.response.start",
            "status": HTTP_PAYLOAD_TOO_LARGE,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        },
        {"type": "http.response.body", "body": body},
    ]


@dataclass(frozen=True)
class Larger:
    """A POST route under `prefix` whose body may reach `limit` bytes, refused by `refusal`."""

    prefix: str
    limit: int
    refusal: Callable[[], BodyTooLarge]


class LimitBodies:
    """ASGI middleware: no request body over `limit` bytes (or a `Larger` route's) is ever
    held in memory."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_MESSAGE_BYTES, larger: Sequence[Larger] = ()
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = tuple(larger)

    def _limit_of(self, scope: Scope) -> tuple[int, Callable[[], BodyTooLarge]]:
        path = scope.get("path", "")
        for route in self.larger:
            if scope.get("method") == "POST" and path.startswith(route.prefix):
                return route.limit, route.refusal
        return self.limit, BodyTooLarge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, refusal = self._limit_of(scope)
        length = declared_length(scope)
        if length is not None and length > limit:
            for message in too_large_response(refusal()):
                await send(message)
            return
        received = 0

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise refusal()
            return message

        try:
            await self.app(scope, capped_receive, send)
        except BodyTooLarge as error:  # not answered by the app: answer here (nothing sent yet)
            for message in too_large_response(error):
                await send(message)


def json_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether `value` nests objects/arrays deeper than `limit` (iterative: no recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        current, depth = pending.pop()
        children = (
            current.values()
            if isinstance(current, dict)
            else current
            if isinstance(current, list)
            else ()
        )
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                pending.append((child, depth + 1))
    return False


def parse_object(body: bytes) -> dict[str, Any]:
    """A JSON object of bounded depth, or INVALID_ARGUMENT (never a RecursionError)."""
    too_deep = invalid_field("body", TOO_DEEP_MESSAGE)
    try:
        parsed = json.loads(body)
    except RecursionError:
        raise too_deep from None
    except ValueError:
        raise invalid_field("body", NOT_AN_OBJECT_MESSAGE) from None
    if not isinstance(parsed, dict):
        raise invalid_field("body", NOT_AN_OBJECT_MESSAGE)
    if json_depth_exceeds(parsed):
        raise too_deep
    return parsed
