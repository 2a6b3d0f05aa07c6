"""Which fields of a live document a client may change, and how each is validated.

Keys are the wire's dot-separated field paths. A value of None clears the field. Fields
not listed here are refused (status, payment, dates, join link... change only through
server functions). The intake questionnaire's fields arrive with its definition.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from realtime.contract import LOCALES, PATIENT_ROLES
from realtime.errors import FunctionError

Validator = Callable[[Any], Any]


def one_of(allowed: tuple[Any, ...], message: str) -> Validator:
    def check(value: Any) -> Any:
        # bool is an int in Python; an enumeration of numbers never accepts true/false.
        if isinstance(value, bool) or value not in allowed:
            raise ValueError(message)
        return value

    return check


def text(max_length: int) -> Validator:
    def check(value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("Must be text.")
        if len(value) > max_length:
            raise ValueError(f"Must be at most {max_length} characters.")
        return value

    return check


def boolean(value: Any) -> Any:
    if not isinstance(value, bool):
        raise ValueError("Must be true or false.")
    return value


@dataclass(frozen=True)
class WritableField:
    attribute: str  # the model attribute it is stored in
    validate: Validator
    nullable: bool = True


_ALL_ROLES = tuple(code for codes in PATIENT_ROLES.values() for code in codes)
_locale = one_of(LOCALES, "Must be one of: " + ", ".join(LOCALES) + ".")

WRITABLE: dict[str, dict[str, WritableField]] = {
    "users": {
        "locale": WritableField("locale", _locale),
        "userAgent": WritableField("user_agent", text(512)),
        "version": WritableField("app_version", text(64)),
    },
    "appointments": {
        "locale": WritableField("locale", _locale),
        "agreedToTerms": WritableField("agreed_to_terms", boolean, nullable=False),
        "patientRole": WritableField(
            "patient_role", one_of(_ALL_ROLES, "Unknown patient role code.")
        ),
    },
}

MAX_FIELDS_PER_UPDATE = 200


def validate_changes(collection: str, data: object) -> dict[str, tuple[WritableField, Any]]:
    """Check every field of an update; refuse the whole update naming each bad field."""
    if not isinstance(data, dict) or not data:
        raise FunctionError("INVALID_ARGUMENT", "An update needs at least one field.")
    if len(data) > MAX_FIELDS_PER_UPDATE:
        raise FunctionError("INVALID_ARGUMENT", "Too many fields in one update.")
    fields = WRITABLE.get(collection, {})
    accepted: dict[str, tuple[WritableField, Any]] = {}
    problems: dict[str, str] = {}
    for path, value in data.items():
        field = fields.get(path)
        if field is None:
            problems[str(path)] = "This field cannot be changed."
            continue
        if value is None:
            if not field.nullable:
                problems[path] = "This field cannot be cleared."
            else:
                accepted[path] = (field, None)
            continue
        try:
            accepted[path] = (field, field.validate(value))
        except ValueError as exc:
            problems[path] = str(exc)
    if problems:
        raise FunctionError("INVALID_ARGUMENT", "Some fields are not valid.", {"fields": problems})
    return accepted
