"""Sign-in by e-mail link (docs/protocol.md, "Sign-in by e-mail link"), on SQLite and
PostgreSQL + Redis."""

import asyncio
from pathlib import Path

import httpx
import pytest
import socketio

from tests.conftest import unique_email
from tests.support.clients import (
    call_http,
    confirm_link,
    connect,
    outbox,
    request_link,
    sign_in_by_link,
)
from tests.support.server import ServerProcess


def link_invalid(reply: httpx.Response) -> bool:
    body = reply.json()
    return (
        reply.status_code == 400
        and body["error"]["status"] == "INVALID_ARGUMENT"
        and body["error"]["details"] == {"reason": "link-invalid"}
        and "no longer valid" in body["error"]["message"]
    )


@pytest.mark.parametrize(
    ("locale", "subject_part", "body_part"),
    [("ja", "ログイン用リンク", "有効期限は10分"), ("en", "sign-in link", "expires in 10 minutes")],
)
async def test_the_link_mail_is_in_the_requesters_language(
    base_url: str, locale: str, subject_part: str, body_part: str
) -> None:
    email = unique_email("mail")
    token = await request_link(base_url, email, locale=locale)
    [mail] = await outbox(base_url, email)
    assert subject_part in mail["subject"]
    assert body_part in mail["text"]
    assert mail["links"] == [f"{base_url}/login-confirmation?token={token}"]
    assert mail["links"][0] in mail["text"]


async def test_every_address_gets_the_same_answer(base_url: str) -> None:
    """No account enumeration: a known and an unknown address look alike."""
    known = unique_email("known")
    await sign_in_by_link(base_url, known)
    first = await call_http(base_url, "sendEmail-authLink", {"email": known})
    second = await call_http(base_url, "sendEmail-authLink", {"email": unique_email("new")})
    assert first == second == (200, {"data": {"sent": True}})


@pytest.mark.parametrize(
    "email", ["", "plain", "a@b", "@example.com", "a b@example.com", "x" * 250 + "@e.com", 5]
)
async def test_malformed_addresses_are_refused_with_the_seed_message(
    base_url: str, email: object
) -> None:
    status, body = await call_http(base_url, "sendEmail-authLink", {"email": email})
    assert status == 400
    assert body["error"]["status"] == "INVALID_ARGUMENT"
    assert "email" in body["error"]["details"]["fields"]


async def test_opening_the_link_does_not_use_it(base_url: str) -> None:
    """Mail scanners GET the link; only the POST of the confirmation page uses it."""
    email = unique_email("scanned")
    token = await request_link(base_url, email)
    async with httpx.AsyncClient(base_url=base_url) as http:
        for _ in range(3):
            assert (await http.get("/login-confirmation", params={"token": token})).status_code in (
                200,
                503,
            )
    assert (await confirm_link(base_url, email, token)).status_code == 200


