"""Which fields of a live document a client may change, and how each is validated.

Keys are the wire's dot-separated field paths; a value of None clears the field. Fields not
listed are refused (status, payment, dates, join link... change only through server
functions). On appointments, `patientRole` and every `intake.*` path are checked against the
questionnaire definition, and intake answers need the person's consent first.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from realtime.contract import LOCALES
from realtime.errors import FunctionError, invalid_field
from realtime.intake.validate import IntakeContext, Problem, check_path, dependent_problems
from realtime.text import CONTROL_CHARACTERS, clean, refusal_text

Validator = Callable[[Any], Any]


def one_of(allowed: tuple[Any, ...], code: str, text: str) -> Validator:
    def check(value: Any) -> Any:
        # bool is an int in Python; an enumeration never accepts true/false.
        if isinstance(value, bool) or value not in allowed:
            raise Problem(code, text)
        return value

    return check


def text(max_length: int) -> Validator:
    """One-line text (realtime/text.py's rule) of at most `max_length` characters."""

    def check(value: Any) -> Any:
        if not isinstance(value, str):
            raise Problem("mustBeText", "Must be text.")
        if len(value) > max_length:
            raise Problem("tooLong", f"Must be at most {max_length} characters.")
        if clean(value, multiline=False) is None:
            raise Problem(CONTROL_CHARACTERS, refusal_text())
        return value

    return check


def boolean(value: Any) -> Any:
    if not isinstance(value, bool):
        raise Problem("mustBeBoolean", "Must be true or false.")
    return value


@dataclass(frozen=True)
class WritableField:
    attribute: str  # the model attribute it is stored in
    validate: Validator
    nullable: bool = True


_locale = one_of(LOCALES, "invalidOption", "Must be one of: " + ", ".join(LOCALES) + ".")

WRITABLE: dict[str, dict[str, WritableField]] = {
    "users": {
        "locale": WritableField("locale", _locale),
        "userAgent": WritableField("user_agent", text(512)),
        "version": WritableField("app_version", text(64)),
    },
    "appointments": {
        "locale": WritableField("locale", _locale),
        "agreedToTerms": WritableField("agreed_to_terms", boolean, nullable=False),
    },
}
# Appointment paths validated by the questionnaire definition rather than the table above.
INTAKE_PREFIX = "intake."
PATIENT_ROLE = "patientRole"

MAX_FIELDS_PER_UPDATE = 200
EDITABLE_STATUS = "draft"
LOCKED_MESSAGE = "This appointment is no longer a draft: its answers can no longer be changed."
CONSENT_MESSAGE = "Consent to the handling of health and genetic information is required first."


@dataclass(frozen=True)
class WriteContext:
    """What validation of an appointment update needs to know about that appointment."""

    intake: IntakeContext
    consented: bool
    status: str  # the appointment's

    @property
    def editable(self) -> bool:
        """Answers and settings change only while the appointment is a draft: once submitted,
        what the clinic received stays as it was."""
        return self.status == EDITABLE_STATUS


def _check(collection: str, path: str, value: Any, context: WriteContext | None) -> Any:
    field = WRITABLE.get(collection, {}).get(path)
    if field is not None:
        if value is None:
            if not field.nullable:
                raise Problem("required", "This field cannot be cleared.")
            return None
        return field.validate(value)
    if context is not None and (path == PATIENT_ROLE or path.startswith(INTAKE_PREFIX)):
        return check_path(path, value, context.intake)
    raise Problem("notWritable", "This field cannot be changed.")


def _is_answer(path: str) -> bool:
    return path == PATIENT_ROLE or path.startswith(INTAKE_PREFIX)


def validate_changes(
    collection: str, data: object, context: WriteContext | None = None
) -> dict[str, Any]:
    """Path -> value to store; the whole update is refused naming every bad field."""
    if not isinstance(data, dict) or not data:
        raise invalid_field("data", "An update needs at least one field.")
    if len(data) > MAX_FIELDS_PER_UPDATE:
        raise invalid_field("data", "Too many fields in one update.")
    if context is not None and not context.editable:
        # ABORTED like every call the status does not allow (docs/protocol.md, "After the
        # booking"), not a validation error: no value would have been accepted.
        raise FunctionError("ABORTED", LOCKED_MESSAGE, {"status": context.status})
    accepted: dict[str, Any] = {}
    texts: dict[str, str] = {}
    codes: dict[str, str] = {}
    if (
        context is not None
        and not context.consented
        and any(str(path).startswith(INTAKE_PREFIX) for path in data)
    ):
        texts["consent"], codes["consent"] = CONSENT_MESSAGE, "consentRequired"
    if context is not None:  # rules chosen by other answers read them as they will be
        answers = {str(p): v for p, v in data.items() if _is_answer(str(p))}
        context = replace(context, intake=context.intake.after(answers))
    for path, value in data.items():
        try:
            accepted[str(path)] = _check(collection, str(path), value, context)
        except Problem as problem:
            texts[str(path)], codes[str(path)] = problem.text, problem.code
    if context is not None:
        changed = {str(path) for path in data if _is_answer(str(path))}
        for path, refused in dependent_problems(changed, context.intake).items():
            texts[path], codes[path] = refused.text, refused.code
    if texts:
        raise FunctionError(
            "INVALID_ARGUMENT", "Some fields are not valid.", {"fields": texts, "codes": codes}
        )
    return accepted
