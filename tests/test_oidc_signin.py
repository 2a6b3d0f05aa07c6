"""Staff sign in through their clinic's OpenID Connect provider (docs/protocol.md, "Staff
sign-in through the clinic's identity provider"; docs/security.md, "Identity providers"), on
SQLite and on PostgreSQL + Redis, against a real local provider process (infra/oidc_local)
that checks the client, the redirect URI and PKCE as a real one does.

The demo clinic is given the provider through OIDC_PROVIDERS; each test makes its own staff
members and provider users. The flow is driven as a browser drives it: the start redirect,
the provider's authorize endpoint (`login_hint` picks the user), the callback with the
browser's cookies.
"""

import asyncio
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from sqlmodel import select

from storage.db import open_database
from storage.models import Clinic, StaffMember
from tests.conftest import unique_email
from tests.support.clients import call_http, confirm_link, connect, request_link
from tests.support.databases import REDIS_URL, redis_namespace
from tests.support.oidc_local import PROVIDER_NAME, OidcLocal
from tests.support.server import ServerProcess

CLINIC = "demo-clinic"
CHECK_SECONDS = 30
MAX_SECONDS = 3600


@pytest.fixture(scope="module")
def provider(run_dir: Path) -> Iterator[OidcLocal]:
    local = OidcLocal(log_path=run_dir / "oidc-local.log").start()
    yield local
    local.stop()


def _server(env: dict[str, str], run_dir: Path, name: str, provider: OidcLocal) -> ServerProcess:
    return ServerProcess(
        env={
            **env,
            **provider.server_env(CLINIC),
            "OIDC_CHECK_SECONDS": str(CHECK_SECONDS),
            "OIDC_SESSION_MAX_SECONDS": str(MAX_SECONDS),
        },
        log_path=run_dir / f"{name}.log",
    )


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def oidc_server(
    request: pytest.FixtureRequest, run_dir: Path, provider: OidcLocal
) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        env = {"DATABASE_URL": f"sqlite+aiosqlite:///{run_dir / 'oidc.db'}"}
    else:
        _, url = request.getfixturevalue("own_postgres_database")
        env = {
            "DATABASE_URL": url,
            "REDIS_URL": REDIS_URL,
            "REDIS_NAMESPACE": redis_namespace(),
        }
    server = _server(env, run_dir, f"oidc-{request.param}", provider).start()
    yield server
    server.stop()


@dataclass
class Outcome:
    """Where a sign-in ended: the path and query the browser was sent to, and the session
    token if one was made."""

    location: str
    token: str | None
    callback_url: str = ""

    @property
    def path(self) -> str:
        return urlsplit(self.location).path

    @property
    def refusal(self) -> str | None:
        values = parse_qs(urlsplit(self.location).query).get("staffSignIn")
        return values[0] if values else None


async def _to_provider(http: httpx.AsyncClient, base: str, clinic: str = CLINIC) -> str:
    start = await http.get(f"{base}/auth/oidc/{clinic}/start", params={"next": "/staff/audit"})
    assert start.status_code == 303, start.text
    return start.headers["location"]


async def _at_provider(http: httpx.AsyncClient, authorize_url: str, hint: str) -> str:
    reply = await http.get(f"{authorize_url}&{urlencode({'login_hint': hint})}")
    assert reply.status_code == 303, reply.text
    return str(reply.headers["location"])


async def _finish(http: httpx.AsyncClient, callback_url: str) -> Outcome:
    reply = await http.get(callback_url)
    assert reply.status_code == 303, reply.text
    return Outcome(reply.headers["location"], reply.cookies.get("gc_session"), callback_url)


async def sign_in(base: str, subject: str) -> Outcome:
    async with httpx.AsyncClient() as http:
        callback = await _at_provider(http, await _to_provider(http, base), subject)
        return await _finish(http, callback)


async def identity(base: str, token: str | None) -> dict[str, Any] | None:
    if token is None:
        return None
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.get("/auth/session", headers={"Authorization": f"Bearer {token}"})
    data: dict[str, Any] | None = reply.json()["data"]
    return data


async def new_member(base: str, clinic: str = CLINIC) -> str:
    email = unique_email("idp-staff")
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.post(
            "/dev/staff",
            json={"data": {"email": email, "clinicId": clinic, "role": "clinic_admin"}},
        )
    assert reply.status_code == 200, reply.text
    return email


async def other_clinic(server: ServerProcess) -> str:
    clinic_id = f"other-{secrets.token_hex(4)}"
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            session.add(
                Clinic(
                    id=clinic_id,
                    name={"ja": "別の医院", "en": "Another Clinic"},
                    timezone="Asia/Tokyo",
                    contact_email="contact@other.example",
                    service_aliases={},
                )
            )
    finally:
        await db.close()
    return clinic_id


async def linked_subject(server: ServerProcess, email: str) -> str | None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            member = (
                await session.exec(select(StaffMember).where(StaffMember.email == email))
            ).one()
            return member.oidc_subject
    finally:
        await db.close()


