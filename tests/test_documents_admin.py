"""Clinic documents' administration (docs/protocol.md, "Clinic administration" / "Clinic
documents"; docs/security.md, "Uploaded documents"): upload, replace, retire, and every
refusal, on both databases through real servers. Each test works on a document id of its
own, so the demo documents other tests read stay as they are."""

import asyncio
import secrets
import struct
import time
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import text

from storage.db import open_database
from tests.support.clients import Account, call_http, sign_in
from tests.support.server import ServerProcess
from tests.test_staff_audit import other_staff  # noqa: F401  (a fixture)

ADMIN = "staff@demo-clinic.example"
COUNSELOR = "sato@demo-clinic.example"
CLINIC = "demo-clinic"
MB = 1024 * 1024

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def png() -> bytes:
    """A real 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def new_doc() -> str:
    return f"test-{secrets.token_hex(4)}"


async def upload(
    base_url: str,
    token: str | None,
    doc: str,
    *,
    locale: str = "ja",
    name: str = "同意書.pdf",
    content: bytes = PDF,
    content_type: str = "application/pdf",
    title: str | None = "同意書",
    clinic: str = CLINIC,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    data = {} if title is None else {"title": title}
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        return await http.post(
            f"/staff/documents/{clinic}/{doc}/{locale}",
            files={"file": (name, content, content_type)},
            data=data,
            headers=sent,
        )


async def retire(base_url: str, token: str, doc: str, locale: str = "ja") -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.post(
            f"/staff/documents/{CLINIC}/{doc}/{locale}/retire",
            headers={"Authorization": f"Bearer {token}"},
        )


async def listed(base_url: str, token: str) -> dict[tuple[str, str], dict[str, Any]]:
    status, body = await call_http(base_url, "documents-read", {"clinicId": CLINIC}, token)
    assert status == 200, body
    return {(d["docId"], d["locale"]): d for d in body["data"]["documents"]}


async def served(base_url: str, doc: str, locale: str = "ja") -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(f"/files/{CLINIC}/{doc}/{locale}")


async def metadata(base_url: str, doc: str, locale: str = "ja") -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(f"/files/{CLINIC}/{doc}/{locale}/metadata")


async def audit_entries(base_url: str, token: str, doc: str) -> list[dict[str, Any]]:
    status, body = await call_http(base_url, "staff-audit-read", {"clinicId": CLINIC}, token)
    assert status == 200, body
    return [
        e
        for e in body["data"]["entries"]
        if e["action"].startswith("document.") and (e["detail"] or {}).get("docId") == doc
    ]


def refused_field(response: httpx.Response) -> tuple[int, dict[str, str], dict[str, str]]:
    error = response.json()["error"]
    details = error.get("details") or {}
    return response.status_code, details.get("fields", {}), details.get("codes", {})


@pytest_asyncio.fixture
async def admin(base_url: str) -> Account:
    return await sign_in(base_url, ADMIN)


def files_dir(server: ServerProcess) -> Path:
    return Path(server.env.get("FILES_DIR") or server.log_path.parent / f"files-{server.port}")


async def test_an_upload_is_served_listed_and_audited(base_url: str, admin: Account) -> None:
    doc = new_doc()
    reply = await upload(base_url, admin.token, doc, name="../../同意書.pdf")
    assert reply.status_code == 200, reply.text
    stored = reply.json()["data"]
    assert stored["title"] == "同意書" and stored["name"] == "同意書.pdf"
    assert stored["contentType"] == "application/pdf" and stored["size"] == len(PDF)
    assert stored["generation"] == 1 and stored["retiredAt"] is None
    assert (await listed(base_url, admin.token))[(doc, "ja")] == stored
    content = await served(base_url, doc)
    assert content.status_code == 200 and content.content == PDF
    assert content.headers["content-type"] == "application/pdf"
    meta = (await metadata(base_url, doc)).json()["data"]
    assert meta["customMetadata"] == {"title": "同意書"} and meta["contentLanguage"] == "ja"
    [entry] = await audit_entries(base_url, admin.token, doc)
    assert entry["action"] == "document.upload" and entry["email"] == ADMIN
    assert entry["detail"] == {
        "docId": doc,
        "locale": "ja",
        "size": len(PDF),
        "contentType": "application/pdf",
        "generation": 1,
    }


async def test_a_long_japanese_file_name_is_shortened_to_fit(base_url: str, admin: Account) -> None:
    doc = new_doc()
    reply = await upload(base_url, admin.token, doc, name="遺伝カウンセリング同意書" * 8 + ".pdf")
    assert reply.status_code == 200, reply.text
    name = reply.json()["data"]["name"]
    assert name.startswith("遺伝カウンセリング同意書") and name.endswith(".pdf")
    content = await served(base_url, doc)
    assert content.status_code == 200 and len(content.headers["content-disposition"]) <= 300


async def test_a_replacement_raises_the_generation_and_serves_the_new_bytes(
    base_url: str, admin: Account, server: ServerProcess
) -> None:
    doc = new_doc()
    first = await upload(base_url, admin.token, doc, locale="en", name="consent.pdf")
    assert first.status_code == 200
    etag = (await served(base_url, doc, "en")).headers["etag"]
    text = b"Consent form, second edition\n"
    second = await upload(
        base_url,
        admin.token,
        doc,
        locale="en",
        name="consent-v2.txt",
        content=text,
        content_type="text/plain",
        title="Consent form (2nd ed.)",
    )
    assert second.status_code == 200, second.text
    assert second.json()["data"]["generation"] == 2
    content = await served(base_url, doc, "en")
    assert content.content == text and content.headers["etag"] != etag
    assert content.headers["content-type"] == "text/plain; charset=utf-8"
    async with httpx.AsyncClient(base_url=base_url) as http:
        stale = await http.get(f"/files/{CLINIC}/{doc}/en", headers={"If-None-Match": etag})
    assert stale.status_code == 200
    # Only the served generation is kept on disk.
    kept = sorted(p.name for p in (files_dir(server) / CLINIC / doc / "en").iterdir())
    assert kept == ["2"]
    generations = [
        e["detail"]["generation"] for e in await audit_entries(base_url, admin.token, doc)
    ]
    assert generations == [2, 1]


async def test_a_retired_document_is_gone_for_clients_listed_for_admins_and_comes_back(
    base_url: str, admin: Account
) -> None:
    doc = new_doc()
    assert (await upload(base_url, admin.token, doc)).status_code == 200
    reply = await retire(base_url, admin.token, doc)
    assert reply.status_code == 200 and reply.json()["data"]["retiredAt"] is not None
    for response in (await served(base_url, doc), await metadata(base_url, doc)):
        assert response.status_code == 410
        assert response.json()["error"]["message"] == "This document is no longer available."
    assert (await listed(base_url, admin.token))[(doc, "ja")]["retiredAt"] is not None
    again = await retire(base_url, admin.token, doc)  # nothing more to do, nothing recorded
    assert again.status_code == 200
    actions = [e["action"] for e in await audit_entries(base_url, admin.token, doc)]
    assert actions == ["document.retire", "document.upload"]
    back = await upload(
        base_url, admin.token, doc, name="new.png", content=png(), content_type="image/png"
    )
    assert back.status_code == 200 and back.json()["data"]["retiredAt"] is None
    assert back.json()["data"]["generation"] == 2
    assert (await served(base_url, doc)).content == png()
    assert (await retire(base_url, admin.token, new_doc())).status_code == 404


def refusing_statements(url: str, doc: str) -> tuple[list[str], list[str]]:
    """Triggers that make the database refuse any write of `doc`'s row, and their removal."""
    name = f"refuse_{doc.replace('-', '_')}"
    match = f"NEW.full_path LIKE '{CLINIC}/{doc}/%'"
    if url.startswith("postgresql"):
        return [
            f"CREATE FUNCTION {name}() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql",
            f"CREATE TRIGGER {name} BEFORE INSERT OR UPDATE ON stored_files FOR EACH ROW "
            f"WHEN ({match}) EXECUTE FUNCTION {name}()",
        ], [f"DROP TRIGGER {name} ON stored_files", f"DROP FUNCTION {name}()"]
    return [
        f"CREATE TRIGGER {name}_{event} BEFORE {event} ON stored_files WHEN {match} "
        "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        for event in ("INSERT", "UPDATE")
    ], [f"DROP TRIGGER {name}_{event}" for event in ("INSERT", "UPDATE")]


