"""Staff sign in with a second factor and act by role (docs/protocol.md, "Staff sign-in and
roles"), on SQLite and on PostgreSQL + Redis, through real server processes.

TOTP codes are computed here with pyotp from the secret (the demo accounts' published one,
or the one a fresh member's enrolment returns). A code is accepted once per account, so a
test that needs two codes of one account takes the next time step's (one step of drift is
allowed).
"""

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pyotp
import pytest
from sqlmodel import select

from storage.db import open_database
from storage.models import StaffMember
from tests.conftest import unique_email
from tests.support.booking import free_slots, person
from tests.support.clients import Account, call_http, connect, sign_in, sign_in_by_link
from tests.support.production import production_env
from tests.support.server import ServerProcess

DEMO_SECRET = "JBSWY3DPEHPK3PXP"
ADMIN = "staff@demo-clinic.example"
COUNSELOR = "sato@demo-clinic.example"
FEED = "clinics/demo-clinic/bookings"
PRESENCE = "clinics/demo-clinic/presence"


class ShortSecretTOTP(pyotp.TOTP):
    """The demo secret is 80 bits, under pyotp's default minimum."""

    min_secret_length_bits = 80


def code(secret: str, offset: int = 0) -> str:
    """The TOTP code of the current time step (`offset` steps later)."""
    return ShortSecretTOTP(secret).at(datetime.now(UTC), counter_offset=offset)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post_totp(base_url: str, token: str, value: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.post("/auth/totp", json={"code": value}, headers=bearer(token))


async def pass_totp(base_url: str, token: str, secret: str) -> None:
    """Pass the second factor with the current code, or the next step's if the current one
    was used already by this account."""
    for offset in (0, 1):
        reply = await post_totp(base_url, token, code(secret, offset))
        if reply.status_code == 200:
            return
    raise AssertionError(reply.text)


async def who(base_url: str, token: str) -> dict[str, Any] | None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/auth/session", headers=bearer(token))
    data: dict[str, Any] | None = reply.json()["data"]
    return data


def second_factor_required(reply: dict[str, Any]) -> bool:
    error = reply.get("error", {})
    return bool(
        error.get("status") == "UNAUTHENTICATED"
        and error.get("details") == {"secondFactor": "required"}
    )


def status_of(reply: dict[str, Any]) -> str | None:
    status: str | None = reply.get("error", {}).get("status")
    return status


async def dev_session(base_url: str, email: str, *, second_factor: bool) -> Account:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/dev/token", json={"data": {"email": email, "secondFactor": second_factor}}
        )
    reply.raise_for_status()
    data = reply.json()["data"]
    return Account(uid=data["uid"], email=data["email"], token=data["token"])


async def new_staff(base_url: str, role: str = "clinic_admin", counselor: str | None = None) -> str:
    email = unique_email(role)
    body: dict[str, Any] = {"email": email, "clinicId": "demo-clinic", "role": role}
    if counselor:
        body["counselorId"] = counselor
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/dev/staff", json={"data": body})
    assert reply.status_code == 200, reply.text
    return email


async def enrolled_staff(base_url: str) -> tuple[str, str, list[str]]:
    """A fresh clinic_admin who enrolled (and confirmed with a first code): address, TOTP
    secret, recovery codes."""
    email = await new_staff(base_url)
    account = await sign_in_by_link(base_url, email)
    status, body = await call_http(base_url, "auth-totpEnroll", {}, account.token)
    assert status == 200, body
    uri = body["data"]["otpauthUri"]
    secret = parse_qs(urlsplit(uri).query)["secret"][0]
    await pass_totp(base_url, account.token, secret)
    return email, secret, body["data"]["recoveryCodes"]


# The demo accounts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("email", "role", "counselor_id"),
    [(ADMIN, "clinic_admin", None), (COUNSELOR, "counselor", "c-sato")],
)
async def test_demo_staff_sign_in_by_link_then_totp(
    base_url: str, email: str, role: str, counselor_id: str | None
) -> None:
    account = await sign_in_by_link(base_url, email)
    expected = {"role": role, "clinicId": "demo-clinic", "counselorId": counselor_id}
    before = await who(base_url, account.token)
    assert before is not None
    assert {k: before[k] for k in expected} == expected
    assert before["secondFactor"] == "required"
    async with connect(base_url, account.token) as sock:
        assert second_factor_required(await sock.subscribe(FEED))
        reply = await post_totp(base_url, account.token, code(DEMO_SECRET))
        assert reply.status_code == 200, reply.text
        assert reply.json() == {"data": {"uid": account.uid, "secondFactor": "ok"}}
        after = await who(base_url, account.token)
        assert after is not None and after["secondFactor"] == "ok"
        # The same session, on the socket already open: fully authorised now.
        feed = await sock.subscribe(FEED)
        assert "snapshot" in feed, feed
        if role == "counselor":  # their own appointments only (tests/test_feed_window.py)
            rows = feed["snapshot"]["data"]["bookings"]
            assert {row["counselorId"] for row in rows} <= {counselor_id}