async def run_recheck(base: str, later: timedelta) -> int:
    now = (datetime.now(UTC) + later).isoformat()
    async with httpx.AsyncClient(base_url=base) as http:
        reply = await http.post("/dev/jobs/oidc-recheck", json={"data": {"now": now}})
    assert reply.status_code == 200, reply.text
    done: int = reply.json()["data"]["done"]
    return done


# The flow that works --------------------------------------------------------------------------


async def test_the_sign_in_screen_learns_which_clinics_offer_a_provider(
    oidc_server: ServerProcess,
) -> None:
    status, body = await call_http(oidc_server.url, "auth-identityProviders", None)
    assert status == 200
    # Other tests' clinics may have set theirs in the workspace (tests/test_oidc_admin.py).
    (offered,) = [p for p in body["data"]["providers"] if p["clinicId"] == CLINIC]
    assert offered["name"] == PROVIDER_NAME
    assert offered["clinicName"]["en"] == "Demo Genetic Counseling Clinic"
    assert "issuer" not in str(body) and "secret" not in str(body).lower()


async def test_start_sends_the_browser_to_the_provider_with_pkce_state_and_nonce(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    async with httpx.AsyncClient() as http:
        location = await _to_provider(http, oidc_server.url)
        cookie = http.cookies.get("gc_oidc")
    query = parse_qs(urlsplit(location).query)
    assert location.startswith(f"{provider.url}/authorize?")
    assert query["response_type"] == ["code"]
    assert query["code_challenge_method"] == ["S256"]
    assert len(query["code_challenge"][0]) == 43
    assert len(query["state"][0]) >= 32 and len(query["nonce"][0]) >= 32
    assert query["redirect_uri"] == [f"{oidc_server.url}/auth/oidc/callback"]
    assert "openid" in query["scope"][0].split()
    assert cookie  # the sign-in is bound to this browser


async def test_a_member_is_linked_by_verified_email_then_asked_for_totp(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    email = await new_member(oidc_server.url)
    subject = await provider.add_user(email)
    outcome = await sign_in(oidc_server.url, subject)
    assert outcome.path == "/staff/audit", outcome.location
    who = await identity(oidc_server.url, outcome.token)
    assert who is not None
    assert (who["email"], who["role"], who["clinicId"]) == (email, "clinic_admin", CLINIC)
    # No multi-factor claim from the provider: the product's own second factor still applies.
    assert who["secondFactor"] == "enrol"
    assert await linked_subject(oidc_server, email) == subject
    # The next sign-in finds the member by the subject alone.
    again = await sign_in(oidc_server.url, subject)
    assert (await identity(oidc_server.url, again.token) or {}).get("email") == email


async def test_a_provider_asserting_mfa_passes_the_second_factor(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    email = await new_member(oidc_server.url)
    outcome = await sign_in(oidc_server.url, await provider.add_user(email, mfa=True))
    who = await identity(oidc_server.url, outcome.token)
    assert who is not None and who["secondFactor"] == "ok"
    status, body = await call_http(
        oidc_server.url, "staff-list", {"clinicId": CLINIC}, outcome.token
    )
    assert status == 200, body


# Nobody gets in who should not -----------------------------------------------------------------


async def test_unknown_and_unverified_addresses_get_no_access(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    stranger = await sign_in(oidc_server.url, await provider.add_user(unique_email("nobody")))
    assert (stranger.path, stranger.refusal, stranger.token) == ("/", "unknown", None)
    email = await new_member(oidc_server.url)
    unverified = await sign_in(oidc_server.url, await provider.add_user(email, verified=False))
    assert (unverified.refusal, unverified.token) == ("unknown", None)
    assert await linked_subject(oidc_server, email) is None


async def test_a_member_of_another_clinic_is_refused(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    elsewhere = await new_member(oidc_server.url, await other_clinic(oidc_server))
    outcome = await sign_in(oidc_server.url, await provider.add_user(elsewhere, mfa=True))
    assert (outcome.refusal, outcome.token) == ("unknown", None)
    assert await linked_subject(oidc_server, elsewhere) is None


async def test_a_clinic_without_a_provider_has_no_start(oidc_server: ServerProcess) -> None:
    clinic = await other_clinic(oidc_server)
    async with httpx.AsyncClient() as http:
        reply = await http.get(f"{oidc_server.url}/auth/oidc/{clinic}/start")
    assert reply.status_code == 303
    assert parse_qs(urlsplit(reply.headers["location"]).query)["staffSignIn"] == ["not-offered"]


@pytest.mark.parametrize(
    "claims",
    [
        {"aud": "another-client"},
        {"aud": ["another-client"], "azp": "another-client"},
        {"exp": int(time.time()) - 600, "iat": int(time.time()) - 900},
        {"iat": int(time.time()) - 7200, "exp": int(time.time()) + 300},
        {"nonce": "not-the-one-sent"},
        {"nonce": None},
        {"iss": "http://127.0.0.1:1/another-issuer"},
    ],
    ids=["wrong-audience", "other-party", "expired", "old", "bad-nonce", "no-nonce", "issuer"],
)
async def test_an_id_token_that_fails_a_check_signs_nobody_in(
    oidc_server: ServerProcess, provider: OidcLocal, claims: dict[str, Any]
) -> None:
    email = await new_member(oidc_server.url)
    subject = await provider.add_user(email, mfa=True)
    await provider.control("POST", "/next-id-token", json={"claims": claims})
    outcome = await sign_in(oidc_server.url, subject)
    assert (outcome.refusal, outcome.token) == ("token", None), outcome.location
    assert await linked_subject(oidc_server, email) is None


async def test_a_replayed_id_token_is_refused(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    email = await new_member(oidc_server.url)
    subject = await provider.add_user(email, mfa=True)
    assert (await sign_in(oidc_server.url, subject)).token is not None
    # The provider hands out the ID token of that earlier sign-in again (its nonce was the
    # earlier sign-in's).
    await provider.control("POST", "/next-id-token", json={"replay": True})
    outcome = await sign_in(oidc_server.url, subject)
    assert (outcome.refusal, outcome.token) == ("token", None)


async def test_a_bad_replayed_or_foreign_state_is_refused(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    subject = await provider.add_user(await new_member(oidc_server.url), mfa=True)
    async with httpx.AsyncClient() as http:
        callback = await _at_provider(http, await _to_provider(http, oidc_server.url), subject)
        made_up = f"{oidc_server.url}/auth/oidc/callback?" + urlencode(
            {"state": secrets.token_urlsafe(32), "code": "whatever"}
        )
        assert (await _finish(http, made_up)).refusal == "expired"
        # The same callback in another browser (no cookie of this sign-in): refused, and the
        # sign-in is spent, so the right browser cannot be raced either.
        async with httpx.AsyncClient() as other_browser:
            assert (await _finish(other_browser, callback)).refusal == "expired"
        assert (await _finish(http, callback)).refusal == "expired"
        # A fresh one works once; the same callback again does not.
        callback = await _at_provider(http, await _to_provider(http, oidc_server.url), subject)
        assert (await _finish(http, callback)).token is not None
        replayed = await _finish(http, callback)
        assert (replayed.refusal, replayed.token) == ("expired", None)


async def test_a_person_who_cancels_at_the_provider_is_told_so(
    oidc_server: ServerProcess,
) -> None:
    async with httpx.AsyncClient() as http:
        authorize = await _to_provider(http, oidc_server.url)
        query = {k: v[0] for k, v in parse_qs(urlsplit(authorize).query).items()}
        reply = await http.post(authorize.split("?")[0], data={**query, "cancel": "1"})
        outcome = await _finish(http, reply.headers["location"])
    assert (outcome.refusal, outcome.token) == ("cancelled", None)


async def test_staff_of_a_clinic_with_a_provider_cannot_sign_in_by_mail(
    oidc_server: ServerProcess,
) -> None:
    email = await new_member(oidc_server.url)
    token = await request_link(oidc_server.url, email)
    reply = await confirm_link(oidc_server.url, email, token)
    assert reply.status_code == 403
    assert reply.json()["error"]["details"]["reason"] == "use-identity-provider"
    # A client still signs in by mail.
    client = unique_email("client")
    reply = await confirm_link(oidc_server.url, client, await request_link(oidc_server.url, client))
    assert reply.status_code == 200


# Losing access ---------------------------------------------------------------------------------


async def test_a_person_removed_at_the_provider_loses_access_at_the_next_check(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    leaving = await new_member(oidc_server.url)
    staying = await new_member(oidc_server.url)
    leaving_sub = await provider.add_user(leaving, mfa=True)
    gone = (await sign_in(oidc_server.url, leaving_sub)).token
    kept = (await sign_in(oidc_server.url, await provider.add_user(staying, mfa=True))).token
    async with connect(oidc_server.url, gone) as socket:
        await provider.control("DELETE", f"/users/{leaving_sub}")
        # Before the check is due nothing changes; once due, the refresh is refused.
        await run_recheck(oidc_server.url, timedelta(seconds=1))
        assert await identity(oidc_server.url, gone) is not None
        assert await run_recheck(oidc_server.url, timedelta(seconds=CHECK_SECONDS + 1)) >= 1
        assert await identity(oidc_server.url, gone) is None
        for _ in range(50):  # its socket is closed too
            if not socket.client.connected:
                break
            await asyncio.sleep(0.1)
        assert not socket.client.connected
    # The one still at the provider keeps going (their refresh token was rotated and kept),
    # and a second check works with the rotated token.
    assert (await identity(oidc_server.url, kept) or {}).get("email") == staying
    await run_recheck(oidc_server.url, timedelta(seconds=2 * CHECK_SECONDS + 2))
    assert (await identity(oidc_server.url, kept) or {}).get("email") == staying


async def test_a_session_ends_at_its_maximum_length(
    oidc_server: ServerProcess, provider: OidcLocal
) -> None:
    email = await new_member(oidc_server.url)
    token = (await sign_in(oidc_server.url, await provider.add_user(email, mfa=True))).token
    assert await identity(oidc_server.url, token) is not None
    await run_recheck(oidc_server.url, timedelta(seconds=MAX_SECONDS + 1))
    assert await identity(oidc_server.url, token) is None
