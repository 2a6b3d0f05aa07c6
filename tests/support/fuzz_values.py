"""Hypothesis strategies for the fuzz suite: hostile JSON, callable inputs, intake updates.

Inputs are built from the real input models (the pydantic models of realtime/dispatch.py's
REGISTRY, read through their JSON schema) and from the questionnaire definition
(realtime/intake/definition.json), so a new function or field is fuzzed without editing
this file. Every value is either valid-shaped (what a careful client sends) or hostile
(wrong types, huge or empty strings, control characters, unicode, deep nesting, extreme
dates, extra keys, null).

Ids that only exist at run time (the fuzzing account's appointment, another person's) are
`Ref` markers, resolved just before sending; deep nesting is a `Deep` marker, written by
`dumps` as raw text (Python's own encoder would hit its recursion limit first).
"""

import enum
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from hypothesis import strategies as st
from pydantic import BaseModel

from realtime.intake.definition import CONSENT_VERSIONS, FIELDS, OPTIONS, Field
from realtime.writable import WRITABLE

Strategy = st.SearchStrategy[Any]


class Ref(enum.Enum):
    """A value known only at run time, resolved per example (see tests/support/fuzz_target)."""

    OWN_APPOINTMENT = "own appointment id"
    OTHER_APPOINTMENT = "another person's appointment id"
    OWN_UID = "own uid"
    OTHER_UID = "another person's uid"
    OTHER_TOKEN = "another person's bearer token"
    OWN_APPOINTMENT_PATH = "appointments/<own>"
    OTHER_APPOINTMENT_PATH = "appointments/<other's>"
    OWN_USER_PATH = "users/<own uid>"
    OTHER_USER_PATH = "users/<other's uid>"


@dataclass(frozen=True)
class Deep:
    """JSON nested `depth` levels (as arrays or objects), sent as raw text."""

    depth: int
    kind: Literal["list", "object"]

    def text(self) -> str:
        if self.kind == "list":
            return "[" * self.depth + "]" * self.depth
        return '{"a":' * self.depth + "1" + "}" * self.depth


def resolve(value: Any, refs: Mapping[Ref, str]) -> Any:
    """`value` with every Ref replaced by its current string (Deep markers are kept)."""
    if isinstance(value, Ref):
        return refs[value]
    if isinstance(value, dict):
        return {resolve(k, refs): resolve(v, refs) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(resolve(item, refs) for item in value)
    return value


def dumps(value: Any, **options: Any) -> str:
    """JSON text of `value`, NaN/Infinity and lone surrogates included, Deep markers raw."""
    deep: dict[str, Deep] = {}
    marker = f"deep-{secrets.token_hex(8)}-"

    def default(item: object) -> object:
        if isinstance(item, Deep):
            key = f"{marker}{len(deep)}"
            deep[key] = item
            return key
        raise TypeError(f"not JSON: {item!r}")

    text = json.dumps(value, default=default, **options)
    for key, item in deep.items():
        text = text.replace(json.dumps(key), item.text())
    return text


class DeepJSON:
    """A json module for python-socketio's packets that writes Deep markers raw."""

    dumps = staticmethod(dumps)
    loads = staticmethod(json.loads)


# Strings that broke, or could break, something: control characters (NUL, CR/LF), lone
# surrogates, invisible unicode, injection-looking text, extremes of dates.
EDGE_STRINGS = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\r\n",
    "Name\r\nBcc: evil@example.com",
    "line\nInjected: log line",
    "\t",
    "\x1b[31m",
    "\x7f",
    "\u0085",
    "\u2028",
    "\ufeff",
    "\u202e",
    "\ud800",
    "\udfff",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀",
    "ヤマダ",
    "'; DROP TABLE users; --",
    "%s%s%n",
    "{{7*7}}",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "9999-12-31",
    "0001-01-01",
    "0000-00-00",
    "-0001-01-01",
    "+10000-01-01",
    "2026-02-30",
    "２０２６-０１-０１",
    "null",
    "true",
    "NaN",
)
CONTROL_CHARACTERS = ("\x00", "\r", "\n", "\r\n", "\x0b", "\x1b", "\x7f", "\u0085", "\u2028")
REPEATED = ("a", "é", "𝔘", "\x00", "\n", " ", "9")
LENGTHS = (1, 2, 64, 65, 201, 255, 1001, 5001, 8001, 20000)
EXTREME_NUMBERS = (0, -1, 1, 2**31, 2**53 + 1, 2**63, 2**64, -(2**63) - 1, 10**30, 1.5, -0.0)
DEEP = st.builds(Deep, st.sampled_from((100, 1000, 5000, 20000)), st.just("list")) | st.builds(
    Deep, st.sampled_from((100, 1000, 5000, 9000)), st.just("object")
)


