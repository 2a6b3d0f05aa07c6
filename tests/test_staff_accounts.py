"""Staff accounts: invite, change role, remove (docs/protocol.md, "Clinic administration" /
"Staff accounts"; docs/security.md, "Staff accounts"), on SQLite and on PostgreSQL + Redis,
through real server processes; one test across two nodes.

Each test makes its own clinic (with two counselors and one administrator, written to the
database as demo data is) so that the last-administrator rule is about a clinic nobody else
touches. The administrator signs in through `/dev/token`, which passes the second factor.
"""

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from storage.db import open_database
from storage.models import Clinic, Counselor, StaffMember
from tests.support.booking import person
from tests.support.clients import (
    Account,
    Socket,
    call_http,
    connect,
    outbox,
    sign_in,
    sign_in_by_link,
)
from tests.support.server import ServerProcess
from tests.test_counselor_calendar import fetch, rotate
from tests.test_multinode import two_nodes
from tests.test_staff_signin import ADMIN, COUNSELOR, dev_session, pass_totp, who

__all__ = ["two_nodes"]  # the two-node fixture of tests/test_multinode.py, used below

DOMAIN = "team-test.example"


@dataclass(frozen=True)
class TeamClinic:
    url: str
    clinic_id: str
    counselors: tuple[str, str]
    admin: Account

    def address(self, name: str) -> str:
        return f"{name}-{secrets.token_hex(4)}@{DOMAIN}"

    async def call(self, name: str, data: dict[str, Any], token: str | None = None) -> Any:
        body = {"clinicId": self.clinic_id, **data}
        return await call_http(self.url, name, body, token or self.admin.token)

    async def invite(self, email: str, role: str, counselor: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"email": email, "role": role}
        if counselor is not None:
            data["counselorId"] = counselor
        status, body = await self.call("staff-invite", data)
        assert status == 200, body
        member: dict[str, Any] = body["data"]["member"]
        return member

    async def update(self, staff_id: int, token: str | None = None, **data: Any) -> Any:
        return await self.call("staff-update", {"staffId": staff_id, **data}, token)

    async def members(self) -> dict[str, dict[str, Any]]:
        status, body = await self.call("staff-list", {})
        assert status == 200, body
        return {m["email"]: m for m in body["data"]["staff"]}


async def team_clinic(server: ServerProcess) -> TeamClinic:
    """A new clinic with two counselors and one administrator, who is signed in."""
    suffix = secrets.token_hex(4)
    clinic_id = f"team-{suffix}"
    counselors = (f"{clinic_id}-c1", f"{clinic_id}-c2")
    admin_email = f"admin-{suffix}@{DOMAIN}"
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            session.add(
                Clinic(
                    id=clinic_id,
                    name={"ja": "チーム医院", "en": "Team Clinic"},
                    timezone="Asia/Tokyo",
                    contact_email=f"contact@{DOMAIN}",
                    service_aliases={},
                )
            )
            await session.flush()
            for index, counselor_id in enumerate(counselors):
                session.add(
                    Counselor(
                        id=counselor_id,
                        clinic_id=clinic_id,
                        name={"ja": f"相談員{index}", "en": f"Counselor {index}"},
                        email=f"{counselor_id}@{DOMAIN}",
                        languages=["en", "ja"] if index else ["ja"],
                    )
                )
            await session.flush()
            session.add(StaffMember(email=admin_email, clinic_id=clinic_id, role="clinic_admin"))
    finally:
        await db.close()
    return TeamClinic(server.url, clinic_id, counselors, await sign_in(server.url, admin_email))


def error_of(body: dict[str, Any]) -> tuple[str, Any]:
    error = body["error"]
    return error["status"], (error.get("details") or {}).get("reason")


async def session_of(base_url: str, token: str) -> Any:
    return await who(base_url, token)


async def audit_entries(team: TeamClinic, action: str) -> list[dict[str, Any]]:
    status, body = await call_http(
        team.url, "staff-audit-read", {"clinicId": team.clinic_id}, team.admin.token
    )
    assert status == 200, body
    return [e for e in body["data"]["entries"] if e["action"] == action]


def told_expired(sock: Socket) -> "asyncio.Future[dict[str, Any]]":
    ended: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def on_session(data: dict[str, Any]) -> None:
        if not ended.done():
            ended.set_result(data)

    sock.client.on("session", on_session)
    return ended


async def closed(sock: Socket, seconds: float = 5) -> None:
    async with asyncio.timeout(seconds):
        while sock.client.connected:
            await asyncio.sleep(0.05)


# Invitations ------------------------------------------------------------------------------


