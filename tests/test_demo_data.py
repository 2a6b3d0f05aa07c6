"""The demo data of docs/protocol.md ("Demo data"), as loaded by a real server into an empty
database: what every environment gets, and the week of bookings only development gets."""

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio
from sqlmodel import col, select

from storage.db import open_database
from storage.models import (
    Appointment,
    Counselor,
    CounselorException,
    CounselorHours,
    StaffMember,
)
from tests.conftest import BACKENDS
from tests.support.clients import call_http, connect
from tests.support.databases import (
    REDIS_URL,
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.server import ServerProcess
from tests.test_staff_signin import dev_session

DAYS = 60


async def test_counselors_work_on_most_weekdays_of_the_next_60_days(
    server: ServerProcess,
) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            counselors = (
                await session.exec(select(Counselor).where(Counselor.clinic_id == "demo-clinic"))
            ).all()
            hours = (await session.exec(select(CounselorHours))).all()
            days_off = (
                await session.exec(
                    select(CounselorException).where(CounselorException.kind == "off")
                )
            ).all()
            staff = (await session.exec(select(StaffMember))).all()
    finally:
        await db.close()
    assert len(counselors) >= 3
    demo_staff = sorted(
        (s.email, s.clinic_id, s.role, s.counselor_id, s.totp_secret is not None)
        for s in staff
        if s.email.endswith("@demo-clinic.example")
    )
    # Enrolled in the second factor with the published demo secret: this is a test server.
    assert demo_staff == [
        ("sato@demo-clinic.example", "demo-clinic", "counselor", "c-sato", True),
        ("staff@demo-clinic.example", "demo-clinic", "clinic_admin", None, True),
    ]
    today = datetime.now(UTC).date()
    weekdays = [today + timedelta(days=n) for n in range(1, DAYS + 1)]
    weekdays = [d for d in weekdays if d.weekday() < 5]
    off = {(x.counselor_id, x.day) for x in days_off}
    open_days = [
        d
        for d in weekdays
        if any(h.weekday == d.weekday() and (h.counselor_id, d) not in off for h in hours)
    ]
    assert len(open_days) >= 0.8 * len(weekdays)
    # Not every counselor every day: the calendar has something to choose between.
    per_day = {d: {h.counselor_id for h in hours if h.weekday == d.weekday()} for d in weekdays}
    assert any(len(ids) < len(counselors) for ids in per_day.values())


# The week of bookings (development only) -------------------------------------------------


@pytest_asyncio.fixture(scope="module", params=BACKENDS)
async def development_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServerProcess]:
    """A server as `APP_ENV=development` runs it, on an empty database of each backend."""
    logs = tmp_path_factory.mktemp("demo-week")
    env = {"APP_ENV": "development"}
    name = None
    if request.param == "postgres":
        name, url = await create_postgres_database()
        env |= {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "REDIS_NAMESPACE": redis_namespace()}
    else:
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{logs / 'dev.db'}"
    server = ServerProcess(env=env, log_path=logs / "dev.log").start()
    try:
        yield server
    finally:
        server.stop()
        if name is not None:
            await drop_postgres_database(name)


async def bookings_of(base_url: str) -> list[dict[str, Any]]:
    admin = await dev_session(base_url, "staff@demo-clinic.example", second_factor=True)
    async with connect(base_url, admin.token) as desk:
        reply = await desk.subscribe("clinics/demo-clinic/bookings")
    rows: list[dict[str, Any]] = reply["snapshot"]["data"]["bookings"]
    return rows


async def test_development_fills_the_board_with_a_week_of_bookings(
    development_server: ServerProcess,
) -> None:
    base = development_server.url
    week = [b for b in await bookings_of(base) if b["appointmentId"].startswith("demo-week-")]
    statuses = {b["status"] for b in week}
    assert {"completed", "no_show", "confirmed", "cancelled", "pending_payment"} <= statuses
    holds = [b for b in week if b["status"] == "draft"]
    assert len(holds) == 1 and holds[0]["holdExpiresAt"]
    today = datetime.now(ZoneInfo("Asia/Tokyo")).date()
    days = {date.fromisoformat(b["date"]) for b in week}
    assert min(days) >= today and max(days) <= today + timedelta(days=6)
    assert len(days) >= 4
    assert {b["counselorId"] for b in week} == {"c-sato", "c-tanaka", "c-brown"}
    assert {b["serviceId"] for b in week} == {
        "cancer-b2b",
        "prenatal-b2c",
        "pgt-post",
        "prenatal-b2b",
    }
    assert {b["payment"] for b in week if b["serviceId"] == "prenatal-b2c"} >= {"paid", "open"}
    assert all(b["timezone"] == "Asia/Tokyo" for b in week)
    # An intake a counselor can read: contact details and a family history.
    admin = await dev_session(base, "staff@demo-clinic.example", second_factor=True)
    status, reply = await call_http(
        base, "staff-appointment-read", {"appointmentId": week[0]["appointmentId"]}, admin.token
    )
    assert status == 200, reply
    intake = reply["data"]["appointment"]["intake"]
    assert intake["familyMembers"] and all(m["disorders"] for m in intake["familyMembers"])
    assert reply["data"]["contact"]["name"]


async def test_tests_see_no_demo_bookings(server: ServerProcess) -> None:
    db = open_database(server.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            demo = (
                await session.exec(
                    select(Appointment.id).where(col(Appointment.id).startswith("demo-week-"))
                )
            ).all()
    finally:
        await db.close()
    assert demo == []