async def test_the_session_cookie_passes_the_second_factor_too(base_url: str) -> None:
    email = await new_staff(base_url)
    signed_in = await sign_in_by_link(base_url, email)
    status, body = await call_http(base_url, "auth-totpEnroll", None, signed_in.token)
    assert status == 200, body
    secret = parse_qs(urlsplit(body["data"]["otpauthUri"]).query)["secret"][0]
    async with httpx.AsyncClient(base_url=base_url) as http:
        http.cookies.set("gc_session", signed_in.token)
        # A foreign page cannot submit it for the browser.
        foreign = await http.post(
            "/auth/totp", json={"code": code(secret)}, headers={"Origin": "https://evil.example"}
        )
        assert foreign.status_code == 403, foreign.text
        reply = await http.post("/auth/totp", json={"code": code(secret)})
        assert reply.status_code == 200, reply.text
        session = (await http.get("/auth/session")).json()["data"]
    assert session["secondFactor"] == "ok"
    # The bearer token of the same session is authorised as well.
    session = await who(base_url, signed_in.token)
    assert session is not None and session["secondFactor"] == "ok"


# Before the second factor -----------------------------------------------------------------


async def test_staff_are_limited_until_the_second_factor(base_url: str) -> None:
    limited = await dev_session(base_url, ADMIN, second_factor=False)
    async with connect(base_url, limited.token) as sock:
        for path in (FEED, PRESENCE):
            assert second_factor_required(await sock.subscribe(path)), path
        for name, data in [
            ("staff-appointment-read", {"appointmentId": "some-appointment"}),
            ("sendEmail-counselor", {"appointmentId": "some-appointment"}),
            ("sendEmail-counselor", {"unexpected": 1}),  # authorization before validation
            ("appointment-updateStatus", {"appointmentId": "x", "status": "completed"}),
        ]:
            assert second_factor_required(await sock.call(name, data)), name
            status, body = await call_http(base_url, name, data, limited.token)
            assert status == 401 and second_factor_required(body), body
    # Signing in again by link gives another limited session; the first stays limited.
    again = await who(base_url, limited.token)
    assert again is not None and again["secondFactor"] == "required"


async def test_a_client_gets_permission_denied_from_every_staff_call(base_url: str) -> None:
    client = await sign_in(base_url, unique_email("client"))
    async with connect(base_url, client.token) as sock:
        for path in (FEED, PRESENCE):
            assert status_of(await sock.subscribe(path)) == "PERMISSION_DENIED"
        for name, data in [
            ("sendEmail-counselor", {"appointmentId": "a"}),
            ("sendEmail-counselor", {"unexpected": 1}),
            ("appointment-updateStatus", {"appointmentId": "a", "status": "no_show"}),
            ("auth-totpEnroll", {}),
        ]:
            assert status_of(await sock.call(name, data)) == "PERMISSION_DENIED", name
    assert (await post_totp(base_url, client.token, "123456")).status_code == 403
    session = await who(base_url, client.token)
    assert session is not None
    assert (session["role"], session["counselorId"], session["secondFactor"]) == (
        "client",
        None,
        None,
    )


# Codes ------------------------------------------------------------------------------------