async def test_confirm_signs_in_with_cookie_and_bearer(base_url: str) -> None:
    email = unique_email("confirm")
    reply = await confirm_link(base_url, email, await request_link(base_url, email))
    assert reply.status_code == 200
    data = reply.json()["data"]
    assert data["email"] == email and data["uid"] and data["token"]
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith("gc_session=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # PUBLIC_URL is http here; https gets Secure
    session_cookie = reply.cookies["gc_session"]
    async with httpx.AsyncClient(base_url=base_url, cookies={"gc_session": session_cookie}) as http:
        who = (await http.get("/auth/session")).json()["data"]
    assert who["uid"] == data["uid"]
    async with connect(base_url, None, headers={"Cookie": f"gc_session={session_cookie}"}) as sock:
        snapshot = (await sock.subscribe(f"users/{data['uid']}"))["snapshot"]
    assert snapshot["exists"]


async def test_a_link_works_once(base_url: str) -> None:
    email = unique_email("once")
    token = await request_link(base_url, email)
    assert (await confirm_link(base_url, email, token)).status_code == 200
    assert link_invalid(await confirm_link(base_url, email, token))


async def test_racing_confirmations_sign_in_once(base_url: str) -> None:
    email = unique_email("race")
    token = await request_link(base_url, email)
    replies = await asyncio.gather(*(confirm_link(base_url, email, token) for _ in range(6)))
    assert sorted(r.status_code for r in replies) == [200, 400, 400, 400, 400, 400]


def email_mismatch(reply: httpx.Response) -> bool:
    body = reply.json()
    return (
        reply.status_code == 400
        and body["error"]["status"] == "INVALID_ARGUMENT"
        and body["error"]["details"]["reason"] == "email-mismatch"
        and "not the address the link was sent to" in body["error"]["message"]
    )


async def test_a_wrong_address_is_refused_and_does_not_use_up_the_link(base_url: str) -> None:
    email = unique_email("right")
    token = await request_link(base_url, email)
    assert email_mismatch(await confirm_link(base_url, unique_email("wrong"), token))
    assert (await confirm_link(base_url, email.upper(), token)).status_code == 200


async def test_wrong_addresses_are_counted_and_the_sixth_spends_the_link(base_url: str) -> None:
    """A typo can be corrected five times; guessing a link's address cannot go on."""
    email = unique_email("guessed")
    token = await request_link(base_url, email)
    for attempt in range(5):
        assert email_mismatch(await confirm_link(base_url, unique_email(f"guess{attempt}"), token))
    assert link_invalid(await confirm_link(base_url, unique_email("guess5"), token))
    assert link_invalid(await confirm_link(base_url, email, token))


async def test_wrong_addresses_for_one_link_leave_another_link_alone(base_url: str) -> None:
    email = unique_email("apart")
    spent = await request_link(base_url, email)
    for attempt in range(6):
        await confirm_link(base_url, unique_email(f"typo{attempt}"), spent)
    fresh = await request_link(base_url, email)
    assert (await confirm_link(base_url, email, fresh)).status_code == 200


@pytest.mark.parametrize("token", ["", "short", "x" * 300, "A" * 43])
async def test_unknown_tokens_are_invalid(base_url: str, token: str) -> None:
    assert link_invalid(await confirm_link(base_url, unique_email("nobody"), token))


async def test_confirm_needs_a_json_object(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post("/auth/confirm", content=b"[]")
    assert reply.status_code == 400
    assert reply.json()["error"]["status"] == "INVALID_ARGUMENT"


async def test_too_many_links_for_one_address(base_url: str) -> None:
    email = unique_email("eager")
    statuses = [
        (await call_http(base_url, "sendEmail-authLink", {"email": email}))[0] for _ in range(6)
    ]
    assert statuses == [200] * 5 + [429]
    status, body = await call_http(base_url, "sendEmail-authLink", {"email": email})
    assert status == 429
    assert body["error"]["status"] == "RESOURCE_EXHAUSTED"
    assert "try again" in body["error"]["message"]
    assert len(await outbox(base_url, email)) == 5


async def test_the_link_remembers_clinic_and_service_for_the_appointment(base_url: str) -> None:
    person = await sign_in_by_link(
        base_url, unique_email("entry"), clinicId="demo-clinic", serviceId="prenatal"
    )
    status, body = await call_http(base_url, "appointment-create", None, person.token)
    assert status == 200
    async with connect(base_url, person.token) as sock:
        path = f"appointments/{body['data']['appointmentId']}"
        appointment = (await sock.subscribe(path))["snapshot"]["data"]
    assert (appointment["clinicId"], appointment["serviceId"]) == ("demo-clinic", "prenatal-b2c")


async def test_an_entry_alias_without_clinic_uses_the_default_clinic(base_url: str) -> None:
    person = await sign_in_by_link(base_url, unique_email("alias"), serviceId="pgt")
    status, body = await call_http(base_url, "appointment-create", {}, person.token)
    assert status == 200
    async with connect(base_url, person.token) as sock:
        path = f"appointments/{body['data']['appointmentId']}"
        appointment = (await sock.subscribe(path))["snapshot"]["data"]
    assert (appointment["clinicId"], appointment["serviceId"]) == ("demo-clinic", "pgt-post")


async def test_unknown_clinic_in_a_link_request_is_not_found(base_url: str) -> None:
    status, body = await call_http(
        base_url, "sendEmail-authLink", {"email": unique_email(), "clinicId": "no-such-clinic"}
    )
    assert status == 404
    assert body["error"]["status"] == "NOT_FOUND"


async def test_staff_sign_in_by_link_carries_role_and_clinic(base_url: str) -> None:
    staff = await sign_in_by_link(base_url, "staff@demo-clinic.example")
    async with httpx.AsyncClient(base_url=base_url) as http:
        who = (
            await http.get("/auth/session", headers={"Authorization": f"Bearer {staff.token}"})
        ).json()["data"]
    # Signed in by link, the staff session still waits for its second factor.
    assert (who["role"], who["clinicId"], who["counselorId"], who["secondFactor"]) == (
        "clinic_admin",
        "demo-clinic",
        None,
        "required",
    )


async def test_sign_out_revokes_cookie_and_closes_live_sockets(base_url: str) -> None:
    email = unique_email("bye")
    reply = await confirm_link(base_url, email, await request_link(base_url, email))
    cookie = reply.cookies["gc_session"]
    async with connect(base_url, None, headers={"Cookie": f"gc_session={cookie}"}) as sock:
        ended: asyncio.Future[dict[str, object]] = asyncio.get_running_loop().create_future()

        def on_session(data: dict[str, object]) -> None:
            if not ended.done():
                ended.set_result(data)

        sock.client.on("session", on_session)
        async with httpx.AsyncClient(base_url=base_url, cookies={"gc_session": cookie}) as http:
            out = await http.post("/auth/sign-out")
            assert out.status_code == 200
            assert 'gc_session=""' in out.headers["set-cookie"]
            assert (await http.get("/auth/session")).json() == {"data": None}
        assert await asyncio.wait_for(ended, 10) == {"state": "expired", "secondsLeft": 0}
        for _ in range(100):
            if not sock.client.connected:
                break
            await asyncio.sleep(0.05)
        assert not sock.client.connected
    with pytest.raises(socketio.exceptions.ConnectionError):
        async with connect(base_url, None, headers={"Cookie": f"gc_session={cookie}"}):
            pass


async def test_admin_error_report_is_mailed_without_the_query(base_url: str) -> None:
    report = {
        "userAgent": "pytest",
        "locale": "ja",
        "route": "/login-confirmation?token=secret-token-value",
        "error": {"code": "internal", "message": "appointment-create failed", "stack": "at x"},
        "context": {"step": "appointment-create"},
    }
    status, body = await call_http(base_url, "sendEmail-admin", report)
    assert (status, body) == (200, {"data": {"sent": True}})
    mails = await outbox(base_url, "admin@localhost")
    mail = next(m for m in mails if "appointment-create failed" in m["text"])
    assert "/login-confirmation" in mail["text"]
    assert "secret-token-value" not in mail["text"] + mail["subject"]


@pytest.mark.parametrize(
    ("event", "status"),
    [
        (
            {"name": "login", "params": {"method": "email-link-authentication", "hostname": "a.b"}},
            200,
        ),
        ({"name": "exception", "params": {"description": "TypeError: x", "fatal": False}}, 200),
        (
            {
                "name": "login",
                "params": {
                    "method": "email-link-authentication",
                    "hostname": "a.b",
                    "email": "someone@example.com",
                },
            },
            400,
        ),
        ({"name": "page_view", "params": {"path": "/b/review"}}, 400),
        ({"name": "exception", "params": {"description": "x" * 501}}, 400),
    ],
)
async def test_analytics_keep_only_non_personal_events(
    base_url: str, event: dict[str, object], status: int
) -> None:
    code, _ = await call_http(base_url, "analytics-log", event)
    assert code == status


async def test_per_ip_limit(tmp_path: Path) -> None:
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/ip.db",
            "SIGN_IN_LINKS_PER_IP": "3",
        },
        log_path=tmp_path / "ip.log",
    ).start()
    try:
        statuses = [
            (await call_http(server.url, "sendEmail-authLink", {"email": unique_email()}))[0]
            for _ in range(4)
        ]
    finally:
        server.stop()
    assert statuses == [200, 200, 200, 429]


async def test_expired_links_are_invalid(tmp_path: Path) -> None:
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/ttl.db",
            "SIGN_IN_LINK_TTL_SECONDS": "1",
        },
        log_path=tmp_path / "ttl.log",
    ).start()
    try:
        email = unique_email("late")
        token = await request_link(server.url, email)
        await asyncio.sleep(1.5)
        assert link_invalid(await confirm_link(server.url, email, token))
        fresh = await request_link(server.url, email)
        assert fresh != token
        assert (await confirm_link(server.url, email, fresh)).status_code == 200
    finally:
        server.stop()