def hostile_text(max_length: int | None = None) -> Strategy:
    lengths = (*LENGTHS, *((max_length, max_length + 1) if max_length else ()))
    return st.one_of(
        st.sampled_from(EDGE_STRINGS),
        st.builds(lambda c, n: c * n, st.sampled_from(REPEATED), st.sampled_from(lengths)),
        st.text(max_size=30),  # any unicode, control characters included
        st.builds(
            lambda a, c, b: a + c + b,
            st.text(max_size=8),
            st.sampled_from(CONTROL_CHARACTERS),
            st.text(max_size=8),
        ),
    )


SCALARS: Strategy = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(EXTREME_NUMBERS),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text(),
)
KEYS = st.sampled_from(("", "__proto__", "constructor", "$where", "a.b", "data", "name")) | st.text(
    max_size=12
)
JSON: Strategy = st.one_of(
    st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
        max_leaves=8,
    ),
    DEEP,
)


def _shifted(day: date, days: int) -> date:
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return date.max if days > 0 else date.min


# Every date of one example lies near one anchor day (st.shared), so that a range such as
# vacancies-read's from/to is both well-formed and at the calendar's edges often enough.
ANCHOR = st.shared(
    st.one_of(
        st.sampled_from((date.max, date(9999, 12, 1), date.min, date.today())),
        st.dates(),
    ),
    key="tests.support.fuzz_values.anchor",
)
NEAR_ANCHOR = st.builds(_shifted, ANCHOR, st.integers(-40, 40))


def iso_days() -> Strategy:
    return NEAR_ANCHOR.map(date.isoformat)


def iso_moments() -> Strategy:
    offsets = st.sampled_from(("Z", "+00:00", "+09:00", "-12:00", "+14:00"))
    return st.builds(
        lambda day, at, offset: f"{day.isoformat()}T{at.isoformat()}{offset}",
        NEAR_ANCHOR,
        st.times(),
        offsets,
    )


HOSTILE_DAYS = ("2026-02-30", "٢٠٢٦-٠١-٠١", "2026-1-1", "2026-12-01T10:00:00", "+10000-01-01")


# Valid-shaped values of input fields by name: what makes a call reach the handler's work.
SERVICE_IDS = ("cancer", "prenatal", "pgt", "prenatal-b2c", "prenatal-b2b", "pgt-post", "x")
KNOWN_BY_NAME: dict[str, Callable[[], Strategy]] = {
    "appointmentId": lambda: st.sampled_from((Ref.OWN_APPOINTMENT, Ref.OTHER_APPOINTMENT)),
    "clinicId": lambda: st.sampled_from(("demo-clinic", "no-such-clinic")),
    "serviceId": lambda: st.sampled_from(SERVICE_IDS),
    "id": lambda: st.sampled_from(("demo-clinic", *SERVICE_IDS)),
    "counselorId": lambda: st.sampled_from(("c-sato", "c-brown", "c-tanaka", "any", "c-nobody")),
    "from": iso_days,
    "to": iso_days,
    "start": iso_moments,
    "version": lambda: st.sampled_from((*sorted(CONSENT_VERSIONS), "2000-01")),
    "sessionId": lambda: st.sampled_from(("cs_test_fuzz", "cs_" + "a" * 250)),
    "email": lambda: (
        st.sampled_from(("hanako@example.jp", "X@Example.COM", "x@example.com.")) | st.emails()
    ),
    "hostname": lambda: st.sampled_from(("localhost", "example.com", "a" * 253)),
    "reason": lambda: st.sampled_from(("Changed my plans.", "都合により")),
    "name": lambda: st.sampled_from(("Hanako", "山田 花子")),
    "message": lambda: st.sampled_from(("Hello.", "質問があります。")),
    "description": lambda: st.sampled_from(("TypeError: x is undefined", "")),
    "userAgent": lambda: st.just("Mozilla/5.0"),
    "route": lambda: st.just("/b/clinic"),
    "code": lambda: st.sampled_from(("unknown", "network")),
}


