"""An appointment's answers as a FHIR R4 QuestionnaireResponse (docs/protocol.md, "Staff
reading and acting"), validated with `fhir.resources` (its R4B models: FHIR 4.3, whose
QuestionnaireResponse is R4's).

Items follow definition.json: one group per step, one item per answered field (`linkId` the
field's path), a repeater's entries as repeated groups. Options are Codings (`system` names
the option list, `code` the stored value, `display` its label in `locale`), dates are
valueDate, numbers valueInteger or valueDecimal, the rest valueString.
"""

import re
from typing import Any

from fhir.resources.R4B.questionnaireresponse import QuestionnaireResponse

from realtime.intake.definition import (
    FIELD_LABELS,
    OPTION_LABELS,
    STEP_TITLES,
    STEPS,
    Field,
)
from realtime.intake.validate import holds

OPTION_SYSTEM = "urn:genecounsel:intake:options:"
APPOINTMENT_SYSTEM = "urn:genecounsel:appointment"
FHIR_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")
# Appointment status -> QuestionnaireResponse.status
STATUS = {
    "draft": "in-progress",
    "pending_payment": "completed",
    "confirmed": "completed",
    "completed": "completed",
    "no_show": "completed",
    "cancelled": "stopped",
    "expired": "stopped",
}


def _value_at(data: dict[str, Any], path: str) -> Any:
    value: Any = data
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def option_list_of(field: Field, category: str) -> str | None:
    """The name of a field's option list for a service category (None: no options)."""
    if isinstance(field.options, dict):
        return field.options.get(category, field.options.get("default"))
    return field.options


def words_in(words: dict[str, str], locale: str) -> str | None:
    """A text of the definition in `locale` (else the other language; None: none)."""
    return words.get(locale) or words.get("ja") or words.get("en") or None


def option_text(options: str, value: Any, locale: str) -> str | None:
    """The label of an option value of a list in `locale` (None: not an option of it)."""
    for known, label in OPTION_LABELS.get(options, []):
        # repr: the option 1 is not the option "1" (nor True)
        if repr(known) == repr(value):
            return words_in(label, locale)
    return None


def _answers(field: Field, value: Any, category: str, locale: str) -> list[dict[str, Any]]:
    values = value if isinstance(value, list) else [value]
    values = [v for v in values if v is not None and v != ""]
    options = option_list_of(field, category)
    answers: list[dict[str, Any]] = []
    for one in values:
        if options is not None and not isinstance(one, dict):
            coding: dict[str, Any] = {"system": OPTION_SYSTEM + options, "code": str(one)}
            display = option_text(options, one, locale)
            if display:
                coding["display"] = display
            answers.append({"valueCoding": coding})
        elif isinstance(one, bool):
            answers.append({"valueBoolean": one})
        elif isinstance(one, int):
            answers.append({"valueInteger": one})
        elif isinstance(one, float):
            answers.append({"valueDecimal": one})
        elif isinstance(one, str) and field.type == "date" and FHIR_DATE.fullmatch(one):
            answers.append({"valueDate": one})
        elif isinstance(one, str):
            answers.append({"valueString": one})
    return answers


def _label(field: Field, data: dict[str, Any], category: str) -> dict[str, str]:
    """The field's label as it was asked: its first case that holds (a person abroad's name
    is not "(katakana)"), else its own."""
    for case in field.cases:
        if case.label and holds(case.when, data, category):
            return case.label
    return FIELD_LABELS.get(field.path, {})


def _item(link_id: str, text: str | None, **rest: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"linkId": link_id}
    if text:
        item["text"] = text
    return {**item, **rest}


def _field_items(
    field: Field, data: dict[str, Any], category: str, locale: str
) -> list[dict[str, Any]]:
    value = _value_at(data, field.path)
    label = words_in(_label(field, data, category), locale)
    if field.fields:  # a repeater: one group per entry
        groups = []
        for entry in value if isinstance(value, list) else []:
            if not isinstance(entry, dict):
                continue
            inner = [
                _item(
                    f"{field.path}.{sub.path}",
                    words_in(FIELD_LABELS.get(f"{field.path}.{sub.path}", {}), locale),
                    answer=answers,
                )
                for sub in field.fields
                if (answers := _answers(sub, entry.get(sub.path), category, locale))
            ]
            if inner:
                groups.append(_item(field.path, label, item=inner))
        return groups
    answers = _answers(field, value, category, locale)
    return [_item(field.path, label, answer=answers)] if answers else []


def questionnaire_response(
    document: dict[str, Any], *, category: str, locale: str
) -> dict[str, Any]:
    """The QuestionnaireResponse of an appointment document's data (realtime/collections.py
    appointment_data), validated; raises if the built resource is not valid FHIR."""
    groups = []
    for step in STEPS:
        items = [
            item
            for field in step.fields
            for item in _field_items(field, document, category, locale)
        ]
        if items:
            groups.append(
                _item(step.id, words_in(STEP_TITLES.get(step.id, {}), locale), item=items)
            )
    resource: dict[str, Any] = {
        "resourceType": "QuestionnaireResponse",
        # No `id`: appointment ids may hold `_`, which a FHIR id may not; the identifier
        # carries the appointment's id as it is.
        "identifier": {"system": APPOINTMENT_SYSTEM, "value": document["id"]},
        "questionnaire": f"Questionnaire/{document['serviceId']}",
        "status": STATUS.get(document["status"], "in-progress"),
    }
    authored = document.get("updated") or document.get("created")
    if authored:
        resource["authored"] = authored
        resource["meta"] = {"lastUpdated": authored}
    if groups:
        resource["item"] = groups
    validated = QuestionnaireResponse.model_validate(resource)
    wire: dict[str, Any] = validated.model_dump(mode="json", exclude_none=True)
    return wire