async def test_enrolment_of_a_fresh_staff_member(base_url: str) -> None:
    email = await new_staff(base_url)
    account = await sign_in_by_link(base_url, email)
    session = await who(base_url, account.token)
    assert session is not None and session["secondFactor"] == "enrol"
    not_yet = await post_totp(base_url, account.token, "123456")
    assert not_yet.status_code == 401
    assert not_yet.json()["error"]["details"] == {"secondFactor": "enrol"}
    async with connect(base_url, account.token) as sock:
        assert second_factor_required(await sock.subscribe(FEED))
        enrolment = (await sock.call("auth-totpEnroll", {}))["data"]
    uri = urlsplit(enrolment["otpauthUri"])
    query = parse_qs(uri.query)
    assert (uri.scheme, uri.netloc) == ("otpauth", "totp")
    assert email in uri.path.replace("%40", "@")
    assert "Demo Genetic Counseling Clinic" in query["issuer"][0]
    secret = query["secret"][0]
    codes = enrolment["recoveryCodes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    # A recovery code does not confirm an enrolment; a wrong code neither.
    for wrong in (codes[0], "000000" if code(secret) != "000000" else "111111"):
        refused = await post_totp(base_url, account.token, wrong)
        assert refused.status_code == 401
        assert refused.json()["error"]["details"] == {"secondFactor": "required"}
    session = await who(base_url, account.token)
    assert session is not None and session["secondFactor"] == "enrol"
    # The first good code confirms the enrolment and passes the session.
    reply = await post_totp(base_url, account.token, code(secret))
    assert reply.status_code == 200, reply.text
    async with connect(base_url, account.token) as sock:
        assert "snapshot" in await sock.subscribe(FEED)
        # A confirmed authenticator is not replaced through the product.
        assert status_of(await sock.call("auth-totpEnroll", {})) == "ABORTED"
    # A new session must pass the factor it has, and cannot enrol another instead.
    other = await dev_session(base_url, email, second_factor=False)
    session = await who(base_url, other.token)
    assert session is not None and session["secondFactor"] == "required"
    status, body = await call_http(base_url, "auth-totpEnroll", {}, other.token)
    assert status == 401 and second_factor_required(body)


async def test_a_code_is_accepted_once(base_url: str) -> None:
    email, secret, _codes = await enrolled_staff(base_url)
    used = await dev_session(base_url, email, second_factor=False)
    # Enrolment used a code of this step or the next: neither works again, nor an older one.
    for offset in (-1, 0):
        replay = await post_totp(base_url, used.token, code(secret, offset))
        assert replay.status_code == 401, replay.text
        assert replay.json()["error"]["details"] == {"secondFactor": "required"}
    session = await who(base_url, used.token)
    assert session is not None and session["secondFactor"] == "required"


async def test_a_wrong_code_is_refused(base_url: str) -> None:
    email, secret, _codes = await enrolled_staff(base_url)
    account = await dev_session(base_url, email, second_factor=False)
    good = {code(secret, offset) for offset in (-1, 0, 1)}
    wrong = next(c for c in (f"{n:06d}" for n in range(0, 10**6, 7919)) if c not in good)
    for value in (wrong, "abcdef", "12345", "1234567"):
        reply = await post_totp(base_url, account.token, value)
        assert reply.status_code == 401, value
        error = reply.json()["error"]
        assert error["status"] == "UNAUTHENTICATED"
        assert error["details"] == {"secondFactor": "required"}
        assert "code" in error["message"]
    for bad in (None, 123456, ""):
        reply = await post_totp(base_url, account.token, bad)
        assert reply.status_code == 400
        assert "code" in reply.json()["error"]["details"]["fields"]


async def test_a_recovery_code_works_once(base_url: str) -> None:
    email, _secret, codes = await enrolled_staff(base_url)
    first = await dev_session(base_url, email, second_factor=False)
    assert (await post_totp(base_url, first.token, codes[0])).status_code == 200
    session = await who(base_url, first.token)
    assert session is not None and session["secondFactor"] == "ok"
    second = await dev_session(base_url, email, second_factor=False)
    again = await post_totp(base_url, second.token, codes[0])
    assert again.status_code == 401
    assert again.json()["error"]["details"] == {"secondFactor": "required"}
    # Another one, typed without dashes and in capitals, still works.
    typed = codes[1].replace("-", "").upper()
    assert (await post_totp(base_url, second.token, typed)).status_code == 200


async def test_codes_are_rate_limited_per_account(base_url: str) -> None:
    email, secret, _codes = await enrolled_staff(base_url)
    account = await dev_session(base_url, email, second_factor=False)
    statuses = [(await post_totp(base_url, account.token, "abcdef")).status_code for _ in range(12)]
    assert 429 in statuses and statuses.index(429) <= 10
    # Even the right code waits for the window now.
    assert (await post_totp(base_url, account.token, code(secret, 1))).status_code == 429


@pytest.fixture(scope="module")
def few_codes_per_ip(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server allowing 5 second-factor attempts per client IP."""
    logs = tmp_path_factory.mktemp("totp-ip")
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{logs / 'ip.db'}",
            "TOTP_ATTEMPTS_PER_IP": "5",
        },
        log_path=logs / "ip.log",
    ).start()
    yield server
    server.stop()


async def test_codes_are_rate_limited_per_ip(few_codes_per_ip: ServerProcess) -> None:
    url = few_codes_per_ip.url
    accounts = [await dev_session(url, ADMIN, second_factor=False) for _ in range(2)]
    accounts += [await dev_session(url, COUNSELOR, second_factor=False) for _ in range(2)]
    statuses = [(await post_totp(url, a.token, "abcdef")).status_code for a in accounts * 2]
    assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}, statuses


# What a role may do -----------------------------------------------------------------------


async def book(base_url: str, counselor_id: str) -> str:
    """A confirmed appointment with that counselor; its id."""
    async with person(base_url, complete=True) as someone:
        slot = next(s for s in await free_slots(someone.sock) if counselor_id in s["counselorIds"])
        assert "data" in await someone.hold(slot["start"], counselor_id)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "confirmed"}}, submitted
        return someone.appointment_id


async def test_a_counselor_acts_on_their_own_appointments_only(base_url: str) -> None:
    mine, theirs = await book(base_url, "c-sato"), await book(base_url, "c-tanaka")
    sato = await dev_session(base_url, COUNSELOR, second_factor=True)
    admin = await dev_session(base_url, ADMIN, second_factor=True)
    async with connect(base_url, sato.token) as sock:
        read = await sock.call("staff-appointment-read", {"appointmentId": mine})
        assert read["data"]["appointment"]["counselorId"] == "c-sato", read
        refused = await sock.call("staff-appointment-read", {"appointmentId": theirs})
        assert status_of(refused) == "PERMISSION_DENIED"
        assert (await sock.call("sendEmail-counselor", {"appointmentId": mine})) == {
            "data": {"sent": True}
        }
        refused = await sock.call("sendEmail-counselor", {"appointmentId": theirs})
        assert status_of(refused) == "PERMISSION_DENIED"
        junk = {"unexpected": "x" * 5000}
        refused = await sock.call("sendEmail-counselor", {"appointmentId": theirs, **junk})
        assert status_of(refused) == "PERMISSION_DENIED"
        refused = await sock.call("sendEmail-counselor", {"appointmentId": mine, **junk})
        assert status_of(refused) == "INVALID_ARGUMENT"
        outcome = {"appointmentId": theirs, "status": "completed"}
        assert status_of(await sock.call("appointment-updateStatus", outcome)) == (
            "PERMISSION_DENIED"
        )
        # Authorized before validated: a malformed outcome for someone else's appointment
        # tells nothing about the input; for one's own it is refused as invalid.
        bad = {"appointmentId": theirs, "status": "lost", "extra": "x" * 5000}
        assert status_of(await sock.call("appointment-updateStatus", bad)) == ("PERMISSION_DENIED")
        for status in ("lost", "submitted"):
            reply = await sock.call(
                "appointment-updateStatus", {"appointmentId": mine, "status": status}
            )
            assert status_of(reply) == "INVALID_ARGUMENT", reply
        done = await sock.call(
            "appointment-updateStatus", {"appointmentId": mine, "status": "no_show"}
        )
        assert done == {"data": {"status": "no_show"}}
    async with connect(base_url, admin.token) as sock:
        read = await sock.call("staff-appointment-read", {"appointmentId": theirs})
        assert read["data"]["appointment"]["counselorId"] == "c-tanaka", read
        outcome = {"appointmentId": theirs, "status": "completed"}
        assert (await sock.call("appointment-updateStatus", outcome)) == {
            "data": {"status": "completed"}
        }


async def test_staff_of_another_clinic_see_nothing_of_this_one(base_url: str) -> None:
    """Staff of another clinic: their clinic's paths only (the demo has one clinic, so the
    other clinic's paths are simply refused too)."""
    admin = await dev_session(base_url, ADMIN, second_factor=True)
    async with connect(base_url, admin.token) as sock:
        reply = await sock.subscribe("clinics/other-clinic/bookings")
        assert status_of(reply) == "PERMISSION_DENIED"


# Production, and inactivity ---------------------------------------------------------------


async def test_production_never_enrols_the_demo_secret(tmp_path: Path) -> None:
    env = production_env(tmp_path)
    server = ServerProcess(env=env, log_path=tmp_path / "prod.log").start()
    server.stop()
    db = open_database(env["DATABASE_URL"])
    try:
        async with db.read() as session:
            staff = (await session.exec(select(StaffMember))).all()
    finally:
        await db.close()
    assert {s.email for s in staff} == {ADMIN, COUNSELOR}
    assert all(s.totp_secret is None and s.totp_confirmed_at is None for s in staff)


async def test_an_idle_staff_session_ends_like_a_clients(short_idle: ServerProcess) -> None:
    account = await sign_in_by_link(short_idle.url, COUNSELOR)
    await pass_totp(short_idle.url, account.token, DEMO_SECRET)
    events: list[dict[str, Any]] = []
    async with connect(short_idle.url, account.token) as sock:
        sock.client.on("session", events.append)
        assert "snapshot" in await sock.subscribe(f"users/{account.uid}")
        async with asyncio.timeout(15):
            while not any(e["state"] == "expired" for e in events):
                await asyncio.sleep(0.05)
    assert await who(short_idle.url, account.token) is None
    # The passed second factor does not outlive the session: a new one starts limited.
    again = await dev_session(short_idle.url, COUNSELOR, second_factor=False)
    session = await who(short_idle.url, again.token)
    assert session is not None and session["secondFactor"] == "required"
    assert account.uid == again.uid
