"""Security headers on every response; HSTS over https; no query string in the logs."""

import base64
import hashlib
import re
from pathlib import Path

import httpx
import pytest

from realtime.security_headers import CONTENT_SECURITY_POLICY, REACT_ARIA_STYLE_HASHES
from tests.support.clients import connect, sign_in
from tests.support.server import ROOT, ServerProcess

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


def test_the_only_inline_styles_allowed_are_the_ones_react_aria_injects() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    hashes = directives["style-src"].split()[1:]
    assert hashes == [f"'{h}'" for h in REACT_ARIA_STYLE_HASHES]
    # Recomputed from the installed react-aria: `style.textContent = `...`.trim()` as it runs.
    private = ROOT / "node_modules" / "react-aria" / "dist" / "private"
    texts = []
    for module in ("interactions/usePress.mjs", "overlays/usePreventScroll.mjs"):
        source = (private / module).read_text(encoding="utf-8")
        found = re.findall(r"style\.textContent = `(.*?)`\.trim\(\)", source, re.S)
        assert len(found) == 1, module
        texts.append(
            found[0]
            .replace("${$d27d541f9569d26d$var$PRESSABLE_ATTRIBUTE}", "data-react-aria-pressable")
            .strip()
        )
    assert "${" not in "".join(texts)
    digests = [
        "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        for text in texts
    ]
    assert digests == list(REACT_ARIA_STYLE_HASHES)


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
