"""Inactivity enforced by the server, one countdown for every tab, and the staff's presence
view (docs/product.md, "Behaviours across screens")."""

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import unique_email
from tests.support.clients import Socket, connect, sign_in
from tests.support.server import ServerProcess


def session_events(sock: Socket) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    sock.client.on("session", events.append)
    return events


async def wait_until(condition: Any, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def test_an_idle_session_is_revoked_by_the_server(short_idle: ServerProcess) -> None:
    person = await sign_in(short_idle.url, unique_email("idle"))
    async with connect(short_idle.url, person.token) as sock:
        events = session_events(sock)
        await wait_until(lambda: any(e["state"] == "expired" for e in events))
        states = [e["state"] for e in events]
        assert "warning" in states and states[-1] == "expired"
        warning = next(e for e in events if e["state"] == "warning")
        assert 0 <= warning["secondsLeft"] <= 2
        await wait_until(lambda: not sock.client.connected)
    async with httpx.AsyncClient(base_url=short_idle.url) as http:
        who = await http.get("/auth/session", headers={"Authorization": f"Bearer {person.token}"})
    assert who.json() == {"data": None}


async def test_an_idle_session_ends_even_with_no_page_open(short_idle: ServerProcess) -> None:
    person = await sign_in(short_idle.url, unique_email("gone"))
    await asyncio.sleep(4.5)
    async with httpx.AsyncClient(base_url=short_idle.url) as http:
        who = await http.get("/auth/session", headers={"Authorization": f"Bearer {person.token}"})
    assert who.json() == {"data": None}


async def test_activity_keeps_every_tab_alive_together(short_idle: ServerProcess) -> None:
    person = await sign_in(short_idle.url, unique_email("busy"))
    async with (
        connect(short_idle.url, person.token) as tab1,
        connect(short_idle.url, person.token) as tab2,
    ):
        other = session_events(tab2)
        for _ in range(12):  # 6 s of activity in tab 1 only: longer than the 4 s limit
            await tab1.request("activity", {"step": "contact"})
            await asyncio.sleep(0.5)
        assert tab1.client.connected and tab2.client.connected
        assert any(e == {"state": "active", "secondsLeft": 4} for e in other)
        assert not any(e["state"] == "expired" for e in other)


async def test_the_staff_see_who_is_online_and_where(base_url: str) -> None:
    staff = await sign_in(base_url, "staff@demo-clinic.example")
    client = await sign_in(base_url, unique_email("online"))
    async with connect(base_url, client.token) as first:
        created = await first.call("appointment-create", {"serviceId": "pgt"})
    appointment_id = created["data"]["appointmentId"]
    path = "clinics/demo-clinic/presence"
    async with connect(base_url, staff.token) as desk:
        start = (await desk.subscribe(path))["snapshot"]["version"]

        def online() -> list[dict[str, Any]]:
            pushes = desk.pushes.get(path, [])
            return list(pushes[-1]["data"]["online"]) if pushes else []

        async with connect(base_url, client.token) as sock:
            await desk.wait_for_version(path, start + 1)
            assert any(o["appointmentId"] == appointment_id for o in online())
            await sock.request("activity", {"step": "contact"})
            await wait_until(
                lambda: any(
                    o["appointmentId"] == appointment_id and o["step"] == "contact"
                    for o in online()
                )
            )
            entry = next(o for o in online() if o["appointmentId"] == appointment_id)
            assert set(entry) == {"appointmentId", "step", "since", "lastSeen"}  # no intake
        await wait_until(lambda: all(o["appointmentId"] != appointment_id for o in online()))
    async with connect(base_url, client.token) as nosy:
        reply = await nosy.subscribe(path)
    assert reply["error"]["status"] == "PERMISSION_DENIED"


def test_logs_have_no_tokens(short_idle: ServerProcess) -> None:
    assert "token" not in Path(short_idle.log_path).read_text().lower()


async def test_a_step_with_control_characters_is_ignored(server: ServerProcess) -> None:
    staff = await sign_in(server.url, "staff@demo-clinic.example")
    client = await sign_in(server.url, unique_email("online-nul"))
    async with connect(server.url, client.token) as first:
        created = await first.call("appointment-create", {"serviceId": "pgt"})
    appointment_id = created["data"]["appointmentId"]
    path = "clinics/demo-clinic/presence"
    log_start = server.log_path.stat().st_size
    async with connect(server.url, staff.token) as desk:
        await desk.subscribe(path)

        def steps() -> list[object]:
            return [
                o["step"]
                for push in desk.pushes.get(path, [])
                for o in push["data"]["online"]
                if o["appointmentId"] == appointment_id
            ]

        async with connect(server.url, client.token) as sock:
            await sock.request("activity", {"step": "con\u0000tact"})
            await sock.request("activity", {"step": "family\r\nX-Forged: 1"})
            await asyncio.sleep(1.5)  # past the presence write interval
            await sock.request("activity", {"step": "profile"})
            await wait_until(lambda: "profile" in steps())
    assert all(step in (None, "profile") for step in steps()), steps()
    with server.log_path.open("rb") as log:
        log.seek(log_start)
        assert b"Traceback" not in log.read()
