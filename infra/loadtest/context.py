"""What the simulated people of one run share: the options, the recorder, the service and
window they work in, and the ledger the end-of-run checks read (docs/loadtest.md)."""

import asyncio
import secrets
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from infra.loadtest.answers import ANSWERS_BY_CATEGORY
from infra.loadtest.options import Options
from infra.loadtest.recorder import Recorder


@dataclass(frozen=True)
class Service:
    id: str
    category: str
    consent_version: str
    session_minutes: int
    timezone: str


@dataclass
class Booking:
    """One simulated appointment: its owner's token and what the server acknowledged."""

    appointment_id: str
    token: str
    saved: dict[str, Any] = field(default_factory=dict)
    # Values of saves that got no acknowledgement (a timeout): they may have been stored
    # all the same, so the read-back accepts them as well as the last acknowledged one.
    in_doubt: dict[str, list[Any]] = field(default_factory=dict)
    submitted: bool = False
    paid: bool = False


@dataclass(frozen=True)
class Expectation:
    """A committed write every board should see: the booking reaching `status`."""

    appointment_id: str
    status: str
    sent: float
    acked: float


@dataclass
class Context:
    options: Options
    recorder: Recorder
    service: Service
    first_day: date
    last_day: date
    run_id: str = field(default_factory=lambda: secrets.token_hex(3))
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    bookings: list[Booking] = field(default_factory=list)
    expectations: list[Expectation] = field(default_factory=list)
    # (board, appointment, status) -> the run's second it first reached that board.
    receipts: dict[tuple[int, str, str], float] = field(default_factory=dict)
    # board -> the run's second its first snapshot arrived.
    boards_ready: dict[int, float] = field(default_factory=dict)

    @property
    def window_path(self) -> str:
        clinic = self.options.clinic
        return f"clinics/{clinic}/bookings/{self.first_day.isoformat()}/{self.last_day.isoformat()}"

    def active_people(self) -> int:
        return self.recorder.counts["patients started"] - self.recorder.counts["patients ended"]


async def discover(options: Options) -> Service:
    """The service's id, consent version and session length, and the clinic's timezone,
    through the public callables; a priced service is refused (payment is not simulated)."""
    async with httpx.AsyncClient(base_url=options.url, timeout=options.call_timeout) as http:
        service = await _read(
            http, "service-read", {"id": options.service, "clinicId": options.clinic}
        )
        clinic = await _read(http, "clinic-read", {"id": options.clinic})
    if service.get("price") is not None and not options.pay:
        raise SystemExit(f"service {service['id']} has a price: choose a free one, or --pay")
    if service["category"] not in ANSWERS_BY_CATEGORY:
        raise SystemExit(f"no simulated answers for the {service['category']} questionnaire")
    return Service(
        id=service["id"],
        category=service["category"],
        consent_version=service["consentVersion"],
        session_minutes=int(service["sessionMinutes"]),
        timezone=clinic["timezone"],
    )


async def _read(http: httpx.AsyncClient, name: str, data: dict[str, Any]) -> dict[str, Any]:
    try:
        reply = await http.post(f"/functions/{name}", json={"data": data})
    except httpx.HTTPError as exc:
        raise SystemExit(f"{name} at {http.base_url}: {exc!r}") from None
    if reply.status_code != 200:
        raise SystemExit(f"{name} {data}: {reply.status_code} {reply.text[:300]}")
    body: dict[str, Any] = reply.json()["data"]
    return body


def window_days(service: Service, days: int) -> tuple[date, date]:
    """Today in the clinic's timezone and the last day of a window of `days` days."""
    today = datetime.now(ZoneInfo(service.timezone)).date()
    return today, today + timedelta(days=days - 1)
