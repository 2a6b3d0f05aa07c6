"""Signed one-click links of booking mails (docs/security.md, "Links in booking mails"):
each link opens, signed out, a session that can do its one purpose on its one appointment and
nothing else; forged, stale and misused links are refused. On both databases."""

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from realtime.link_tokens import LinkGrant, LinkSigner
from realtime.production import DEFAULT_SECRET
from tests.support.booking import Person, free_slots, person
from tests.support.clients import call_http, connect, outbox, sign_in

# The test servers run with the development secret (tests/support/server.py sets none).
SIGNER = LinkSigner(DEFAULT_SECRET)
SCOPE_REFUSAL = {"reason": "link-scope"}


async def book(someone: Person, index: int = 5) -> dict[str, Any]:
    """A free (cancer) service: confirmed at once, and its confirmation mail sent."""
    slot = (await free_slots(someone.sock))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
    submitted = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert submitted == {"data": {"status": "confirmed"}}, submitted
    return slot


async def mailed_links(base_url: str, email: str) -> dict[str, str]:
    """The newest mail with signed links: its three links by purpose, each also written in
    the mail's text."""
    mails = [m for m in await outbox(base_url, email) if any("t=" in x for x in m["links"])]
    mail = mails[0]
    links = {purpose_of(link): link for link in mail["links"] if "t=" in link}
    assert set(links) == {"booking", "reschedule", "cancel"}, mail["links"]
    for link in links.values():
        assert link in mail["text"]
    return links


def purpose_of(link: str) -> str:
    parts = urlsplit(link)
    query = parse_qs(parts.query)
    if parts.path == "/b/reschedule":
        return "reschedule"
    return "cancel" if query.get("action") == ["cancel"] else "booking"


def link_body(link: str) -> dict[str, str]:
    """What the client posts for a link it was opened with (client/src/auth/linkSession.ts)."""
    query = parse_qs(urlsplit(link).query)
    return {"token": query["t"][0], "purpose": purpose_of(link), "appointmentId": query["id"][0]}


