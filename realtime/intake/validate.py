"""Server-side validation of intake answers against the one definition.

Every value is checked by its field's type, options, rule, length, number range and date
bounds; relative dates ("today", "+300d") are days in the clinic's timezone. Whether a field
is asked (`when`) does not matter when saving; it matters for what is missing at review.
A field's `cases` choose its rule by other answers (a person abroad's name and phone): they
are read in the answers as they will be after the update (IntakeContext.answers).

Typed values are read as a Japanese keyboard types them: a text with a rule (patient ID,
codes, phone, e-mail) has its full-width letters and digits made half-width before the rule,
and a date may come in the typed forms of realtime/intake/typed_dates.py; what is stored is
the normalised value (the half-width text, the ISO date).
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import phonenumbers

from realtime.days import in_range
from realtime.intake.definition import (
    EXCLUSIVE,
    FIELDS,
    MAX_AGE,
    MAX_DATE_STRING_LENGTH,
    MIN_AGE,
    OPTION_LABELS,
    OTHER,
    RULES,
    STEPS,
    Field,
    Rule,
    message,
)
from realtime.intake.typed_dates import parse_typed_date, years_before
from realtime.nested import set_nested
from realtime.text import CONTROL_CHARACTERS, clean, half_width

RELATIVE_DAYS = re.compile(r"^\+(\d{1,4})d$")


class Problem(Exception):
    """A refused value: a message key (rule name or messages key) and its English text."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


@dataclass(frozen=True)
class IntakeContext:
    category: str  # prenatal | pgt | cancer
    today: date  # in the clinic's timezone
    # The appointment document's data ({"intake": ..., "patientRole": ...}) as it will be
    # after the update: what `cases` and a phone's country are read in.
    answers: dict[str, Any] | None = None

    def after(self, changes: dict[str, Any]) -> "IntakeContext":
        """The context with an update's values (by dot-separated path) applied to answers."""
        answers = dict(self.answers or {})
        for path, value in changes.items():
            answers = set_nested(answers, str(path).split("."), value)
        return replace(self, answers=answers)


def resolve_date(token: str, today: date) -> date:
    if token == "today":
        return today
    relative = RELATIVE_DAYS.fullmatch(token)
    if relative:
        return today + timedelta(days=int(relative.group(1)))
    return date.fromisoformat(token)


def _fail(code: str, **values: object) -> Problem:
    return Problem(code, message(code, "en", **values))


def _phone(rule: Rule, text: str, context: IntakeContext) -> str:
    """A phone number the library accepts, as E.164 (the answer at `rule.region` is the
    country a number without "+" is read in)."""
    region = value_at(context.answers or {}, rule.region) if rule.region else None
    try:
        number = phonenumbers.parse(text, region if isinstance(region, str) else None)
    except phonenumbers.NumberParseException:
        raise Problem(rule.name, rule.message["en"]) from None
    # An extension has no place in E.164: refused rather than dropped without a word.
    if number.extension or not phonenumbers.is_valid_number(number):
        raise Problem(rule.name, rule.message["en"])
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _text(field: Field, answer: Any, context: IntakeContext) -> str | None:
    if not isinstance(answer, str):
        raise _fail("mustBeText")
    value = clean(answer, multiline=field.type == "textarea")  # the one text rule
    if value is None:
        raise _fail(CONTROL_CHARACTERS)
    rule = RULES[field.rule] if field.rule else None
    if rule is not None:  # a typed value: full-width "102938" is 102938; free text stays
        value = half_width(value)
    if not value.strip():
        if rule is not None and rule.trim:  # customAlphanumeric: at least one character
            raise Problem(rule.name, rule.message["en"])
        return None  # otherwise whitespace only is no answer
    checked = stored = value
    if rule is not None:  # the rule's own message first ("Invalid code" for 5 characters)
        checked = stored = value.strip() if rule.trim else value
        if rule.pattern is not None and not rule.pattern.fullmatch(checked):
            raise Problem(rule.name, rule.message["en"])
        if rule.check == "phone":
            stored = _phone(rule, checked, context)
    if field.max_length is not None and len(checked) > field.max_length:
        raise _fail("tooLong", max=field.max_length)
    return stored


def _number(field: Field, value: Any) -> int:
    low, high = field.min or 0, field.max if field.max is not None else 10**6
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail("numberRange", min=low, max=high)
    return value


