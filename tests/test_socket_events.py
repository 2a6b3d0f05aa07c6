"""Socket event payloads are validated by their models (realtime/events.py) like callables'
inputs: a wrong type, a missing field or an unknown key is INVALID_ARGUMENT naming the field
in `details.fields`, and the refused event changes nothing."""

from typing import Any

import pytest

from tests.support.clients import Account, connect

NOT_VALID = "The request is not valid."
REQUIRED = "Field required"
NOT_TEXT = "Input should be a valid string"
NOT_INTEGER = "Input should be a valid integer"
NOT_OBJECT = "Input should be a valid dictionary"
EXTRA = "Extra inputs are not permitted"


def refused_fields(reply: dict[str, Any]) -> dict[str, str]:
    """The `details.fields` of an INVALID_ARGUMENT refusal in the callables' format."""
    error = reply["error"]
    assert error["status"] == "INVALID_ARGUMENT", reply
    assert error["message"] == NOT_VALID, reply
    assert set(error["details"]) == {"fields"}, reply
    fields: dict[str, str] = error["details"]["fields"]
    return fields


@pytest.mark.parametrize(
    ("event", "payload", "fields"),
    [
        ("call", {"data": {}}, {"name": REQUIRED}),
        ("call", {"name": "clinic-read"}, {"data": REQUIRED}),
        ("call", {"name": 7, "data": {}}, {"name": NOT_TEXT}),
        ("call", {"name": "clinic-read", "data": {}, "id": "x"}, {"id": EXTRA}),
        ("subscribe", {}, {"path": REQUIRED}),
        ("subscribe", {"path": 5}, {"path": NOT_TEXT}),
        ("subscribe", {"path": ["users", "x"]}, {"path": NOT_TEXT}),
        ("subscribe", {"path": "users/x", "version": "3"}, {"version": NOT_INTEGER}),
        ("subscribe", {"path": "users/x", "version": True}, {"version": NOT_INTEGER}),
        ("subscribe", {"path": "users/x", "since": 3}, {"since": EXTRA}),
        ("unsubscribe", {"path": 5}, {"path": NOT_TEXT}),
        ("unsubscribe", {"path": "users/x", "all": True}, {"all": EXTRA}),
        ("update", {"path": "users/x"}, {"data": REQUIRED}),
        ("update", {"path": "users/x", "data": None}, {"data": NOT_OBJECT}),
        ("update", {"path": "users/x", "data": ["locale"]}, {"data": NOT_OBJECT}),
        ("update", {"data": {"locale": "en"}}, {"path": REQUIRED}),
        ("update", {"path": 5, "data": {"locale": "en"}}, {"path": NOT_TEXT}),
        (
            "update",
            {"path": "users/x", "data": {"locale": "en"}, "baseVersion": True},
            {"baseVersion": NOT_INTEGER},
        ),
        (
            "update",
            {"path": "users/x", "data": {"locale": "en"}, "baseVersion": "1"},
            {"baseVersion": NOT_INTEGER},
        ),
        (
            "update",
            {"path": "users/x", "data": {"locale": "en"}, "base_version": 1},
            {"base_version": EXTRA},
        ),
        ("activity", {"step": 5}, {"step": NOT_TEXT}),
        ("activity", {"step": "contact", "uid": "someone"}, {"uid": EXTRA}),
    ],
)
async def test_a_malformed_payload_names_its_field(
    base_url: str, alice: Account, event: str, payload: dict[str, Any], fields: dict[str, str]
) -> None:
    async with connect(base_url, alice.token) as sock:
        assert refused_fields(await sock.request(event, payload)) == fields


@pytest.mark.parametrize("event", ["call", "subscribe", "unsubscribe", "update", "activity"])
@pytest.mark.parametrize("payload", [None, [], "users/x", 5])
async def test_a_payload_that_is_no_object_is_refused(
    base_url: str, alice: Account, event: str, payload: Any
) -> None:
    async with connect(base_url, alice.token) as sock:
        reply = await sock.request(event, payload)
    message = "The payload must be a JSON object."
    assert reply == {
        "error": {
            "status": "INVALID_ARGUMENT",
            "message": message,
            "details": {"fields": {"payload": message}},
        }
    }


async def test_a_refused_update_changes_nothing(base_url: str, alice: Account) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as sock:
        before = (await sock.subscribe(path))["snapshot"]
        for payload in (
            {"path": path},
            {"path": path, "data": {"userAgent": "typed"}, "baseVersion": True},
            {"path": path, "data": {"userAgent": "typed"}, "extra": 1},
        ):
            assert "error" in await sock.request("update", payload)
        after = (await sock.subscribe(path))["snapshot"]
        assert path not in sock.pushes
    assert after == before


async def test_a_refused_subscribe_follows_nothing(
    base_url: str, alice: Account, bob: Account
) -> None:
    """Neither a malformed subscribe nor one the rules refuse joins the document's room."""
    path = f"users/{alice.uid}"
    async with connect(base_url, bob.token) as stranger, connect(base_url, alice.token) as owner:
        assert "error" in await stranger.request("subscribe", {"path": path, "since": 1})
        assert stranger.pushes == {}
        denied = await stranger.subscribe(path)
        assert denied["error"]["status"] == "PERMISSION_DENIED"
        await owner.subscribe(path)
        version = (await owner.update(path, {"userAgent": "after the refusals"}))["version"]
        await owner.wait_for_version(path, version)
        # The owner has the push; one on the stranger's own socket comes after the one it
        # would have had, had it joined.
        own = f"users/{bob.uid}"
        await stranger.subscribe(own)
        barrier = (await stranger.update(own, {"userAgent": "barrier"}))["version"]
        await stranger.wait_for_version(own, barrier)
    assert path not in stranger.pushes


async def test_valid_payloads_keep_working(base_url: str, alice: Account) -> None:
    """Every optional field given, with its wire name."""
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as sock:
        held = (await sock.subscribe(path, version=1))["snapshot"]["version"]
        reply = await sock.update(path, {"userAgent": "typed"}, base_version=held)
        assert reply == {"version": held + 1}
        assert await sock.request("activity", {"step": "contact"}) == {"ok": True}
        assert await sock.request("activity", {}) == {"ok": True}
        assert await sock.request("unsubscribe", {"path": path}) == {"ok": True}
        assert await sock.request("unsubscribe", {"path": "not/followed"}) == {"ok": True}
        called = await sock.request("call", {"name": "clinic-read", "data": {"id": "demo-clinic"}})
        assert called["data"]["id"] == "demo-clinic"
