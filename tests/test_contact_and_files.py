"""The contact form and clinic documents in file storage."""

import base64
import hashlib

import httpx
import pytest

from tests.conftest import unique_email
from tests.support.clients import call_http, outbox


async def test_a_contact_message_is_stored_and_mailed_to_the_clinic(base_url: str) -> None:
    message = {
        "name": "山田 花子",
        "email": "Hanako@Example.jp",
        "message": "予約の変更について",
        "appointmentId": "abc123",
    }
    status, body = await call_http(base_url, "contact-send", message)
    assert (status, body) == (200, {"data": {"sent": True}})
    mail = (await outbox(base_url, "contact@demo-clinic.example"))[0]
    assert "山田 花子" in mail["subject"]
    assert "hanako@example.jp" in mail["text"] and "abc123" in mail["text"]
    assert "予約の変更について" in mail["text"]


async def test_the_sender_gets_an_acknowledgement_without_their_message(base_url: str) -> None:
    """In the form's language (Japanese unless told), with the answer time and the clinic's
    signature, and nothing the sender wrote: the address may be someone else's."""
    secret = "妊娠12週 NIPT 陽性 / positive screening result"
    for locale, expected in (("en", "usually within 2 business days"), (None, "通常2営業日以内")):
        sender = unique_email("contact")
        message = {"name": "Taro Mistyped", "email": sender, "message": secret}
        status, body = await call_http(
            base_url, "contact-send", message if locale is None else {**message, "locale": locale}
        )
        assert (status, body) == (200, {"data": {"sent": True}})
        [ack] = await outbox(base_url, sender)
        brand = "[Genetic Counseling Booking] " if locale == "en" else "【遺伝カウンセリング予約】"
        assert ack["subject"].startswith(brand) and ack["subject"].count(brand.strip()) == 1
        assert expected in ack["text"] and "contact@demo-clinic.example" in ack["text"]
        for part in (ack["subject"], ack["text"]):
            assert "NIPT" not in part and "妊娠" not in part and "Mistyped" not in part
        assert ack["links"] == []
    status, body = await call_http(
        base_url, "contact-send", {**message, "email": unique_email("contact"), "locale": "fr"}
    )
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize(
    ("message", "missing"),
    [
        ({"name": "", "email": "a@b.jp", "message": "x"}, {"name"}),
        ({"name": "A", "email": "  ", "message": " "}, {"email", "message"}),
        ({"name": "A", "email": "not-an-address", "message": "x"}, {"email"}),
        ({}, {"name", "email", "message"}),
    ],
)
async def test_incomplete_messages_are_refused_with_the_seed_message(
    base_url: str, message: dict[str, str], missing: set[str]
) -> None:
    status, body = await call_http(base_url, "contact-send", message)
    assert status == 400
    assert body["error"]["message"] == "Some of the fields are incomplete."
    assert set(body["error"]["details"]["codes"]) == missing


async def test_documents_are_served_with_their_metadata(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        meta = (await http.get("/files/demo-clinic/consent-form/ja/metadata")).json()["data"]
        content = await http.get("/files/demo-clinic/consent-form/ja")
        again = await http.get(
            "/files/demo-clinic/consent-form/ja", headers={"If-None-Match": content.headers["etag"]}
        )
    assert content.status_code == 200
    assert content.headers["content-type"] == "text/plain; charset=utf-8"
    assert int(content.headers["content-length"]) == meta["size"] == len(content.content)
    assert content.headers["content-disposition"].startswith("attachment;")
    assert "同意書" in content.text
    assert meta["md5Hash"] == base64.b64encode(hashlib.md5(content.content).digest()).decode()
    assert meta["fullPath"] == "demo-clinic/consent-form/ja"
    assert set(meta) >= {
        "bucket",
        "generation",
        "metageneration",
        "name",
        "timeCreated",
        "updated",
        "cacheControl",
        "contentDisposition",
        "contentEncoding",
        "contentLanguage",
        "contentType",
        "customMetadata",
    }
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/files/demo-clinic/no-such-doc/ja",
        "/files/demo-clinic/consent-form/fr",
        "/files/other-clinic/consent-form/ja",
        "/files/demo-clinic/..%2F..%2Fetc/ja",
        "/files/demo-clinic/consent-form/ja/metadata/x",
    ],
)
async def test_missing_documents_are_not_found(base_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get(path)
    assert reply.status_code == 404
