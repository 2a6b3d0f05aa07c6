"""The questionnaire's provider code checked against the clinic's codes (docs/protocol.md,
"Provider codes"): an unknown or inactive code is refused with the message
`providerCodeUnknown` of realtime/intake/definition.json ("Invalid code."), both when the
intake's answer is written and by `providerCode-check`. Its form (4 half-width letters or
digits, case-sensitive) is the definition's rule `providerCode`, checked before."""

from typing import Final

from realtime.errors import FunctionError
from realtime.intake.definition import RULES, message

CODE_PATH: Final = "intake.healthCareProvider.code"
UNKNOWN: Final = "providerCodeUnknown"
FORM: Final = RULES["providerCode"]


def unknown_code(field: str) -> FunctionError:
    """The refusal of a code the clinic does not have (or no longer accepts), naming
    `field`, with the message key the client words in the person's language."""
    text = message(UNKNOWN)
    return FunctionError(
        "INVALID_ARGUMENT", text, {"fields": {field: text}, "codes": {field: UNKNOWN}}
    )