async def open_link(
    base_url: str, body: dict[str, str], token: str | None = None
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.post("/auth/link", json=body, headers=headers)


async def link_session(base_url: str, link: str) -> str:
    reply = await open_link(base_url, link_body(link))
    assert reply.status_code == 200, reply.text
    assert "gc_session" in reply.headers.get("set-cookie", "")
    token: str = reply.json()["data"]["token"]
    return token


async def session_of(base_url: str, token: str) -> dict[str, Any] | None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.get("/auth/session", headers={"Authorization": f"Bearer {token}"})
    data: dict[str, Any] | None = reply.json()["data"]
    return data


async def refused_out_of_scope(base_url: str, token: str, name: str, data: Any) -> None:
    """Refused over HTTP and over the socket alike, as outside the link's scope."""
    status, body = await call_http(base_url, name, data, token)
    assert status == 401 and body["error"]["details"] == SCOPE_REFUSAL, (name, body)
    async with connect(base_url, token) as sock:
        reply = await sock.call(name, data)
    assert reply["error"]["status"] == "UNAUTHENTICATED", (name, reply)
    assert reply["error"]["details"] == SCOPE_REFUSAL, (name, reply)


async def document_refused(base_url: str, token: str, path: str) -> None:
    async with connect(base_url, token) as sock:
        reply = await sock.subscribe(path)
        assert reply["error"]["details"] == SCOPE_REFUSAL, (path, reply)
        written = await sock.update(path, {"locale": "en"})
        assert written["error"]["details"] == SCOPE_REFUSAL, (path, written)


async def test_each_mailed_link_does_its_purpose_and_nothing_else(base_url: str) -> None:
    async with person(base_url, complete=True) as someone:
        slot = await book(someone)
        links = await mailed_links(base_url, someone.email)
        appointment = someone.appointment_id

        # My booking: the booking facts of that appointment only, never the answers.
        viewer = await link_session(base_url, links["booking"])
        session = await session_of(base_url, viewer)
        assert session is not None and session["uid"] == someone.uid
        assert session["link"]["purpose"] == "booking"
        assert session["link"]["appointmentId"] == appointment
        status, listed = await call_http(base_url, "appointments-mine", {}, viewer)
        assert status == 200 and [a["id"] for a in listed["data"]["appointments"]] == [appointment]
        assert "intake" not in listed["data"]["appointments"][0]
        await refused_out_of_scope(
            base_url, viewer, "appointment-cancelQuote", {"appointmentId": appointment}
        )
        await refused_out_of_scope(base_url, viewer, "appointment-create", {})
        await refused_out_of_scope(base_url, viewer, "account-erase", {})
        await refused_out_of_scope(
            base_url, viewer, "staff-appointment-read", {"appointmentId": appointment}
        )
        await document_refused(base_url, viewer, f"appointments/{appointment}")
        await document_refused(base_url, viewer, f"users/{someone.uid}")
        async with httpx.AsyncClient(base_url=base_url) as http:
            headers = {"Authorization": f"Bearer {viewer}"}
            ics = await http.get(f"/calendar/appointments/{appointment}.ics", headers=headers)
            fhir = await http.get(f"/fhir/QuestionnaireResponse/{appointment}", headers=headers)
        assert ics.status_code == 200 and "BEGIN:VEVENT" in ics.text
        assert fhir.status_code == 403  # a client's answer: staff only
        # Public calls still answer, as for anyone signed out.
        status, clinic = await call_http(base_url, "clinic-read", {"id": "demo-clinic"}, viewer)
        assert status == 200 and clinic["data"]["id"] == "demo-clinic"

        # Cancel: the quote (and the cancel, below), nothing of rescheduling.
        canceller = await link_session(base_url, links["cancel"])
        status, quote = await call_http(
            base_url, "appointment-cancelQuote", {"appointmentId": appointment}, canceller
        )
        assert status == 200 and quote["data"]["refund"] is None, quote
        await refused_out_of_scope(
            base_url,
            canceller,
            "appointment-reschedule",
            {"appointmentId": appointment, "start": slot["start"], "counselorId": "any"},
        )

        # Reschedule: the service's live months and the move; no other service's months.
        mover = await link_session(base_url, links["reschedule"])
        month = slot["start"][:7]
        async with connect(base_url, mover) as sock:
            followed = await sock.subscribe(f"vacancies/demo-clinic/cancer-b2b/{month}")
            assert followed["snapshot"]["exists"] is True, followed
            other = await sock.subscribe(f"vacancies/demo-clinic/prenatal-b2c/{month}")
            assert other["error"]["details"] == SCOPE_REFUSAL, other
            today = datetime.now(UTC).date()
            window = {"from": today.isoformat(), "to": (today + timedelta(days=30)).isoformat()}
            read = await sock.call(
                "vacancies-read", {"clinicId": "demo-clinic", "serviceId": "cancer-b2b", **window}
            )
            slots = read["data"]["slots"]
            target = next(s for s in reversed(slots) if s["start"] != slot["start"])
            moved = await sock.call(
                "appointment-reschedule",
                {"appointmentId": appointment, "start": target["start"], "counselorId": "any"},
            )
            assert moved["data"]["moved"] is True, moved
        await refused_out_of_scope(
            base_url, mover, "appointment-cancel", {"appointmentId": appointment, "reason": ""}
        )

        # Moved: the first mail's links no longer open anything; the new mail's do.
        stale = await open_link(base_url, link_body(links["cancel"]))
        assert stale.status_code == 400
        assert stale.json()["error"]["details"] == {"reason": "booking-link-invalid"}
        fresh = await mailed_links(base_url, someone.email)
        assert fresh != links
        canceller = await link_session(base_url, fresh["cancel"])
        status, cancelled = await call_http(
            base_url,
            "appointment-cancel",
            {"appointmentId": appointment, "reason": "from the mail"},
            canceller,
        )
        assert status == 200 and cancelled["data"]["status"] == "cancelled", cancelled

        # Cancelled: every link is refused and the link's session is over.
        for link in fresh.values():
            refused = await open_link(base_url, link_body(link))
            assert refused.status_code == 400, link
        assert await session_of(base_url, canceller) is None
        again = await sign_in(base_url, someone.email)  # the cancel ended every session
        status, listed = await call_http(base_url, "appointments-mine", {}, again.token)
        assert listed["data"]["appointments"][0]["status"] == "cancelled"


def forged(token: str, *, header: dict[str, Any] | None = None, **claims: Any) -> str:
    """`token` with its header or claims replaced, its signature kept (or dropped for
    `alg: none`)."""

    def encode(part: dict[str, Any]) -> str:
        raw = json.dumps(part).encode()
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def decode(part: str) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
        return parsed

    head, payload, signature = token.split(".")
    new_head = encode(header) if header is not None else head
    new_payload = encode({**decode(payload), **claims}) if claims else payload
    if header is not None and header.get("alg") == "none":
        signature = ""
    return f"{new_head}.{new_payload}.{signature}"


async def test_forged_stale_and_misused_links_are_refused(base_url: str) -> None:
    async with person(base_url, complete=True) as someone, person(base_url) as other:
        await book(someone)
        links = await mailed_links(base_url, someone.email)
        body = link_body(links["booking"])
        claims = json.loads(base64.urlsafe_b64decode(body["token"].split(".")[1] + "=="))
        grant = LinkGrant(someone.uid, someone.appointment_id, claims["at"])
        now = datetime.now(UTC)
        refusals = {
            "wrong purpose": {**body, "purpose": "cancel"},
            "other appointment": {**body, "appointmentId": other.appointment_id},
            "tampered": {**body, "token": forged(body["token"], aud="cancel")},
            "another person": {**body, "token": forged(body["token"], sub=other.uid)},
            "alg none": {**body, "token": forged(body["token"], header={"alg": "none"})},
            "other alg": {**body, "token": forged(body["token"], header={"alg": "HS512"})},
            "other key": {
                **body,
                "token": LinkSigner("another secret, of another product").sign(
                    grant, "booking", end=now + timedelta(days=1), now=now
                ),
            },
            "expired": {
                **body,
                "token": SIGNER.sign(
                    grant, "booking", end=now - timedelta(days=4), now=now - timedelta(days=5)
                ),
            },
            "not a token": {**body, "token": "x" * 30},
        }
        for why, refused_body in refusals.items():
            reply = await open_link(base_url, refused_body)
            assert reply.status_code == 400, (why, reply.text)
            assert reply.json()["error"]["details"] == {"reason": "booking-link-invalid"}, why
            assert "set-cookie" not in reply.headers, why
        # The token as minted here works: the refusals above were for their one change.
        fresh = SIGNER.sign(grant, "booking", end=now + timedelta(days=1), now=now)
        assert (await open_link(base_url, {**body, "token": fresh})).status_code == 200
        # A bad purpose is a bad request naming the field.
        bad = await open_link(base_url, {**body, "purpose": "erase"})
        assert bad.status_code == 400 and "purpose" in bad.json()["error"]["details"]["fields"]

        # Signed in as the owner: the link changes nothing (no new session, no cookie).
        own = await open_link(base_url, body, someone.token)
        assert own.status_code == 200 and own.json()["data"]["token"] is None
        assert "set-cookie" not in own.headers
        # Signed in as someone else: refused plainly, their session untouched.
        foreign = await open_link(base_url, body, other.token)
        assert foreign.status_code == 403
        assert foreign.json()["error"]["details"] == {"reason": "other-account"}
        assert (await session_of(base_url, other.token) or {}).get("uid") == other.uid


async def test_a_staff_address_opens_a_link_as_a_client_only(base_url: str) -> None:
    """Whoever the link's person is, its session is never staff: staff calls refuse it."""
    staff = await sign_in(base_url, "staff@demo-clinic.example")
    async with person(base_url, complete=True) as someone:
        await book(someone)
        links = await mailed_links(base_url, someone.email)
        viewer = await link_session(base_url, links["booking"])
        session = await session_of(base_url, viewer)
        assert session is not None and session["role"] == "client"
        assert session["clinicId"] is None and session["secondFactor"] is None
        # The staff member's own session cannot use a patient's link either.
        refused = await open_link(base_url, link_body(links["booking"]), staff.token)
        assert refused.status_code == 403
