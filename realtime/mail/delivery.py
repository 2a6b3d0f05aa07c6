"""Delivery attempts on outbox rows, each claimed first so that one mail is sent by one node.

A claim is one conditional UPDATE: the row must still be `queued`/`failed`, due, and not held
by another node's unexpired lease. Two nodes (or a node's after-commit attempt and its own
job) racing for a row both run it; PostgreSQL re-checks the condition on the row the winner
changed, SQLite serialises writers (BEGIN IMMEDIATE), so exactly one gets the row back. A
node that dies while holding a claim lets go of it when the lease ends (LEASE); a mail the
dead node had handed to the SMTP server but not recorded as sent is then sent again, the only
case of a duplicate.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from realtime.mail.outcome import (
    RETRYABLE,
    SENT,
    UNDELIVERABLE,
    Outcome,
    after,
    classify,
    describe,
)
from realtime.mail.smtp import SmtpDelivery
from storage.db import Database
from storage.models import OutboxMail
from storage.repo_mail import claim_mail, due_mail_ids, record_attempt

log = logging.getLogger(__name__)

# Longer than one SMTP conversation can take (SMTP_TIMEOUT_SECONDS per step).
LEASE = timedelta(minutes=5)
BATCH = 100


@dataclass(frozen=True)
class Attempted:
    """What an attempt recorded on its row."""

    state: str
    next_attempt_at: datetime | None
    # The SMTP server could not be reached: the other mails of a batch would fail alike.
    unreachable: bool


async def claim(db: Database, outbox_id: int, now: datetime) -> OutboxMail | None:
    """The row, now held by this node until `now + LEASE`; None if it is not ours to send
    (claimable: waiting or failed, due, and not held by a node's unexpired lease)."""
    async with db.write() as session:
        return await claim_mail(
            session, outbox_id=outbox_id, now=now, states=RETRYABLE, until=now + LEASE
        )


async def record(db: Database, mail: OutboxMail, outcome: Outcome, now: datetime) -> Attempted:
    """Write the attempt's outcome on the row and let go of the claim."""
    attempts = mail.attempts + 1
    state, next_attempt_at = after(outcome, attempts, now)
    async with db.write() as session:
        await record_attempt(
            session,
            outbox_id=mail.id,
            delivery=state,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            last_error=outcome.error,
        )
    if state != SENT:
        # The error only: the body may hold a sign-in link or health details.
        log.warning("mail #%s attempt %s: %s (%s)", mail.id, attempts, state, outcome.error)
    return Attempted(state, next_attempt_at, outcome.unreachable)


async def send(smtp: SmtpDelivery, mail: OutboxMail) -> Outcome:
    """One SMTP attempt; every exception ends as an outcome."""
    try:
        message = smtp.message(mail)
    except Exception as exc:  # a header Python refuses, or anything else about the row
        return Outcome(UNDELIVERABLE, describe(exc))
    try:
        await smtp.send(message)
    except Exception as exc:
        return classify(exc)
    return Outcome(SENT)


async def attempt(
    db: Database, smtp: SmtpDelivery, outbox_id: int, now: datetime
) -> Attempted | None:
    """Claim, send, record; None if the row is not this node's to send (now)."""
    mail = await claim(db, outbox_id, now)
    if mail is None:
        return None
    return await record(db, mail, await send(smtp, mail), now)


async def deliver_due(db: Database, smtp: SmtpDelivery, now: datetime) -> int:
    """The delivery job: try every due mail once; returns how many were attempted."""
    async with db.read() as session:
        due = await due_mail_ids(session, now=now, states=RETRYABLE, limit=BATCH)
    attempted = 0
    for outbox_id in due:
        done = await attempt(db, smtp, outbox_id, now)
        if done is None:
            continue  # another node took it
        attempted += 1
        if done.unreachable:
            break  # the rest would fail alike; they stay due for the next round
    return attempted
