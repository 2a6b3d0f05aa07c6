"""Booking again after an appointment ended (docs/product.md, "Booking again"), on both
databases: `appointment-create` opens a new appointment after each end state, the old one
stays as it was, `copyFrom` copies the answers and nothing else, and a pending payment whose
hold lapses unpaid is `expired` with its mail."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from realtime.booking.rebook import copied_answers
from storage.models import Appointment
from tests.support.booking import (
    CANCER_ANSWERS,
    PRENATAL_ANSWERS,
    Person,
    free_slots,
    person,
    run_job,
)
from tests.support.clients import Socket, connect, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_payments import hold_first_free

# What an appointment starts with and never takes from the one it copies.
NOT_COPIED = {
    "status": "draft",
    "consent": None,
    "agreedToTerms": False,
    "date": None,
    "time": None,
    "counselorId": None,
    "holdExpiresAt": None,
    "payment": None,
    "cancellation": None,
    "joinUrl": None,
    "submittedAt": None,
}


async def document(sock: Socket, path: str) -> dict[str, Any]:
    data: dict[str, Any] = (await sock.subscribe(path))["snapshot"]["data"]
    return data


async def pointer(sock: Socket, uid: str) -> str | None:
    """The appointment the user record names."""
    found: str | None = (await document(sock, f"users/{uid}"))["appointmentId"]
    return found


async def book(someone: Person, index: int) -> None:
    slot = (await free_slots(someone.sock))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
    reply = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert reply == {"data": {"status": "confirmed"}}, reply


@asynccontextmanager
async def signed_in_again(base_url: str, someone: Person) -> AsyncIterator[Socket]:
    """A new session of the same person (a cancel ends every session of theirs)."""
    account = await sign_in(base_url, someone.email)
    async with connect(base_url, account.token) as sock:
        yield sock


async def create(sock: Socket, **data: Any) -> dict[str, Any]:
    return await sock.call("appointment-create", data)


async def started_again(sock: Socket, uid: str, old: dict[str, Any], **data: Any) -> dict[str, Any]:
    """Open the next appointment; check the record points at it and the old one is as it
    was; the new appointment's document."""
    reply = await create(sock, **data)
    new_id = reply["data"]["appointmentId"]
    assert new_id != old["id"]
    assert await pointer(sock, uid) == new_id
    assert await create(sock, **data) == reply  # a repeat finds the same one
    assert await document(sock, f"appointments/{old['id']}") == old
    new = await document(sock, f"appointments/{new_id}")
    assert {key: new[key] for key in NOT_COPIED} == NOT_COPIED
    return new


@pytest.mark.parametrize("outcome", ["completed", "no_show"])
async def test_after_a_staff_outcome_the_person_books_again(base_url: str, outcome: str) -> None:
    staff = await sign_in(base_url, "staff@demo-clinic.example")
    async with (
        person(base_url, complete=True) as someone,
        connect(base_url, staff.token) as desk,
    ):
        await book(someone, 4)
        change = {"appointmentId": someone.appointment_id, "status": outcome}
        assert (await desk.call("appointment-updateStatus", change)) == {
            "data": {"status": outcome}
        }
        old = await someone.document()
        assert old["submittedAt"] is not None
        # The record still names the ended appointment (the client offers to start again).
        assert await pointer(someone.sock, someone.uid) == someone.appointment_id
        new = await started_again(someone.sock, someone.uid, old)
        assert new["intake"] == {} and new["patientRole"] is None and new["copiedFrom"] is None
        assert new["clinicId"] == old["clinicId"]


async def test_after_a_cancel_the_answers_are_copied_when_asked(base_url: str) -> None:
    async with person(base_url, complete=True) as someone:
        await book(someone, 6)
        cancel = {"appointmentId": someone.appointment_id, "reason": "changed plans"}
        assert await someone.call("appointment-cancel", cancel) == {
            "data": {"status": "cancelled", "refund": None}
        }
    async with signed_in_again(base_url, someone) as sock:
        assert await pointer(sock, someone.uid) == someone.appointment_id
        old = await document(sock, someone.path)
        assert old["status"] == "cancelled" and old["intake"]
        new = await started_again(sock, someone.uid, old, copyFrom=someone.appointment_id)
        assert (
            new["intake"] == old["intake"] and new["patientRole"] == CANCER_ANSWERS["patientRole"]
        )
        assert new["copiedFrom"] == someone.appointment_id
        # The new appointment's answers wait for its own consent.
        answer = {"intake.requests.referralSource": 2}
        refused = await sock.update(f"appointments/{new['id']}", answer)
        assert refused["error"]["details"]["codes"]["consent"] == "consentRequired", refused


