"""Cookie-authenticated requests a foreign page could forge are refused (CSRF)."""

import json
from typing import Any

import httpx
import pytest

from realtime.auth import SESSION_COOKIE
from tests.conftest import unique_email
from tests.support.clients import Account, request_link, sign_in
from tests.support.server import ServerProcess

EVIL = "http://evil.example"
JSON = "application/json"
BODY = '{"data": {}}'


def cookie(person: Account) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={person.token}"}


async def post(server: ServerProcess, path: str, headers: dict[str, str]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post(path, content=BODY, headers=headers)


def denied(reply: httpx.Response) -> bool:
    body: dict[str, Any] = reply.json()
    return reply.status_code == 403 and body["error"]["status"] == "PERMISSION_DENIED"


@pytest.mark.parametrize(
    ("content_type", "origin"),
    [
        ("text/plain", EVIL),
        (JSON, EVIL),
        ("text/plain", None),
        ("text/plain", "same"),
        (JSON, "null"),
    ],
)
async def test_forgeable_cookie_calls_are_refused_and_change_nothing(
    server: ServerProcess, content_type: str, origin: str | None
) -> None:
    person = await sign_in(server.url, unique_email("csrf"))
    headers = {**cookie(person), "Content-Type": content_type}
    if origin is not None:
        headers["Origin"] = server.url if origin == "same" else origin
    reply = await post(server, "/functions/appointment-create", headers)
    assert denied(reply), reply.text
    async with httpx.AsyncClient(base_url=server.url) as http:
        me = await http.get("/auth/session", headers=cookie(person))
    assert me.json()["data"]["uid"] == person.uid
    # Nothing was created: the first real call makes the appointment (and it is the only one).
    mine = await post(
        server, "/functions/appointment-create", {**cookie(person), "Content-Type": JSON}
    )
    again = await post(
        server, "/functions/appointment-create", {**cookie(person), "Content-Type": JSON}
    )
    assert mine.status_code == 200 and mine.json() == again.json()


@pytest.mark.parametrize("origin", ["same", None])
async def test_our_clients_cookie_calls_pass(server: ServerProcess, origin: str | None) -> None:
    person = await sign_in(server.url, unique_email("csrf-ok"))
    headers = {**cookie(person), "Content-Type": "application/json; charset=utf-8"}
    if origin is not None:
        headers["Origin"] = server.url
    reply = await post(server, "/functions/appointment-create", headers)
    assert reply.status_code == 200, reply.text


async def test_bearer_calls_are_not_ambient_and_pass(server: ServerProcess) -> None:
    person = await sign_in(server.url, unique_email("csrf-bearer"))
    headers = {"Authorization": f"Bearer {person.token}", "Content-Type": "text/plain"}
    reply = await post(server, "/functions/appointment-create", {**headers, "Origin": EVIL})
    assert reply.status_code == 200, reply.text


async def test_a_foreign_page_cannot_sign_someone_out(server: ServerProcess) -> None:
    person = await sign_in(server.url, unique_email("csrf-out"))
    async with httpx.AsyncClient(base_url=server.url) as http:
        forged = await http.post("/auth/sign-out", headers={**cookie(person), "Origin": EVIL})
        still = await http.get("/auth/session", headers=cookie(person))
        ours = await http.post("/auth/sign-out", headers={**cookie(person), "Origin": server.url})
        after = await http.get("/auth/session", headers=cookie(person))
    assert denied(forged), forged.text
    assert still.json()["data"]["uid"] == person.uid
    assert ours.status_code == 200
    assert after.json() == {"data": None}


async def test_the_stripe_webhook_is_exempt(server: ServerProcess) -> None:
    person = await sign_in(server.url, unique_email("csrf-hook"))
    headers = {**cookie(person), "Content-Type": "text/plain", "Origin": EVIL}
    reply = await post(server, "/stripe/webhook", headers)
    assert reply.status_code == 400  # judged by its signature alone, never by cookie rules


async def test_a_foreign_page_cannot_sign_a_browser_in(server: ServerProcess) -> None:
    """Login CSRF: the attacker's own link, posted by a foreign page as a form."""
    email = unique_email("csrf-in")
    token = await request_link(server.url, email)
    body = json.dumps({"email": email, "token": token})
    async with httpx.AsyncClient(base_url=server.url) as http:
        for forged_headers in (
            {"Content-Type": "text/plain", "Origin": EVIL},
            {"Content-Type": JSON, "Origin": EVIL},
            {"Content-Type": "text/plain"},
        ):
            forged = await http.post("/auth/confirm", content=body, headers=forged_headers)
            assert denied(forged), forged.text
            assert SESSION_COOKIE not in forged.cookies
        ours = await http.post(
            "/auth/confirm", content=body, headers={"Content-Type": JSON, "Origin": server.url}
        )
    assert ours.status_code == 200, ours.text  # the refused tries did not use the link
