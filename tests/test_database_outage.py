"""PostgreSQL unreachable: every transport answers 503 UNAVAILABLE in the error format."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest_asyncio

from realtime.auth import SESSION_COOKIE
from storage.db import PING_AFTER_IDLE_SECONDS
from tests.support.clients import Account, call_http, connect, refusal, sign_in
from tests.support.databases import (
    create_postgres_database,
    drop_connections,
    drop_postgres_database,
    set_connections_allowed,
)
from tests.support.server import ServerProcess

UNAVAILABLE = "UNAVAILABLE"


@pytest_asyncio.fixture
async def outage_server(tmp_path: Path) -> AsyncIterator[tuple[ServerProcess, str]]:
    """A server of its own on a PostgreSQL database of its own (to be taken away)."""
    name, url = await create_postgres_database()
    server = ServerProcess(env={"DATABASE_URL": url}, log_path=tmp_path / "outage.log").start()
    try:
        yield server, name
    finally:
        server.stop()
        await set_connections_allowed(name, True)
        await drop_postgres_database(name)


def unavailable(status: int, body: dict[str, object]) -> bool:
    error = body.get("error")
    return status == 503 and isinstance(error, dict) and error.get("status") == UNAVAILABLE


async def test_http_calls_and_the_session_probe_are_unavailable_while_the_database_is_down(
    outage_server: tuple[ServerProcess, str],
) -> None:
    server, name = outage_server
    person: Account = await sign_in(server.url, "outage-http@example.com")
    await set_connections_allowed(name, False)
    with_token = await call_http(server.url, "appointment-create", {}, token=person.token)
    anonymous = await call_http(server.url, "clinic-read", {"id": "demo-clinic"})
    async with httpx.AsyncClient(base_url=server.url) as http:
        session = await http.get(
            "/auth/session", headers={"Authorization": f"Bearer {person.token}"}
        )
        cookie = await http.get(
            "/auth/session", headers={"Cookie": f"{SESSION_COOKIE}={person.token}"}
        )
    assert unavailable(*with_token), with_token
    assert unavailable(*anonymous), anonymous
    assert unavailable(session.status_code, session.json()), session.text
    assert unavailable(cookie.status_code, cookie.json()), cookie.text
    await set_connections_allowed(name, True)
    status, _ = await call_http(server.url, "appointment-create", {}, token=person.token)
    assert status == 200


async def test_socket_events_are_unavailable_while_the_database_is_down(
    outage_server: tuple[ServerProcess, str],
) -> None:
    server, name = outage_server
    person = await sign_in(server.url, "outage-socket@example.com")
    async with connect(server.url, person.token) as sock:
        await set_connections_allowed(name, False)
        called = await sock.call("appointment-create", {})
        subscribed = await sock.subscribe(f"users/{person.uid}")
        await set_connections_allowed(name, True)
    assert called["error"]["status"] == UNAVAILABLE, called
    assert subscribed["error"]["status"] == UNAVAILABLE, subscribed


async def test_a_socket_handshake_is_refused_cleanly_while_the_database_is_down(
    outage_server: tuple[ServerProcess, str],
) -> None:
    server, name = outage_server
    person = await sign_in(server.url, "outage-handshake@example.com")
    await set_connections_allowed(name, False)
    refused = await refusal(server.url, person.token)
    await set_connections_allowed(name, True)
    assert refused == {"message": "unavailable"}
    assert "Traceback" not in server.log_path.read_text()
    async with connect(server.url, person.token) as sock:  # and back once it returns
        assert "snapshot" in await sock.subscribe(f"users/{person.uid}")


async def test_a_pooled_connection_the_database_dropped_is_replaced_before_use(
    outage_server: tuple[ServerProcess, str],
) -> None:
    """A connection that sat idle in the pool is pinged before it is handed out, and a dead
    one replaced (storage/db.py PING_AFTER_IDLE_SECONDS): after the database ended every
    connection, the next call, a moment later, is answered as usual."""
    server, name = outage_server
    person = await sign_in(server.url, "outage-dropped@example.com")
    for _ in range(3):
        assert (await call_http(server.url, "appointment-create", {}, token=person.token))[0] == 200
        await drop_connections(name)
        await asyncio.sleep(PING_AFTER_IDLE_SECONDS + 0.2)
    status, body = await call_http(server.url, "appointment-create", {}, token=person.token)
    assert status == 200, body
