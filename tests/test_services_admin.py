"""Services as clinic administrators edit them (docs/protocol.md, "Services"): services-read
and service-update on SQLite and on PostgreSQL + Redis, through real servers; what people
booking notice (free times, inactive services, the price they pay) and what two nodes see.

The demo services are shared by every test of the session: each test puts back what it
changed (`restored`)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from storage.db import open_database
from storage.models import Clinic, ClinicService
from tests.support.booking import free_slots, person
from tests.support.clients import Account, call_http, connect, sign_in
from tests.support.server import ServerProcess
from tests.test_multinode import two_nodes  # noqa: F401 (a fixture)
from tests.test_payments import checkout, hold_first_free, provider, settled
from tests.test_staff_signin import ADMIN, COUNSELOR, dev_session

CLINIC = "demo-clinic"
TOKYO = ZoneInfo("Asia/Tokyo")
READ, UPDATE = "services-read", "service-update"


async def admin(base_url: str) -> Account:
    return await dev_session(base_url, ADMIN, second_factor=True)


async def services(base_url: str, token: str) -> dict[str, dict[str, Any]]:
    status, reply = await call_http(base_url, READ, {"clinicId": CLINIC}, token)
    assert status == 200, reply
    return {service["id"]: service for service in reply["data"]["services"]}


def settings(service: dict[str, Any]) -> dict[str, Any]:
    """A service as read, in service-update's form."""
    gestation = service["gestationWeeks"]
    return {
        "name": service["name"],
        "price": service["price"],
        "sessionMinutes": service["sessionMinutes"],
        "bufferMinutes": service["bufferMinutes"],
        "minNoticeHours": service["minNoticeHours"],
        "horizonDays": service["horizonDays"],
        "gestation": gestation and {"minWeeks": gestation["min"], "maxWeeks": gestation["max"]},
        "cancellation": {
            "freeUntilHours": service["cancellationPolicy"]["freeCancelHours"],
            "lateRefundPercent": service["cancellationPolicy"]["lateRefundPercent"],
        },
        "active": service["active"],
    }


async def update(
    base_url: str, token: str, service_id: str, version: int | None = None, **fields: Any
) -> tuple[int, dict[str, Any]]:
    if version is None:
        version = (await services(base_url, token))[service_id]["version"]
    data = {"clinicId": CLINIC, "serviceId": service_id, "version": version, **fields}
    return await call_http(base_url, UPDATE, data, token)


@asynccontextmanager
async def restored(base_url: str, service_id: str) -> AsyncIterator[Account]:
    """An admin's session; the service's settings as they were, put back afterwards."""
    staff = await admin(base_url)
    before = settings((await services(base_url, staff.token))[service_id])
    try:
        yield staff
    finally:
        status, reply = await update(base_url, staff.token, service_id, **before)
        assert status == 200, reply


# Reading -------------------------------------------------------------------------------


async def test_staff_read_every_service_with_its_version(base_url: str) -> None:
    staff = await admin(base_url)
    found = await services(base_url, staff.token)
    assert set(found) == {"prenatal-b2c", "prenatal-b2b", "pgt-post", "cancer-b2b"}
    prenatal = found["prenatal-b2c"]
    assert prenatal["price"] == {"amount": 16500, "currency": "JPY"}
    assert isinstance(prenatal["version"], int) and prenatal["active"] in (True, False)
    counselor = await dev_session(base_url, COUNSELOR, second_factor=True)
    assert set(await services(base_url, counselor.token)) == set(found)


async def test_reading_is_for_the_clinic_s_staff(base_url: str, alice: Account) -> None:
    staff = await admin(base_url)
    assert (await call_http(base_url, READ, {"clinicId": CLINIC}, alice.token))[0] == 403
    assert (await call_http(base_url, READ, {"clinicId": "other-clinic"}, staff.token))[0] == 403
    assert (await call_http(base_url, READ, {"clinicId": CLINIC}))[0] == 401


# Who may change a service --------------------------------------------------------------


