"""The property every reply of the fuzz suite must have (docs/protocol.md, errors).

A refusal is `{"error": {"status", "message", "details"?}}` with a status of the contract,
never INTERNAL, a message without stack traces or SQL; a refusal of input
(INVALID_ARGUMENT) names what was wrong in `details` (`fields`, `codes`, or the `missing`
answers of a submit). Each check is its own assert, so hypothesis reports each kind of
failure apart.
"""

import json
from typing import Any

import httpx

from realtime.contract import ERROR_STATUSES

LEAK_MARKERS = ("Traceback", "SELECT ", "sqlalchemy", "asyncpg", 'File "')
NAMING_DETAILS = ("fields", "codes", "missing")
TOO_LARGE_STATUS = 413


def check_error(error: Any) -> None:
    assert isinstance(error, dict), f"error is not an object: {error!r}"
    assert {"status", "message"} <= set(error) <= {"status", "message", "details"}, error
    assert error["status"] in ERROR_STATUSES, f"unknown status: {error!r}"
    assert error["status"] != "INTERNAL", f"INTERNAL: {error!r}"
    message = error["message"]
    assert isinstance(message, str) and message, f"no message: {error!r}"
    assert not any(marker in message for marker in LEAK_MARKERS), f"leaky message: {error!r}"
    if error["status"] == "INVALID_ARGUMENT":
        details = error.get("details")
        named = isinstance(details, dict) and any(details.get(key) for key in NAMING_DETAILS)
        assert named, f"INVALID_ARGUMENT names no field: {error!r}"


def check_reply(reply: Any, success_keys: set[str]) -> None:
    """A socket ack: the success shape of its event, or an error in the format."""
    assert isinstance(reply, dict), f"ack is not an object: {reply!r}"
    if "error" in reply:
        assert set(reply) == {"error"}, reply
        check_error(reply["error"])
    else:
        assert set(reply) == success_keys, reply


def check_response(response: httpx.Response) -> None:
    """An HTTP reply: JSON (never plain text), `{"data"}` or an error with its status code."""
    kind = response.headers.get("content-type", "")
    assert kind.startswith("application/json"), (
        f"not JSON: {response.status_code} {kind} {response.text[:300]!r}"
    )
    body = json.loads(response.content)
    if response.status_code == 200:
        assert isinstance(body, dict) and set(body) == {"data"}, body
        return
    assert isinstance(body, dict) and set(body) == {"error"}, body
    check_error(body["error"])
    expected = {ERROR_STATUSES[body["error"]["status"]]}
    if body["error"]["status"] == "INVALID_ARGUMENT":
        expected.add(TOO_LARGE_STATUS)  # a body over 64 KiB (docs/protocol.md, "Callables")
    assert response.status_code in expected, f"{response.status_code} for {body!r}"


# Lines a client's text may not start in the server's log (hostile values carry them after a
# line break: tests/support/fuzz_values.EDGE_STRINGS).
FORGED_LINES = ("Injected: log line", "Bcc: evil@example.com")


def check_log_lines(log: str) -> None:
    forged = [line for line in log.splitlines() if line.startswith(FORGED_LINES)]
    assert not forged, f"a client's text forged log lines: {forged!r}"


def check_mails(mails: list[dict[str, Any]]) -> None:
    """A mail's subject is one line: a client's CR/LF in it would forge headers."""
    broken = [m["subject"] for m in mails if "\r" in m["subject"] or "\n" in m["subject"]]
    assert not broken, f"a line break reached a mail subject: {broken!r}"
