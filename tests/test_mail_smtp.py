"""Mail delivery through a real SMTP server (aiosmtpd) on this machine."""

import asyncio
import email
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import unique_email
from tests.support.clients import outbox, request_link
from tests.support.server import ServerProcess, free_port


class Inbox:
    """An aiosmtpd handler that keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 Message accepted for delivery"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


def body_of(message: Message, subtype: str) -> str:
    for part in message.walk():
        if part.get_content_type() == f"text/{subtype}":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError(f"no text/{subtype} part")


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


async def test_unreachable_smtp_is_retried_then_recorded_as_failed(tmp_path: Path) -> None:
    server = ServerProcess(
        env={
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/nosmtp.db",
            "SMTP_URL": f"smtp://127.0.0.1:{free_port()}",
        },
        log_path=tmp_path / "nosmtp.log",
    ).start()
    try:
        address = unique_email("bounce")
        await request_link(server.url, address)
        mail = (await outbox(server.url, address))[0]
        assert mail["delivery"] == "queued"
        for _ in range(200):
            mail = (await outbox(server.url, address))[0]
            if mail["delivery"] != "queued":
                break
            await asyncio.sleep(0.05)
    finally:
        server.stop()
    assert mail["delivery"] == "failed"
    assert "SMTP attempt 4" in (tmp_path / "nosmtp.log").read_text()
