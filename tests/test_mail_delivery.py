"""Mail is never lost: the delivery job retries what the after-commit attempt could not send,
one node sends each mail, and every failure ends as a recorded state (docs/protocol.md, Mail).

Each test starts its own server(s) with SMTP_URL on a local port; JOB_INTERVAL_SECONDS is an
hour so that only the test runs the job (POST /dev/jobs/deliver-mail with a set clock).
"""

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from storage.models import OutboxMail
from tests.conftest import BACKENDS, unique_email
from tests.support.booking import run_job
from tests.support.clients import call_http, outbox, request_link
from tests.support.databases import create_postgres_database, drop_postgres_database
from tests.support.server import ServerProcess, free_port
from tests.support.smtp import HangingSmtp, Inbox, body_of, start_smtp

# realtime/mail/outbox.py IMMEDIATE_ATTEMPTS: the after-commit attempts before the job's turn.
IMMEDIATE_ATTEMPTS = 4
JOB = "deliver-mail"
NEVER_IN_LOGS = "Task exception was never retrieved"


@pytest_asyncio.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database of each backend, shared by the servers of one test."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/mail.db"
        return
    name, url = await create_postgres_database()
    yield url
    await drop_postgres_database(name)


def mail_server(database_url: str, smtp_port: int, log_path: Path) -> ServerProcess:
    return ServerProcess(
        env={
            "DATABASE_URL": database_url,
            "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
            "JOB_INTERVAL_SECONDS": "3600",
        },
        log_path=log_path,
    )


def later(**delta: float) -> datetime:
    return datetime.now(UTC) + timedelta(**delta)


async def wait_for_mail(
    base_url: str, address: str, done: Callable[[dict[str, Any]], bool], timeout: float = 15
) -> dict[str, Any]:
    """Poll the dev outbox until the address's latest mail satisfies `done`."""
    for _ in range(int(timeout / 0.05)):
        mails = await outbox(base_url, address)
        if mails and done(mails[0]):
            return mails[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"mail to {address} never got there: {await outbox(base_url, address)}")


async def insert_mail(database_url: str, **fields: Any) -> None:
    """A row written straight into the outbox, as a node that died (or an old path) left it."""
    engine = create_async_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(insert(OutboxMail).values(**fields))
    finally:
        await engine.dispose()


def kill_hard(server: ServerProcess) -> None:
    """kill -9 the process group: no shutdown, no drain, nothing recorded."""
    assert server.process is not None
    os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait()
    server.stop()


async def test_mail_failed_while_smtp_was_down_is_sent_once_by_the_job(
    database_url: str, tmp_path: Path
) -> None:
    smtp_port = free_port()  # nothing listens yet: SMTP is down
    server = mail_server(database_url, smtp_port, tmp_path / "server.log").start()
    inbox = Inbox()
    controller = None
    try:
        address = unique_email("smtp-down")
        status, body = await call_http(server.url, "sendEmail-authLink", {"email": address})
        assert (status, body) == (200, {"data": {"sent": True}})
        failed = await wait_for_mail(
            server.url, address, lambda m: m["attempts"] == IMMEDIATE_ATTEMPTS
        )
        assert failed["delivery"] == "failed"
        assert failed["nextAttemptAt"] is not None
        assert "Connect" in failed["lastError"]
        assert await run_job(server.url, JOB, later()) == 0  # not due yet: backing off

        controller = start_smtp(inbox, smtp_port)  # SMTP is back
        assert await run_job(server.url, JOB, later(hours=1)) == 1
        sent = (await outbox(server.url, address))[0]
        assert (sent["delivery"], sent["attempts"], sent["nextAttemptAt"]) == ("sent", 5, None)
        assert await run_job(server.url, JOB, later(hours=2)) == 0
    finally:
        server.stop()
        if controller is not None:
            controller.stop()
    [message] = inbox.to(address)
    assert sent["links"][0] in body_of(message, "plain")
    log = (tmp_path / "server.log").read_text()
    assert NEVER_IN_LOGS not in log
    assert sent["links"][0] not in log  # bodies (sign-in links) never reach the log


async def test_mail_left_queued_by_a_killed_node_is_sent_by_the_job(
    database_url: str, tmp_path: Path
) -> None:
    hanging = HangingSmtp()
    inbox = Inbox()
    smtp_port = free_port()
    controller = start_smtp(inbox, smtp_port)
    first = mail_server(database_url, hanging.port, tmp_path / "first.log").start()
    second = mail_server(database_url, smtp_port, tmp_path / "second.log")
    try:
        address = unique_email("killed")
        await request_link(first.url, address)
        # The after-commit attempt has claimed the row and waits for the SMTP greeting.
        await asyncio.to_thread(hanging.wait_for_connection)
        kill_hard(first)

        second.start()
        left = (await outbox(second.url, address))[0]
        assert (left["delivery"], left["attempts"]) == ("queued", 0)
        # The dead node's claim holds until its lease ends; then any node takes the mail.
        assert await run_job(second.url, JOB, later()) == 0
        assert await run_job(second.url, JOB, later(minutes=6)) == 1
        sent = (await outbox(second.url, address))[0]
        assert (sent["delivery"], sent["attempts"]) == ("sent", 1)
        assert await run_job(second.url, JOB, later(hours=1)) == 0
    finally:
        first.stop()
        second.stop()
        controller.stop()
        hanging.close()
    assert len(inbox.to(address)) == 1


