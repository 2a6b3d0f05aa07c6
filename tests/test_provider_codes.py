"""Provider codes (docs/protocol.md, "Provider codes"): the clinic's referring institutions
as its administrators keep them, the check a person's first step makes, and the intake's
code refused unless it is an active code of the clinic; on SQLite and PostgreSQL + Redis.

Codes added here are random (the servers are shared by the session's tests); DEMO, which
other tests use, is put back when a test changes it."""

import secrets
import string
from typing import Any

from tests.conftest import unique_email
from tests.support.booking import person
from tests.support.clients import Account, call_http, sign_in
from tests.test_intake import refused
from tests.test_services_admin import admin
from tests.test_staff_signin import COUNSELOR, dev_session

CLINIC = "demo-clinic"
READ, UPDATE, CHECK = "providerCodes-read", "providerCode-update", "providerCode-check"
DEMO, INSTITUTION = "DEMO", "デモ産婦人科クリニック"
CODE_PATH = "intake.healthCareProvider.code"
INVALID = "Invalid code."


def new_code() -> str:
    return "".join(secrets.choice(string.ascii_uppercase + string.digits) for _ in range(4))


async def codes(base_url: str, token: str) -> dict[str, dict[str, Any]]:
    status, reply = await call_http(base_url, READ, {"clinicId": CLINIC}, token)
    assert status == 200, reply
    return {row["code"]: row for row in reply["data"]["codes"]}


async def put(base_url: str, token: str, code: str, name: str, active: bool = True) -> Any:
    body = {"clinicId": CLINIC, "code": code, "name": name, "active": active}
    return await call_http(base_url, UPDATE, body, token)


async def check(base_url: str, token: str, code: Any) -> tuple[int, dict[str, Any]]:
    return await call_http(base_url, CHECK, {"clinicId": CLINIC, "code": code}, token)


async def test_administrators_list_add_rename_and_deactivate_codes(base_url: str) -> None:
    staff = await admin(base_url)
    assert (await codes(base_url, staff.token))[DEMO]["name"] == INSTITUTION
    code = new_code()
    status, reply = await put(base_url, staff.token, code, " 山田レディースクリニック ")
    assert status == 200, reply
    assert reply["data"]["name"] == "山田レディースクリニック" and reply["data"]["active"]
    status, reply = await put(base_url, staff.token, code, "山田クリニック", active=False)
    assert status == 200, reply
    listed = (await codes(base_url, staff.token))[code]
    assert listed["name"] == "山田クリニック" and listed["active"] is False
    status, audit = await call_http(base_url, "staff-audit-read", {"clinicId": CLINIC}, staff.token)
    entries = [e for e in audit["data"]["entries"] if e["action"] == "providerCode.update"]
    assert entries[0]["detail"] == {
        "code": code,
        "before": {"name": "山田レディースクリニック", "active": True},
        "after": {"name": "山田クリニック", "active": False},
    }
    assert entries[1]["detail"]["before"] is None  # added


async def test_codes_are_for_the_clinic_s_administrators(base_url: str, alice: Account) -> None:
    staff = await admin(base_url)
    counselor = await dev_session(base_url, COUNSELOR, second_factor=True)
    for token in (alice.token, counselor.token):
        assert (await call_http(base_url, READ, {"clinicId": CLINIC}, token))[0] == 403
        assert (await put(base_url, token, new_code(), "X"))[0] == 403
    other = {"clinicId": "other-clinic", "code": new_code(), "name": "X", "active": True}
    assert (await call_http(base_url, UPDATE, other, staff.token))[0] == 403
    assert (await call_http(base_url, READ, {"clinicId": CLINIC}))[0] == 401


async def test_a_code_is_four_half_width_letters_or_digits(base_url: str) -> None:
    staff = await admin(base_url)
    for code in ("ABCDE", "AB1", "AB 1", "ＡＢ１２", "AB-1", ""):
        status, reply = await put(base_url, staff.token, code, "X")
        assert status == 400, (code, reply)
        assert set(reply["error"]["details"]["fields"]) == {"code"}, reply
    for name in ("  ", "x" * 201, "A\nB"):
        status, reply = await put(base_url, staff.token, new_code(), name)
        assert status == 400 and "name" in reply["error"]["details"]["fields"], reply
    # Case-sensitive: a code in small letters is another code than in capitals.
    lower = "q" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(3))
    assert (await put(base_url, staff.token, lower, "小文字"))[0] == 200
    assert (await check(base_url, staff.token, lower))[1] == {"data": {"name": "小文字"}}
    assert (await check(base_url, staff.token, lower.upper()))[1]["error"]["message"] == INVALID


async def test_the_check_names_the_institution_of_an_active_code(
    base_url: str, alice: Account
) -> None:
    status, reply = await check(base_url, alice.token, DEMO)
    assert (status, reply) == (200, {"data": {"name": INSTITUTION}})
    for code in ("ZZZZ", "demo", "Demo"):
        status, reply = await check(base_url, alice.token, code)
        assert status == 400, reply
        assert reply["error"]["message"] == INVALID
        assert reply["error"]["details"]["codes"] == {"code": "providerCodeUnknown"}
    status, reply = await check(base_url, alice.token, "DEMO1")
    assert status == 400 and set(reply["error"]["details"]["fields"]) == {"code"}, reply
    assert reply["error"]["message"] == "Please check the code: it has 4 letters or digits."
    staff = await admin(base_url)
    code = new_code()
    await put(base_url, staff.token, code, "休止中の医院", active=False)
    assert (await check(base_url, alice.token, code))[1]["error"]["message"] == INVALID
    assert (await check(base_url, None, DEMO))[0] == 401  # type: ignore[arg-type]


async def test_the_check_is_rate_limited_per_person(base_url: str) -> None:
    someone = await sign_in(base_url, unique_email("codes"))
    answers = [(await check(base_url, someone.token, new_code()))[0] for _ in range(20)]
    assert set(answers) <= {200, 400}
    status, reply = await check(base_url, someone.token, DEMO)
    assert status == 429, reply
    assert reply["error"]["status"] == "RESOURCE_EXHAUSTED"
    other = await sign_in(base_url, unique_email("codes"))
    assert (await check(base_url, other.token, DEMO))[0] == 200  # another person is not held


async def test_the_intake_keeps_only_an_active_code_of_the_clinic(base_url: str) -> None:
    staff = await admin(base_url)
    async with person(base_url, "prenatal") as someone:
        reply = await someone.sock.update(someone.path, {CODE_PATH: "ZZZZ"})
        assert refused(reply, CODE_PATH, "providerCodeUnknown"), reply
        assert reply["error"]["details"]["fields"][CODE_PATH] == INVALID
        assert "healthCareProvider" not in (await someone.document())["intake"]
        reply = await someone.sock.update(someone.path, {CODE_PATH: "demo"})
        assert refused(reply, CODE_PATH, "providerCodeUnknown"), reply
        assert "version" in await someone.sock.update(someone.path, {CODE_PATH: DEMO})
        assert (await someone.document())["intake"]["healthCareProvider"]["code"] == DEMO
        try:
            await put(base_url, staff.token, DEMO, INSTITUTION, active=False)
            reply = await someone.sock.update(someone.path, {CODE_PATH: DEMO})
            assert refused(reply, CODE_PATH, "providerCodeUnknown"), reply
        finally:
            status, _ = await put(base_url, staff.token, DEMO, INSTITUTION, active=True)
            assert status == 200
        # No code at all is fine: the step may be skipped, and an answer cleared.
        assert "version" in await someone.sock.update(someone.path, {CODE_PATH: None})
