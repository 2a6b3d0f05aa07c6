"""The one rule on which characters free text from outside may hold.

Control characters are refused wherever text comes in (callable inputs, document updates,
e-mail addresses): PostgreSQL cannot store U+0000, lone surrogates cannot be encoded at all,
and a line break in a one-line field would forge mail headers and log lines. Multi-line
fields (a message, a reason, a textarea) keep line breaks and tabs; a CR LF or lone CR is
stored as LF. The refusal's message key is CONTROL_CHARACTERS, whose words in ja and en are in
realtime/intake/definition.json `messages` (docs/protocol.md "Callables", "Updates").
"""

import re
import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from realtime.intake.definition import message

CONTROL_CHARACTERS = "controlCharacters"
# Kept in multi-line text; every other character of categories Cc (C0, DEL, C1) and Cs (lone
# surrogates), and the Unicode line and paragraph separators, is refused.
MULTI_LINE_KEEPS = frozenset("\n\t")
SEPARATORS = frozenset("\u2028\u2029")
_NEWLINES = re.compile(r"\r\n?")


def is_control(character: str) -> bool:
    return character in SEPARATORS or unicodedata.category(character) in ("Cc", "Cs")


def clean(value: str, *, multiline: bool) -> str | None:
    """`value` as stored (line breaks as LF when multi-line), or None if it is refused."""
    if multiline:
        value = _NEWLINES.sub("\n", value)
    allowed = MULTI_LINE_KEEPS if multiline else frozenset()
    if any(is_control(c) and c not in allowed for c in value):
        return None
    return value


# Full-width forms of the ASCII characters (U+FF01-U+FF5E) and the ideographic space, as a
# Japanese keyboard types them: full-width "102938" is the patient ID 102938. Katakana and every
# other Japanese character are left alone (NFKC would also turn half-width katakana into
# full-width and "㈱" into "(株)", which is not ours to change).
_HALF_WIDTH: dict[int, int] = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    0x3000: 0x20
}


def half_width(value: str) -> str:
    """`value` with full-width ASCII forms and the ideographic space as their ASCII selves."""
    return value.translate(_HALF_WIDTH)


def refusal_text() -> str:
    return message(CONTROL_CHARACTERS, "en")


def _validator(multiline: bool) -> AfterValidator:
    def check(value: str) -> str:
        cleaned = clean(value, multiline=multiline)
        if cleaned is None:
            raise PydanticCustomError(CONTROL_CHARACTERS, refusal_text())
        return cleaned

    return AfterValidator(check)


def _check_strings(value: Any) -> Any:
    """Free-form JSON (error details, context): every key and string as multi-line text,
    checked without recursion (the nesting is the sender's to choose), kept as sent."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if clean(item, multiline=True) is None:
                raise PydanticCustomError(CONTROL_CHARACTERS, refusal_text())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
    return value


# Pydantic types of callable inputs; document fields use `clean` directly.
OneLine = Annotated[str, _validator(multiline=False)]
MultiLine = Annotated[str, _validator(multiline=True)]
AnyJson = Annotated[Any, AfterValidator(_check_strings)]


def escape(text: str, *, keep: frozenset[str] = frozenset()) -> str:
    """`text` with every control character (but those in `keep`) written as a \\x, \\u escape,
    so what a log line shows is one line, whatever it quotes."""
    if not any(is_control(c) and c not in keep for c in text):
        return text
    return "".join(
        c if not is_control(c) or c in keep else c.encode("unicode_escape").decode("ascii")
        for c in text
    )