async def run_statements(url: str, statements: list[str]) -> None:
    db = open_database(url)
    try:
        async with db.write() as session:
            for statement in statements:
                await (await session.connection()).execute(text(statement))
    finally:
        await db.close()


async def test_a_replacement_the_database_refuses_leaves_the_old_document_whole(
    base_url: str, admin: Account, server: ServerProcess
) -> None:
    """The new bytes are moved into place inside the transaction: when it does not commit,
    they are removed, and the old file, row and log stay as they were."""
    doc = new_doc()
    assert (await upload(base_url, admin.token, doc)).status_code == 200
    etag = (await served(base_url, doc)).headers["etag"]
    url = server.env["DATABASE_URL"]
    install, remove = refusing_statements(url, doc)
    await run_statements(url, install)
    try:
        failed = await upload(
            base_url, admin.token, doc, name="b.txt", content=b"new\n", content_type="text/plain"
        )
        first = await upload(base_url, admin.token, new_doc() + "x", content=PDF)  # others go on
    finally:
        await run_statements(url, remove)
    assert failed.status_code == 500 and failed.json()["error"]["status"] == "INTERNAL"
    assert first.status_code == 200
    content = await served(base_url, doc)
    assert (content.status_code, content.content, content.headers["etag"]) == (200, PDF, etag)
    assert (await listed(base_url, admin.token))[(doc, "ja")]["generation"] == 1
    kept = sorted(p.name for p in (files_dir(server) / CLINIC / doc / "ja").iterdir())
    assert kept == ["1"]
    assert list((files_dir(server) / ".incoming").glob("*")) == []
    assert [e["action"] for e in await audit_entries(base_url, admin.token, doc)] == [
        "document.upload"
    ]
    again = await upload(
        base_url, admin.token, doc, name="b.txt", content=b"new\n", content_type="text/plain"
    )
    assert again.status_code == 200 and again.json()["data"]["generation"] == 2


