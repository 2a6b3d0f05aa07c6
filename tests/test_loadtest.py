"""The load testers' kit (docs/loadtest.md): a short run of `python -m infra.loadtest`
against a server of its own on each backend books without an error, passes its integrity
checks and writes both reports; and its read-back check does catch an answer the server
does not hold."""

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from infra.loadtest.context import Booking, Context, discover, window_days
from infra.loadtest.integrity import check
from infra.loadtest.options import parse
from infra.loadtest.recorder import Recorder
from infra.loadtest.wire import LiveSocket, session_token
from tests.conftest import BACKENDS
from tests.support.databases import (
    REDIS_URL,
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.server import ROOT, ServerProcess
from tests.support.stripe_local import StripeLocal

PATIENTS, STAFF, DURATION = 6, 2, 8


@pytest_asyncio.fixture(scope="module", params=BACKENDS)
async def target(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServerProcess]:
    """A server of its own: the run's bookings stay out of the other suites' calendars."""
    logs = tmp_path_factory.mktemp(f"loadtest-{request.param}")
    if request.param == "sqlite":
        name = None
        env = {"DATABASE_URL": f"sqlite+aiosqlite:///{logs / 'app.db'}"}
    else:
        name, url = await create_postgres_database()
        env = {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "REDIS_NAMESPACE": redis_namespace()}
    server = ServerProcess(env=env, log_path=logs / "server.log")
    payments = StripeLocal(
        webhook_url=f"{server.url}/stripe/webhook", log_path=logs / "stripe.log"
    ).start()
    server.env = {**env, **payments.server_env()}
    server.start()
    yield server
    server.stop()
    payments.stop()
    if name is not None:
        await drop_postgres_database(name)


def test_a_short_run_books_without_errors_and_passes_its_checks(
    target: ServerProcess, tmp_path: Path
) -> None:
    report_path, page_path = tmp_path / "run.json", tmp_path / "run.html"
    done = subprocess.run(
        [
            sys.executable, "-m", "infra.loadtest", "--url", target.url,
            "--patients", str(PATIENTS), "--staff", str(STAFF), "--duration", str(DURATION),
            "--ramp", "2", "--think", "0.2", "--json", str(report_path),
            "--html", str(page_path), "--quiet",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(report_path.read_text())
    assert report["passed"] is True
    assert report["error_total"] == 0, report["errors"]
    integrity = report["integrity"]
    assert integrity["passed"] is True, integrity
    assert integrity["appointments_read"] == report["counts"]["patients started"] >= PATIENTS
    booked = report["counts"]["bookings confirmed"]
    assert "no free slot" not in report["counts"]
    assert booked >= PATIENTS
    # Every board saw every hold and every submit: freshness has all its samples.
    fresh = report["freshness"]
    assert fresh["missed"] == 0
    assert fresh["received"] == fresh["expected"] >= STAFF * 2 * booked
    assert 0 < fresh["after_call"]["p50_ms"] <= fresh["after_call"]["max_ms"] < 10_000
    for name in ("appointment-create", "appointment-consent", "vacancies-read",
                 "appointment-hold", "appointment-updateStatus"):  # fmt: skip
        figures = report["latency"][f"call {name}"]
        assert figures["count"] > 0
        assert figures["p50_ms"] <= figures["p90_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert report["latency"]["update appointment"]["count"] >= 3 * booked
    assert report["rates"]["connects_per_s"] > 0
    series = report["series"]
    assert len(series["requests"]) == len(series["second"]) >= DURATION
    assert sum(series["holds"]) == report["counts"]["holds"]
    page = page_path.read_text()
    assert page.count("<svg") >= 6
    for title in ("Call latency", "Percentiles per measure", "Per second", "Errors by kind"):
        assert title in page
    assert "pass" in page and "<script src" not in page  # opens offline


def test_a_paying_run_confirms_every_paid_booking(target: ServerProcess, tmp_path: Path) -> None:
    """`--pay` with the priced service: each submit is paid on the local Stripe-compatible
    server, whose webhook confirms it, and the boards see that too."""
    report_path = tmp_path / "paid.json"
    done = subprocess.run(
        [
            sys.executable, "-m", "infra.loadtest", "--url", target.url, "--service",
            "prenatal-b2c", "--pay", "--patients", "3", "--staff", "1", "--duration", "5",
            "--ramp", "1", "--think", "0.1", "--json", str(report_path), "--quiet",
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(report_path.read_text())
    assert report["error_total"] == 0, report["errors"]
    assert report["integrity"]["passed"] and report["integrity"]["lost_payments"] == []
    paid = report["counts"]["bookings paid"]
    assert paid >= 3 and report["counts"]["bookings pending_payment"] >= paid
    assert report["latency"]["pay checkout"]["count"] == paid
    assert report["latency"]["call stripe-createCheckoutSession"]["count"] >= paid
    assert report["freshness"]["missed"] == 0


async def test_the_read_back_finds_an_answer_the_server_does_not_hold(
    target: ServerProcess,
) -> None:
    """The check is only worth something if it can fail: a ledger that says a name was
    saved which never was must be reported as a lost answer."""
    options = parse(["--url", target.url])
    service = await discover(options)
    first, last = window_days(service, options.window_days)
    ctx = Context(options, Recorder(), service, first, last)
    token = await session_token(ctx.recorder, target.url, "lt-readback@example.com", 10)
    sock = LiveSocket(ctx.recorder, target.url, token, 10)
    await sock.open()
    try:
        created = await sock.call("appointment-create", {"serviceId": service.id})
        appointment = created["data"]["appointmentId"]
        await sock.update(f"appointments/{appointment}", {"patientRole": 90})
    finally:
        await sock.close()
    ctx.bookings.append(Booking(appointment, token, saved={"patientRole": 90}))
    assert (await check(ctx)).passed
    ctx.bookings[0].saved["intake.contactInfo.lastName"] = "サトウ"
    findings = await check(ctx)
    assert not findings.passed
    assert findings.lost_answers == [
        {
            "appointmentId": appointment,
            "field": "intake.contactInfo.lastName",
            "saved": "サトウ",
            "read": None,
        }
    ]
