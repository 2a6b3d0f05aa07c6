"""The demo data of docs/protocol.md ("Demo data"), as loaded by a real server into an empty
database."""

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from storage.db import open_database
from storage.models import Counselor, CounselorException, CounselorHours, StaffMember
from tests.support.server import ServerProcess

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
