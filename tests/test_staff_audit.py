"""Staff reading and acting, and the audit log that records it (docs/protocol.md, "Staff
reading and acting"; docs/security.md, "Audit log"): on both databases, through real servers."""

import asyncio
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fhir.resources.R4B.questionnaireresponse import QuestionnaireResponse
from sqlalchemy import text
from sqlmodel import col, delete

from realtime import audit
from realtime.contract import AUDIT_ACTIONS
from storage.db import open_database
from storage.models import AuditEntry, Clinic, StaffMember
from storage.repo_audit import add_entry
from tests.support.booking import Person, free_slots, person
from tests.support.clients import Account, call_http, connect, outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_payments import checkout, hold_first_free, provider, settled

STAFF_EMAIL = "staff@demo-clinic.example"


def status_of(reply: dict[str, Any]) -> str:
    return str(reply["error"]["status"]) if "error" in reply else "OK"


@pytest_asyncio.fixture
async def other_staff(server: ServerProcess) -> AsyncIterator[Account]:
    """Staff of another clinic, made for the test and removed after it."""
    suffix = secrets.token_hex(4)
    clinic_id, email = f"other-{suffix}", f"staff-{suffix}@other-clinic.example"
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            session.add(
                Clinic(
                    id=clinic_id,
                    name={"ja": "他院", "en": "Other"},
                    timezone="Asia/Tokyo",
                    contact_email=f"contact@{clinic_id}.example",
                    service_aliases={},
                )
            )
            await session.flush()
            session.add(StaffMember(email=email, clinic_id=clinic_id))
        yield await sign_in(server.url, email)
    finally:
        async with db.write() as session:
            await (await session.connection()).execute(
                delete(StaffMember).where(col(StaffMember.email) == email)
            )
            await (await session.connection()).execute(
                delete(Clinic).where(col(Clinic.id) == clinic_id)
            )
        await db.close()


async def book(someone: Person, index: int) -> dict[str, Any]:
    slot = (await free_slots(someone.sock))[index]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
    reply = await someone.call(
        "appointment-updateStatus",
        {"appointmentId": someone.appointment_id, "status": "submitted"},
    )
    assert reply == {"data": {"status": "confirmed"}}, reply
    return slot


async def audit_read(token: str, base_url: str, **data: Any) -> tuple[int, dict[str, Any]]:
    return await call_http(base_url, "staff-audit-read", {"clinicId": "demo-clinic", **data}, token)


async def entries_of(base_url: str, token: str, appointment_id: str) -> list[dict[str, Any]]:
    code, reply = await audit_read(token, base_url, appointmentId=appointment_id)
    assert code == 200, reply
    found: list[dict[str, Any]] = reply["data"]["entries"]
    return found


async def test_staff_read_an_appointment_and_the_read_is_audited(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, complete=True) as someone:
        read = {"appointmentId": someone.appointment_id}
        code, reply = await call_http(base_url, "staff-appointment-read", read, staff.token)
        assert code == 200, reply
        data = reply["data"]
        assert data["appointment"]["id"] == someone.appointment_id
        assert data["appointment"]["intake"]["contactInfo"]["lastName"] == "ヤマダ"
        assert data["version"] >= 1
        assert data["contact"] == {
            "email": someone.email,
            "intakeEmail": "hanako@example.jp",
            "name": "ヤマダ ハナコ",
            "lastName": "ヤマダ",
            "firstName": "ハナコ",
            "phone": "03-1234-5678",
        }
        entries = await entries_of(base_url, staff.token, someone.appointment_id)
        assert [e["action"] for e in entries] == ["intake.read"]
        entry = entries[0]
        assert (entry["uid"], entry["email"], entry["role"]) == (
            staff.uid,
            STAFF_EMAIL,
            "clinic_admin",
        )
        assert entry["clinicId"] == "demo-clinic" and entry["clientAddress"]
        assert datetime.fromisoformat(entry["at"].replace("Z", "+00:00")) <= datetime.now(UTC)
        # Over the socket too; still one entry per read.
        async with connect(base_url, staff.token) as desk:
            assert "data" in await desk.call("staff-appointment-read", read)
            # Following the document is refused with a pointer to the audited call.
            refused = await desk.subscribe(someone.path)
            assert status_of(refused) == "PERMISSION_DENIED"
            assert refused["error"]["details"] == {"function": "staff-appointment-read"}
        assert len(await entries_of(base_url, staff.token, someone.appointment_id)) == 2
        # The owner still follows their own appointment.
        assert (await someone.document())["id"] == someone.appointment_id


