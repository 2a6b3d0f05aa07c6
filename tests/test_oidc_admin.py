"""A clinic's identity provider set by its administrator (docs/protocol.md, "Identity
provider"), on SQLite and on PostgreSQL + Redis, against the real local provider process
(infra/oidc_local); plus the per-IP limit on starting a sign-in and the provider rotating its
signing key.

The demo clinic has its provider from the OIDC_PROVIDERS setting (shown read-only); each
other test makes its own clinic (tests/test_staff_accounts.py `team_clinic`), whose
administrator sets the provider through `identityProvider-update`.
"""

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlmodel import select

from realtime.errors import FunctionError
from realtime.oidc.admin_rules import Keep, refuse_private_issuer, settled
from storage.db import open_database
from storage.models import ClinicIdentityProvider
from tests.conftest import unique_email
from tests.support.clients import call_http, confirm_link, request_link, sign_in
from tests.support.databases import REDIS_URL, redis_namespace
from tests.support.oidc_local import CLIENT_ID, CLIENT_SECRET, OidcLocal
from tests.support.server import ServerProcess
from tests.test_oidc_signin import (
    CHECK_SECONDS,
    _at_provider,
    _finish,
    _server,
    _to_provider,
    identity,
    new_member,
    run_recheck,
)
from tests.test_oidc_signin import sign_in as sign_in_demo
from tests.test_staff_accounts import TeamClinic, team_clinic
from tests.test_staff_signin import ADMIN

REFETCH_SECONDS = 2.0
IDP_NAME = "Clinic IdP"


@pytest.fixture(scope="module")
def provider(run_dir: Path) -> Iterator[OidcLocal]:
    local = OidcLocal(log_path=run_dir / "oidc-admin-local.log").start()
    yield local
    local.stop()


def _env(request: pytest.FixtureRequest, run_dir: Path, name: str) -> dict[str, str]:
    if request.param == "sqlite":
        return {"DATABASE_URL": f"sqlite+aiosqlite:///{run_dir / f'{name}.db'}"}
    _, url = request.getfixturevalue("own_postgres_database")
    return {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "REDIS_NAMESPACE": redis_namespace()}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def admin_server(
    request: pytest.FixtureRequest, run_dir: Path, provider: OidcLocal
) -> Iterator[ServerProcess]:
    env = {
        **_env(request, run_dir, "oidc-admin"),
        "OIDC_KEYS_REFETCH_SECONDS": str(REFETCH_SECONDS),
    }
    server = _server(env, run_dir, f"oidc-admin-{request.param}", provider).start()
    yield server
    server.stop()


def settings_of(provider: OidcLocal, **changes: Any) -> dict[str, Any]:
    """What the administrator types for the local provider."""
    return {
        "name": IDP_NAME,
        "issuer": provider.url,
        "clientId": CLIENT_ID,
        "clientSecret": CLIENT_SECRET,
        "mfaAcr": [],
        "enabled": True,
        **changes,
    }


async def read(team: TeamClinic) -> dict[str, Any]:
    status, body = await team.call("identityProvider-read", {})
    assert status == 200, body
    data: dict[str, Any] = body["data"]
    return data


async def update(team: TeamClinic, version: int, fields: dict[str, Any]) -> tuple[int, Any]:
    status, body = await team.call("identityProvider-update", {"version": version, **fields})
    return status, body


async def set_provider(team: TeamClinic, provider: OidcLocal, **changes: Any) -> dict[str, Any]:
    version = (await read(team))["version"]
    status, body = await update(team, version, settings_of(provider, **changes))
    assert status == 200, body
    data: dict[str, Any] = body["data"]
    return data


async def sign_in_at(base: str, clinic: str, subject: str) -> tuple[str | None, str | None]:
    """The session token and the refusal of a sign-in at `clinic`'s provider."""
    async with httpx.AsyncClient() as http:
        callback = await _at_provider(http, await _to_provider(http, base, clinic), subject)
        outcome = await _finish(http, callback)
    return outcome.token, outcome.refusal


async def offered(base: str) -> list[str]:
    status, body = await call_http(base, "auth-identityProviders", None)
    assert status == 200, body
    return [p["clinicId"] for p in body["data"]["providers"]]


async def audit_of(team: TeamClinic) -> list[dict[str, Any]]:
    status, body = await team.call("staff-audit-read", {})
    assert status == 200, body
    return [e for e in body["data"]["entries"] if e["action"] == "identityProvider.update"]


async def stored_row(server: ServerProcess, clinic_id: str) -> ClinicIdentityProvider | None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            return (
                await session.exec(
                    select(ClinicIdentityProvider).where(
                        ClinicIdentityProvider.clinic_id == clinic_id
                    )
                )
            ).first()
    finally:
        await db.close()