def _date(field: Field, value: Any, today: date) -> str:
    if not isinstance(value, str) or len(value) > MAX_DATE_STRING_LENGTH:
        raise _fail("invalidDate")
    day = parse_typed_date(value)
    if day is None:
        raise _fail("invalidDate")
    if field.birth_date:  # an age no one has (1850-01-01, or this year) is a typing mistake
        if not day > years_before(today, MAX_AGE + 1):
            raise _fail("ageTooOld", max=MAX_AGE)
        if not day <= years_before(today, MIN_AGE):
            raise _fail("ageTooYoung", min=MIN_AGE)
    if not in_range(day):
        raise _fail("invalidDate")
    if field.after is not None:
        bound = resolve_date(field.after, today)
        if not day > bound:
            raise _fail("dateAfter", date=bound.isoformat())
    if field.before is not None:
        bound = resolve_date(field.before, today)
        if not day <= bound:
            raise _fail("dateBefore", date=bound.isoformat())
    return day.isoformat()


def _choice(field: Field, value: Any, category: str) -> Any:
    if isinstance(value, bool) or value not in field.option_values(category):
        raise _fail("invalidOption")
    return value


def _choices(field: Field, value: Any, category: str) -> list[Any]:
    allowed = field.option_values(category)
    if not isinstance(value, list) or len(value) > len(allowed):
        raise _fail("invalidOption")
    if any(isinstance(v, bool) or v not in allowed for v in value) or len(
        set(map(str, value))
    ) != len(value):
        raise _fail("invalidOption")
    name = field.option_list(category)
    alone = [v for v in value if name and v in EXCLUSIVE[name]]
    if alone and len(value) > 1:  # "none" with tests taken says two things
        label = next(text for v, text in OPTION_LABELS[name or ""] if v == alone[0])
        raise _fail("exclusiveOption", option=label["en"])
    return value


def _items(field: Field, value: Any, context: IntakeContext) -> list[dict[str, Any]]:
    if not isinstance(value, list) or any(not isinstance(item, dict) for item in value):
        raise _fail("invalidOption")
    if field.max_items is not None and len(value) > field.max_items:
        raise _fail("tooMany", max=field.max_items)
    by_name = {f.path: f for f in field.fields}
    cleaned: list[dict[str, Any]] = []
    for index, item in enumerate(value):
        out: dict[str, Any] = {}
        for name, answer in item.items():
            inner = by_name.get(name)
            if inner is None:
                raise Problem("notWritable", f"Item {index}: unknown field {name}.")
            try:
                out[name] = None if answer is None else check(inner, answer, context)
            except Problem as problem:
                raise Problem(problem.code, f"Item {index + 1}, {name}: {problem.text}") from None
        cleaned.append(out)
    return cleaned


def check(field: Field, value: Any, context: IntakeContext) -> Any:
    """The value to store for a non-null answer, or Problem."""
    kind = field.type
    if kind in ("text", "textarea"):
        return _text(field, value, context)
    if kind == "number":
        return _number(field, value)
    if kind == "date":
        return _date(field, value, context.today)
    if kind in ("radio", "select", "scale"):
        return _choice(field, value, context.category)
    if kind in ("checkbox", "combobox"):
        return _choices(field, value, context.category)
    if kind == "repeater":
        return _items(field, value, context)
    raise AssertionError(f"unknown field type {kind}")


def resolved(field: Field, data: dict[str, Any], category: str) -> Field:
    """The field with the rule of its first case whose condition holds in `data`."""
    for case in field.cases:
        if holds(case.when, data, category):
            return replace(field, rule=case.rule or field.rule, cases=())
    return field


def check_path(path: str, value: Any, context: IntakeContext) -> Any:
    """Validate the answer at a definition path (None clears it)."""
    field = FIELDS.get(path)
    if field is None:
        raise Problem("notWritable", "This field cannot be changed.")
    if value is None:
        return None
    return check(resolved(field, context.answers or {}, context.category), value, context)


def _depends_on(field: Field, paths: set[str]) -> bool:
    rules = {field.rule, *(case.rule for case in field.cases)}
    regions = {RULES[name].region for name in rules if name is not None}
    return any(case.when.get("field") in paths for case in field.cases) or bool(regions & paths)


def dependent_problems(changed: set[str], context: IntakeContext) -> dict[str, Problem]:
    """Stored answers that an update's other answers make wrong (a katakana name kept when
    the country becomes one abroad), by path: the update is refused naming them, as the
    client's step check does. Answers the update itself sends are checked on their own."""
    data = context.answers or {}
    problems: dict[str, Problem] = {}
    for step in STEPS:
        for field in step.fields:
            if field.path in changed or not _depends_on(field, changed):
                continue
            value = value_at(data, field.path)
            if value is None or not holds(field.when, data, context.category):
                continue
            try:
                check_path(field.path, value, context)
            except Problem as problem:
                problems[field.path] = problem
    return problems