async def test_only_the_clinic_s_administrators_change_a_service(
    base_url: str, alice: Account
) -> None:
    staff = await admin(base_url)
    counselor = await dev_session(base_url, COUNSELOR, second_factor=True)
    version = (await services(base_url, staff.token))["pgt-post"]["version"]
    change = {"serviceId": "pgt-post", "version": version, "bufferMinutes": 20}
    for token, clinic in ((alice.token, CLINIC), (counselor.token, CLINIC)):
        status, reply = await call_http(base_url, UPDATE, {"clinicId": clinic, **change}, token)
        assert status == 403, reply
    # Another clinic, and a service the clinic does not offer, refused alike (before the
    # input is read: a bad value changes nothing in the answer).
    other = {"clinicId": "other-clinic", **change, "bufferMinutes": "x"}
    assert (await call_http(base_url, UPDATE, other, staff.token))[0] == 403
    unknown = {"clinicId": CLINIC, **change, "serviceId": "no-such-service"}
    assert (await call_http(base_url, UPDATE, unknown, staff.token))[0] == 403
    assert (await services(base_url, staff.token))["pgt-post"]["version"] == version


# The rules -----------------------------------------------------------------------------

REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"name": {"ja": "  ", "en": "PGT"}}, "name.ja"),
    ({"name": {"ja": "PGT", "en": "x" * 201}}, "name.en"),
    ({"name": {"ja": "PGT\u0000", "en": "PGT"}}, "name.ja"),
    ({"price": {"amount": -1, "currency": "JPY"}}, "price.amount"),
    ({"price": {"amount": 0, "currency": "JPY"}}, "price.amount"),
    ({"price": {"amount": 100_000_000, "currency": "JPY"}}, "price.amount"),
    ({"price": {"amount": 1650.5, "currency": "JPY"}}, "price.amount"),
    ({"price": {"amount": 1000, "currency": "XYZ"}}, "price.currency"),
    ({"price": {"amount": 1005, "currency": "KWD"}}, "price.amount"),
    ({"sessionMinutes": 62}, "sessionMinutes"),
    ({"sessionMinutes": 10}, "sessionMinutes"),
    ({"sessionMinutes": 600}, "sessionMinutes"),
    ({"sessionMinutes": None}, "sessionMinutes"),
    ({"bufferMinutes": -5}, "bufferMinutes"),
    ({"bufferMinutes": 7}, "bufferMinutes"),
    ({"minNoticeHours": 1000}, "minNoticeHours"),
    ({"horizonDays": 0}, "horizonDays"),
    ({"minNoticeHours": 48, "horizonDays": 2}, "horizonDays"),
    ({"gestation": {"minWeeks": 22, "maxWeeks": 10}}, "gestation.maxWeeks"),
    ({"gestation": {"minWeeks": 10, "maxWeeks": 43}}, "gestation.maxWeeks"),
    ({"gestation": {"minWeeks": -1, "maxWeeks": 10}}, "gestation.minWeeks"),
    (
        {"cancellation": {"freeUntilHours": -1, "lateRefundPercent": 0}},
        "cancellation.freeUntilHours",
    ),
    (
        {"cancellation": {"freeUntilHours": 48, "lateRefundPercent": 101}},
        "cancellation.lateRefundPercent",
    ),
    ({"active": "yes"}, "active"),
    ({"sessionMinutes": True}, "sessionMinutes"),
]


@pytest.mark.parametrize(("fields", "named"), REFUSED)
async def test_each_refusal_names_its_field_and_saves_nothing(
    base_url: str, fields: dict[str, Any], named: str
) -> None:
    staff = await admin(base_url)
    before = (await services(base_url, staff.token))["pgt-post"]
    # A valid change beside the refused one: neither is saved.
    status, reply = await update(
        base_url, staff.token, "pgt-post", **{"minNoticeHours": 36, **fields}
    )
    assert status == 400, reply
    assert reply["error"]["status"] == "INVALID_ARGUMENT"
    assert named in reply["error"]["details"]["fields"], reply
    assert (await services(base_url, staff.token))["pgt-post"] == before


