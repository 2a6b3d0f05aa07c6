"""Intake answers over the live document: consent first, every rule, nothing lost on refusal."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
import pytest_asyncio

from realtime.intake.definition import RULES
from realtime.intake.fhir import questionnaire_response
from tests.conftest import unique_email
from tests.support.clients import Socket, call_http, connect, sign_in

TOKYO = ZoneInfo("Asia/Tokyo")


@dataclass
class Booking:
    sock: Socket
    path: str
    appointment_id: str
    token: str

    async def save(self, data: dict[str, Any]) -> dict[str, Any]:
        return await self.sock.update(self.path, data)

    async def document(self) -> dict[str, Any]:
        snapshot: dict[str, Any] = (await self.sock.subscribe(self.path))["snapshot"]
        return snapshot


async def open_booking(
    base_url: str, service: str, *, consent: bool = True
) -> AsyncIterator[Booking]:
    person = await sign_in(base_url, unique_email(service))
    async with connect(base_url, person.token) as sock:
        created = await sock.call("appointment-create", {"serviceId": service})
        appointment_id = created["data"]["appointmentId"]
        if consent:
            info = await sock.call("service-read", {"id": service, "clinicId": "demo-clinic"})
            version = info["data"]["consentVersion"]
            given = await sock.call(
                "appointment-consent", {"appointmentId": appointment_id, "version": version}
            )
            assert "givenAt" in given["data"], given
        yield Booking(sock, f"appointments/{appointment_id}", appointment_id, person.token)


@pytest_asyncio.fixture
async def prenatal(base_url: str) -> AsyncIterator[Booking]:
    async for booking in open_booking(base_url, "prenatal"):
        yield booking


@pytest_asyncio.fixture
async def pgt(base_url: str) -> AsyncIterator[Booking]:
    async for booking in open_booking(base_url, "pgt"):
        yield booking


def refused(reply: dict[str, Any], path: str, code: str) -> bool:
    error = reply.get("error", {})
    return bool(
        error.get("status") == "INVALID_ARGUMENT" and error["details"]["codes"].get(path) == code
    )


async def test_no_answer_is_kept_before_consent(base_url: str) -> None:
    async for booking in open_booking(base_url, "prenatal", consent=False):
        reply = await booking.save({"intake.contactInfo.phone": "03-1234-5678"})
        assert refused(reply, "consent", "consentRequired")
        assert (await booking.document())["data"]["intake"] == {}
        wrong = await booking.sock.call(
            "appointment-consent", {"appointmentId": booking.appointment_id, "version": "1999-01"}
        )
        assert wrong["error"]["status"] == "INVALID_ARGUMENT"
        # Settings that are not answers need no consent.
        assert "version" in await booking.save({"locale": "en"})


async def test_consent_is_recorded_once_with_its_version(prenatal: Booking) -> None:
    consent = (await prenatal.document())["data"]["consent"]
    assert consent["version"] == "2026-11" and consent["givenAt"].endswith("Z")
    again = await prenatal.sock.call(
        "appointment-consent", {"appointmentId": prenatal.appointment_id, "version": "2026-11"}
    )
    assert again["data"]["givenAt"] == consent["givenAt"]


async def test_only_the_owner_gives_consent(base_url: str, prenatal: Booking) -> None:
    stranger = await sign_in(base_url, unique_email("stranger"))
    status, body = await call_http(
        base_url,
        "appointment-consent",
        {"appointmentId": prenatal.appointment_id, "version": "2026-11"},
        stranger.token,
    )
    assert status == 403, body


TODAY = datetime.now(TOKYO).date()

# (path, value, accepted?, code when refused)
CASES: list[tuple[str, Any, bool, str]] = [
    # Katakana: full-width katakana, spaces (half and full width), middle dot, long vowel.
    ("intake.contactInfo.alias", "ヤマダ ハナコ", True, ""),
    ("intake.contactInfo.alias", "ヤマダ\u3000ハナコ", True, ""),
    ("intake.contactInfo.alias", "メアリー・スミス", True, ""),
    ("intake.contactInfo.lastName", "ヤマダ", True, ""),
    ("intake.contactInfo.alias", "ﾔﾏﾀﾞ", False, "katakana"),  # half-width katakana
    ("intake.contactInfo.alias", "やまだ", False, "katakana"),  # hiragana
    ("intake.contactInfo.firstName", "山田", False, "katakana"),
    ("intake.contactInfo.firstName", "Hanako", False, "katakana"),
    ("intake.contactInfo.alias", 12, False, "mustBeText"),
    ("intake.contactInfo.alias", "ア" * 101, False, "tooLong"),
    # Phone: ASCII digits and dashes only.
    ("intake.contactInfo.phone", "03-1234-5678", True, ""),
    ("intake.contactInfo.phone", "０３-１２３４", True, ""),  # full-width: made half-width
    ("intake.contactInfo.phone", "+81 3 1234", False, "phone"),
    ("intake.contactInfo.phone", "03 1234 5678", False, "phone"),
    # Provider code: 4 half-width alphanumerics, case kept, and one the clinic has (DEMO).
    ("intake.healthCareProvider.code", "DEMO", True, ""),
    ("intake.healthCareProvider.code", "AB12C", False, "providerCode"),
    ("intake.healthCareProvider.code", "ab1", False, "providerCode"),
    ("intake.healthCareProvider.code", "ＤＥＭＯ", True, ""),  # stored as DEMO
    ("intake.healthCareProvider.code", "ab-1", False, "providerCode"),
    ("intake.healthCareProvider.code", "demo", False, "providerCodeUnknown"),  # case-sensitive
    ("intake.healthCareProvider.code", "ZZZZ", False, "providerCodeUnknown"),
    ("intake.healthCareProvider.patientId", "P0012x", True, ""),
    ("intake.healthCareProvider.patientId", "P-0012", False, "patientId"),
    ("intake.healthCareProvider.patientId", "P 0012", False, "patientId"),
    # E-mail of the contact information.
    ("intake.contactInfo.email", "hanako@example.jp", True, ""),
    ("intake.contactInfo.email", "hanako@", False, "email"),
    # Options: codes of docs/product.md ("Enumerations"), never labels, never booleans or
    # unknown codes.
    ("intake.currentPregnancy.conceptionMethod", 5, True, ""),
    ("intake.currentPregnancy.conceptionMethod", 7, False, "invalidOption"),
    ("intake.currentPregnancy.conceptionMethod", "IVF-ET", False, "invalidOption"),
    ("intake.currentPregnancy.isPregnant", -1, True, ""),
    ("intake.currentPregnancy.isPregnant", True, False, "invalidOption"),
    ("intake.currentPregnancy.fetusType", 5, True, ""),
    ("intake.currentPregnancy.morningSickness", 3, True, ""),
    ("intake.currentPregnancy.morningSickness", 4, False, "invalidOption"),
    ("intake.requests.expectations", [1, 4, "other"], True, ""),
    ("intake.requests.expectations", [1, 1], False, "invalidOption"),
    ("intake.requests.expectations", [8], False, "invalidOption"),
    ("intake.requests.expectations", 1, False, "invalidOption"),
    ("intake.prenatalTesting.pastTests", [1, 10, "unknown"], True, ""),
    ("intake.prenatalTesting.pastTests", [11], False, "invalidOption"),
    ("intake.prenatalTesting.disorderDecision", 6, True, ""),
    ("intake.prenatalTesting.prenatalTestAgreement", 4, False, "invalidOption"),
    ("intake.contactInfo.country", "JP", True, ""),
    ("intake.contactInfo.country", "US", True, ""),  # ISO 3166-1 alpha-2
    ("intake.contactInfo.country", "XX", False, "invalidOption"),
    ("intake.contactInfo.country", "other", False, "invalidOption"),  # retired: read, not taken
    ("intake.contactInfo.subdivision", "JP-13", True, ""),  # ISO 3166-2:JP
    ("intake.contactInfo.subdivision", "東京都", False, "invalidOption"),
    # Numbers.
    ("intake.pregnancyHistory.numBirths", 2, True, ""),
    ("intake.pregnancyHistory.numBirths", -1, False, "numberRange"),
    ("intake.pregnancyHistory.numBirths", 2.5, False, "numberRange"),
    ("intake.pregnancyHistory.numBirths", "2", False, "numberRange"),
    # Dates: typed forms (tests/test_intake_formats.py), clinic-day bounds, long strings unread.
    ("intake.profile.femaleDob", "1990-04-01", True, ""),
    ("intake.profile.femaleDob", (TODAY + timedelta(days=2)).isoformat(), False, "ageTooYoung"),
    ("intake.profile.femaleDob", "1930-01-01", False, "dateAfter"),
    ("intake.profile.femaleDob", "1990-02-30", False, "invalidDate"),
    ("intake.profile.femaleDob", "1990/04/01", True, ""),  # stored as 1990-04-01 (formats)
    ("intake.profile.femaleDob", "1990-04-01T00:00:00", False, "invalidDate"),
    ("intake.profile.femaleDob", "1" * 1001, False, "invalidDate"),
    ("intake.currentPregnancy.edd", (TODAY + timedelta(days=120)).isoformat(), True, ""),
    ("intake.currentPregnancy.edd", TODAY.isoformat(), False, "dateAfter"),
    ("intake.currentPregnancy.edd", (TODAY + timedelta(days=301)).isoformat(), False, "dateBefore"),
    # Paths that are not answers.
    ("intake.contactInfo.nickname", "x", False, "notWritable"),
    ("intake.contactInfo", {"phone": "1"}, False, "notWritable"),
    ("status", "confirmed", False, "notWritable"),
]


@pytest.mark.parametrize(("path", "value", "accepted", "code"), CASES)
async def test_answer_rules(
    prenatal: Booking, path: str, value: Any, accepted: bool, code: str
) -> None:
    reply = await prenatal.save({path: value})
    if accepted:
        assert "version" in reply, reply
    else:
        assert refused(reply, path, code), reply


ABROAD = {
    "intake.contactInfo.country": "US",
    "intake.contactInfo.lastName": "Carter",
    "intake.contactInfo.firstName": "Zoë",
    "intake.contactInfo.phone": "+1 (415) 555-0134",
    "intake.contactInfo.address": "500 Market St\nSan Francisco, CA 94105",
}


async def contact_info(booking: Booking) -> dict[str, Any]:
    info: dict[str, Any] = (await booking.document())["data"]["intake"]["contactInfo"]
    return info


async def test_a_person_abroad_gives_a_latin_name_and_an_international_phone(
    prenatal: Booking,
) -> None:
    reply = await prenatal.save({**ABROAD, "intake.contactInfo.nameKana": "カーター ゾーイ"})
    assert "version" in reply, reply
    assert await contact_info(prenatal) == {
        "country": "US",
        "lastName": "Carter",
        "firstName": "Zoë",
        "nameKana": "カーター ゾーイ",
        "phone": "+14155550134",  # stored E.164
        "address": "500 Market St\nSan Francisco, CA 94105",
    }


async def test_a_phone_without_country_code_is_read_in_the_country_saved(
    prenatal: Booking,
) -> None:
    assert "version" in await prenatal.save({"intake.contactInfo.country": "GB"})
    assert "version" in await prenatal.save({"intake.contactInfo.phone": "020 7946 0958"})
    assert (await contact_info(prenatal))["phone"] == "+442079460958"
    # A Japanese mobile of someone living abroad, with its country code.
    assert "version" in await prenatal.save({"intake.contactInfo.phone": "+81 90-1234-5678"})
    assert (await contact_info(prenatal))["phone"] == "+819012345678"


@pytest.mark.parametrize(
    "phone", ["12345", "(415) 555-0134", "+1 415 555 0134 ext. 3", "tel: 1-800"]
)
async def test_an_invalid_phone_abroad_is_refused_saying_how_to_write_it(
    prenatal: Booking, phone: str
) -> None:
    reply = await prenatal.save(
        {"intake.contactInfo.country": "GB", "intake.contactInfo.phone": phone}
    )
    assert refused(reply, "intake.contactInfo.phone", "internationalPhone"), reply
    message = RULES["internationalPhone"].message
    assert reply["error"]["details"]["fields"]["intake.contactInfo.phone"] == message["en"]
    assert "+" in message["en"] and "国番号" in message["ja"]  # the client shows the ja words
    assert "contactInfo" not in (await prenatal.document())["data"]["intake"]


async def test_japan_keeps_the_rules_of_the_spec(prenatal: Booking) -> None:
    reply = await prenatal.save(
        {
            "intake.contactInfo.country": "JP",
            "intake.contactInfo.lastName": "Carter",
            "intake.contactInfo.phone": "+1 (415) 555-0134",
        }
    )
    assert refused(reply, "intake.contactInfo.lastName", "katakana"), reply
    assert refused(reply, "intake.contactInfo.phone", "phone"), reply
    japan = {
        "intake.contactInfo.country": "JP",
        "intake.contactInfo.lastName": "カーター",
        "intake.contactInfo.phone": "03-1234-5678",
        "intake.contactInfo.subdivision": "JP-13",
    }
    assert "version" in await prenatal.save(japan)
    stored = await contact_info(prenatal)
    assert stored["phone"] == "03-1234-5678"  # a domestic number is kept as written
    assert refused(
        await prenatal.save({"intake.contactInfo.lastName": "Carter"}),
        "intake.contactInfo.lastName",
        "katakana",
    )


async def test_a_new_country_names_the_answers_it_makes_wrong(prenatal: Booking) -> None:
    assert "version" in await prenatal.save(
        {"intake.contactInfo.country": "JP", "intake.contactInfo.lastName": "ヤマダ"}
    )
    reply = await prenatal.save({"intake.contactInfo.country": "US"})
    assert refused(reply, "intake.contactInfo.lastName", "latinName"), reply
    assert (await contact_info(prenatal))["country"] == "JP"  # nothing saved
    moved = {"intake.contactInfo.country": "US", "intake.contactInfo.lastName": "Yamada"}
    assert "version" in await prenatal.save(moved)


async def test_whitespace_only_text_is_no_answer(prenatal: Booking) -> None:
    await prenatal.save({"intake.contactInfo.alias": " \u3000 "})
    assert "alias" not in (await prenatal.document())["data"]["intake"].get("contactInfo", {})


async def test_trimmed_alphanumeric_rule_in_a_repeater(pgt: Booking) -> None:
    report = {
        "caseRegistrationId": "  CR123 ",
        "eggId": "E1",
        "testReportDate": "2026-01-05",
        "cases": "46,XX",
    }
    assert "version" in await pgt.save({"intake.analysisReports": [report]})
    saved = (await pgt.document())["data"]["intake"]["analysisReports"][0]
    assert saved["caseRegistrationId"] == "CR123"
    for bad in ({"caseRegistrationId": "   "}, {"eggId": "E-1"}, {"unknown": 1}):
        reply = await pgt.save({"intake.analysisReports": [{**report, **bad}]})
        assert reply["error"]["status"] == "INVALID_ARGUMENT", bad
    too_many = [report] * 21
    assert refused(
        await pgt.save({"intake.analysisReports": too_many}), "intake.analysisReports", "tooMany"
    )


async def test_family_members_with_conditions_and_other(prenatal: Booking) -> None:
    member = {
        "side": 1,
        "relationship": "other",
        "relationshipOther": "義理の兄",
        "disorders": ["Q90", "Q36", "other"],
        "disordersOther": "Marfan, Noonan",
    }
    assert "version" in await prenatal.save({"intake.familyMembers": [member]})
    bad = {**member, "relationship": 23}
    assert refused(
        await prenatal.save({"intake.familyMembers": [bad]}),
        "intake.familyMembers",
        "invalidOption",
    )


async def test_family_members_as_the_one_who_question_saves_them(prenatal: Booking) -> None:
    # "Who is it?" answers side and relationship together; the couple's children have no side.
    new = [
        {"side": 0, "relationship": 9, "disorders": ["Q36", "Q35"]},
        {"relationship": 2, "disorders": ["Q21.0"]},
    ]
    # Saved by the earlier form: a child with a side, the conditions in any order.
    old = [{"side": 1, "relationship": 1, "disorders": ["F89", "Q90"]}]
    assert "version" in await prenatal.save({"intake.familyMembers": new + old})
    saved = (await prenatal.document())["data"]["intake"]["familyMembers"]
    assert saved == new + old
    for bad in (
        {"side": 2},  # no third side
        {"side": "0"},
        {"side": True},
        {"relationship": "1"},
        {"disorders": ["Q99"]},  # not a condition of the list
        {"disorders": ["Q36", "Q36"]},
        {"disorders": "Q36"},
    ):
        item = {**new[0], **bad}
        assert refused(
            await prenatal.save({"intake.familyMembers": [item]}),
            "intake.familyMembers",
            "invalidOption",
        ), bad
    assert (await prenatal.document())["data"]["intake"]["familyMembers"] == new + old


@pytest.mark.parametrize(("service", "good", "bad"), [("pgt", 9, 10), ("prenatal", 11, 1)])
async def test_patient_role_codes_depend_on_the_service(
    base_url: str, service: str, good: int, bad: int
) -> None:
    async for booking in open_booking(base_url, service):
        assert "version" in await booking.save({"patientRole": good})
        assert refused(await booking.save({"patientRole": bad}), "patientRole", "invalidOption")


async def test_a_refused_update_keeps_everything_already_saved(prenatal: Booking) -> None:
    saved = {"intake.contactInfo.phone": "03-1234-5678", "intake.contactInfo.lastName": "ヤマダ"}
    assert "version" in await prenatal.save(saved)
    before = await prenatal.document()
    reply = await prenatal.save(
        {"intake.contactInfo.phone": "090-0000-0000", "intake.contactInfo.firstName": "花子"}
    )
    assert set(reply["error"]["details"]["fields"]) == {"intake.contactInfo.firstName"}
    after = await prenatal.document()
    assert after["version"] == before["version"]
    assert after["data"]["intake"]["contactInfo"] == {"phone": "03-1234-5678", "lastName": "ヤマダ"}


async def test_clearing_an_answer(prenatal: Booking) -> None:
    await prenatal.save({"intake.contactInfo.phone": "03-1234-5678"})
    await prenatal.save({"intake.contactInfo.phone": None})
    assert "phone" not in (await prenatal.document())["data"]["intake"].get("contactInfo", {})


async def test_edits_show_up_live_in_another_tab(base_url: str, prenatal: Booking) -> None:
    async with connect(base_url, prenatal.token) as other_tab:
        version = (await other_tab.subscribe(prenatal.path))["snapshot"]["version"]
        await prenatal.save({"intake.requests.topics": "NIPTの結果について"})
        await other_tab.wait_for_version(prenatal.path, version + 1)
        pushed = other_tab.pushes[prenatal.path][-1]["data"]["intake"]
    assert pushed["requests"]["topics"] == "NIPTの結果について"


async def run_purge(base_url: str, now: datetime) -> int:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/dev/jobs/purge-intake", json={"data": {"now": now.isoformat()}})
    assert reply.status_code == 200, reply.text
    done: int = reply.json()["data"]["done"]
    return done


async def test_unsubmitted_answers_are_removed_after_the_clinic_day_ends(
    base_url: str, prenatal: Booking
) -> None:
    await prenatal.save({"intake.contactInfo.phone": "03-1234-5678", "patientRole": 10})
    saved = await prenatal.document()
    saved_at = datetime.fromisoformat(saved["data"]["updated"].replace("Z", "+00:00"))
    same_day_end = datetime.combine(saved_at.astimezone(TOKYO).date(), datetime.max.time(), TOKYO)
    await run_purge(base_url, same_day_end - timedelta(seconds=1))
    assert (await prenatal.document())["data"]["intake"] != {}
    next_day = same_day_end + timedelta(seconds=5)
    assert await run_purge(base_url, next_day) >= 1
    await prenatal.sock.wait_for_version(prenatal.path, saved["version"] + 1)
    purged = prenatal.sock.pushes[prenatal.path][-1]["data"]
    assert purged["intake"] == {} and purged["consent"] is None and purged["patientRole"] is None
    assert purged["status"] == "draft"


async def test_job_clock_must_have_an_offset(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/dev/jobs/purge-intake", json={"data": {"now": "2026-01-01T00:00"}}
        )
        assert reply.status_code == 400
        assert (await http.post("/dev/jobs/nothing", json={"data": {}})).status_code == 404


def test_the_fhir_export_names_a_person_abroad_as_asked() -> None:
    document: dict[str, Any] = {
        "id": "a1",
        "serviceId": "prenatal",
        "status": "confirmed",
        "intake": {
            "contactInfo": {
                "country": "US",
                "lastName": "Carter",
                "phone": "+14155550134",
                "address": "500 Market St",
            }
        },
    }
    resource = questionnaire_response(document, category="prenatal", locale="en")
    items = {item["linkId"]: item for item in resource["item"][0]["item"]}
    assert items["intake.contactInfo.lastName"]["text"] == "Last name"  # not "(katakana)"
    assert items["intake.contactInfo.phone"]["answer"] == [{"valueString": "+14155550134"}]
    country = items["intake.contactInfo.country"]["answer"][0]["valueCoding"]
    assert (country["code"], country["display"]) == ("US", "United States")
    document["intake"]["contactInfo"] = {
        "country": "JP",
        "lastName": "ヤマダ",
        "subdivision": "JP-13",
    }
    resource = questionnaire_response(document, category="prenatal", locale="ja")
    items = {item["linkId"]: item for item in resource["item"][0]["item"]}
    assert items["intake.contactInfo.lastName"]["text"] == "姓(カタカナ)"
    prefecture = items["intake.contactInfo.subdivision"]["answer"][0]["valueCoding"]
    assert (prefecture["code"], prefecture["display"]) == ("JP-13", "東京都")