async def test_copy_from_is_refused_for_another_persons_or_an_open_appointment(
    base_url: str,
) -> None:
    async with person(base_url) as someone, person(base_url) as other:
        theirs = await create(someone.sock, copyFrom=other.appointment_id)
        assert theirs["error"]["status"] == "PERMISSION_DENIED", theirs
        unknown = await create(someone.sock, copyFrom="no-such-appointment")
        assert unknown["error"]["status"] == "PERMISSION_DENIED", unknown
        open_one = await create(someone.sock, copyFrom=someone.appointment_id)
        assert open_one["error"]["status"] == "ABORTED", open_one
        assert open_one["error"]["details"]["status"] == "draft"
        assert (await create(someone.sock, copyFrom="a/b"))["error"]["status"] == (
            "INVALID_ARGUMENT"
        )


async def test_a_pending_payment_whose_hold_lapses_expires_and_may_start_again(
    server: ServerProcess,
) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        await hold_first_free(someone, 3)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        held = await someone.document()
        later = datetime.fromisoformat(held["holdExpiresAt"]) + timedelta(seconds=1)
        assert await run_job(server.url, "expire-holds", later) >= 1
        old = await someone.document()
        assert old["status"] == "expired" and old["counselorId"] is None
        assert old["payment"]["status"] == "expired" and old["holdExpiresAt"] is None
        mails = [m for m in await outbox(server.url, someone.email) if "無効" in m["subject"]]
        assert len(mails) == 1, mails
        assert f"/b/booking?id={someone.appointment_id}" in mails[0]["text"]
        # Run again: nothing more happens, nobody is mailed twice.
        assert await run_job(server.url, "expire-holds", later) == 0
        # Starting again from a copy, for another service: only what that one asks.
        new = await started_again(
            someone.sock,
            someone.uid,
            old,
            copyFrom=someone.appointment_id,
            serviceId="cancer",
        )
        assert new["serviceId"] == "cancer-b2b"
        assert "currentPregnancy" not in new["intake"]
        assert "prenatalTesting" not in new["intake"]
        # A field the cancer service does not ask (its `when`) stays behind too.
        contact = dict(old["intake"]["contactInfo"])
        assert contact.pop("pregnantWomanAttendance") == 1
        assert new["intake"]["contactInfo"] == contact
        assert new["intake"]["requests"] == old["intake"]["requests"]
        assert new["patientRole"] is None  # a pregnant person's role is not the cancer one's
        assert old["patientRole"] == PRENATAL_ANSWERS["patientRole"]


async def test_a_draft_whose_hold_lapses_stays_a_draft(base_url: str) -> None:
    async with person(base_url, "prenatal") as someone:
        await hold_first_free(someone, 5)
        later = datetime.now(UTC) + timedelta(hours=1)
        assert await run_job(base_url, "expire-holds", later) >= 1
        document = await someone.document()
        assert document["status"] == "draft" and document["counselorId"] is None


def test_a_copied_answer_that_no_longer_holds_is_left_to_ask_again() -> None:
    """The copy is checked as every saved answer is, on the day of the copy: an expected
    delivery date that has passed since is not carried over; the rest is."""
    source = Appointment(
        id="a-old",
        user_id="u-1",
        clinic_id="demo-clinic",
        service_id="prenatal-b2c",
        status="cancelled",
        patient_role=10,
        intake={
            "currentPregnancy": {"isPregnant": 1, "edd": "2026-03-01"},
            "profile": {"femaleDob": "1990-04-01"},
            "unknownSection": {"x": 1},
        },
    )
    before = copied_answers(source, category="prenatal", today=date(2026, 2, 1))
    assert before.intake["currentPregnancy"] == {"isPregnant": 1, "edd": "2026-03-01"}
    after = copied_answers(source, category="prenatal", today=date(2026, 6, 1))
    assert after.intake == {
        "currentPregnancy": {"isPregnant": 1},
        "profile": {"femaleDob": "1990-04-01"},
    }
    assert after.patient_role == 10
