"""Building blocks of booking tests: a person with a consented appointment, a complete
intake, free slots."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

# The answers live with the load-test kit, which fills the same questionnaire.
from infra.loadtest.answers import CANCER_ANSWERS as CANCER_ANSWERS
from infra.loadtest.answers import PRENATAL_ANSWERS as PRENATAL_ANSWERS
from tests.conftest import unique_email
from tests.support.clients import Socket, connect, sign_in


@dataclass
class Person:
    uid: str
    email: str
    token: str
    sock: Socket
    appointment_id: str

    @property
    def path(self) -> str:
        return f"appointments/{self.appointment_id}"

    async def call(self, name: str, data: Any) -> dict[str, Any]:
        return await self.sock.call(name, data)

    async def hold(self, start: str, counselor_id: str) -> dict[str, Any]:
        return await self.call(
            "appointment-hold",
            {"appointmentId": self.appointment_id, "start": start, "counselorId": counselor_id},
        )

    async def document(self) -> dict[str, Any]:
        data: dict[str, Any] = (await self.sock.subscribe(self.path))["snapshot"]["data"]
        return data


async def give_consent(someone: "Person", service: str) -> None:
    info = await someone.call("service-read", {"id": service, "clinicId": "demo-clinic"})
    reply = await someone.call(
        "appointment-consent",
        {"appointmentId": someone.appointment_id, "version": info["data"]["consentVersion"]},
    )
    assert "data" in reply, reply


@asynccontextmanager
async def person(
    base_url: str, service: str = "cancer", *, complete: bool = False, consent: bool = True
) -> AsyncIterator[Person]:
    """Signed in, with an appointment; consent given (the booking's first step, which a hold
    needs) unless `consent` is False; every required answer and the terms when `complete`."""
    account = await sign_in(base_url, unique_email(service))
    async with connect(base_url, account.token) as sock:
        created = await sock.call("appointment-create", {"serviceId": service})
        appointment_id = created["data"]["appointmentId"]
        someone = Person(account.uid, account.email, account.token, sock, appointment_id)
        if consent or complete:
            await give_consent(someone, service)
        if complete:
            answers = ANSWERS[service]
            reply = await sock.update(someone.path, {**answers, "agreedToTerms": True})
            assert "version" in reply, reply
        yield someone


async def free_slots(sock: Socket, service: str = "cancer", days: int = 30) -> list[dict[str, Any]]:
    today = datetime.now(UTC).date()
    reply = await sock.call(
        "vacancies-read",
        {
            "clinicId": "demo-clinic",
            "serviceId": service,
            "from": today.isoformat(),
            "to": (today + timedelta(days=days)).isoformat(),
        },
    )
    slots: list[dict[str, Any]] = reply["data"]["slots"]
    return slots


async def run_job(base_url: str, name: str, now: datetime) -> int:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(f"/dev/jobs/{name}", json={"data": {"now": now.isoformat()}})
    reply.raise_for_status()
    done: int = reply.json()["data"]["done"]
    return done


ANSWERS = {"cancer": CANCER_ANSWERS, "prenatal": PRENATAL_ANSWERS}
