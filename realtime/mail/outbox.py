"""Write a mail to the outbox (inside the caller's transaction), deliver it after commit."""

import asyncio
import logging
from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from realtime.mail.render import Rendered
from realtime.mail.smtp import SmtpDelivery
from storage.db import Database
from storage.models import OutboxMail
from storage.types import utcnow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Queued:
    """A mail committed to the outbox, waiting for `Mailer.deliver`."""

    outbox_id: int


class Mailer:
    def __init__(self, db: Database, smtp: SmtpDelivery | None) -> None:
        self.db = db
        self.smtp = smtp
        self._tasks: set[asyncio.Task[None]] = set()

    async def queue(
        self,
        session: AsyncSession,
        *,
        to: str,
        mail: Rendered,
        links: list[str],
        attachments: list[dict[str, str]] | None = None,
    ) -> Queued:
        row = OutboxMail(
            to=to,
            subject=mail.subject,
            text=mail.text,
            html=mail.html,
            links=links,
            attachments=attachments,
            sent_at=utcnow(),
            delivery="queued" if self.smtp else "logged",
        )
        session.add(row)
        await session.flush()
        assert row.id is not None
        if self.smtp is None:
            # The subject only: bodies may hold sign-in links or personal details.
            log.info("mail to outbox #%s (no SMTP_URL): %s", row.id, mail.subject)
        return Queued(row.id)

    def deliver(self, queued: Queued) -> None:
        """Send in the background after the caller's commit; the outcome lands on the row."""
        if self.smtp is None:
            return
        task = asyncio.create_task(self._deliver(queued.outbox_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, outbox_id: int) -> None:
        assert self.smtp is not None
        async with self.db.read() as session:
            mail = await session.get(OutboxMail, outbox_id)
        if mail is None:
            return
        attempts, sent = await self.smtp.send_with_retries(mail)
        async with self.db.write() as session:
            row = await session.get(OutboxMail, outbox_id)
            if row is not None:
                row.attempts = attempts
                row.delivery = "sent" if sent else "failed"

    async def drain(self) -> None:
        """Wait for deliveries in flight (at shutdown)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
