"""A service's questionnaire as a FHIR R4 Questionnaire (docs/protocol.md, "Staff reading and
acting"), validated with `fhir.resources` (its R4B models: FHIR 4.3, whose Questionnaire is
R4's).

It is the definition (definition.json) as the service's category sees it, with the same
`linkId`s as the QuestionnaireResponse of realtime/intake/fhir.py, so that an exported answer
set can be read against it: one group per step that applies to the category (`linkId` the
step id), one item per field that applies (`linkId` the field's path; a repeater's fields
`<repeater path>.<field path>`), options as `answerOption` Codings in the response's
systems. A field's `when` on another answer becomes `enableWhen` (any of the values), and so
does the "other" free text of a field with an "Other" option. `requiredWhen` has no plain
FHIR form: such fields are left optional here, and the server's validation stays the rule.
"""

import re
from typing import Any

from fhir.resources.R4B.questionnaire import Questionnaire

from realtime.intake.definition import FIELD_LABELS, FIELDS, OTHER, STEP_TITLES, STEPS, Field
from realtime.intake.fhir import OPTION_SYSTEM, option_list_of, option_text, words_in

SERVICE_SYSTEM = "urn:genecounsel:service"
FHIR_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")
# definition.json field type -> Questionnaire.item.type
ITEM_TYPES = {
    "text": "string",
    "textarea": "text",
    "number": "integer",
    "date": "date",
    "radio": "choice",
    "select": "choice",
    "scale": "choice",
    "checkbox": "choice",
    "combobox": "choice",
    "repeater": "group",
}
MULTIPLE = frozenset({"checkbox", "combobox", "repeater"})


def _applies(condition: dict[str, Any] | None, category: str) -> bool:
    """A condition on the service category (the only kind known without the answers)."""
    return condition is None or "service" not in condition or category in condition["service"]


def _coding(options: str, value: Any, locale: str) -> dict[str, Any]:
    coding: dict[str, Any] = {"system": OPTION_SYSTEM + options, "code": str(value)}
    display = option_text(options, value, locale)
    if display:
        coding["display"] = display
    return coding


def _enable_when(
    condition: dict[str, Any] | None,
    prefix: str,
    by_path: dict[str, Field],
    category: str,
    locale: str,
) -> list[dict[str, Any]]:
    """`when` on another answer as enableWhen items, one per accepted value (any of them).
    The answer is a sibling field's (inside a repeater) or any step's field."""
    if condition is None or "field" not in condition:
        return []
    name = condition["field"]
    sibling = by_path.get(name)
    source = sibling or FIELDS.get(name)
    options = option_list_of(source, category) if source is not None else None
    # notIn: "!=" the one value it names (the definition's notIn lists one: the country JP)
    operator = "!=" if "notIn" in condition else "="
    values = condition.get("in") or condition.get("notIn") or [condition["contains"]]
    question = prefix + name if sibling is not None else name
    return [
        {
            "question": question,
            "operator": operator,
            "answerCoding": _coding(options, value, locale),
        }
        if options is not None
        else {"question": question, "operator": operator, "answerInteger": value}
        for value in values
        if options is not None or isinstance(value, int)
    ]


def _items(
    fields: tuple[Field, ...], prefix: str, category: str, locale: str
) -> list[dict[str, Any]]:
    """The items of sibling fields (a step's, or a repeater's with `prefix` its path + ".")."""
    by_path = {f.path: f for f in fields}
    others = {f.other: f for f in fields if f.other}
    items: list[dict[str, Any]] = []
    for field in fields:
        if not _applies(field.when, category):
            continue
        link_id = prefix + field.path
        item: dict[str, Any] = {"linkId": link_id, "type": ITEM_TYPES[field.type]}
        text = words_in(FIELD_LABELS.get(link_id, {}), locale)
        if text:
            item["text"] = text
        if field.required:
            item["required"] = True
        if field.type in MULTIPLE:
            item["repeats"] = True
        if field.max_length is not None and field.type in ("text", "textarea"):
            item["maxLength"] = field.max_length
        options = option_list_of(field, category)
        if options is not None and field.type != "repeater":
            item["answerOption"] = [
                {"valueCoding": _coding(options, value, locale)}
                for value in field.option_values(category)
            ]
        conditions = _enable_when(field.when, prefix, by_path, category, locale)
        parent = others.get(field.path)
        if parent is not None:
            parent_options = option_list_of(parent, category)
            if parent_options is not None:
                conditions.append(
                    {
                        "question": prefix + parent.path,
                        "operator": "=",
                        "answerCoding": _coding(parent_options, OTHER, locale),
                    }
                )
        if conditions:
            item["enableWhen"] = conditions
            if len(conditions) > 1:
                item["enableBehavior"] = "any"
        if field.fields:
            item["item"] = _items(field.fields, f"{link_id}.", category, locale)
        items.append(item)
    return items


def questionnaire(
    service_id: str, service_name: dict[str, str], *, category: str, locale: str
) -> dict[str, Any]:
    """The Questionnaire of a service (its category decides the steps, fields and role
    options), words in `locale`, validated; raises if the built resource is not valid FHIR."""
    groups = []
    for step in STEPS:
        if not _applies(step.when, category):
            continue
        group: dict[str, Any] = {"linkId": step.id, "type": "group"}
        title = words_in(STEP_TITLES.get(step.id, {}), locale)
        if title:
            group["text"] = title
        items = _items(step.fields, "", category, locale)
        if items:
            group["item"] = items
            groups.append(group)
    resource: dict[str, Any] = {
        "resourceType": "Questionnaire",
        "identifier": [{"system": SERVICE_SYSTEM, "value": service_id}],
        "status": "active",
        "subjectType": ["Patient"],
        "language": locale,
        "item": groups,
    }
    # The QuestionnaireResponse names it `Questionnaire/{serviceId}`: the id is the service's
    # when it is a FHIR id (the identifier carries it in any case).
    if FHIR_ID.fullmatch(service_id):
        resource["id"] = service_id
    title = words_in(service_name, locale)
    if title:
        resource["title"] = title
    validated = Questionnaire.model_validate(resource)
    wire: dict[str, Any] = validated.model_dump(mode="json", exclude_none=True)
    return wire
