"""`GET /fhir/Questionnaire/{serviceId}` (docs/protocol.md, "Staff reading and acting"): a
service's questionnaire as FHIR R4, for staff of a clinic offering it, on both databases,
through real servers; it lines up with the QuestionnaireResponse of an appointment."""

from typing import Any

import httpx
from fhir.resources.R4B.questionnaire import Questionnaire

from tests.support.booking import person
from tests.support.clients import Account
from tests.test_staff_audit import other_staff  # noqa: F401 (a fixture)
from tests.test_staff_signin import ADMIN, dev_session

COUNSELOR = "sato@demo-clinic.example"


async def get(base_url: str, path: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(path, headers=headers)


def link_ids(items: list[dict[str, Any]]) -> set[str]:
    found: set[str] = set()
    for item in items:
        found.add(item["linkId"])
        found |= link_ids(item.get("item", []))
    return found


def by_link_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for item in items:
        found[item["linkId"]] = item
        found.update(by_link_id(item.get("item", [])))
    return found


async def test_staff_export_a_services_questionnaire_as_valid_fhir(
    base_url: str, staff: Account
) -> None:
    reply = await get(base_url, "/fhir/Questionnaire/prenatal-b2c", staff.token)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("application/fhir+json")
    assert reply.headers["cache-control"] == "no-store"
    resource = reply.json()
    Questionnaire.model_validate(resource)  # valid FHIR (R4B: R4's resource)
    assert resource["resourceType"] == "Questionnaire"
    assert resource["id"] == "prenatal-b2c"
    assert resource["identifier"] == [
        {"system": "urn:genecounsel:service", "value": "prenatal-b2c"}
    ]
    assert resource["status"] == "active"
    steps = [group["linkId"] for group in resource["item"]]
    # The prenatal service's steps only: no fertility treatment nor PGT reports.
    assert steps[:3] == ["clinic", "patient", "contact"]
    assert "prenatal-testing" in steps and "pgt-reports" not in steps
    items = by_link_id(resource["item"])
    assert items["contact"]["text"] == "連絡先"  # Japanese unless asked otherwise
    family = items["intake.familyMembers"]
    assert (family["type"], family["repeats"]) == ("group", True)
    relationship = items["intake.familyMembers.relationship"]
    assert relationship["type"] == "choice"
    mother = [
        o["valueCoding"] for o in relationship["answerOption"] if o["valueCoding"]["code"] == "4"
    ]
    assert mother == [
        {"system": "urn:genecounsel:intake:options:relationship", "code": "4", "display": "母"}
    ]
    # The free text of "Other" is enabled by that option; a field shown on an answer by it.
    other = items["intake.familyMembers.relationshipOther"]
    assert other["enableWhen"][0]["question"] == "intake.familyMembers.relationship"
    assert other["enableWhen"][0]["answerCoding"]["code"] == "other"
    edd = items["intake.currentPregnancy.edd"]
    assert edd["type"] == "date"
    assert edd["enableWhen"][0]["question"] == "intake.currentPregnancy.isPregnant"
    # The role options are the prenatal ones.
    role_codes = [o["valueCoding"]["code"] for o in items["patientRole"]["answerOption"]]
    assert role_codes == ["10", "11", "19"]

    english = await get(base_url, "/fhir/Questionnaire/prenatal-b2c?locale=en", staff.token)
    assert english.status_code == 200
    assert by_link_id(english.json()["item"])["contact"]["text"] == "Contact information"

    # A counselor of the clinic may export it too.
    counselor = await dev_session(base_url, COUNSELOR, second_factor=True)
    assert (
        await get(base_url, "/fhir/Questionnaire/cancer-b2b", counselor.token)
    ).status_code == 200


async def test_the_questionnaire_names_every_answer_of_a_response(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, "prenatal", complete=True) as someone:
        family = [
            {"side": 0, "relationship": 4, "disorders": ["Q90"]},
            {"relationship": 2, "disorders": ["Q36"]},  # the couple's daughter: no side
        ]
        saved = await someone.sock.update(someone.path, {"intake.familyMembers": family})
        assert "version" in saved, saved
        answers = await get(
            base_url, f"/fhir/QuestionnaireResponse/{someone.appointment_id}", staff.token
        )
        assert answers.status_code == 200, answers.text
        response = answers.json()
        service = response["questionnaire"].removeprefix("Questionnaire/")
        form = await get(base_url, f"/fhir/Questionnaire/{service}", staff.token)
    assert form.status_code == 200
    assert link_ids(response["item"]) <= link_ids(form.json()["item"])
    # One group per relative; the daughter's has her relationship and no side.
    family_step = next(step for step in response["item"] if step["linkId"] == "family")
    daughter = family_step["item"][1]["item"]
    assert [answer["linkId"] for answer in daughter] == [
        "intake.familyMembers.relationship",
        "intake.familyMembers.disorders",
    ]
    assert daughter[0]["answer"][0]["valueCoding"]["code"] == "2"


async def test_the_questionnaire_is_refused_as_the_other_staff_routes(
    base_url: str,
    staff: Account,
    other_staff: Account,  # noqa: F811
) -> None:
    async with person(base_url) as someone:
        limited = await dev_session(base_url, ADMIN, second_factor=False)
        path = "/fhir/Questionnaire/cancer-b2b"
        for token, code, issue in (
            (None, 401, "login"),
            (someone.token, 403, "forbidden"),  # a client
            (limited.token, 401, "login"),  # staff before the second factor
            (other_staff.token, 403, "forbidden"),  # a clinic that does not offer it
        ):
            refused = await get(base_url, path, token)
            assert refused.status_code == code, (token, refused.text)
            assert refused.headers["content-type"].startswith("application/fhir+json")
            outcome = refused.json()
            assert outcome["resourceType"] == "OperationOutcome"
            assert outcome["issue"][0]["code"] == issue
    # Unknown and malformed service ids answer like a service of another clinic.
    for wrong in ("no-such-service", "a%20b", "x" * 80):
        refused = await get(base_url, f"/fhir/Questionnaire/{wrong}", staff.token)
        assert refused.status_code == 403, wrong
        assert refused.json()["issue"][0]["code"] == "forbidden"
