"""Request bodies: at most MAX_MESSAGE_BYTES, read as a stream, JSON of a bounded depth.

`LimitBodies` wraps the HTTP app so that no route can read more than the limit: a declared
`Content-Length` over it is refused before anything is read, and a chunked body is counted
as it arrives and refused the moment it passes the limit (docs/protocol.md, "Callables").
"""

import json
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
    maps to 413; INVALID_ARGUMENT keeps clients from retrying it)."""

    def __init__(self) -> None:
        super().__init__(
            "INVALID_ARGUMENT", TOO_LARGE_MESSAGE, {"fields": {"body": TOO_LARGE_MESSAGE}}
        )

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


def too_large_response() -> list[Message]:
    """The 413 as ASGI messages. The connection stays open: uvicorn discards the rest of the
    body without keeping it (closing now would reset the connection under the client before
    it reads the answer), and the request read deadline (realtime/connections.py) ends a
    body that never stops."""
    body = json.dumps(BodyTooLarge().to_wire()).encode()
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


class LimitBodies:
    """ASGI middleware: no request body over `limit` bytes is ever held in memory."""

    def __init__(self, app: ASGIApp, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and length > self.limit:
            for message in too_large_response():
                await send(message)
            return
        received = 0

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge()
            return message

        try:
            await self.app(scope, capped_receive, send)
        except BodyTooLarge:  # not answered by the app: answer here (nothing was sent yet)
            for message in too_large_response():
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
