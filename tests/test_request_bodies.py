"""Request bodies: capped at 64 KiB as they stream in, and JSON of a bounded depth."""

import time
from collections.abc import AsyncIterator

import httpx
import pytest

from realtime.contract import MAX_MESSAGE_BYTES
from tests.support.server import ServerProcess

MIB = 1024 * 1024
CHUNK = b"x" * 65536
# Every POST route that reads a body; /stripe/webhook reads it raw for the signature.
BODY_ROUTES = ["/functions/contact-send", "/stripe/webhook", "/auth/confirm", "/dev/token"]
# 300 MB where the attack was seen; less elsewhere (the same middleware; less CPU).
HUGE = {"/functions/contact-send": 300 * MIB, "/stripe/webhook": 300 * MIB}
TOO_LARGE = {
    "error": {
        "status": "INVALID_ARGUMENT",
        "message": "The request is too large.",
        "details": {"fields": {"body": "The request is too large."}},
    }
}


async def huge_body(size: int) -> AsyncIterator[bytes]:
    """`size` bytes, made as they are sent (chunked: no Content-Length to refuse it by)."""
    for _ in range(size // len(CHUNK)):
        yield CHUNK


def rss_kib(server: ServerProcess) -> int:
    assert server.process is not None
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise LookupError("no VmRSS")


@pytest.mark.parametrize("path", BODY_ROUTES)
async def test_a_huge_chunked_body_is_refused_quickly_with_flat_memory(
    server: ServerProcess, path: str
) -> None:
    before = rss_kib(server)
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        reply = await http.post(
            path,
            content=huge_body(HUGE.get(path, 16 * MIB)),
            headers={"Content-Type": "application/json"},
        )
    assert reply.status_code == 413
    assert reply.json() == TOO_LARGE
    assert time.monotonic() - started < 10
    assert rss_kib(server) - before < 20 * 1024


@pytest.mark.parametrize("path", BODY_ROUTES)
async def test_a_declared_length_over_the_limit_is_refused_unread(base_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(path, content=b"{" * (MAX_MESSAGE_BYTES + 1))
    assert reply.status_code == 413
    assert reply.json() == TOO_LARGE


async def test_a_body_at_the_limit_is_still_read(base_url: str) -> None:
    padding = MAX_MESSAGE_BYTES - len('{"data": {"name": ""}}')
    body = '{"data": {"name": "' + "a" * padding + '"}}'
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/functions/contact-send", content=body, headers={"Content-Type": "application/json"}
        )
    assert len(body) == MAX_MESSAGE_BYTES
    assert reply.status_code == 400  # read, parsed and validated (fields are missing)
    assert reply.json() != TOO_LARGE


@pytest.mark.parametrize("depth", [33, 1_000, 30_000])
@pytest.mark.parametrize("path", ["/functions/contact-send", "/auth/confirm", "/dev/token"])
async def test_deeply_nested_json_is_invalid_argument(base_url: str, path: str, depth: int) -> None:
    body = '{"data": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
    assert len(body) < MAX_MESSAGE_BYTES
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(path, content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400
    message = "The body nests deeper than 32 levels."
    assert reply.json() == {
        "error": {
            "status": "INVALID_ARGUMENT",
            "message": message,
            "details": {"fields": {"body": message}},
        }
    }


async def test_json_nested_32_levels_is_accepted(base_url: str) -> None:
    nested = '{"data": {"email": "deep@example.com", "x": ' + "[" * 30 + "]" * 30 + "}}"
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/dev/token", content=nested, headers={"Content-Type": "application/json"}
        )
    assert reply.status_code == 200, reply.text