async def test_an_invitation_mails_the_address_and_it_signs_in_as_staff_who_must_enrol(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    email = team.address("newcomer")
    member = await team.invite(email.upper(), "counselor", team.counselors[1])
    assert member["email"] == email  # normalised like sign-in addresses
    assert (member["role"], member["counselorId"]) == ("counselor", team.counselors[1])
    assert member["secondFactor"] is False and member["removedAt"] is None
    assert member["invitedAt"] is not None

    [mail] = await outbox(team.url, email)
    # Counselor 1's first language is English; the mail names the clinic and the inviter.
    assert "Team Clinic" in mail["subject"]
    assert team.admin.email in mail["text"] and "Counselor 1" in mail["text"]
    [link] = mail["links"]
    parts = urlsplit(link)
    assert (parts.path, parse_qs(parts.query)) == ("/", {"next": ["/staff"]})
    assert "token" not in link

    listed = await team.members()
    assert listed[email]["staffId"] == member["staffId"]
    _, body = await team.call("staff-list", {})
    holders = {c["counselorId"]: c["staffId"] for c in body["data"]["counselors"]}
    assert holders == {team.counselors[0]: None, team.counselors[1]: member["staffId"]}

    invitee = await sign_in_by_link(team.url, email)
    seen = await session_of(team.url, invitee.token)
    assert seen is not None
    assert (seen["role"], seen["clinicId"], seen["counselorId"], seen["secondFactor"]) == (
        "counselor",
        team.clinic_id,
        team.counselors[1],
        "enrol",
    )
    # The existing enrolment: an authenticator, its first code, then the counselor's own calls.
    status, body = await call_http(team.url, "auth-totpEnroll", {}, invitee.token)
    assert status == 200, body
    secret = parse_qs(urlsplit(body["data"]["otpauthUri"]).query)["secret"][0]
    await pass_totp(team.url, invitee.token, secret)
    status, body = await call_http(team.url, "staff-calendarFeed-read", {}, invitee.token)
    assert (status, body["data"]["counselorId"]) == (200, team.counselors[1]), body
    assert (await team.members())[email]["secondFactor"] is True
    [entry] = await audit_entries(team, "staff.invite")
    assert entry["detail"] == {
        "email": email,
        "role": "counselor",
        "counselorId": team.counselors[1],
    }
    assert entry["email"] == team.admin.email


async def test_an_administrator_invitation_is_in_japanese(server: ServerProcess) -> None:
    team = await team_clinic(server)
    email = team.address("second-admin")
    member = await team.invite(email, "clinic_admin")
    assert member["counselorId"] is None
    [mail] = await outbox(team.url, email)
    assert "チーム医院" in mail["subject"] and "クリニック管理者" in mail["text"]


async def test_invitations_that_cannot_be_made_name_the_field_and_save_nothing(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    taken = team.address("taken")
    await team.invite(taken, "counselor", team.counselors[0])
    before = await team.members()
    async with person(team.url) as client:
        cases: list[tuple[dict[str, Any], str, str | None]] = [
            ({"email": "not an address", "role": "counselor"}, "email", None),
            ({"email": team.address("x"), "role": "boss"}, "role", None),
            ({"email": team.address("x"), "role": "counselor"}, "counselorId", "needsCounselor"),
            (
                {"email": team.address("x"), "role": "counselor", "counselorId": "c-sato"},
                "counselorId",
                "noSuchCounselor",
            ),
            (
                {"email": team.address("x"), "role": "counselor", "counselorId": "nobody"},
                "counselorId",
                "noSuchCounselor",
            ),
            (
                {
                    "email": team.address("x"),
                    "role": "counselor",
                    "counselorId": team.counselors[0],
                },
                "counselorId",
                "counselorTaken",
            ),
            (
                {
                    "email": team.address("x"),
                    "role": "clinic_admin",
                    "counselorId": team.counselors[1],
                },
                "counselorId",
                "adminHasNoCounselor",
            ),
            ({"email": ADMIN, "role": "clinic_admin"}, "email", "otherClinic"),
            ({"email": taken, "role": "clinic_admin"}, "email", "alreadyMember"),
            ({"email": client.email, "role": "clinic_admin"}, "email", "clientAccount"),
            ({"email": "a\u0000b@" + DOMAIN, "role": "clinic_admin"}, "email", None),
        ]
        for data, field, reason in cases:
            status, body = await team.call("staff-invite", data)
            assert status == 400, (data, body)
            assert field in body["error"]["details"]["fields"], (data, body)
            assert error_of(body)[1] == reason, (data, body)
    assert await team.members() == before


async def test_a_clinic_may_send_twenty_invitations_a_quarter_hour(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    for _ in range(20):
        await team.invite(team.address("many"), "clinic_admin")
    status, body = await team.call(
        "staff-invite", {"email": team.address("one-more"), "role": "clinic_admin"}
    )
    assert (status, body["error"]["status"]) == (429, "RESOURCE_EXHAUSTED")
    assert len(await team.members()) == 21  # the administrator and the twenty


async def test_two_clinics_inviting_one_address_at_once_make_it_a_member_of_one(
    server: ServerProcess,
) -> None:
    """Each clinic's invitations are serialised by its own row; two clinics race on the
    address's unique key, and the loser is told the address is another clinic's."""
    first, second = await team_clinic(server), await team_clinic(server)
    for _ in range(4):
        email = first.address("both")
        data = {"email": email, "role": "clinic_admin"}
        replies = await asyncio.gather(
            first.call("staff-invite", data), second.call("staff-invite", data)
        )
        assert sorted(status for status, _ in replies) == [200, 400], replies
        (refusal,) = [body for status, body in replies if status == 400]
        assert error_of(refusal) == ("INVALID_ARGUMENT", "otherClinic"), refusal
        members = [email in await team.members() for team in (first, second)]
        assert sorted(members) == [False, True]


# Role changes and removal -----------------------------------------------------------------


async def test_a_role_change_ends_the_members_sessions_and_the_next_has_the_new_role(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    email = team.address("promoted")
    member = await team.invite(email, "counselor", team.counselors[0])
    old = await sign_in(team.url, email)
    status, body = await team.call("staff-list", {}, old.token)
    assert (status, body["error"]["status"]) == (403, "PERMISSION_DENIED")  # a counselor

    status, body = await team.update(member["staffId"], role="clinic_admin")
    assert status == 200, body
    assert (body["data"]["member"]["role"], body["data"]["member"]["counselorId"]) == (
        "clinic_admin",
        None,
    )
    status, body = await team.call("staff-list", {}, old.token)
    assert status == 401, body  # that session is over
    new = await sign_in(team.url, email)
    seen = await session_of(team.url, new.token)
    assert seen is not None and seen["role"] == "clinic_admin"
    status, _ = await team.call("staff-list", {}, new.token)
    assert status == 200

    # Back to a counselor: the counselor must be named (and not be someone else's).
    status, body = await team.update(member["staffId"], role="counselor")
    assert (status, error_of(body)) == (400, ("INVALID_ARGUMENT", "needsCounselor"))
    status, body = await team.update(
        member["staffId"], role="counselor", counselorId=team.counselors[1]
    )
    assert status == 200, body
    entries = await audit_entries(team, "staff.update")
    assert [e["detail"] for e in entries] == [
        {
            "email": email,
            "role": {"from": "clinic_admin", "to": "counselor"},
            "counselorId": {"from": None, "to": team.counselors[1]},
        },
        {
            "email": email,
            "role": {"from": "counselor", "to": "clinic_admin"},
            "counselorId": {"from": team.counselors[0], "to": None},
        },
    ]


async def test_a_removed_member_loses_their_socket_and_calls_at_once_and_signs_in_as_a_client(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    email = team.address("leaving")
    member = await team.invite(email, "clinic_admin")
    leaving = await sign_in(team.url, email)
    feed = f"clinics/{team.clinic_id}/bookings"
    async with connect(team.url, leaving.token) as sock:
        assert "snapshot" in await sock.subscribe(feed)
        ended = told_expired(sock)
        status, body = await team.update(member["staffId"], removed=True)
        assert status == 200, body
        assert body["data"]["member"]["removedAt"] is not None
        # Told by the server right after the commit, not by a later sweep.
        assert await asyncio.wait_for(ended, 1.5) == {"state": "expired", "secondsLeft": 0}
        await closed(sock)
    status, body = await team.call("staff-list", {}, leaving.token)
    assert status == 401, body

    # Signing in again: a client, refused by every staff call and path.
    again = await sign_in(team.url, email)
    seen = await session_of(team.url, again.token)
    assert seen is not None
    assert (seen["role"], seen["clinicId"], seen["secondFactor"]) == ("client", None, None)
    status, body = await team.call("staff-list", {}, again.token)
    assert (status, body["error"]["status"]) == (403, "PERMISSION_DENIED")
    async with connect(team.url, again.token) as sock:
        assert sock_status(await sock.subscribe(feed)) == "PERMISSION_DENIED"
    listed = await team.members()
    assert listed[email]["removedAt"] is not None

    # Restored: staff again, with a new authenticator to set up.
    status, body = await team.update(member["staffId"], removed=False)
    assert status == 200, body
    back = await sign_in(team.url, email)
    seen = await session_of(team.url, back.token)
    assert seen is not None and seen["role"] == "clinic_admin"
    entries = await audit_entries(team, "staff.update")
    assert [e["detail"]["removed"] for e in entries] == [
        {"from": True, "to": False},
        {"from": False, "to": True},
    ]


def sock_status(reply: dict[str, Any]) -> str | None:
    status: str | None = reply.get("error", {}).get("status")
    return status


async def test_a_removed_member_loses_their_enrolled_authenticator(server: ServerProcess) -> None:
    team = await team_clinic(server)
    email = team.address("enrolled")
    member = await team.invite(email, "clinic_admin")
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            row = await session.get(StaffMember, member["staffId"])
            assert row is not None
            row.totp_secret = "JBSWY3DPEHPK3PXP"
            row.totp_confirmed_at = row.invited_at
        assert (await team.members())[email]["secondFactor"] is True
        await team.update(member["staffId"], removed=True)
        await team.update(member["staffId"], removed=False)
        assert (await team.members())[email]["secondFactor"] is False
        again = await sign_in_by_link(team.url, email)
        seen = await session_of(team.url, again.token)
        assert seen is not None and seen["secondFactor"] == "enrol"
    finally:
        await db.close()


async def test_removing_a_counselor_stops_their_calendar_feed(server: ServerProcess) -> None:
    team = await team_clinic(server)
    email = team.address("feed")
    member = await team.invite(email, "counselor", team.counselors[0])
    counselor = await sign_in(team.url, email)
    url = await rotate(team.url, counselor.token)
    assert (await fetch(team.url, url)).status_code == 200
    status, body = await team.update(member["staffId"], removed=True)
    assert status == 200, body
    assert (await fetch(team.url, url)).status_code == 404
    [entry] = await audit_entries(team, "staff.update")
    assert entry["detail"]["calendarFeed"] == "revoked"


async def test_a_removed_member_who_booked_as_a_client_is_not_brought_back(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    email = team.address("patient-now")
    member = await team.invite(email, "clinic_admin")
    await team.update(member["staffId"], removed=True)
    client = await sign_in(team.url, email)
    async with connect(team.url, client.token) as sock:
        created = await sock.call("appointment-create", {"serviceId": "cancer"})
        assert "data" in created, created
    status, body = await team.update(member["staffId"], removed=False)
    assert (status, error_of(body)) == (400, ("INVALID_ARGUMENT", "clientAccount"))
    assert "removed" in body["error"]["details"]["fields"]
    status, body = await team.call("staff-invite", {"email": email, "role": "clinic_admin"})
    assert (status, error_of(body)) == (400, ("INVALID_ARGUMENT", "clientAccount"))
    assert (await team.members())[email]["removedAt"] is not None


async def test_an_invitation_brings_a_removed_member_back(server: ServerProcess) -> None:
    team = await team_clinic(server)
    email = team.address("returning")
    member = await team.invite(email, "counselor", team.counselors[0])
    await team.update(member["staffId"], removed=True)
    again = await team.invite(email, "clinic_admin")
    assert again["staffId"] == member["staffId"]
    assert (again["role"], again["removedAt"], again["counselorId"]) == ("clinic_admin", None, None)


# The last administrator -------------------------------------------------------------------


async def test_the_last_administrator_can_be_neither_removed_nor_demoted(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    own = (await team.members())[team.admin.email]["staffId"]
    status, body = await team.update(own, removed=True)
    assert (status, error_of(body)) == (400, ("INVALID_ARGUMENT", "lastAdmin"))
    assert "removed" in body["error"]["details"]["fields"]
    status, body = await team.update(own, role="counselor", counselorId=team.counselors[0])
    assert (status, error_of(body)) == (400, ("INVALID_ARGUMENT", "lastAdmin"))
    assert "role" in body["error"]["details"]["fields"]
    assert (await team.members())[team.admin.email]["role"] == "clinic_admin"
    assert await audit_entries(team, "staff.update") == []

    # With a second administrator, one may remove themself; their reply still arrives.
    other = await team.invite(team.address("deputy"), "clinic_admin")
    status, body = await team.update(own, removed=True)
    assert status == 200, body
    status, _ = await call_http(
        team.url, "staff-list", {"clinicId": team.clinic_id}, team.admin.token
    )
    assert status == 401
    assert other["removedAt"] is None


async def removing_each_other(
    team: TeamClinic, removals: list[tuple[str, int]]
) -> list[tuple[int, Any]]:
    """Each (token, staffId) removes that member, all sent at the same moment over
    connections opened (and used once) beforehand, so that the transactions overlap."""
    clients = [httpx.AsyncClient(base_url=team.url) for _ in removals]
    try:
        for client, (token, _) in zip(clients, removals, strict=True):
            await client.get("/auth/session", headers={"Authorization": f"Bearer {token}"})

        async def remove(client: httpx.AsyncClient, token: str, staff_id: int) -> tuple[int, Any]:
            reply = await client.post(
                "/functions/staff-update",
                json={"data": {"clinicId": team.clinic_id, "staffId": staff_id, "removed": True}},
                headers={"Authorization": f"Bearer {token}"},
            )
            return reply.status_code, reply.json()

        replies = await asyncio.gather(
            *(remove(c, t, i) for c, (t, i) in zip(clients, removals, strict=True))
        )
        return list(replies)
    finally:
        for client in clients:
            await client.aclose()


async def test_two_administrators_removing_each_other_at_once_leave_one(
    server: ServerProcess,
) -> None:
    for _ in range(8):
        team = await team_clinic(server)
        email = team.address("rival")
        rival = await team.invite(email, "clinic_admin")
        own = (await team.members())[team.admin.email]["staffId"]
        rival_account = await sign_in(team.url, email)
        replies = await removing_each_other(
            team, [(team.admin.token, rival["staffId"]), (rival_account.token, own)]
        )
        statuses = sorted(status for status, _ in replies)
        assert statuses in ([200, 400], [200, 401]), replies
        refused = [body for status, body in replies if status != 200]
        if statuses == [200, 400]:
            assert error_of(refused[0]) == ("INVALID_ARGUMENT", "lastAdmin")
        db = open_database(server.env["DATABASE_URL"])
        try:
            async with db.read() as session:
                rows = [
                    await session.get(StaffMember, rival["staffId"]),
                    await session.get(StaffMember, own),
                ]
        finally:
            await db.close()
        assert sum(1 for row in rows if row is not None and row.removed_at is None) == 1


# Who may ----------------------------------------------------------------------------------


async def test_only_the_clinics_administrators_may_list_invite_or_change(
    server: ServerProcess,
) -> None:
    team = await team_clinic(server)
    email = team.address("counselor")
    member = await team.invite(email, "counselor", team.counselors[0])
    counselor = await sign_in(team.url, email)
    client = await sign_in(team.url, team.address("client"))
    other_clinic = await sign_in(team.url, ADMIN)
    demo_counselor = await sign_in(team.url, COUNSELOR)
    limited = await dev_session(team.url, team.admin.email, second_factor=False)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("staff-list", {}),
        ("staff-invite", {"email": team.address("x"), "role": "clinic_admin"}),
        ("staff-invite", {"email": 42, "role": "nonsense"}),  # authorized before validated
        ("staff-update", {"staffId": member["staffId"], "removed": True}),
        ("staff-update", {"staffId": "x", "removed": "yes"}),
    ]
    for name, data in calls:
        for token, expected in (
            (counselor.token, 403),
            (client.token, 403),
            (other_clinic.token, 403),
            (demo_counselor.token, 403),
            (limited.token, 401),
            ("no-such-token", 401),
        ):
            status, body = await team.call(name, data, token)
            assert status == expected, (name, data, token, body)
    assert (await team.members())[email]["removedAt"] is None
    # The demo clinic's administrator cannot reach this clinic's member through their own.
    status, body = await call_http(
        team.url,
        "staff-update",
        {"clinicId": "demo-clinic", "staffId": member["staffId"], "removed": True},
        other_clinic.token,
    )
    assert (status, body["error"]["status"]) == (404, "NOT_FOUND")
    assert await audit_entries(team, "staff.update") == []


# Several nodes ----------------------------------------------------------------------------


async def test_a_member_removed_through_one_node_loses_their_socket_on_the_other_at_once(
    two_nodes: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_nodes
    team = await team_clinic(a)
    email = team.address("far")
    member = await team.invite(email, "clinic_admin")
    leaving = await sign_in(b.url, email)
    async with connect(b.url, leaving.token) as on_b:
        assert "snapshot" in await on_b.subscribe(f"clinics/{team.clinic_id}/bookings")
        ended = told_expired(on_b)
        status, body = await team.update(member["staffId"], removed=True)
        assert status == 200, body
        assert await asyncio.wait_for(ended, 1.5) == {"state": "expired", "secondsLeft": 0}
        await closed(on_b)
    async with httpx.AsyncClient(base_url=b.url) as http:
        reply = await http.post(
            "/functions/staff-list",
            json={"data": {"clinicId": team.clinic_id}},
            headers={"Authorization": f"Bearer {leaving.token}"},
        )
    assert reply.status_code == 401