async def test_a_change_is_saved_whole_and_audited(base_url: str) -> None:
    async with restored(base_url, "pgt-post") as staff:
        before = (await services(base_url, staff.token))["pgt-post"]
        status, reply = await update(
            base_url,
            staff.token,
            "pgt-post",
            name={"ja": " PGT結果の相談 ", "en": "PGT results"},
            price={"amount": 1050, "currency": "usd"},
            cancellation={"freeUntilHours": 24, "lateRefundPercent": 30},
        )
        assert status == 200, reply
        after = reply["data"]
        assert after["version"] == before["version"] + 1
        assert after["name"] == {"ja": "PGT結果の相談", "en": "PGT results"}  # trimmed
        assert after["price"] == {"amount": 1050, "currency": "USD"}
        assert after["cancellationPolicy"] == {"freeCancelHours": 24, "lateRefundPercent": 30}
        assert (await services(base_url, staff.token))["pgt-post"] == after
        # What a person booking reads.
        status, public = await call_http(base_url, "service-read", {"id": "pgt-post"})
        assert public["data"]["price"] == {"amount": 1050, "currency": "USD"}
        status, audit = await call_http(
            base_url, "staff-audit-read", {"clinicId": CLINIC}, staff.token
        )
        entry = next(e for e in audit["data"]["entries"] if e["action"] == "service.update")
        assert entry["email"] == ADMIN and entry["detail"]["serviceId"] == "pgt-post"
        changes = entry["detail"]["changes"]
        assert set(changes) == {"name", "price", "cancellation"}
        assert changes["price"] == {"before": None, "after": {"amount": 1050, "currency": "USD"}}


async def test_an_edit_against_an_older_version_is_refused_with_the_current_one(
    base_url: str,
) -> None:
    async with restored(base_url, "pgt-post") as staff:
        other = await admin(base_url)
        version = (await services(base_url, staff.token))["pgt-post"]["version"]
        status, first = await update(base_url, staff.token, "pgt-post", version, bufferMinutes=20)
        assert status == 200, first
        status, late = await update(base_url, other.token, "pgt-post", version, bufferMinutes=30)
        assert status == 409, late
        assert late["error"]["status"] == "ABORTED"
        details = late["error"]["details"]
        assert details["version"] == version + 1
        assert details["current"]["bufferMinutes"] == 20
        assert (await services(base_url, staff.token))["pgt-post"]["bufferMinutes"] == 20


async def test_a_service_another_clinic_offers_too_is_not_changed(
    server: ServerProcess,
) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.write() as session:
            session.add(
                Clinic(
                    id="shared-clinic",
                    name={"ja": "共有", "en": "Shared"},
                    timezone="Asia/Tokyo",
                    contact_email="shared@example.com",
                    service_aliases={},
                )
            )
            await session.flush()
            session.add(ClinicService(clinic_id="shared-clinic", service_id="pgt-post"))
        staff = await admin(server.url)
        status, reply = await update(server.url, staff.token, "pgt-post", bufferMinutes=20)
        assert status == 403, reply
        assert "another clinic" in reply["error"]["message"]
        assert reply["error"]["details"] == {"reason": "shared"}
    finally:
        async with db.write() as session:
            link = await session.get(ClinicService, ("shared-clinic", "pgt-post"))
            if link is not None:
                await session.delete(link)
                await session.flush()
            clinic = await session.get(Clinic, "shared-clinic")
            if clinic is not None:
                await session.delete(clinic)
        await db.close()


# What people booking notice ------------------------------------------------------------


def first_start(slots: list[dict[str, Any]]) -> datetime:
    return min(datetime.fromisoformat(s["start"].replace("Z", "+00:00")) for s in slots)


async def test_a_longer_notice_is_pushed_to_whoever_follows_the_months(base_url: str) -> None:
    async with (
        restored(base_url, "cancer-b2b") as staff,
        person(base_url, "cancer") as someone,
    ):
        now = datetime.now(TOKYO)
        month, following = now.strftime("%Y-%m"), (now + timedelta(days=31)).strftime("%Y-%m")
        paths = [f"vacancies/{CLINIC}/cancer-b2b/{m}" for m in dict.fromkeys([month, following])]
        versions = [(await someone.sock.subscribe(p))["snapshot"]["version"] for p in paths]
        before = await free_slots(someone.sock)
        assert first_start(before) < datetime.now(UTC) + timedelta(days=5)
        status, reply = await update(base_url, staff.token, "cancer-b2b", minNoticeHours=240)
        assert status == 200, reply
        for path, version in zip(paths, versions, strict=True):
            await someone.sock.wait_for_version(path, version + 1)
        pushed = [s for p in paths for s in someone.sock.pushes[p][-1]["data"]["slots"]]
        assert pushed and first_start(pushed) >= datetime.now(UTC) + timedelta(days=10)
        assert first_start(await free_slots(someone.sock)) >= datetime.now(UTC) + timedelta(days=10)


