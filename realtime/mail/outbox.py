"""Write a mail to the outbox (inside the caller's transaction), deliver it after commit.

The after-commit attempt tries a few times at once (IMMEDIATE_ATTEMPTS, pauses of 0.5-2 s);
whatever is left `queued` or `failed` (a node that died, an SMTP server down for longer) is
retried by the delivery job (realtime/mail/delivery.py, run by realtime/jobs.py).
"""

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime

from realtime.mail.delivery import attempt, deliver_due
from realtime.mail.links import MailLinks
from realtime.mail.outcome import LOGGED, QUEUED
from realtime.mail.render import Rendered
from realtime.mail.smtp import SmtpDelivery
from storage.db import AsyncSession, Database
from storage.models import OutboxMail
from storage.repo_mail import add_mail
from storage.types import utcnow

log = logging.getLogger(__name__)
# Attempts made right after commit before leaving the mail to the delivery job.
IMMEDIATE_ATTEMPTS = 4


@dataclass(frozen=True)
class Queued:
    """A mail committed to the outbox, waiting for `Mailer.deliver`."""

    outbox_id: int


class Mailer:
    def __init__(self, db: Database, smtp: SmtpDelivery | None, links: MailLinks) -> None:
        self.db = db
        self.smtp = smtp
        # The base of the links in mails (PUBLIC_URL) and their signer: realtime/mail/links.py.
        self.links = links
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
        now = utcnow()
        row = OutboxMail(
            to=to,
            subject=mail.subject,
            text=mail.text,
            html=mail.html,
            links=links,
            attachments=attachments,
            sent_at=now,
            delivery=QUEUED if self.smtp else LOGGED,
            next_attempt_at=now if self.smtp else None,
        )
        outbox_id = await add_mail(session, mail=row)
        if self.smtp is None:
            # The subject only: bodies may hold sign-in links or personal details.
            log.info("mail to outbox #%s (no SMTP_URL): %s", outbox_id, mail.subject)
        return Queued(outbox_id)

    def deliver(self, queued: Queued) -> None:
        """Send in the background after the caller's commit; the outcome lands on the row."""
        if self.smtp is None:
            return
        task = asyncio.create_task(self._deliver(queued.outbox_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, outbox_id: int) -> None:
        try:
            await self._attempts(outbox_id)
        except Exception:
            # The database failed us: the row keeps its state and the claim ends with its
            # lease, so the delivery job tries again.
            log.exception(
                "delivery of mail #%s interrupted; the delivery job retries it", outbox_id
            )

    async def _attempts(self, outbox_id: int) -> None:
        assert self.smtp is not None
        due = utcnow()
        for attempt_number in range(1, IMMEDIATE_ATTEMPTS + 1):
            # asyncio's timers may end a sleep a little before the wall clock gets there.
            done = await attempt(self.db, self.smtp, outbox_id, max(utcnow(), due))
            if done is None or done.next_attempt_at is None:
                return  # sent, refused for good, or another node's to send
            due = done.next_attempt_at
            if attempt_number < IMMEDIATE_ATTEMPTS:
                await asyncio.sleep(max((due - utcnow()).total_seconds(), 0))

    async def deliver_due(self, now: datetime) -> int:
        """The delivery job's round on this node (realtime/jobs.py)."""
        if self.smtp is None:
            return 0
        return await deliver_due(self.db, self.smtp, now)

    async def drain(self) -> None:
        """Wait for deliveries in flight (at shutdown)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