async def test_staff_calls_refuse_clients_other_clinics_and_the_signed_out(
    base_url: str, staff: Account, other_staff: Account
) -> None:
    async with person(base_url, complete=True) as someone:
        own = someone.appointment_id
        calls: list[tuple[str, dict[str, Any]]] = [
            ("staff-appointment-read", {"appointmentId": own}),
            ("staff-audit-read", {"clinicId": "demo-clinic"}),
            ("appointment-cancel", {"appointmentId": own, "reason": "x", "byClinic": True}),
        ]
        for name, data in calls:
            assert (await call_http(base_url, name, data))[0] == 401, name
            assert (await call_http(base_url, name, data, someone.token))[0] == 403, name
            assert (await call_http(base_url, name, data, other_staff.token))[0] == 403, name
        # Authorization before validation: a bad input is refused as unauthorized first...
        bad = {"appointmentId": own, "reason": 5, "byClinic": True, "extra": 1}
        assert (await call_http(base_url, "appointment-cancel", bad, someone.token))[0] == 403
        assert (
            await call_http(
                base_url, "staff-audit-read", {"clinicId": "demo-clinic", "to": 5}, someone.token
            )
        )[0] == 403
        # ...and only then, for staff, as invalid.
        code, reply = await call_http(base_url, "appointment-cancel", bad, staff.token)
        assert code == 400 and "reason" in reply["error"]["details"]["fields"]
        extra = {"appointmentId": own, "extra": 1}
        assert (await call_http(base_url, "staff-appointment-read", extra, staff.token))[0] == 400
        # Unknown and malformed ids answer like an appointment of another clinic.
        for wrong in ("does-not-exist", 5, None, "a/b"):
            code, _ = await call_http(
                base_url, "staff-appointment-read", {"appointmentId": wrong}, staff.token
            )
            assert code == 403, wrong
        # The other clinic's staff may read their own clinic's (empty) log.
        other_clinic = other_staff.email.split("@")[0].removeprefix("staff-")
        code, reply = await call_http(
            base_url, "staff-audit-read", {"clinicId": f"other-{other_clinic}"}, other_staff.token
        )
        assert code == 200 and reply["data"]["entries"] == []
        # Nothing was audited by the refused calls, and the appointment is unchanged.
        assert await entries_of(base_url, staff.token, own) == []
        assert (await someone.document())["status"] == "draft"


async def test_staff_actions_are_audited_newest_first_and_filtered(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, complete=True) as someone:
        await book(someone, 3)
        aid = someone.appointment_id
        read = {"appointmentId": aid}
        assert (await call_http(base_url, "staff-appointment-read", read, staff.token))[0] == 200
        code, _ = await call_http(base_url, "sendEmail-counselor", read, staff.token)
        assert code == 200
        outcome = {"appointmentId": aid, "status": "no_show"}
        assert (await call_http(base_url, "appointment-updateStatus", outcome, staff.token))[
            0
        ] == 200
        # A refused action writes nothing: no_show cannot become completed.
        again = {"appointmentId": aid, "status": "completed"}
        assert (await call_http(base_url, "appointment-updateStatus", again, staff.token))[0] == 409
    entries = await entries_of(base_url, staff.token, aid)
    assert [e["action"] for e in entries] == ["appointment.status", "mail.resend", "intake.read"]
    assert entries[0]["detail"] == {"from": "confirmed", "to": "no_show"}
    times = [e["at"] for e in entries]
    assert times == sorted(times, reverse=True)
    # Filters: the clinic's whole log holds them, with the audit reads themselves; days in
    # the clinic's zone, both ends included.
    code, reply = await audit_read(staff.token, base_url)
    assert code == 200
    everything = reply["data"]["entries"]
    assert {e["id"] for e in entries} <= {e["id"] for e in everything}
    assert any(e["action"] == "audit.read" for e in everything)
    today = datetime.now(UTC).date()
    around = {
        "from": (today - timedelta(days=1)).isoformat(),
        "to": (today + timedelta(days=1)).isoformat(),
    }
    code, reply = await audit_read(staff.token, base_url, appointmentId=aid, **around)
    assert [e["id"] for e in reply["data"]["entries"]] == [e["id"] for e in entries]
    later = {"from": (today + timedelta(days=2)).isoformat()}
    code, reply = await audit_read(staff.token, base_url, appointmentId=aid, **later)
    assert code == 200 and reply["data"]["entries"] == []
    for wrong in (
        {"from": "2026-13-01"},
        {"from": "20261101"},
        {"to": "0001-01-01"},
        {"from": "2026-11-02", "to": "2026-11-01"},
        {"from": 20261101},
    ):
        code, reply = await audit_read(staff.token, base_url, **wrong)
        assert code == 400, (wrong, reply)