async def test_an_inactive_service_takes_no_new_bookings_and_keeps_the_ones_made(
    base_url: str,
) -> None:
    async with (
        person(base_url, "cancer") as booked,
        person(base_url, "cancer") as holding,
        restored(base_url, "cancer-b2b") as staff,
    ):
        slot = (await free_slots(booked.sock))[0]
        assert "data" in await booked.hold(slot["start"], slot["counselorIds"][0])
        later = (await free_slots(holding.sock))[-1]
        status, reply = await update(base_url, staff.token, "cancer-b2b", active=False)
        assert status == 200 and reply["data"]["active"] is False, reply
        assert await free_slots(holding.sock) == []
        refused = await holding.hold(later["start"], later["counselorIds"][0])
        assert refused["error"]["status"] == "NOT_FOUND", refused
        assert refused["error"]["message"] == "The clinic no longer offers this service."
        newcomer = await sign_in(base_url, "newcomer-inactive@example.com")
        async with connect(base_url, newcomer.token) as sock:
            created = await sock.call("appointment-create", {"serviceId": "cancer"})
            assert created["error"]["message"] == "The clinic no longer offers this service."
        kept = await booked.document()
        assert kept["status"] == "draft" and kept["holdExpiresAt"], kept  # its hold stays


async def test_a_price_change_leaves_a_pending_payment_at_its_amount(
    server: ServerProcess,
) -> None:
    async with (
        person(server.url, "prenatal", complete=True) as paying,
        restored(server.url, "prenatal-b2c") as staff,
    ):
        await hold_first_free(paying, 2)
        submitted = await paying.call(
            "appointment-updateStatus",
            {"appointmentId": paying.appointment_id, "status": "submitted"},
        )
        assert submitted == {"data": {"status": "pending_payment"}}, submitted
        session = await checkout(paying)
        status, reply = await update(
            server.url, staff.token, "prenatal-b2c", price={"amount": 22000, "currency": "JPY"}
        )
        assert status == 200, reply
        await provider(server).control("POST", f"/sessions/{session['sessionId']}/pay?wait=1")
        confirmed = await settled(paying, "paid")
        assert confirmed["status"] == "confirmed"
        assert confirmed["payment"]["amount"] == 16500
        # A new booking pays the new price.
        status, public = await call_http(server.url, "service-read", {"id": "prenatal-b2c"})
        assert public["data"]["price"]["amount"] == 22000


# Two nodes -----------------------------------------------------------------------------


async def test_an_edit_through_one_node_is_seen_at_once_on_the_other(
    two_nodes: tuple[ServerProcess, ServerProcess],  # noqa: F811 (the fixture)
) -> None:
    a, b = two_nodes
    async with person(b.url, "cancer") as someone, restored(a.url, "cancer-b2b") as staff:
        assert first_start(await free_slots(someone.sock)) < datetime.now(UTC) + timedelta(days=5)
        path = f"vacancies/{CLINIC}/cancer-b2b/{datetime.now(TOKYO).strftime('%Y-%m')}"
        version = (await someone.sock.subscribe(path))["snapshot"]["version"]
        status, reply = await update(a.url, staff.token, "cancer-b2b", minNoticeHours=240)
        assert status == 200, reply
        # The month followed on B is pushed by A's edit, computed with the new notice.
        await someone.sock.wait_for_version(path, version + 1)
        pushed = someone.sock.pushes[path][-1]["data"]["slots"]
        assert not pushed or first_start(pushed) >= datetime.now(UTC) + timedelta(days=10)
        # B kept the clinic's services from its first read: it reads them again at once.
        assert first_start(await free_slots(someone.sock)) >= datetime.now(UTC) + timedelta(days=10)
        status, reply = await update(a.url, staff.token, "cancer-b2b", active=False)
        assert status == 200, reply
        assert await free_slots(someone.sock) == []
