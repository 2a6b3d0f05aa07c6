"""definition.json, loaded once into typed objects.

The client imports the same file; this module only reads it. Adding a field means editing
definition.json and nothing else.
"""

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Final

_RAW: Final[dict[str, Any]] = json.loads(
    Path(__file__).with_name("definition.json").read_text(encoding="utf-8")
)

OTHER: Final[str] = _RAW["otherValue"]
MAX_DATE_STRING_LENGTH: Final[int] = int(_RAW["maxDateStringLength"])
MESSAGES: Final[dict[str, dict[str, str]]] = _RAW["messages"]
MIN_AGE: Final[int] = int(_RAW["birthDateAges"]["min"])
MAX_AGE: Final[int] = int(_RAW["birthDateAges"]["max"])


@dataclass(frozen=True)
class Era:
    name: str  # 平成
    letter: str  # H
    start: date  # its first day; year 1 (元年) is start.year


ERAS: Final[tuple[Era, ...]] = tuple(
    Era(e["name"], e["letter"], date.fromisoformat(e["start"])) for e in _RAW["eras"]
)


@dataclass(frozen=True)
class Rule:
    """A text rule: a `pattern` to match, or a named `check` ("phone": a number the phone
    library accepts, stored E.164, read in the country answered at `region` when it has no
    "+" and country code)."""

    name: str
    pattern: re.Pattern[str] | None
    trim: bool
    message: dict[str, str]
    check: str | None = None
    region: str | None = None


RULES: Final[dict[str, Rule]] = {
    name: Rule(
        name,
        re.compile(spec["pattern"]) if "pattern" in spec else None,
        bool(spec.get("trim")),
        spec["message"],
        spec.get("check"),
        spec.get("region"),
    )
    for name, spec in _RAW["rules"].items()
}
# What can be chosen: an option marked `retired` (an old answer, e.g. the country "other") is
# still named where it is shown but is no longer accepted.
OPTIONS: Final[dict[str, tuple[Any, ...]]] = {
    name: tuple(option["value"] for option in values if not option.get("retired"))
    for name, values in _RAW["options"].items()
}
# The options of a list that exclude every other ("none"): ticked alone or not at all.
EXCLUSIVE: Final[dict[str, frozenset[Any]]] = {
    name: frozenset(option["value"] for option in values if option.get("exclusive"))
    for name, values in _RAW["options"].items()
}
CONSENT_VERSIONS: Final[frozenset[str]] = frozenset(_RAW["consent"])


@dataclass(frozen=True)
class Case:
    """A field's rule and label while a condition holds (e.g. a person abroad's name)."""

    when: dict[str, Any]
    rule: str | None
    label: dict[str, str] | None


@dataclass(frozen=True)
class Field:
    path: str
    type: str
    required: bool = False
    required_when: dict[str, Any] | None = None
    when: dict[str, Any] | None = None
    options: str | dict[str, str] | None = None
    other: str | None = None
    rule: str | None = None
    max_length: int | None = None
    min: int | None = None
    max: int | None = None
    after: str | None = None
    before: str | None = None
    birth_date: bool = False
    is_list: bool = False
    min_items: int = 0
    max_items: int | None = None
    fields: tuple["Field", ...] = field(default_factory=tuple)
    cases: tuple[Case, ...] = ()

    def option_list(self, category: str) -> str | None:
        """The name of the field's option list for a service category."""
        if isinstance(self.options, dict):
            return self.options.get(category, self.options["default"])
        return self.options

    def option_values(self, category: str) -> tuple[Any, ...]:
        name = self.option_list(category)
        return OPTIONS[name] if name else ()


@dataclass(frozen=True)
class Step:
    id: str
    route: str
    when: dict[str, Any] | None
    fields: tuple[Field, ...]


def _field(spec: dict[str, Any]) -> Field:
    return Field(
        path=spec["path"],
        type=spec["type"],
        required=bool(spec.get("required")),
        required_when=spec.get("requiredWhen"),
        when=spec.get("when"),
        options=spec.get("options"),
        other=spec.get("other"),
        rule=spec.get("rule"),
        max_length=spec.get("maxLength"),
        min=spec.get("min"),
        max=spec.get("max"),
        after=spec.get("after"),
        before=spec.get("before"),
        birth_date=bool(spec.get("birthDate")),
        is_list=bool(spec.get("list")),
        min_items=int(spec.get("minItems", 0)),
        max_items=spec.get("maxItems"),
        fields=tuple(_field(item) for item in spec.get("fields", ())),
        cases=tuple(
            Case(case["when"], case.get("rule"), case.get("label"))
            for case in spec.get("cases", ())
        ),
    )


STEPS: Final[tuple[Step, ...]] = tuple(
    Step(s["id"], s["route"], s.get("when"), tuple(_field(f) for f in s["fields"]))
    for s in _RAW["steps"]
)
FIELDS: Final[dict[str, Field]] = {f.path: f for step in STEPS for f in step.fields}

# The words of the questionnaire, for exports that carry them (realtime/intake/fhir.py): step
# titles by step id, field labels by path (a repeater's fields as "<repeater>.<field>"), and
# option labels by option list and value.
Text = dict[str, str]
STEP_TITLES: Final[dict[str, Text]] = {s["id"]: s.get("title", {}) for s in _RAW["steps"]}
FIELD_LABELS: Final[dict[str, Text]] = {
    path: spec.get("label", {})
    for step in _RAW["steps"]
    for top in step["fields"]
    for path, spec in [
        (top["path"], top),
        *((f"{top['path']}.{item['path']}", item) for item in top.get("fields", ())),
    ]
}
OPTION_LABELS: Final[dict[str, list[tuple[Any, Text]]]] = {
    name: [(option["value"], option.get("label", {})) for option in values]
    for name, values in _RAW["options"].items()
}


def message(key: str, locale: str = "en", **values: object) -> str:
    text = MESSAGES[key][locale]
    for name, value in values.items():
        text = text.replace("{{" + name + "}}", str(value))
    return text