async def test_the_audit_log_cannot_be_changed_or_deleted(server: ServerProcess) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            await add_entry(
                session,
                at=datetime.now(UTC),
                uid="u-test",
                email="test@example.com",
                role="clinic_admin",
                clinic_id="demo-clinic",
                appointment_id=None,
                action="test.append",
                detail={"n": 1},
                client_address=None,
            )
        for statement in (
            "UPDATE audit_entries SET action = 'changed' WHERE action = 'test.append'",
            "DELETE FROM audit_entries WHERE action = 'test.append'",
            "DELETE FROM audit_entries",
        ):
            with pytest.raises(Exception, match="append-only"):
                async with db.write() as session:
                    await (await session.connection()).execute(text(statement))
        async with db.read() as session:
            rows = (
                await (await session.connection()).execute(
                    text("SELECT action FROM audit_entries WHERE uid = 'u-test'")
                )
            ).all()
        assert [row[0] for row in rows] == ["test.append"]
        if not db.sqlite:
            with pytest.raises(Exception, match="append-only"):
                async with db.write() as session:
                    await (await session.connection()).execute(text("TRUNCATE audit_entries"))
    finally:
        await db.close()
    assert AuditEntry.__tablename__ == "audit_entries"


async def test_staff_cancel_frees_the_time_mails_in_japanese_and_keeps_the_person_signed_in(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, complete=True) as someone, person(base_url) as next_one:
        slot = await book(someone, 5)
        cancel = {
            "appointmentId": someone.appointment_id,
            "reason": "担当者の急病のため",
            "byClinic": True,
        }
        code, reply = await call_http(base_url, "appointment-cancel", cancel, staff.token)
        assert (code, reply) == (200, {"data": {"status": "cancelled", "refund": None}})
        document = await someone.document()  # still signed in: the socket still reads
        assert document["status"] == "cancelled"
        assert "data" in await next_one.hold(slot["start"], slot["counselorIds"][0])
        again = await call_http(base_url, "appointment-cancel", cancel, staff.token)
        assert again[0] == 409
    async with httpx.AsyncClient(base_url=base_url) as http:
        who = await http.get("/auth/session", headers={"Authorization": f"Bearer {someone.token}"})
    assert who.json()["data"]["uid"] == someone.uid
    mails = await outbox(base_url, someone.email)
    told = [m for m in mails if "キャンセル" in m["subject"]]
    assert told and "クリニックにてキャンセルさせていただきました" in told[0]["text"]
    assert "担当者の急病のため" in told[0]["text"] and "返金" not in told[0]["text"]
    entries = await entries_of(base_url, staff.token, someone.appointment_id)
    assert entries[0]["action"] == "appointment.cancel"
    assert entries[0]["detail"] == {"from": "confirmed", "refund": False}