async def _raw_exchange(base_url: str, head: str, body: bytes = b"") -> tuple[int, float]:
    """Send a request head (and the start of a body) and never the rest: the status line
    of the answer and how long it took."""
    url = urlsplit(base_url)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    started = time.monotonic()
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout=5)
    finally:
        writer.close()
    return int(line.split()[1]), time.monotonic() - started


def _head(path: str, token: str, length: int, port: int) -> str:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\n"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )


async def test_a_50_mb_upload_is_refused_at_once_and_nothing_is_stored(
    base_url: str, admin: Account, server: ServerProcess
) -> None:
    doc = new_doc()
    path = f"/staff/documents/{CLINIC}/{doc}/ja"
    status, took = await _raw_exchange(base_url, _head(path, admin.token, 50 * MB, server.port))
    assert status == 413 and took < 2
    # A body that does not say its length is cut off once past the limit.
    big = PDF + b"\0" * (21 * MB)
    reply = await upload(base_url, admin.token, doc, content=big)
    assert reply.status_code == 413
    assert refused_field(reply) == (
        413,
        {"file": "The file is larger than 20 MB."},
        {"file": "tooLarge"},
    )
    assert (doc, "ja") not in await listed(base_url, admin.token)
    assert (await served(base_url, doc)).status_code == 404
    assert not (files_dir(server) / CLINIC / doc).exists()
    assert list((files_dir(server) / ".incoming").glob("*")) == []