# What is missing at review -------------------------------------------------------------


def value_at(data: dict[str, Any], path: str) -> Any:
    current: Any = data
    for part in path.split("."):
        if not isinstance(current, dict):
            return None
        current = current.get(part)
    return current


def holds(
    condition: dict[str, Any] | None,
    data: dict[str, Any],
    category: str,
    answer_at: Callable[[str], Any] | None = None,
) -> bool:
    """A condition on the answers (`answer_at` may hide the answers of hidden fields)."""
    if condition is None:
        return True
    if "service" in condition:
        return category in condition["service"]
    answer = (answer_at or (lambda path: value_at(data, path)))(condition["field"])
    if "contains" in condition:
        return isinstance(answer, list) and condition["contains"] in answer
    if "notIn" in condition:  # answered, and not one of them
        return answer is not None and answer not in condition["notIn"]
    if isinstance(answer, list):  # a list answer: when any of its entries is one of them
        return any(entry in condition["in"] for entry in answer)
    return answer in condition["in"]


class _Shown:
    """Which fields of a list (a step's, an item's) are asked, as the browser decides it
    (client/src/intake/conditions.ts): a field's `when` holds, and a field named as another's
    `other` is asked only while that one is asked and holds "other". An answer of a field
    that is not asked counts as no answer: "No" to an earlier pregnancy hides its tests even
    where they were answered before. A condition may name a field of another step."""

    def __init__(self, siblings: tuple[Field, ...], data: dict[str, Any], category: str) -> None:
        self.by_path = {f.path: f for f in siblings}
        self.parents = {f.other: f for f in siblings if f.other}
        self.data = data
        self.category = category

    def _answer(self, path: str, seen: frozenset[str]) -> Any:
        referred = self.by_path.get(path)
        if referred is not None and not self.asked(referred, seen):
            return None
        if referred is None and path in FIELDS:  # a field of another step
            step = _Shown(_STEP_FIELDS[path], self.data, self.category)
            if not step.asked(FIELDS[path], seen):
                return None
        return value_at(self.data, path)

    def _holds(self, condition: dict[str, Any] | None, seen: frozenset[str]) -> bool:
        return holds(condition, self.data, self.category, lambda path: self._answer(path, seen))

    def asked(self, field: Field, seen: frozenset[str] = frozenset()) -> bool:
        if field.path in seen:  # a cycle in the definition: never asked
            return False
        trail = seen | {field.path}
        if not self._holds(field.when, trail):
            return False
        parent = self.parents.get(field.path)
        if parent is None:
            return True
        chosen = value_at(self.data, parent.path)
        has_other = OTHER in chosen if isinstance(chosen, list) else chosen == OTHER
        return has_other and self.asked(parent, trail)

    def required(self, field: Field) -> bool:
        if not self.asked(field):
            return False
        when = field.required_when
        return field.required or (when is not None and self._holds(when, frozenset({field.path})))


_STEP_FIELDS: dict[str, tuple[Field, ...]] = {f.path: s.fields for s in STEPS for f in s.fields}


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == []


def _missing_fields(fields: tuple[Field, ...], data: dict[str, Any], category: str) -> list[str]:
    missing: list[str] = []
    shown = _Shown(fields, data, category)
    for field in fields:
        if not shown.asked(field):
            continue
        needed = shown.required(field)
        answer = value_at(data, field.path)
        if field.type == "repeater":
            items = answer if isinstance(answer, list) else []
            if needed and len(items) < max(1, field.min_items):
                missing.append(field.path)
            for index, item in enumerate(items):
                inner = _missing_fields(
                    field.fields, item if isinstance(item, dict) else {}, category
                )
                missing += [f"{field.path}.{index}.{name}" for name in inner]
        elif needed and _empty(answer):
            missing.append(field.path)
    return missing


def missing_answers(appointment: dict[str, Any], category: str) -> dict[str, list[str]]:
    """Step id -> paths of required answers still missing, for the steps that apply."""
    result: dict[str, list[str]] = {}
    for step in STEPS:
        if not holds(step.when, appointment, category):
            continue
        missing = _missing_fields(step.fields, appointment, category)
        if missing:
            result[step.id] = missing
    return result