async def test_staff_cancel_refunds_a_paid_booking_and_mails_in_english(
    server: ServerProcess, staff: Account
) -> None:
    async with person(server.url, "prenatal", complete=True) as someone:
        await someone.sock.update(someone.path, {"locale": "en"})
        await hold_first_free(someone, 2)
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}
        session = (await checkout(someone))["sessionId"]
        stripe = provider(server)
        await stripe.control("POST", f"/sessions/{session}/pay?wait=1")
        paid = await settled(someone, "paid")
        assert paid["status"] == "confirmed"
        cancel = {
            "appointmentId": someone.appointment_id,
            "reason": "The counselor is unavailable.",
            "byClinic": True,
        }
        code, reply = await call_http(server.url, "appointment-cancel", cancel, staff.token)
        assert code == 200, reply
        refunded = await settled(someone, "refunded")
        assert refunded["status"] == "cancelled"
        assert refunded["payment"]["refundReason"] == "cancelled_by_clinic"
        detail = await stripe.control("GET", f"/sessions/{session}")
        assert detail["refunds"], detail
    for _ in range(50):
        mails = await outbox(server.url, someone.email)
        if any("refunded" in m["subject"] for m in mails):
            break
        await asyncio.sleep(0.1)
    subjects = [m["subject"] for m in mails]
    told = next(m for m in mails if "canceled your" in m["subject"])
    assert "will be refunded" in told["text"] and "The counselor is unavailable." in told["text"]
    assert any("refunded" in s for s in subjects), subjects
    notice = next(m for m in mails if "refunded" in m["subject"])
    assert "As your appointment was canceled" in notice["text"]
    entries = await entries_of(server.url, staff.token, someone.appointment_id)
    assert entries[0]["action"] == "appointment.cancel"
    assert entries[0]["detail"] == {"from": "confirmed", "refund": True}


def answers_of(resource: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """linkId -> answers, over every level of items."""
    found: dict[str, list[dict[str, Any]]] = {}
    pending = list(resource.get("item", []))
    while pending:
        item = pending.pop()
        if "answer" in item:
            found[item["linkId"]] = item["answer"]
        pending += item.get("item", [])
    return found


async def test_fhir_export_of_an_intake_for_staff_only_and_audited(
    base_url: str, staff: Account, other_staff: Account
) -> None:
    async with person(base_url, complete=True) as someone:
        url = f"/fhir/QuestionnaireResponse/{someone.appointment_id}"
        async with httpx.AsyncClient(base_url=base_url) as http:
            for token, code in (
                (None, 401),
                (someone.token, 403),
                (other_staff.token, 403),
            ):
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                refused = await http.get(url, headers=headers)
                assert refused.status_code == code
                assert refused.headers["content-type"].startswith("application/fhir+json")
                assert refused.json()["resourceType"] == "OperationOutcome"
            missing = await http.get(
                "/fhir/QuestionnaireResponse/nope",
                headers={"Authorization": f"Bearer {staff.token}"},
            )
            assert missing.status_code == 403
            reply = await http.get(url, headers={"Authorization": f"Bearer {staff.token}"})
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("application/fhir+json")
        resource = reply.json()
        QuestionnaireResponse.model_validate(resource)  # valid FHIR (R4B: R4's resource)
        assert resource["resourceType"] == "QuestionnaireResponse"
        assert resource["identifier"] == {
            "system": "urn:genecounsel:appointment",
            "value": someone.appointment_id,
        }
        assert resource["questionnaire"].startswith("Questionnaire/cancer")
        assert resource["status"] == "in-progress"  # a draft
        answers = answers_of(resource)
        assert answers["intake.contactInfo.lastName"] == [{"valueString": "ヤマダ"}]
        assert answers["intake.profile.femaleDob"] == [{"valueDate": "1990-04-01"}]
        codes = [a["valueCoding"]["code"] for a in answers["intake.requests.expectations"]]
        assert codes == ["1", "2"]
        entries = await entries_of(base_url, staff.token, someone.appointment_id)
        assert [e["action"] for e in entries] == ["intake.export"]


def test_every_audit_action_is_in_the_one_list() -> None:
    """realtime/audit.py names each action it records; contract.json `auditActions` (which the
    audit screen's filter and words follow) lists exactly those."""
    named = {
        value
        for name, value in vars(audit).items()
        if name.isupper() and isinstance(value, str) and "." in value
    }
    assert named == set(AUDIT_ACTIONS)
