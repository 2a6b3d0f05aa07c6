"""The end-of-run checks: every simulated appointment read back by its owner; no two live
bookings of one counselor overlap, and every acknowledged answer is what the document holds
(docs/loadtest.md, "Integrity checks")."""

import asyncio
import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from infra.loadtest.context import Booking, Context
from infra.loadtest.recorder import Recorder
from infra.loadtest.wire import CallFailed, LiveSocket

READERS_AT_ONCE = 20
# The read-back is no test of speed: a tight --call-timeout must not make it fail.
READ_BACK_TIMEOUT = 30.0
LIVE_STATUSES = ("pending_payment", "confirmed", "completed", "no_show")


@dataclass
class Findings:
    read: int = 0
    unreadable: list[str] = field(default_factory=list)
    double_booked: list[dict[str, Any]] = field(default_factory=list)
    lost_answers: list[dict[str, Any]] = field(default_factory=list)
    lost_submits: list[str] = field(default_factory=list)
    lost_payments: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not (
            self.unreadable
            or self.double_booked
            or self.lost_answers
            or self.lost_submits
            or self.lost_payments
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "appointments_read": self.read,
            "unreadable": self.unreadable,
            "double_booked": self.double_booked,
            "lost_answers": self.lost_answers,
            "lost_submits": self.lost_submits,
            "lost_payments": self.lost_payments,
            "passed": self.passed,
        }


async def check(ctx: Context) -> Findings:
    findings = Findings()
    gate = asyncio.Semaphore(READERS_AT_ONCE)
    documents = await asyncio.gather(*(_read_back(ctx, gate, b) for b in ctx.bookings))
    claims: list[tuple[str, datetime, datetime, str]] = []
    for booking, doc in zip(ctx.bookings, documents, strict=True):
        if doc is None:
            findings.unreadable.append(booking.appointment_id)
            continue
        findings.read += 1
        findings.lost_answers += _lost(booking, doc)
        if booking.submitted and doc["status"] not in LIVE_STATUSES:
            findings.lost_submits.append(booking.appointment_id)
        if booking.paid and doc["status"] != "confirmed":
            findings.lost_payments.append(booking.appointment_id)
        claim = _claim(ctx, doc)
        if claim is not None:
            claims.append(claim)
    findings.double_booked = _overlaps(claims)
    return findings


async def _read_back(
    ctx: Context, gate: asyncio.Semaphore, booking: Booking
) -> dict[str, Any] | None:
    async with gate:
        # Its own recorder: the read-back is no part of the load's figures.
        limit = max(ctx.options.call_timeout, READ_BACK_TIMEOUT)
        sock = LiveSocket(Recorder(), ctx.options.url, booking.token, limit)
        try:
            await sock.open()
            reply = await sock.subscribe("read-back", f"appointments/{booking.appointment_id}")
            data: dict[str, Any] = reply["snapshot"]["data"]
            return data
        except CallFailed:
            return None
        finally:
            await sock.close()


def field_value(doc: dict[str, Any], dotted: str) -> Any:
    """A dot-separated field path's value in a document (None when absent)."""
    value: Any = doc
    for part in dotted.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _lost(booking: Booking, doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"appointmentId": booking.appointment_id, "field": name, "saved": saved, "read": read}
        for name, saved in booking.saved.items()
        if (read := field_value(doc, name)) != saved and read not in booking.in_doubt.get(name, [])
    ]


def _claim(ctx: Context, doc: dict[str, Any]) -> tuple[str, datetime, datetime, str] | None:
    """The time a document claims: a booking, or a hold that has not lapsed."""
    if not doc.get("counselorId") or not doc.get("date") or not doc.get("time"):
        return None
    live_hold = doc["status"] == "draft" and _after_now(doc.get("holdExpiresAt"))
    if doc["status"] not in LIVE_STATUSES and not live_hold:
        return None
    zone = ZoneInfo(doc.get("timezone") or ctx.service.timezone)
    start = datetime.fromisoformat(f"{doc['date']}T{doc['time']}").replace(tzinfo=zone)
    end = start + timedelta(minutes=ctx.service.session_minutes)
    return str(doc["counselorId"]), start, end, str(doc["id"])


def _after_now(stamp: Any) -> bool:
    if not isinstance(stamp, str):
        return False
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")) > datetime.now(UTC)


def _overlaps(claims: list[tuple[str, datetime, datetime, str]]) -> list[dict[str, Any]]:
    """Pairs of claims of one counselor whose times overlap: every session of the service
    lasts as long, so sorted by counselor and start each claim need only be compared with
    the one before it."""
    found: list[dict[str, Any]] = []
    claims.sort()
    for before, after in itertools.pairwise(claims):
        if before[0] == after[0] and after[1] < before[2]:
            found.append(
                {
                    "counselorId": after[0],
                    "appointments": [before[3], after[3]],
                    "starts": [before[1].isoformat(), after[1].isoformat()],
                }
            )
    return found