async def test_two_nodes_running_the_job_together_send_each_mail_once(
    database_url: str, tmp_path: Path
) -> None:
    smtp_port = free_port()  # down while the mails are written
    a = mail_server(database_url, smtp_port, tmp_path / "a.log").start()
    b = mail_server(database_url, smtp_port, tmp_path / "b.log").start()
    inbox = Inbox(delay=0.02)  # slow enough for the two nodes' rounds to overlap
    controller = None
    addresses = [unique_email(f"node-{n}") for n in range(20)]
    try:
        await asyncio.gather(
            *(
                call_http(node.url, "sendEmail-authLink", {"email": address})
                for node, address in zip([a, b] * 10, addresses, strict=True)
            )
        )
        for address in addresses:
            await wait_for_mail(a.url, address, lambda m: m["attempts"] == IMMEDIATE_ATTEMPTS)

        controller = start_smtp(inbox, smtp_port)
        now = later(hours=1)
        done = await asyncio.gather(*(run_job(node.url, JOB, now) for node in [a, b, a, b]))
        assert sum(done) == len(addresses)
        for address in addresses:
            assert (await outbox(b.url, address))[0]["delivery"] == "sent"
    finally:
        a.stop()
        b.stop()
        if controller is not None:
            controller.stop()
    assert sorted(str(m["To"]) for m in inbox.messages) == sorted(addresses)


async def test_a_header_python_refuses_ends_undeliverable_and_logged(
    database_url: str, tmp_path: Path
) -> None:
    inbox = Inbox()
    smtp_port = free_port()
    controller = start_smtp(inbox, smtp_port)
    server = mail_server(database_url, smtp_port, tmp_path / "server.log").start()
    address = unique_email("crlf")
    body = "private answers 4711"
    try:
        await insert_mail(
            database_url,
            to=address,
            subject="Hello\r\nBcc: victim@example.com",
            text=body,
            links=[],
            sent_at=datetime.now(UTC),
            delivery="queued",
            next_attempt_at=datetime.now(UTC),
        )
        assert await run_job(server.url, JOB, later()) == 1
        [mail] = await outbox(server.url, address)
        assert (mail["delivery"], mail["attempts"], mail["nextAttemptAt"]) == (
            "undeliverable",
            1,
            None,
        )
        assert mail["lastError"].startswith("ValueError")
        assert await run_job(server.url, JOB, later(days=1)) == 0  # never tried again
    finally:
        server.stop()
        controller.stop()
    assert inbox.messages == []
    log = (tmp_path / "server.log").read_text()
    assert "undeliverable" in log
    assert NEVER_IN_LOGS not in log
    assert body not in log


async def test_a_permanent_smtp_refusal_is_recorded_as_bounced(
    database_url: str, tmp_path: Path
) -> None:
    inbox = Inbox(refuse_rcpt="550 5.1.1 No such user")
    smtp_port = free_port()
    controller = start_smtp(inbox, smtp_port)
    server = mail_server(database_url, smtp_port, tmp_path / "server.log").start()
    try:
        address = unique_email("bounce")
        await request_link(server.url, address)
        mail = await wait_for_mail(server.url, address, lambda m: m["delivery"] != "queued")
        assert (mail["delivery"], mail["attempts"]) == ("bounced", 1)
        assert "550" in mail["lastError"]
        assert await run_job(server.url, JOB, later(days=1)) == 0
    finally:
        server.stop()
        controller.stop()
    assert inbox.messages == []


async def test_the_dev_outbox_shows_the_delivery_state(tmp_path: Path) -> None:
    """Without SMTP_URL a mail is `logged`, with nothing to retry."""
    server = ServerProcess(
        env={"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/logged.db"},
        log_path=tmp_path / "server.log",
    ).start()
    try:
        address = unique_email("logged")
        await request_link(server.url, address)
        [mail] = await outbox(server.url, address)
        async with httpx.AsyncClient(base_url=server.url) as http:
            reply = await http.post(f"/dev/jobs/{JOB}", json={"data": {}})
    finally:
        server.stop()
    assert (mail["delivery"], mail["attempts"], mail["nextAttemptAt"], mail["lastError"]) == (
        "logged",
        0,
        None,
        None,
    )
    assert reply.json() == {"data": {"done": 0}}
