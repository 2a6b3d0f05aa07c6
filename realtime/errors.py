"""The one error type of the server and its wire form (Firebase callable format)."""

from typing import Any

from realtime.contract import ERROR_STATUSES


class FunctionError(Exception):
    """An error meant for the caller: a status from the contract and a human message.

    Anything else raised inside a handler is reported as INTERNAL without its text, so
    stack traces and SQL never reach a client.
    """

    def __init__(self, status: str, message: str, details: Any = None) -> None:
        if status not in ERROR_STATUSES:
            raise ValueError(f"unknown error status {status!r}")
        super().__init__(message)
        self.status = status
        self.message = message
        self.details = details

    @property
    def http_status(self) -> int:
        return ERROR_STATUSES[self.status]

    def to_wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"status": self.status, "message": self.message}
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


INTERNAL_MESSAGE = "An internal error occurred."


def invalid_field(field: str, message: str) -> FunctionError:
    """INVALID_ARGUMENT naming the field at fault, as every refused input does
    (docs/protocol.md, errors): clients show `details.fields` beside the field."""
    return FunctionError("INVALID_ARGUMENT", message, {"fields": {field: message}})


def internal_error() -> FunctionError:
    return FunctionError("INTERNAL", INTERNAL_MESSAGE)