async def test_a_streamed_body_is_cut_off_and_a_file_just_over_the_limit_refused(
    base_url: str, admin: Account, server: ServerProcess
) -> None:
    doc = new_doc()
    boundary = "b0undary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: chunked
        yield head + PDF
        for _ in range(40):
            yield b"\0" * MB

    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        reply = await http.post(
            f"/staff/documents/{CLINIC}/{doc}/ja",
            content=chunks(),
            headers={
                "Authorization": f"Bearer {admin.token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
    assert refused_field(reply)[0::2] == (413, {"file": "tooLarge"})
    # Just over 20 MB: within the request's allowance for the form, refused by the file's size.
    reply = await upload(base_url, admin.token, doc, content=PDF + b"%" * (20 * MB))
    assert refused_field(reply)[0::2] == (413, {"file": "tooLarge"})
    assert (doc, "ja") not in await listed(base_url, admin.token)
    assert not (files_dir(server) / CLINIC / doc).exists()


@pytest.mark.parametrize(
    ("name", "content", "content_type", "code"),
    [
        ("setup.pdf", b"MZ\x90\x00\x03" + b"\0" * 64, "application/pdf", "executable"),
        ("tool.txt", b"\x7fELF\x02\x01\x01" + b"\0" * 64, "text/plain", "executable"),
        ("run.txt", b"#!/bin/sh\nrm -rf /\n", "text/plain", "executable"),
        ("page.txt", b"<!DOCTYPE html><script>alert(1)</script>", "text/plain", "executable"),
        (
            "logo.txt",
            b'<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>',
            "text/plain",
            "executable",
        ),
        ("photo.pdf", png(), "application/pdf", "mismatch"),
        ("photo.png", png(), "application/pdf", "mismatch"),
        ("consent.pdf", "同意書\n".encode(), "application/pdf", "mismatch"),
        ("data.bin", b"\0\1\2\3" * 100, "application/octet-stream", "type"),
        ("latin.txt", "caf\xe9\n".encode("latin-1"), "text/plain", "type"),
        ("empty.txt", b"", "text/plain", "empty"),
    ],
)
async def test_content_is_sniffed_and_a_bad_file_is_refused_naming_it(
    base_url: str, admin: Account, name: str, content: bytes, content_type: str, code: str
) -> None:
    doc = new_doc()
    reply = await upload(
        base_url, admin.token, doc, name=name, content=content, content_type=content_type
    )
    status, fields, codes = refused_field(reply)
    assert (status, set(fields), codes) == (400, {"file"}, {"file": code})
    assert (await served(base_url, doc)).status_code == 404


@pytest.mark.parametrize(
    ("doc", "locale", "title", "field"),
    [
        ("ok-doc", "ja", "line\nbreak", "title"),
        ("ok-doc", "ja", "", "title"),
        ("ok-doc", "ja", None, "title"),
        ("ok-doc", "ja", "x" * 121, "title"),
        ("bad.doc", "ja", "t", "docId"),
        ("ok-doc", "fr", "t", "locale"),
    ],
)
async def test_the_title_document_id_and_language_are_checked(
    base_url: str, admin: Account, doc: str, locale: str, title: str | None, field: str
) -> None:
    reply = await upload(base_url, admin.token, doc, locale=locale, title=title)
    status, fields, _codes = refused_field(reply)
    assert (status, set(fields)) == (400, {field})


async def test_others_are_refused_before_the_body_is_read(
    base_url: str,
    server: ServerProcess,
    other_staff: Account,  # noqa: F811
) -> None:
    doc = new_doc()
    client = await sign_in(base_url, f"client-{secrets.token_hex(4)}@example.com")
    counselor = await sign_in(base_url, COUNSELOR)
    path = f"/staff/documents/{CLINIC}/{doc}/ja"
    # Headers announcing 10 MB and no body at all: the refusal comes without waiting for it.
    for token, expected in (
        (client.token, 403),
        (counselor.token, 403),
        (other_staff.token, 403),
        ("not-a-session", 401),
    ):
        status, took = await _raw_exchange(base_url, _head(path, token, 10 * MB, server.port))
        assert (status, took < 2) == (expected, True)
    assert (await upload(base_url, None, doc)).status_code == 401
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/dev/token", json={"data": {"email": ADMIN, "secondFactor": False}}
        )
    before_second_factor = await upload(base_url, reply.json()["data"]["token"], doc)
    assert before_second_factor.status_code == 401
    assert before_second_factor.json()["error"]["details"] == {"secondFactor": "required"}
    assert (await upload(base_url, counselor.token, doc)).status_code == 403
    assert (await upload(base_url, other_staff.token, doc, clinic=CLINIC)).status_code == 403
    assert (await retire(base_url, counselor.token, "consent-form")).status_code == 403
    for token in (counselor.token, other_staff.token, client.token):
        status, _ = await call_http(base_url, "documents-read", {"clinicId": CLINIC}, token)
        assert status == 403
    assert (await served(base_url, doc)).status_code == 404


async def test_a_cookie_upload_must_come_from_our_own_page(base_url: str, admin: Account) -> None:
    doc = new_doc()
    cookie = {"Cookie": f"gc_session={admin.token}"}
    foreign = await upload(
        base_url, None, doc, headers={**cookie, "Origin": "https://evil.example"}
    )
    unnamed = await upload(base_url, None, doc, headers=cookie)
    assert (foreign.status_code, unnamed.status_code) == (403, 403)
    assert (await served(base_url, doc)).status_code == 404
    ours = await upload(base_url, None, doc, headers={**cookie, "Origin": base_url})
    assert ours.status_code == 200, ours.text
    async with httpx.AsyncClient(base_url=base_url) as http:
        forged = await http.post(
            f"/staff/documents/{CLINIC}/{doc}/ja/retire",
            headers={**cookie, "Origin": "https://evil.example"},
        )
    assert forged.status_code == 403
    assert (await served(base_url, doc)).status_code == 200
