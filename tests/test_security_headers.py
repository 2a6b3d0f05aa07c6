"""Security headers on every response; HSTS over https; no query string in the logs."""

import re
from pathlib import Path

import httpx
import pytest

from realtime.security_headers import CONTENT_SECURITY_POLICY
from tests.support.clients import connect, sign_in
from tests.support.server import ServerProcess

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def has_security_headers(reply: httpx.Response) -> bool:
    return all(reply.headers.get(name) == value for name, value in EXPECTED.items())


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'"


async def test_every_kind_of_response_carries_the_headers(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        shell = await http.get("/b/review")
        asset = re.search(r'src="(/assets/[^"]+\.js)"', shell.text)
        assert asset is not None, "the client build has a script"
        replies = {
            "shell": shell,
            "asset": await http.get(asset.group(1)),
            "health": await http.get("/healthz"),
            "session": await http.get("/auth/session"),
            "call": await http.post("/functions/clinic-read", json={"data": {"id": "demo-clinic"}}),
            "refused": await http.post("/functions/clinic-read", json={"data": {}}),
            "missing": await http.get("/functions/nothing"),
            "file": await http.get("/files/demo-clinic/consent-form/ja"),
            "webhook": await http.post("/stripe/webhook", content=b"{}"),
        }
    assert shell.status_code == 200 and '<div id="root">' in shell.text
    assert {name: has_security_headers(r) for name, r in replies.items()} == {
        name: True for name in replies
    }
    assert all("strict-transport-security" not in r.headers for r in replies.values())
    assert replies["file"].headers.get_list("x-content-type-options") == ["nosniff"]


async def test_https_adds_hsts_and_logs_keep_no_query_strings(tmp_path: Path) -> None:
    log = tmp_path / "https.log"
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/https.db",
            "PUBLIC_URL": "https://booking.example",
            "LOG_LEVEL": "info",
        },
        log_path=log,
    ).start()
    try:
        person = await sign_in(server.url, "logged@example.com")
        async with httpx.AsyncClient(base_url=server.url) as http:
            shell = await http.get("/login-confirmation?token=SECRET-LINK-TOKEN")
            await http.post("/functions/clinic-read?probe=SECRET-QUERY", json={"data": {}})
        async with connect(f"{server.url}?probe=SECRET-SOCKET", person.token) as sock:
            await sock.call("clinic-read", {"id": "demo-clinic"})
    finally:
        server.stop()
    assert shell.headers["strict-transport-security"] == "max-age=31536000"
    assert has_security_headers(shell)
    text = log.read_text()
    assert '"GET /login-confirmation HTTP/1.1" 200' in text
    assert "/functions/clinic-read" in text and "WebSocket /socket.io/" in text
    assert "SECRET" not in text


@pytest.mark.parametrize("path", ["/", "/prenatal", "/login-confirmation"])
async def test_the_shell_references_no_inline_script(base_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        shell = (await http.get(path)).text
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", shell, flags=re.S)
    assert scripts and all('src="/assets/' in attrs and not body.strip() for attrs, body in scripts)
    assert "style=" not in shell and "<style" not in shell