def splice(value: Any, inserted: str, at: int) -> Any:
    """`inserted` put into a string value (other values as they are)."""
    if not isinstance(value, str):
        return value
    at = min(at, len(value))
    return value[:at] + inserted + value[at:]


def spoiled(valid: Strategy) -> Strategy:
    """A bad value in the place of a valid one: the valid one with a control character or a
    line break in it, an edge string, or anything else."""
    return st.one_of(
        *[st.builds(splice, valid, st.sampled_from(CONTROL_CHARACTERS), st.integers(0, 20))] * 3,
        hostile_text(),
        st.sampled_from(HOSTILE_DAYS),
        SCALARS,
        JSON,
    )


def from_schema(schema: Mapping[str, Any], defs: Mapping[str, Any], *, hostile: bool) -> Strategy:
    """Values for a JSON schema node of a pydantic model.

    Valid-shaped (`hostile=False`), or (`hostile=True`) valid-shaped but for one spoiled
    property, or with extra keys, or with required keys missing: one bad thing at a time, so
    that the rest reaches the handler and storage.
    """
    if "$ref" in schema:
        return from_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, hostile=hostile)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return st.one_of([from_schema(s, defs, hostile=hostile) for s in schema[union]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        return _object(schema, defs, hostile=hostile)
    if kind == "string":
        return _string(schema)
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        return st.integers(-5, 1000)
    if kind == "null":
        return st.none()
    return JSON  # Any: free JSON


def _string(schema: Mapping[str, Any]) -> Strategy:
    max_length = schema.get("maxLength")
    if "pattern" in schema:
        shaped = st.from_regex(schema["pattern"], fullmatch=True)
        return shaped.filter(lambda s: len(s) <= max_length) if max_length else shaped
    return st.text(max_size=min(max_length or 50, 50))


def _object(schema: Mapping[str, Any], defs: Mapping[str, Any], *, hostile: bool) -> Strategy:
    valid: dict[str, Strategy] = {}
    bad: dict[str, Strategy] = {}
    for name, sub in schema.get("properties", {}).items():
        shaped = from_schema(sub, defs, hostile=False)
        known = KNOWN_BY_NAME.get(name)
        valid[name] = known() if known else shaped  # known values reach the handler's work
        bad[name] = spoiled(valid[name]) | from_schema(sub, defs, hostile=True)
    required = set(schema.get("required", ()))

    def shaped_with(spoilt: str | None) -> Strategy:
        """Every property (optional ones too, so the input is complete), one of them bad."""
        return st.fixed_dictionaries({k: bad[k] if k == spoilt else v for k, v in valid.items()})

    sparse = st.fixed_dictionaries(
        {k: v for k, v in valid.items() if k in required},
        optional={k: v for k, v in valid.items() if k not in required},
    )
    if not hostile:
        return shaped_with(None) | sparse
    extra = st.dictionaries(KEYS, JSON, min_size=1, max_size=2)
    return st.one_of(
        *(shaped_with(name) for name in sorted(valid)),
        st.tuples(shaped_with(None), extra).map(lambda pair: {**pair[1], **pair[0]}),
        st.fixed_dictionaries({}, optional=valid),  # required keys may be missing
    )


def callable_input(model: type[BaseModel] | None) -> Strategy:
    """The `data` of a call: valid-shaped for the function's input model, or that with one
    bad thing, or any JSON at all."""
    if model is None:
        return JSON
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    return st.one_of(
        from_schema(schema, defs, hostile=False),
        from_schema(schema, defs, hostile=True),
        from_schema(schema, defs, hostile=True),
        JSON,
    )


# The questionnaire: one strategy of values per field path of definition.json.
def _options(field: Field) -> tuple[Any, ...]:
    if isinstance(field.options, dict):
        return tuple(v for name in field.options.values() for v in OPTIONS[name])
    return OPTIONS[field.options] if field.options else ()


def _shaped(field: Field) -> Strategy:
    options = _options(field)
    if field.type in ("radio", "select", "scale") and options:
        return st.sampled_from(options)
    if field.type in ("checkbox", "combobox") and options:
        return st.lists(st.sampled_from(options), max_size=len(options) + 1)
    if field.type == "number":
        low, high = field.min or 0, field.max if field.max is not None else 100
        return st.integers(low - 2, high + 2)
    if field.type == "date":
        return iso_days()
    if field.type == "repeater":
        item = st.fixed_dictionaries(
            {}, optional={sub.path: intake_value(sub) for sub in field.fields}
        )
        return st.lists(item, max_size=(field.max_items or 5) + 1)
    if field.rule:
        return st.sampled_from(("ヤマダ", "03-1234-5678", "AB12", "P123", "hanako@example.jp"))
    return st.text(max_size=min(field.max_length or 50, 50))


def intake_value(field: Field) -> Strategy:
    return st.one_of(_shaped(field), spoiled(_shaped(field)), hostile_text(field.max_length))


HOSTILE_FIELD_PATHS = (
    "",
    "intake",
    "intake.",
    "intake..contactInfo",
    "intake.contactInfo",
    "intake.contactInfo.phone.more",
    "intake.familyMembers.0.side",
    "intake.__proto__.x",
    "status",
    "payment",
    "version",
    "updated",
    "id",
    "joinUrl",
    "intake.contactInfo.phone\n",
    "a" * 300,
)


def _entry(path: str, value: Strategy) -> Strategy:
    return st.tuples(st.just(path), value)


UPDATE_ENTRIES: Strategy = st.one_of(
    *(_entry(path, intake_value(field)) for path, field in sorted(FIELDS.items())),
    *(
        _entry(path, st.sampled_from(("ja", "en", True, "Mozilla/5.0")) | spoiled(st.just("x")))
        for collection in WRITABLE.values()
        for path in collection
    ),
    st.tuples(st.sampled_from(HOSTILE_FIELD_PATHS) | KEYS, JSON),
)
DOCUMENT_PATHS: Strategy = st.one_of(
    st.sampled_from(list(Ref)[5:]),
    st.sampled_from(
        (
            "vacancies/demo-clinic/cancer-b2b/2026-12",
            "vacancies/demo-clinic/cancer-b2b/9999-12",
            "vacancies/demo-clinic/cancer-b2b/0001-01",
            "vacancies/demo-clinic/cancer-b2b/2026-13",
            "clinics/demo-clinic/bookings",
            "clinics/demo-clinic/presence",
            "clinics/demo-clinic/audit",
            "appointments/",
            "appointments/x/y",
            "users/../appointments/x",
            "session:x",
        )
    ),
    hostile_text(),
    SCALARS,
)


def update_payload() -> Strategy:
    """An `update` event's payload: mostly the person's own appointment, every field path."""
    one = UPDATE_ENTRIES.map(lambda entry: dict([entry]))  # one field: stored unless refused
    data = st.one_of(one, one, st.lists(UPDATE_ENTRIES, max_size=4).map(dict), JSON)
    mine = st.sampled_from((Ref.OWN_APPOINTMENT_PATH, Ref.OWN_USER_PATH))
    return st.fixed_dictionaries(
        {"path": st.one_of(mine, mine, DOCUMENT_PATHS), "data": data},
        optional={"baseVersion": st.integers(-1, 3) | SCALARS},
    ) | st.fixed_dictionaries({}, optional={"path": DOCUMENT_PATHS, "data": JSON})