# Setting it ------------------------------------------------------------------------------------


async def test_an_admin_sets_the_provider_and_the_clinics_staff_sign_in_there(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    team = await team_clinic(admin_server)
    before = await read(team)
    assert before == {
        "redirectUri": f"{admin_server.url}/auth/oidc/callback",
        "version": 0,
        "source": None,
        "provider": None,
    }
    assert team.clinic_id not in await offered(team.url)

    saved = await set_provider(team, provider, mfaAcr=["urn:example:mfa", " urn:example:mfa "])
    assert saved["source"] == "workspace" and saved["version"] == 1
    assert saved["provider"] | {"updated": None} == {
        "name": IDP_NAME,
        "issuer": provider.url,
        "clientId": CLIENT_ID,
        "mfaAcr": ["urn:example:mfa"],
        "enabled": True,
        "secretSet": True,
        "updated": None,
    }
    assert await read(team) == saved
    assert team.clinic_id in await offered(team.url)
    # The secret is in no reply, no audit entry, and only sealed in the database.
    entries = await audit_of(team)
    assert [e["detail"]["secret"] for e in entries] == ["set"]
    assert entries[0]["detail"]["changes"]["issuer"] == {"before": None, "after": provider.url}
    row = await stored_row(admin_server, team.clinic_id)
    assert row is not None and row.client_secret_sealed is not None
    assert CLIENT_SECRET not in str(saved) + str(entries) + row.client_secret_sealed

    # A member of the clinic signs in there (the secret works at the token endpoint).
    email = await new_member(team.url, team.clinic_id)
    subject = await provider.add_user(email)
    token, refusal = await sign_in_at(team.url, team.clinic_id, subject)
    assert refusal is None
    assert (await identity(team.url, token) or {}).get("clinicId") == team.clinic_id

    # Renamed without the secret: the stored one is kept and still works.
    renamed = await set_provider(team, provider, name="Renamed IdP", clientSecret=None)
    assert renamed["provider"]["secretSet"] is False  # null: a public client
    status, body = await update(team, renamed["version"], settings_of(provider))
    assert status == 200, body
    fields = settings_of(provider, name="Kept IdP")
    del fields["clientSecret"]
    status, body = await update(team, body["data"]["version"], fields)
    assert status == 200 and body["data"]["provider"]["secretSet"] is True, body
    token, refusal = await sign_in_at(team.url, team.clinic_id, subject)
    assert (refusal, token is not None) == (None, True)
    assert [e["detail"].get("secret") for e in await audit_of(team)] == [
        None,
        "set",
        "removed",
        "set",
    ]


async def test_turning_it_off_gives_mail_links_back_and_ends_its_sessions(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    team = await team_clinic(admin_server)
    saved = await set_provider(team, provider)
    email = await new_member(team.url, team.clinic_id)
    refused = await confirm_link(team.url, email, await request_link(team.url, email))
    assert refused.json()["error"]["details"]["reason"] == "use-identity-provider"
    token, _ = await sign_in_at(team.url, team.clinic_id, await provider.add_user(email, mfa=True))
    assert await identity(team.url, token) is not None

    status, body = await update(team, saved["version"], settings_of(provider, enabled=False))
    assert status == 200, body
    assert body["data"]["provider"]["enabled"] is False
    assert team.clinic_id not in await offered(team.url)
    # Its staff sign in by mail again; the start says the clinic offers no provider.
    reply = await confirm_link(team.url, email, await request_link(team.url, email))
    assert reply.status_code == 200, reply.text
    async with httpx.AsyncClient() as http:
        start = await http.get(f"{team.url}/auth/oidc/{team.clinic_id}/start")
    assert parse_qs(urlsplit(start.headers["location"]).query)["staffSignIn"] == ["not-offered"]
    # The session made at the provider ends at its next check.
    assert await identity(team.url, token) is not None
    await run_recheck(team.url, timedelta(seconds=CHECK_SECONDS + 1))
    assert await identity(team.url, token) is None
    turned = [e["detail"]["changes"].get("enabled") for e in await audit_of(team)]
    assert {"before": True, "after": False} in turned


async def test_another_issuer_relinks_members_and_ends_the_old_issuers_sessions(
    admin_server: ServerProcess, provider: OidcLocal, run_dir: Path
) -> None:
    team = await team_clinic(admin_server)
    await set_provider(team, provider)
    email = await new_member(team.url, team.clinic_id)
    old_token, _ = await sign_in_at(
        team.url, team.clinic_id, await provider.add_user(email, mfa=True)
    )
    assert await identity(team.url, old_token) is not None
    moved = OidcLocal(log_path=run_dir / "oidc-admin-second.log").start()
    try:
        saved = await set_provider(team, moved)
        assert saved["provider"]["issuer"] == moved.url
        # Linked at the old issuer, the member is linked again by the new one's verified
        # address; the old issuer's session ends at its next check.
        token, refusal = await sign_in_at(
            team.url, team.clinic_id, await moved.add_user(email, mfa=True)
        )
        assert (refusal, token is not None) == (None, True)
        await run_recheck(team.url, timedelta(seconds=CHECK_SECONDS + 1))
        assert await identity(team.url, old_token) is None
        assert (await identity(team.url, token) or {}).get("email") == email
    finally:
        moved.stop()


async def test_a_stale_edit_is_answered_with_the_current_values(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    team = await team_clinic(admin_server)
    await set_provider(team, provider, name="First")
    status, body = await update(team, 0, settings_of(provider, name="Second"))
    assert status == 409, body
    assert body["error"]["status"] == "ABORTED"
    details = body["error"]["details"]
    assert details["version"] == 1 and details["current"]["provider"]["name"] == "First"
    assert CLIENT_SECRET not in str(body)
    assert (await read(team))["provider"]["name"] == "First"


async def test_two_first_saves_at_once_one_wins_and_the_other_is_told(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    """No provider row yet to lock: the clinic's row orders them (a 500 from the unique key
    on PostgreSQL before)."""
    team = await team_clinic(admin_server)
    replies = await asyncio.gather(
        update(team, 0, settings_of(provider, name="One")),
        update(team, 0, settings_of(provider, name="Two")),
    )
    assert sorted(status for status, _ in replies) == [200, 409], replies
    won = next(body for status, body in replies if status == 200)["data"]["provider"]["name"]
    told = next(body for status, body in replies if status == 409)["error"]["details"]
    assert told["current"]["provider"]["name"] == won
    assert (await read(team))["provider"]["name"] == won


# Refused ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "  ", "required"),
        ("name", "x" * 81, "tooLong"),
        ("name", "Line\nbreak", "characters"),
        ("issuer", "ftp://idp.example", "url"),
        ("issuer", "https://idp.example/?tenant=1", "url"),
        ("issuer", "http://[::1", "url"),
        ("issuer", "https://" + "a" * 500, "tooLong"),
        ("issuer", "http://127.0.0.1:1", "unreachable"),
        ("clientId", "two words", "characters"),
        ("clientId", "", "required"),
        ("clientSecret", "s" * 501, "tooLong"),
        ("clientSecret", "日本語", "characters"),
        ("mfaAcr", [f"acr{i}" for i in range(11)], "tooMany"),
        ("mfaAcr", ["ok", "bad value"], "characters"),
    ],
)
async def test_a_bad_field_is_named_with_its_problem_and_nothing_is_saved(
    admin_server: ServerProcess, provider: OidcLocal, field: str, value: Any, code: str
) -> None:
    team = await team_clinic(admin_server)
    status, body = await update(team, 0, settings_of(provider, **{field: value}))
    assert status == 400, body
    details = body["error"]["details"]
    assert details["codes"] == {field: code}
    assert field in details["fields"]
    assert (await read(team))["version"] == 0
    assert await audit_of(team) == []


async def test_an_issuer_whose_discovery_names_another_is_refused(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    team = await team_clinic(admin_server)
    # The same provider with a trailing slash: its document names the issuer without one.
    status, body = await update(team, 0, settings_of(provider, issuer=provider.url + "/"))
    assert status == 400
    assert body["error"]["details"]["codes"] == {"issuer": "issuerMismatch"}
    # Turned off, an issuer is not asked (a dead provider can still be switched off).
    status, body = await update(
        team, 0, settings_of(provider, issuer="http://127.0.0.1:1", enabled=False)
    )
    assert status == 200, body


def test_production_requires_https() -> None:
    edit = dict(name="IdP", client_id="c", secret=Keep(), mfa_acr=[], enabled=True, production=True)
    with pytest.raises(Exception) as refused:
        settled(issuer="http://idp.example", **edit)  # type: ignore[arg-type]
    assert getattr(refused.value, "details", {})["codes"] == {"issuer": "https"}
    assert settled(issuer="https://idp.example", **edit).issuer == "https://idp.example"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("issuer", "code"),
    [
        ("https://127.0.0.1", "private"),
        ("https://localhost/realms/clinic", "private"),
        ("https://10.1.2.3/realms/clinic", "private"),
        ("https://169.254.169.254", "private"),  # a cloud's metadata address
        ("https://[::1]:8443", "private"),
        ("https://idp.invalid", "unreachable"),
        ("https://8.8.8.8", None),
    ],
)
async def test_production_refuses_an_issuer_on_a_private_address(
    issuer: str, code: str | None
) -> None:
    """The server fetches the issuer an administrator types: in production not one that
    resolves to this server or a private network (realtime/oidc/admin_rules.py)."""
    if code is None:
        await refuse_private_issuer(issuer)
        return
    with pytest.raises(FunctionError) as refused:
        await refuse_private_issuer(issuer)
    assert refused.value.details["codes"] == {"issuer": code}


async def test_only_the_clinics_administrators_read_or_set_it(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    team = await team_clinic(admin_server)
    other = await team_clinic(admin_server)
    invited = await team.invite(team.address("counselor"), "counselor", team.counselors[0])
    counselor = await sign_in(team.url, invited["email"])
    client = await sign_in(team.url, unique_email("client"))
    # Refused before the input is read: garbage is refused alike.
    garbage = {"clinicId": team.clinic_id, "version": "x", "issuer": 5}
    for token in (counselor.token, other.admin.token, client.token):
        for name, data in (
            ("identityProvider-read", {"clinicId": team.clinic_id}),
            ("identityProvider-update", garbage),
            (
                "identityProvider-update",
                {"clinicId": team.clinic_id, "version": 0, **settings_of(provider)},
            ),
        ):
            status, body = await call_http(team.url, name, data, token)
            assert (status, body["error"]["status"]) == (403, "PERMISSION_DENIED"), name
    status, _ = await call_http(team.url, "identityProvider-read", {"clinicId": team.clinic_id})
    assert status == 401
    assert (await read(team))["version"] == 0


async def test_a_provider_set_by_the_setting_is_shown_read_only(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    admin = await sign_in(admin_server.url, ADMIN)
    status, body = await call_http(
        admin_server.url, "identityProvider-read", {"clinicId": "demo-clinic"}, admin.token
    )
    assert status == 200, body
    data = body["data"]
    assert data["source"] == "settings"
    assert data["provider"]["issuer"] == provider.url and data["provider"]["secretSet"] is True
    assert CLIENT_SECRET not in str(body)
    fields = {"clinicId": "demo-clinic", "version": 0, **settings_of(provider)}
    status, body = await call_http(admin_server.url, "identityProvider-update", fields, admin.token)
    assert status == 403 and body["error"]["details"]["reason"] == "setting", body


# Keys ------------------------------------------------------------------------------------------


async def test_a_rotated_key_is_fetched_once_and_an_unpublished_one_refused(
    admin_server: ServerProcess, provider: OidcLocal
) -> None:
    async def fetches() -> int:
        count: int = (await provider.control("GET", "/stats"))["jwksFetches"]
        return count

    email = await new_member(admin_server.url)
    subject = await provider.add_user(email, mfa=True)
    assert (await sign_in_demo(admin_server.url, subject)).token is not None
    await provider.control("POST", "/rotate-key")
    await asyncio.sleep(REFETCH_SECONDS + 0.2)
    before = await fetches()
    rotated = await sign_in_demo(admin_server.url, subject)
    assert (rotated.refusal, rotated.token is not None) == (None, True)
    assert await fetches() == before + 1  # the new key id made one fetch

    await asyncio.sleep(REFETCH_SECONDS + 0.2)
    await provider.control("POST", "/next-id-token", json={"unpublishedKey": True})
    forged = await sign_in_demo(admin_server.url, subject)
    assert (forged.refusal, forged.token) == ("token", None)
    # Another unknown key id at once: refused without asking the provider again.
    await provider.control("POST", "/next-id-token", json={"unpublishedKey": True})
    again = await sign_in_demo(admin_server.url, subject)
    assert (again.refusal, again.token) == ("token", None)
    assert await fetches() == before + 2


# Starting sign-ins -----------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def limited_server(
    request: pytest.FixtureRequest, run_dir: Path, provider: OidcLocal
) -> Iterator[ServerProcess]:
    env = {**_env(request, run_dir, "oidc-limited"), "OIDC_STARTS_PER_IP": "3"}
    server = _server(env, run_dir, f"oidc-limited-{request.param}", provider).start()
    yield server
    server.stop()


async def test_starting_sign_ins_is_limited_per_address(
    limited_server: ServerProcess, provider: OidcLocal
) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(3):
            assert (await _to_provider(http, limited_server.url)).startswith(provider.url)
        refused = await http.get(f"{limited_server.url}/auth/oidc/demo-clinic/start")
    assert refused.status_code == 303
    query = parse_qs(urlsplit(refused.headers["location"]).query)
    assert (urlsplit(refused.headers["location"]).path, query["staffSignIn"]) == (
        "/",
        ["too-many"],
    )
