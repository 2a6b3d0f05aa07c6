"""A hold's first look: the holds in flight share one read, and each gets its own answer."""

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy
from sqlmodel import Session, SQLModel

from realtime.booking.looks import FirstLooks
from storage.db import open_database
from storage.models import Appointment, Clinic, ClinicService, DocumentVersion, Service, User

HOLDS = 30


def fill(path: Path) -> None:
    engine = sqlalchemy.create_engine(f"sqlite:///{path}")
    SQLModel.metadata.create_all(engine)
    now = datetime(2026, 11, 26, tzinfo=UTC)
    with Session(engine) as session:
        session.add(
            Clinic(id="c", name={}, timezone="Asia/Tokyo", contact_email="c@x", service_aliases={})
        )
        session.add(Service(id="s", category="cancer", name={}, consent_version="1"))
        session.flush()
        session.add(ClinicService(clinic_id="c", service_id="s"))
        for index in range(HOLDS):
            session.add(User(id=f"u{index}", email=f"u{index}@x", created=now))
        session.flush()
        for index in range(HOLDS):
            session.add(
                Appointment(
                    id=f"a{index}",
                    user_id=f"u{index}",
                    clinic_id="c",
                    service_id="s",
                    status="draft" if index % 2 else "confirmed",
                    intake={},
                    created=now,
                )
            )
        session.add(DocumentVersion(path="vacancies/c/s/2026-12", version=5))
        session.commit()
    engine.dispose()


async def test_holds_in_flight_share_one_read(tmp_path: Path) -> None:
    fill(tmp_path / "looks.db")
    db = open_database(f"sqlite+aiosqlite:///{tmp_path / 'looks.db'}")
    try:
        looks = FirstLooks(db)
        months = ["2026-12", "2027-01"]
        found = await asyncio.gather(
            *(looks.get(f"a{index}", months) for index in range(HOLDS)),
            looks.get("nobody", ["2026-12"]),
        )
        # Every hold that arrived before the reader ran: one statement.
        assert looks.reads == 1
        assert found[-1] is None
        for index, look in enumerate(found[:-1]):
            assert look is not None
            assert look.row.id == f"a{index}" and look.row.user_id == f"u{index}"
            assert look.row.status == ("draft" if index % 2 else "confirmed")
            assert (look.clinic.timezone, look.service.id) == ("Asia/Tokyo", "s")
            assert look.versions == {"2026-12": 5, "2027-01": 0}
        # Nothing is kept between reads: a change is seen by the next look.
        async with db.write() as session:
            row = await session.get(Appointment, "a1")
            assert row is not None
            row.status = "cancelled"
        again = await looks.get("a1", months)
        assert again is not None and again.row.status == "cancelled"
        # A hold arriving while a read is in flight is answered by the next read.
        first = asyncio.create_task(looks.get("a2", months))
        await asyncio.sleep(0)  # the reader has started its statement
        later = await asyncio.gather(*(looks.get(f"a{i}", months) for i in range(3, 9)))
        assert (await first) is not None and all(look is not None for look in later)
    finally:
        await asyncio.sleep(1.1)  # let the reader give its connection back
        await db.close()
