"""Control characters in free text (issue #12, items 13 and 15), on SQLite and PostgreSQL.

One rule (realtime/text.py): U+0000 and every other control character, lone surrogates and
U+2028/2029 are refused wherever text comes in, naming the field; multi-line fields keep line
breaks and tabs. Refusals are INVALID_ARGUMENT in the error format, never INTERNAL (PostgreSQL
cannot store U+0000), and a line break never reaches a mail header or a log line.
"""

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from tests.conftest import unique_email
from tests.support.booking import Person, person
from tests.support.clients import Account, call_http, connect, outbox
from tests.support.server import ServerProcess

CONTROL = "controlCharacters"
NUL, LONE_SURROGATE, LINE_SEPARATOR = "\u0000", "\ud800", "\u2028"
ADMIN_REPORT: dict[str, Any] = {
    "userAgent": "pytest",
    "locale": "ja",
    "route": "/b/review",
    "error": {"code": "internal", "message": "m", "stack": "s"},
}


def report_with(**changes: Any) -> dict[str, Any]:
    error = {**ADMIN_REPORT["error"], **changes.pop("error", {})}
    return {**ADMIN_REPORT, **changes, "error": error}


def contact(**changes: str) -> dict[str, str]:
    return {"name": "山田 花子", "email": "hanako@example.jp", "message": "こんにちは", **changes}


def exception_event(description: str) -> dict[str, Any]:
    return {"name": "exception", "params": {"description": description}}


# (function, input, the field its refusal names)
REFUSED_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("contact-send", contact(name=f"A{NUL}"), "name"),
    ("contact-send", contact(name="山田\r\nBcc: victim@example.com"), "name"),
    ("contact-send", contact(email=f"a{NUL}@example.jp"), "email"),
    ("contact-send", contact(email="a@example.jp\nBcc: victim@example.com"), "email"),
    ("contact-send", contact(message=f"hello{NUL}"), "message"),
    ("contact-send", contact(message=f"hello{LONE_SURROGATE}"), "message"),
    ("contact-send", contact(message="bell\x07"), "message"),
    ("sendEmail-admin", report_with(userAgent=f"Mozilla{NUL}"), "userAgent"),
    ("sendEmail-admin", report_with(route="/b/review\r\nINFO forged"), "route"),
    ("sendEmail-admin", report_with(error={"code": "x\nINFO forged"}), "error.code"),
    ("sendEmail-admin", report_with(error={"message": f"m{NUL}"}), "error.message"),
    ("sendEmail-admin", report_with(error={"details": {"k": f"v{NUL}"}}), "error.details"),
    ("sendEmail-admin", report_with(context={f"k{LONE_SURROGATE}": 1}), "context"),
    ("analytics-log", exception_event(f"TypeError{NUL}"), "exception.params.description"),
    ("analytics-log", exception_event(f"a{LINE_SEPARATOR}b"), "exception.params.description"),
]


