"""SMTP delivery with aiosmtplib: an outbox row as a message, and one attempt to send it."""

from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

from storage.models import OutboxMail

SMTP_TIMEOUT_SECONDS = 15


class SmtpDelivery:
    """Delivers outbox rows to the server of SMTP_URL (smtp:// or smtps://)."""

    def __init__(self, url: str, sender: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("SMTP_URL must start with smtp:// or smtps://")
        self.hostname = parts.hostname or "localhost"
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.use_tls = parts.scheme == "smtps"
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender = sender

    def message(self, mail: OutboxMail) -> EmailMessage:
        """Raises ValueError for a header Python refuses (CR/LF in the subject, ...)."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message["Date"] = format_datetime(mail.sent_at)
        message["Message-ID"] = make_msgid(domain=self.hostname)
        message.set_content(mail.text)
        if mail.html:
            message.add_alternative(mail.html, subtype="html")
        for attachment in mail.attachments or []:
            maintype, _, subtype = attachment["contentType"].partition("/")
            message.add_attachment(
                attachment["content"].encode("utf-8"),
                maintype=maintype,
                subtype=subtype,
                filename=attachment["filename"],
            )
        return message

    async def send(self, message: EmailMessage) -> None:
        """One attempt; the caller (realtime/mail/delivery.py) records it and retries."""
        await aiosmtplib.send(
            message,
            hostname=self.hostname,
            port=self.port,
            username=self.username,
            password=self.password,
            use_tls=self.use_tls,
            start_tls=None if not self.use_tls else False,
            timeout=SMTP_TIMEOUT_SECONDS,
        )
