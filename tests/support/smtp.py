"""SMTP servers on this machine for mail tests: a real one (aiosmtpd) and one that hangs."""

import asyncio
import email
import socket
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Inbox:
    """An aiosmtpd handler that keeps every message it receives.

    `refuse_rcpt`: a reply such as "550 No such user" to every recipient. `delay`: seconds
    spent on each message, so that concurrent senders overlap.
    """

    refuse_rcpt: str | None = None
    delay: float = 0.0
    messages: list[Message] = field(default_factory=list)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.refuse_rcpt:
            return self.refuse_rcpt
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(self.delay)
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


def start_smtp(inbox: Inbox, port: int) -> Controller:
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller


class HangingSmtp:
    """Accepts connections and never says a word: a delivery attempt stays in flight."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port: int = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []

    def wait_for_connection(self, timeout: float = 10) -> None:
        self.listener.settimeout(timeout)
        connection, _ = self.listener.accept()
        self.connections.append(connection)

    def close(self) -> None:
        for connection in self.connections:
            connection.close()
        self.listener.close()


def body_of(message: Message, subtype: str) -> str:
    for part in message.walk():
        if part.get_content_type() == f"text/{subtype}":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError(f"no text/{subtype} part")
