"""The one error type of the server and its wire form (Firebase callable format)."""

from typing import Any

from realtime.contract import ERROR_STATUSES
from storage.errors import DATABASE_ERRORS, connection_lost


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


def stale_edit(message: str, version: int, current: object) -> FunctionError:
    """ABORTED for an edit made against an older version than `version` (docs/protocol.md,
    "Clinic administration"): `current` is the value as its read gives it, so the editor
    sees what they would have overwritten and nothing is lost silently."""
    return FunctionError("ABORTED", message, {"version": version, "current": current})


def no_access() -> FunctionError:
    """PERMISSION_DENIED, said alike of a document that is someone else's and of one that
    does not exist (nobody learns which ids exist)."""
    return FunctionError("PERMISSION_DENIED", "You do not have access to this document.")


def internal_error() -> FunctionError:
    return FunctionError("INTERNAL", INTERNAL_MESSAGE)


UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Please try again shortly."
# SQLSTATE classes that mean "the database cannot be reached or cannot serve now": connection
# exception, insufficient resources, operator intervention (shutdown, cannot connect now),
# system error; 55000 is PostgreSQL's "database is not currently accepting connections".
_UNREACHABLE_SQLSTATE_CLASSES = ("08", "53", "57", "58")
_UNREACHABLE_SQLSTATES = ("55000",)


# Exceptions through which a dependency (the database) may report being unreachable: the HTTP
# app answers them itself (realtime/http.py) rather than leaving them to the last resort.
DEPENDENCY_ERRORS: tuple[type[Exception], ...] = (OSError, *DATABASE_ERRORS)


def _causes(exc: BaseException) -> list[BaseException]:
    """The exception, what it wraps (SQLAlchemy's `orig`) and its causes, without cycles."""
    seen: list[BaseException] = []
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop()
        if current is None or any(current is known for known in seen):
            continue
        seen.append(current)
        orig = getattr(current, "orig", None)
        pending += [
            current.__cause__,
            current.__context__,
            orig if isinstance(orig, BaseException) else None,
        ]
    return seen


def _unreachable(exc: BaseException) -> bool:
    if isinstance(exc, OSError) or connection_lost(exc):
        return True  # refused, reset, timed out, pool exhausted, connection closed/invalidated
    sqlstate = getattr(exc, "sqlstate", None)
    return isinstance(sqlstate, str) and (
        sqlstate.startswith(_UNREACHABLE_SQLSTATE_CLASSES) or sqlstate in _UNREACHABLE_SQLSTATES
    )


def unexpected_error(exc: BaseException) -> FunctionError:
    """What the caller is told about an exception that is not a FunctionError.

    A database (or other dependency) that cannot be reached is UNAVAILABLE (503, worth a
    retry); anything else is INTERNAL. Used by every transport (docs/protocol.md).
    """
    if isinstance(exc, FunctionError):
        return exc
    if any(_unreachable(cause) for cause in _causes(exc)):
        return FunctionError("UNAVAILABLE", UNAVAILABLE_MESSAGE)
    return internal_error()
