"""What one delivery attempt leaves on its outbox row: the states, retries and their pauses.

The states of `OutboxMail.delivery` (docs/protocol.md, "Mail"):
- `logged`: no SMTP_URL; the mail is only logged (subject) and kept for the dev outbox.
- `queued`: waiting for its first attempt.
- `failed`: the last attempt failed for a reason that may pass (SMTP server unreachable, a
  4xx reply, a timeout); tried again from `next_attempt_at` on.
- `sent`: the SMTP server accepted it.
- `bounced`: the SMTP server refused it for good (a 5xx reply to the sender, a recipient or
  the data). Authentication failures are settings problems and stay `failed`.
- `undeliverable`: no message can be made of it (a header Python refuses, such as CR/LF in
  the subject): sending it again would fail the same way.
- `gave_up`: failed MAX_ATTEMPTS times, about 17 hours of retries.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

import aiosmtplib

LOGGED = "logged"
QUEUED = "queued"
FAILED = "failed"
SENT = "sent"
BOUNCED = "bounced"
UNDELIVERABLE = "undeliverable"
GAVE_UP = "gave_up"
# The states the delivery job picks up (once their next attempt is due).
RETRYABLE = (QUEUED, FAILED)

MAX_ATTEMPTS = 30
FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 3600.0
ERROR_CHARS = 500


@dataclass(frozen=True)
class Outcome:
    """The state an attempt ends in, and why (never the mail's body)."""

    state: str
    error: str | None = None
    # The SMTP server could not be reached: the other mails of a batch would fail alike.
    unreachable: bool = False


def backoff(attempts: int) -> timedelta:
    """The pause after `attempts` failed attempts: 0.5 s, 1 s, 2 s, ... up to an hour."""
    return timedelta(
        seconds=min(FIRST_BACKOFF_SECONDS * 2 ** max(attempts - 1, 0), MAX_BACKOFF_SECONDS)
    )


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]


def _permanent_reply(exc: Exception) -> bool:
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return bool(exc.recipients) and all(r.code >= 500 for r in exc.recipients)
    return (
        isinstance(exc, aiosmtplib.SMTPResponseException)
        and exc.code >= 500
        and not isinstance(exc, aiosmtplib.SMTPAuthenticationError)
    )


def classify(exc: Exception) -> Outcome:
    """Classify an exception raised while sending a message that was built."""
    if _permanent_reply(exc):
        return Outcome(BOUNCED, describe(exc))
    if isinstance(exc, OSError | TimeoutError | aiosmtplib.SMTPConnectError):
        return Outcome(FAILED, describe(exc), unreachable=True)
    if isinstance(exc, aiosmtplib.SMTPException):
        return Outcome(FAILED, describe(exc))
    # Anything else comes from the message itself (the library refused to write it out).
    return Outcome(UNDELIVERABLE, describe(exc))


def after(outcome: Outcome, attempts: int, now: datetime) -> tuple[str, datetime | None]:
    """The state to record after `attempts` attempts, and when to try again (if ever)."""
    if outcome.state != FAILED:
        return outcome.state, None
    if attempts >= MAX_ATTEMPTS:
        return GAVE_UP, None
    return FAILED, now + backoff(attempts)
