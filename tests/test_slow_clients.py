"""Slow or idle connections are cut off, and one address holds only so many at once."""

import asyncio
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack

import httpx
import pytest

from tests.support.clients import connect, sign_in
from tests.support.server import ServerProcess

READ_TIMEOUT = 2.0
PER_ADDRESS = 60
SLOW_CLIENTS = 50
# The server closes within its timeout; this much more is left for a busy test machine.
SLACK = 3.0


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path = tmp_path_factory.mktemp("slow")
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{path}/slow.db",
            "REQUEST_READ_TIMEOUT_SECONDS": str(READ_TIMEOUT),
            "MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
            # More tabs of one session than the HTTP cap (socket caps: test_socket_abuse.py).
            "SOCKETS_PER_SESSION": str(PER_ADDRESS + 5),
        },
        log_path=path / "slow.log",
    ).start()
    yield server
    server.stop()


async def dribble(server: ServerProcess, head: bytes, then: bytes = b"X") -> float:
    """Send `head`, then one byte of `then` every 0.3 s; seconds until the server closed."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(head)
    try:
        while time.monotonic() - started < READ_TIMEOUT + SLACK + 5:
            try:
                if await asyncio.wait_for(reader.read(1024), 0.3) == b"":
                    break
            except TimeoutError:
                writer.write(then)
                await writer.drain()
    except OSError:
        pass  # reset by the server: closed as well
    finally:
        writer.close()
    return time.monotonic() - started


async def healthy(server: ServerProcess) -> bool:
    async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
        return (await http.get("/healthz")).status_code == 200


async def test_slow_request_heads_are_closed_while_others_are_served(
    guarded_server: ServerProcess,
) -> None:
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    slow = [asyncio.create_task(dribble(guarded_server, head)) for _ in range(SLOW_CLIENTS)]
    await asyncio.sleep(0.5)
    assert await healthy(guarded_server)
    held = await asyncio.gather(*slow)
    assert max(held) < READ_TIMEOUT + SLACK, held
    assert min(held) >= READ_TIMEOUT - 0.5, held


async def test_idle_connections_and_slow_bodies_are_closed(guarded_server: ServerProcess) -> None:
    idle = dribble(guarded_server, b"", then=b"")
    body = dribble(
        guarded_server,
        b"POST /functions/clinic-read HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{",
        then=b" ",
    )
    held = await asyncio.gather(idle, body)
    assert max(held) < READ_TIMEOUT + SLACK, held


async def test_one_address_holds_a_limited_number_of_connections(
    guarded_server: ServerProcess,
) -> None:
    opened = [
        await asyncio.open_connection("127.0.0.1", guarded_server.port) for _ in range(PER_ADDRESS)
    ]
    await asyncio.sleep(0.2)
    reader, writer = await asyncio.open_connection("127.0.0.1", guarded_server.port)
    try:
        assert await asyncio.wait_for(reader.read(1024), 1.0) == b""  # closed at once
    finally:
        writer.close()
        for _, held in opened:
            held.close()
    await asyncio.sleep(0.2)
    assert await healthy(guarded_server)


async def test_websockets_do_not_count_as_held_http_connections(
    guarded_server: ServerProcess,
) -> None:
    person = await sign_in(guarded_server.url, "many-tabs@example.com")
    async with asyncio.timeout(60), AsyncExitStack() as stack:
        sockets = [
            await stack.enter_async_context(connect(guarded_server.url, person.token))
            for _ in range(PER_ADDRESS + 5)
        ]
        await asyncio.sleep(READ_TIMEOUT + 0.5)  # past the read deadline too
        assert await healthy(guarded_server)
        assert (await sockets[0].call("clinic-read", {"id": "demo-clinic"}))["data"]
