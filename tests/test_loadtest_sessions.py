"""The load-test session issuer (docs/security.md, "Load-test sessions"): sessions for
`@loadtest.invalid` addresses to requests carrying LOADTEST_KEY, on a staging server run
with production settings; refused otherwise, logged always, and absent without the key."""

import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.clients import connect
from tests.support.production import production_env
from tests.support.server import ROOT, ServerProcess
from tests.test_production_settings import refused

KEY = secrets.token_urlsafe(32)
ISSUER = "/auth/loadtest-session"


@pytest.fixture(scope="module")
def staging(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A production-configured server that allows load tests: no /dev/token there."""
    logs = tmp_path_factory.mktemp("staging")
    env = {**production_env(logs), "LOADTEST_KEY": KEY, "LOADTEST_ALLOW_PRODUCTION": "true"}
    server = ServerProcess(env=env, log_path=logs / "server.log").start()
    yield server
    server.stop()


def ask(server: ServerProcess, email: str, key: str | None) -> httpx.Response:
    headers = {"X-Loadtest-Key": key} if key is not None else {}
    return httpx.post(f"{server.url}{ISSUER}", json={"data": {"email": email}}, headers=headers)


async def test_the_key_gets_a_session_that_books_like_anyone(staging: ServerProcess) -> None:
    reply = ask(staging, "lt-one@loadtest.invalid", KEY)
    assert reply.status_code == 200, reply.text
    token = reply.json()["data"]["token"]
    async with connect(staging.url, token) as sock:
        created = await sock.call("appointment-create", {"serviceId": "cancer"})
        assert "appointmentId" in created["data"], created
    assert "load-test session issued for lt-one@loadtest.invalid" in staging.log()
    async with httpx.AsyncClient(base_url=staging.url) as http:
        dev = await http.post("/dev/token", json={"data": {"email": "lt-one@loadtest.invalid"}})
    assert dev.status_code != 200  # production: the kit's other way in does not exist


@pytest.mark.parametrize(
    "key",
    [None, "", KEY[:-1], KEY + "x", "wrong"],
    # Named, not shown: the key is random per process, and xdist's workers must collect alike.
    ids=["missing", "empty", "one-short", "one-long", "wrong"],
)
def test_a_wrong_or_missing_key_gets_nothing_and_is_logged(
    staging: ServerProcess, key: str | None
) -> None:
    before = staging.log().count("load-test session refused: wrong or missing key")
    reply = ask(staging, "lt-two@loadtest.invalid", key)
    assert reply.status_code == 403
    assert reply.json()["error"]["status"] == "PERMISSION_DENIED"
    assert "set-cookie" not in reply.headers
    assert staging.log().count("load-test session refused: wrong or missing key") == before + 1


@pytest.mark.parametrize(
    "email", ["staff@demo-clinic.example", "someone@example.com", "lt@loadtest.invalid.example.com"]
)
def test_the_key_opens_no_real_account(staging: ServerProcess, email: str) -> None:
    reply = ask(staging, email, KEY)
    assert reply.status_code == 400
    assert "email" in reply.json()["error"]["details"]["fields"]
    assert "load-test session refused: address outside loadtest.invalid" in staging.log()


def test_without_the_setting_there_is_no_issuer(sqlite_server: ServerProcess) -> None:
    reply = httpx.post(
        f"{sqlite_server.url}{ISSUER}",
        json={"data": {"email": "lt@loadtest.invalid"}},
        headers={"X-Loadtest-Key": KEY},
    )
    assert reply.status_code in (404, 405)
    assert "token" not in reply.text


def test_production_refuses_the_key_unless_allowed(tmp_path: Path) -> None:
    log = refused(tmp_path, LOADTEST_KEY=KEY)
    assert "LOADTEST_KEY is refused in production unless LOADTEST_ALLOW_PRODUCTION" in log
    assert KEY not in log


@pytest.mark.parametrize(
    ("key", "message"),
    [("a" * 40, "LOADTEST_KEY is too predictable"), ("Zq8vN3xTk1", "at least 32 characters")],
)
def test_a_weak_key_is_refused_anywhere(tmp_path: Path, key: str, message: str) -> None:
    server = ServerProcess(env={"LOADTEST_KEY": key}, log_path=tmp_path / "weak.log").launch()
    try:
        assert server.exit_code(timeout=30) != 0
    finally:
        server.stop()
    log = server.log()
    assert message in log and key not in log


def test_the_kit_runs_on_the_issuer(staging: ServerProcess, tmp_path: Path) -> None:
    """`python -m infra.loadtest --loadtest-key`: patients on a server without /dev/token."""
    report_path = tmp_path / "run.json"
    done = subprocess.run(
        [
            sys.executable, "-m", "infra.loadtest", "--url", staging.url, "--patients", "3",
            "--staff", "0", "--duration", "3", "--ramp", "1", "--think", "0.1",
            "--json", str(report_path), "--quiet",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "LOADTEST_KEY": KEY},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(report_path.read_text())
    assert report["error_total"] == 0 and report["integrity"]["passed"]
    assert report["counts"]["bookings confirmed"] >= 3
    assert report["options"]["loadtest_key"] == "(given)"
    assert KEY not in report_path.read_text()