async def call_json(
    base_url: str, name: str, data: Any, token: str | None = None
) -> tuple[int, dict[str, Any]]:
    """call_http, with the body as ASCII JSON: a lone surrogate travels as its \\u escape (it
    has no UTF-8 form), as browsers' JSON.stringify sends it."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            f"/functions/{name}", content=json.dumps({"data": data}), headers=headers
        )
    return reply.status_code, reply.json()


def names_the_field(body: dict[str, Any], field: str) -> bool:
    error = body["error"]
    return bool(
        error["status"] == "INVALID_ARGUMENT"
        and field in error["details"]["fields"]
        and error["details"]["codes"][field] == CONTROL
    )


@pytest.mark.parametrize(("name", "data", "field"), REFUSED_CALLS)
async def test_control_characters_in_callable_text_are_refused_over_http(
    base_url: str, name: str, data: dict[str, Any], field: str
) -> None:
    status, body = await call_json(base_url, name, data)
    assert status == 400, body
    assert names_the_field(body, field), body


@pytest.mark.parametrize(("name", "data", "field"), REFUSED_CALLS)
async def test_control_characters_in_callable_text_are_refused_over_a_socket(
    base_url: str, alice: Account, name: str, data: dict[str, Any], field: str
) -> None:
    async with connect(base_url, alice.token) as sock:
        reply = await sock.call(name, data)
    assert names_the_field(reply, field), reply


@pytest.mark.parametrize("email", [f"a{NUL}@example.jp", "a@example.jp\r\nBcc: b@example.jp"])
async def test_an_address_with_control_characters_gets_no_link(base_url: str, email: str) -> None:
    status, body = await call_http(base_url, "sendEmail-authLink", {"email": email})
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT", body
    assert "email" in body["error"]["details"]["fields"]


async def test_multi_line_text_keeps_line_breaks_and_tabs(base_url: str) -> None:
    text = "一行目\r\n二行目\tタブ\r三行目 👩\u200d👩\u200d👧"
    status, body = await call_http(base_url, "contact-send", contact(message=text))
    assert (status, body) == (200, {"data": {"sent": True}})
    mails = await outbox(base_url, "contact@demo-clinic.example")
    assert any("一行目\n二行目\tタブ\n三行目 👩\u200d👩\u200d👧" in m["text"] for m in mails)


async def test_a_line_break_never_reaches_a_mail_subject_or_the_log(
    server: ServerProcess,
) -> None:
    marker = unique_email("forged").split("@")[0]
    status, _ = await call_http(
        server.url, "contact-send", contact(name=f"山田\r\nINFO {marker} Bcc: v@example.com")
    )
    assert status == 400
    mails = await outbox(server.url, "contact@demo-clinic.example")
    assert not any(marker in m["subject"] + m["text"] for m in mails)
    assert marker not in server.log()


def test_log_lines_escape_control_characters() -> None:
    """The server process's logging (realtime/logs.py, set up by `python -m realtime`) writes
    one line per record, whatever the record quotes."""
    script = (
        "import logging\n"
        "from realtime.logs import configure_logging\n"
        "configure_logging('info')\n"
        "logging.getLogger('t').info('subject: %s', 'a\\r\\nINFO forged\\x00\\u2028')\n"
        "try:\n"
        "    raise ValueError('x\\ny\\x1b[31m')\n"
        "except ValueError:\n"
        "    logging.getLogger('t').exception('failed')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=30
    )
    lines = done.stderr.splitlines()
    assert lines[0] == "INFO t subject: a\\r\\nINFO forged\\x00\\u2028"
    assert lines[1] == "ERROR t failed"
    assert "\x1b" not in done.stderr and "\\x1b[31m" in done.stderr
    assert not any(line.startswith("INFO forged") for line in lines)


# Documents (socket `update`) ------------------------------------------------------------


@pytest_asyncio.fixture
async def someone(base_url: str) -> AsyncIterator[Person]:
    async with person(base_url, "cancer") as who:
        info = await who.call("service-read", {"id": "cancer", "clinicId": "demo-clinic"})
        version = info["data"]["consentVersion"]
        await who.call(
            "appointment-consent", {"appointmentId": who.appointment_id, "version": version}
        )
        yield who


def refused_update(reply: dict[str, Any], field: str) -> bool:
    error = reply.get("error", {})
    return bool(
        error.get("status") == "INVALID_ARGUMENT"
        and error["details"]["codes"].get(field) == CONTROL
        and field in error["details"]["fields"]
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("userAgent", f"Mozilla/5.0{NUL}"),
        ("userAgent", "Mozilla/5.0\nX"),
        ("version", f"1.0{LONE_SURROGATE}"),
    ],
)
async def test_user_record_text_with_control_characters_is_refused(
    someone: Person, field: str, value: str
) -> None:
    path = f"users/{someone.uid}"
    reply = await someone.sock.update(path, {field: value})
    assert refused_update(reply, field), reply
    assert (await someone.sock.update(path, {field: "Mozilla/5.0"}))["version"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("intake.contactInfo.alias", f"ヤマダ{NUL}"),  # one-line text
        ("intake.contactInfo.alias", "ヤマダ\nハナコ"),
        ("intake.contactInfo.address", f"1 Main St{NUL}"),  # textarea
        ("intake.requests.topics", f"相談{NUL}"),  # textarea
        ("intake.requests.topics", f"相談{LONE_SURROGATE}"),
        ("intake.requests.topics", "相談\x0b"),
        ("intake.requests.referralHospitalName", f"病院{LINE_SEPARATOR}"),
    ],
)
async def test_intake_text_with_control_characters_is_refused(
    someone: Person, field: str, value: str
) -> None:
    kept = await someone.sock.update(someone.path, {"intake.requests.expectationsOther": "kept"})
    assert "version" in kept, kept
    reply = await someone.sock.update(someone.path, {field: value})
    assert refused_update(reply, field), reply
    intake = (await someone.document())["intake"]
    assert intake["requests"]["expectationsOther"] == "kept"


async def test_textarea_keeps_line_breaks_and_tabs(someone: Person) -> None:
    reply = await someone.sock.update(
        someone.path, {"intake.requests.topics": "一行目\r\n二行目\tタブ"}
    )
    assert "version" in reply, reply
    assert (await someone.document())["intake"]["requests"]["topics"] == "一行目\n二行目\tタブ"


async def test_a_cancel_reason_with_control_characters_is_refused(base_url: str) -> None:
    async with person(base_url, "cancer") as who:
        bad = await who.call(
            "appointment-cancel", {"appointmentId": who.appointment_id, "reason": f"x{NUL}"}
        )
        assert names_the_field(bad, "reason"), bad
        assert (await who.document())["status"] == "draft"
        status, body = await call_json(
            base_url,
            "appointment-cancel",
            {"appointmentId": who.appointment_id, "reason": f"x{LONE_SURROGATE}"},
            who.token,
        )
        assert status == 400 and names_the_field(body, "reason"), body
        done = await who.call(
            "appointment-cancel", {"appointmentId": who.appointment_id, "reason": "都合\r\nのため"}
        )
    assert done == {"data": {"status": "cancelled", "refund": None}}
