"""Typed values as people type them: full-width letters and digits, the common date forms and
Japanese era dates, impossible ages, and "none" ticked with other options. The cases are
tests/intake_format_cases.json, which the browser's tests read too: both sides agree."""

import json
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from realtime.intake.definition import MAX_AGE, MIN_AGE, message
from realtime.intake.typed_dates import parse_typed_date
from realtime.intake.validate import IntakeContext, Problem, check_path, missing_answers
from realtime.text import half_width
from tests.test_intake import Booking, open_booking, refused
from tests.test_intake_missing import PRENATAL_COMPLETE, with_answer

CASES: dict[str, Any] = json.loads(
    (Path(__file__).with_name("intake_format_cases.json")).read_text(encoding="utf-8")
)
BIRTH_TODAY = date.fromisoformat(CASES["birthDates"]["today"])


def outcome(path: str, value: Any, today: date = BIRTH_TODAY) -> tuple[Any, str | None]:
    """(stored value, None) or (None, problem code) of one answer checked as the server does."""
    try:
        return check_path(path, value, IntakeContext("prenatal", today)), None
    except Problem as problem:
        return None, problem.code


@pytest.mark.parametrize(("typed", "expected"), CASES["halfWidth"])
def test_full_width_ascii_is_half_width_and_japanese_is_kept(typed: str, expected: str) -> None:
    assert half_width(typed) == expected


@pytest.mark.parametrize(("typed", "stored"), CASES["patientIds"])
def test_patient_id_in_full_width_is_stored_half_width(typed: str, stored: str | None) -> None:
    value, code = outcome("intake.healthCareProvider.patientId", typed)
    assert (value, code) == ((stored, None) if stored else (None, "patientId"))


@pytest.mark.parametrize(("typed", "iso"), CASES["dates"])
def test_typed_dates(typed: str, iso: str | None) -> None:
    parsed = parse_typed_date(typed)
    assert (parsed.isoformat() if parsed else None) == iso
    value, code = outcome("intake.profile.femaleDob", typed)
    if iso is not None and "1940-01-01" < iso <= "2016-11-26":  # within the field's bounds
        assert (value, code) == (iso, None)
    elif iso is None:
        assert code == "invalidDate"


@pytest.mark.parametrize(("dob", "problem"), CASES["birthDates"]["cases"])
def test_impossible_ages_are_refused(dob: str, problem: str | None) -> None:
    value, code = outcome("intake.profile.partnerDob", dob)
    assert (value, code) == ((dob, None) if problem is None else (None, problem))


def test_the_age_messages_say_the_bound_in_both_languages() -> None:
    assert (MIN_AGE, MAX_AGE) == (10, 120)
    assert "120" in message("ageTooOld", "en", max=MAX_AGE)
    assert "120歳" in message("ageTooOld", "ja", max=MAX_AGE)
    assert "10歳未満" in message("ageTooYoung", "ja", min=MIN_AGE)


@pytest.mark.parametrize(("path", "value", "problem"), CASES["exclusive"])
def test_none_is_exclusive(path: str, value: list[Any], problem: str | None) -> None:
    assert outcome(path, value)[1] == problem


def test_the_exclusive_refusal_names_the_option() -> None:
    try:
        check_path(
            "intake.prenatalTesting.pastTests", [4, 0], IntakeContext("prenatal", BIRTH_TODAY)
        )
    except Problem as problem:
        assert problem.text == "\u201cNone\u201d cannot be chosen together with other answers."
    else:
        raise AssertionError("accepted")


# Questions that do not apply after an earlier answer ---------------------------------------


def test_no_earlier_pregnancy_asks_nothing_about_its_tests() -> None:
    no_history = with_answer(PRENATAL_COMPLETE, "intake.prenatalTesting.hadPastTests", None)
    assert missing_answers(no_history, "prenatal") == {}
    # An earlier "Yes" answered the tests, then "No": the stale answers ask for nothing more.
    stale = with_answer(no_history, "intake.prenatalTesting.hadPastTests", 1)
    stale = with_answer(stale, "intake.prenatalTesting.pastTests", ["other"])
    assert missing_answers(stale, "prenatal") == {}
    asked = with_answer(stale, "intake.pregnancyHistory.wasPregnant", 1)
    assert missing_answers(asked, "prenatal")["prenatal-testing"] == [
        "intake.prenatalTesting.pastTestsOther"
    ]


def test_tests_of_this_pregnancy_are_asked_only_when_pregnant() -> None:
    pregnant = with_answer(PRENATAL_COMPLETE, "intake.prenatalTesting.hasPresentTests", None)
    assert missing_answers(pregnant, "prenatal") == {}
    pregnant = with_answer(pregnant, "intake.currentPregnancy.isPregnant", 1)
    assert (
        "intake.prenatalTesting.hasPresentTests"
        in missing_answers(pregnant, "prenatal")["prenatal-testing"]
    )


def test_pgt_of_this_pregnancy_is_asked_only_after_ivf_or_icsi() -> None:
    pregnant = with_answer(PRENATAL_COMPLETE, "intake.currentPregnancy.isPregnant", 1)
    for path, value in [
        ("edd", "2027-01-01"),
        ("fetusType", 1),
        ("hasFetusDisorder", 0),
        ("conceptionMethod", 1),
    ]:
        pregnant = with_answer(pregnant, f"intake.currentPregnancy.{path}", value)
    pregnant = with_answer(pregnant, "intake.prenatalTesting.hasPresentTests", 0)
    assert missing_answers(pregnant, "prenatal") == {}
    ivf = with_answer(pregnant, "intake.currentPregnancy.conceptionMethod", 5)
    ivf = with_answer(ivf, "intake.currentPregnancy.eggCollectionDate", "2026-03-01")
    assert missing_answers(ivf, "prenatal") == {
        "pregnancy-current": ["intake.currentPregnancy.hasPgt"]
    }


# Over the live document: what is saved is the normalised value ------------------------------


@pytest_asyncio.fixture
async def prenatal(base_url: str) -> AsyncIterator[Booking]:
    async for booking in open_booking(base_url, "prenatal"):
        yield booking


async def test_saved_values_are_the_normalised_ones(prenatal: Booking) -> None:
    reply = await prenatal.save(
        {
            "intake.healthCareProvider.patientId": "１０２９３８",
            "intake.healthCareProvider.code": "ＤＥＭＯ",
            "intake.profile.femaleDob": "平成2年4月1日",
            "intake.profile.partnerDob": "04/12/1990",
        }
    )
    assert "version" in reply, reply
    intake = (await prenatal.document())["data"]["intake"]
    assert intake["healthCareProvider"] == {"patientId": "102938", "code": "DEMO"}
    assert intake["profile"] == {"femaleDob": "1990-04-01", "partnerDob": "1990-04-12"}


async def test_refusals_over_the_wire(prenatal: Booking) -> None:
    too_old = await prenatal.save({"intake.profile.femaleDob": "1850/01/01"})
    assert refused(too_old, "intake.profile.femaleDob", "ageTooOld"), too_old
    both = await prenatal.save({"intake.prenatalTesting.pastTests": [4, 0]})
    assert refused(both, "intake.prenatalTesting.pastTests", "exclusiveOption"), both
