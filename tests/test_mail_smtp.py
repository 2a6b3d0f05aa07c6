"""Mail delivery through a real SMTP server (aiosmtpd) on this machine."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import unique_email
from tests.support.clients import outbox, request_link
from tests.support.server import ServerProcess, free_port
from tests.support.smtp import Inbox, body_of, start_smtp


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = start_smtp(inbox, port)
    yield inbox, port
    controller.stop()


async def test_sign_in_link_is_delivered_by_smtp(smtp: tuple[Inbox, int], tmp_path: Path) -> None:
    inbox, port = smtp
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/smtp.db",
            "SMTP_URL": f"smtp://127.0.0.1:{port}",
            "MAIL_FROM": "Clinic <no-reply@demo-clinic.example>",
        },
        log_path=tmp_path / "smtp.log",
    ).start()
    try:
        address = unique_email("smtp")
        token = await request_link(server.url, address, locale="en")
        for _ in range(100):
            if inbox.messages and (await outbox(server.url, address))[0]["delivery"] == "sent":
                break
            await asyncio.sleep(0.05)
    finally:
        server.stop()
    [message] = inbox.messages
    assert message["To"] == address
    assert message["From"] == "Clinic <no-reply@demo-clinic.example>"
    assert "sign-in link" in str(message["Subject"])
    assert f"/login-confirmation?token={token}" in body_of(message, "plain")
    assert f"/login-confirmation?token={token}" in body_of(message, "html")
