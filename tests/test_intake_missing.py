"""What review reports as missing, per service: the definition's conditions at work."""

import copy
from datetime import date
from typing import Any

import pytest

from realtime.intake.definition import FIELDS, STEPS
from realtime.intake.validate import (
    IntakeContext,
    Problem,
    check_path,
    missing_answers,
    resolve_date,
)

PRENATAL_COMPLETE: dict[str, Any] = {
    "patientRole": 10,
    "intake": {
        "contactInfo": {
            "lastName": "ヤマダ",
            "firstName": "ハナコ",
            "email": "h@example.jp",
            "phone": "03-1234-5678",
            "country": "JP",
            "subdivision": "JP-13",
            "registrant": 1,
            "pregnantWomanAttendance": 1,
            "hasPrenatalServiceHistory": 0,
        },
        "profile": {"femaleDob": "1990-04-01"},
        "currentPregnancy": {"isPregnant": 0},
        "pregnancyHistory": {"wasPregnant": 0},
        "prenatalTesting": {
            "hadPastTests": 0,
            "hasPresentTests": 0,
            "futurePlan": 3,
            "prenatalDiscussion": 1,
            "prenatalTestAgreement": 1,
            "disorderDecision": 6,
        },
        "requests": {
            "expectations": [1],
            "isDepressed": 0,
            "isDispleasured": 0,
            "referralSource": 1,
        },
    },
}


def with_answer(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy of `data` with one answer changed."""
    out = copy.deepcopy(data)
    node = out
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return out


def test_a_complete_prenatal_intake_misses_nothing() -> None:
    assert missing_answers(PRENATAL_COMPLETE, "prenatal") == {}


def test_an_empty_intake_names_the_required_steps() -> None:
    missing = missing_answers({"intake": {}}, "prenatal")
    assert set(missing) == {
        "patient",
        "contact",
        "profile",
        "pregnancy-current",
        "pregnancy-history",
        "prenatal-testing",
        "expectations",
    }
    assert "intake.contactInfo.phone" in missing["contact"]
    assert "intake.healthCareProvider.code" not in str(missing)  # the code is optional


def test_steps_depend_on_the_service() -> None:
    pgt = missing_answers({"intake": {}}, "pgt")
    assert "fertility-treatment" in pgt and "pgt-reports" in pgt
    assert "prenatal-testing" not in pgt
    cancer = missing_answers({"intake": {}}, "cancer")
    assert "pregnancy-current" not in cancer and "fertility-treatment" not in cancer


@pytest.mark.parametrize(
    ("path", "value", "now_missing"),
    [
        ("intake.currentPregnancy.isPregnant", 1, "intake.currentPregnancy.edd"),
        ("intake.pregnancyHistory.wasPregnant", 1, "intake.pregnancyHistory.numBirths"),
        ("intake.contactInfo.registrant", "other", "intake.contactInfo.registrantOther"),
        ("intake.requests.expectations", [1, "other"], "intake.requests.expectationsOther"),
        ("intake.requests.referralSource", 3, "intake.requests.referralHospitalName"),
        ("intake.contactInfo.phone", "   ", "intake.contactInfo.phone"),
    ],
)
def test_answers_open_follow_up_questions(path: str, value: Any, now_missing: str) -> None:
    changed = with_answer(PRENATAL_COMPLETE, path, value)
    assert now_missing in [
        p for paths in missing_answers(changed, "prenatal").values() for p in paths
    ]


def test_conception_by_ivf_asks_for_the_egg_collection_date() -> None:
    pregnant = with_answer(
        PRENATAL_COMPLETE,
        "intake.currentPregnancy",
        {
            "isPregnant": 1,
            "edd": "2027-03-01",
            "fetusType": 1,
            "conceptionMethod": 5,
            "hasFetusDisorder": 0,
            "hasPgt": 0,
        },
    )
    assert missing_answers(pregnant, "prenatal") == {
        "pregnancy-current": ["intake.currentPregnancy.eggCollectionDate"]
    }


def test_repeater_items_are_checked_item_by_item() -> None:
    family = with_answer(
        PRENATAL_COMPLETE,
        "intake.familyMembers",
        [
            {"side": 0, "relationship": 3, "disorders": ["Q90"]},
            {"side": 1, "relationship": "other", "disorders": ["other"]},
        ],
    )
    assert missing_answers(family, "prenatal") == {
        "family": [
            "intake.familyMembers.1.relationshipOther",
            "intake.familyMembers.1.disordersOther",
        ]
    }


def test_the_side_is_asked_for_a_relative_but_not_for_the_couples_children() -> None:
    family = with_answer(
        PRENATAL_COMPLETE,
        "intake.familyMembers",
        [
            {"relationship": 1, "disorders": ["Q90"]},  # a son: the couple's, no side
            {"side": 1, "relationship": 2, "disorders": ["F89"]},  # saved before: kept as is
            {"relationship": 9, "disorders": ["Q36"]},  # a grandfather: whose?
        ],
    )
    assert missing_answers(family, "prenatal") == {"family": ["intake.familyMembers.2.side"]}


def test_relative_dates() -> None:
    today = date(2026, 11, 25)
    assert resolve_date("today", today) == today
    assert resolve_date("+300d", today) == date(2027, 9, 21)
    assert resolve_date("2000-01-01", today) == date(2000, 1, 1)


def test_every_field_of_every_step_is_reachable_and_typed() -> None:
    paths = [f.path for s in STEPS for f in s.fields]
    assert len(paths) == len(set(paths)) == len(FIELDS)
    context = IntakeContext(category="prenatal", today=date(2026, 11, 25))
    for path, field in FIELDS.items():
        assert path == "patientRole" or path.startswith("intake."), path
        with pytest.raises(Problem):  # no field takes an arbitrary object
            check_path(path, {"x": 1}, context)
        if field.other:
            assert field.other in FIELDS, field.other
