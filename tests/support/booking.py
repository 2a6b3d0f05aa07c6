"""Building blocks of booking tests: a person with a consented appointment, a complete
intake, free slots."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.conftest import unique_email
from tests.support.clients import Socket, connect, sign_in

# Every required answer of the cancer service (the shortest questionnaire).
CANCER_ANSWERS: dict[str, Any] = {
    "patientRole": 90,
    "intake.contactInfo.lastName": "ヤマダ",
    "intake.contactInfo.firstName": "ハナコ",
    "intake.contactInfo.email": "hanako@example.jp",
    "intake.contactInfo.phone": "03-1234-5678",
    "intake.contactInfo.country": "JP",
    "intake.contactInfo.subdivision": "JP-13",
    "intake.contactInfo.registrant": 1,
    "intake.contactInfo.hasPrenatalServiceHistory": 0,
    "intake.profile.femaleDob": "1990-04-01",
    "intake.requests.expectations": [1, 2],
    "intake.requests.isDepressed": 0,
    "intake.requests.isDispleasured": 0,
    "intake.requests.referralSource": 1,
}


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


# Every required answer of the prenatal services (not pregnant now: no gestation window).
PRENATAL_ANSWERS: dict[str, Any] = {
    **{k: v for k, v in CANCER_ANSWERS.items() if k != "patientRole"},
    "patientRole": 10,
    "intake.contactInfo.pregnantWomanAttendance": 1,
    "intake.currentPregnancy.isPregnant": 0,
    "intake.pregnancyHistory.wasPregnant": 0,
    "intake.prenatalTesting.hadPastTests": 0,
    "intake.prenatalTesting.hasPresentTests": 0,
    "intake.prenatalTesting.futurePlan": 3,
    "intake.prenatalTesting.prenatalDiscussion": 1,
    "intake.prenatalTesting.prenatalTestAgreement": 1,
    "intake.prenatalTesting.disorderDecision": 6,
}
ANSWERS = {"cancer": CANCER_ANSWERS, "prenatal": PRENATAL_ANSWERS}
