"""Demo data for an empty database (docs/protocol.md, "Demo data").

Scripts and outside tests rely on these ids: clinic `demo-clinic` (Asia/Tokyo), services
`prenatal-b2c` (priced), `prenatal-b2b`, `pgt-post` and `cancer-b2b` (no payment), three
counselors whose weekly hours cover every weekday, and the staff accounts
`staff@demo-clinic.example` (clinic_admin) and `sato@demo-clinic.example` (counselor of
`c-sato`). In development and test only, both are enrolled in the second factor with the
published secret DEMO_TOTP_SECRET; production never gets it (`enrol_demo_staff=False`). In
development only, a week of bookings fills the staff board (`demo_week=True`,
storage/demo_week.py); test databases stay without appointments.
"""

from datetime import date, time, timedelta

from sqlalchemy import text
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.demo_week import load_demo_week
from storage.models import (
    Clinic,
    ClinicService,
    Counselor,
    CounselorException,
    CounselorHours,
    ProviderCode,
    Service,
    StaffMember,
)
from storage.types import utcnow

DEMO_CLINIC_ID = "demo-clinic"
DEMO_STAFF_EMAIL = "staff@demo-clinic.example"
DEMO_COUNSELOR_EMAIL = "sato@demo-clinic.example"
DEMO_COUNSELOR_ID = "c-sato"
# The demo clinic's referring institution and its provider code (docs/protocol.md).
DEMO_PROVIDER_CODE = "DEMO"
DEMO_INSTITUTION = "デモ産婦人科クリニック"
# Printed in the docs and known to everyone: development and test databases only.
DEMO_TOTP_SECRET = "JBSWY3DPEHPK3PXP"
CONSENT_VERSION = "2026-11"
DEMO_LOCK_KEY = 72_417_002

SERVICES = [
    Service(
        id="prenatal-b2c",
        category="prenatal",
        name={"ja": "出生前検査の遺伝カウンセリング", "en": "Prenatal testing counseling"},
        price_amount=16500,
        price_currency="JPY",
        consent_version=CONSENT_VERSION,
        # Refunded in full until 48 hours before; half after that.
        free_cancel_hours=48,
        late_refund_percent=50,
        gestation_min_weeks=10,
        gestation_max_weeks=22,
    ),
    Service(
        id="prenatal-b2b",
        category="prenatal",
        name={
            "ja": "出生前検査の遺伝カウンセリング(医療機関経由)",
            "en": "Prenatal testing counseling (via your provider)",
        },
        consent_version=CONSENT_VERSION,
        gestation_min_weeks=10,
        gestation_max_weeks=22,
    ),
    Service(
        id="pgt-post",
        category="pgt",
        name={"ja": "着床前検査(PGT)結果の遺伝カウンセリング", "en": "PGT results counseling"},
        consent_version=CONSENT_VERSION,
    ),
    Service(
        id="cancer-b2b",
        category="cancer",
        name={"ja": "がんの遺伝学的検査の遺伝カウンセリング", "en": "Hereditary cancer counseling"},
        consent_version=CONSENT_VERSION,
    ),
]

CLINIC = Clinic(
    id=DEMO_CLINIC_ID,
    name={"ja": "デモ遺伝カウンセリングクリニック", "en": "Demo Genetic Counseling Clinic"},
    timezone="Asia/Tokyo",
    contact_email="contact@demo-clinic.example",
    contact_phone="03-0000-0000",
    service_aliases={"prenatal": "prenatal-b2c", "pgt": "pgt-post", "cancer": "cancer-b2b"},
)

# (id, ja name, en name, languages, {weekday: (start hour, end hour)})
COUNSELORS = [
    ("c-sato", "佐藤 花子", "Hanako Sato", ["ja", "en"], {d: (9, 17) for d in range(5)}),
    ("c-tanaka", "田中 美咲", "Misaki Tanaka", ["ja"], {0: (10, 18), 2: (10, 18), 4: (10, 18)}),
    (
        "c-brown",
        "Emily Brown",
        "Emily Brown",
        ["en", "ja"],
        {1: (13, 19), 3: (13, 19), 5: (10, 14)},
    ),
]


def _days_off(today: date) -> list[tuple[str, date]]:
    """A few dated days off so that 'most', not all, weekdays are open for everyone."""
    return [("c-sato", today + timedelta(days=n)) for n in (9, 23, 37)] + [
        ("c-tanaka", today + timedelta(days=n)) for n in (16, 44)
    ]


async def load_demo_data(
    session: AsyncSession,
    *,
    today: date,
    enrol_demo_staff: bool = False,
    demo_week: bool = False,
) -> bool:
    """Fill an empty database; returns False (and does nothing) if a clinic exists.

    `enrol_demo_staff` (development and test only) enrols the demo staff accounts in the
    second factor with DEMO_TOTP_SECRET; otherwise they enrol like any new staff member.
    `demo_week` (development only) adds the week of bookings of storage/demo_week.py.

    Several processes may start at once on one PostgreSQL database: an advisory lock
    makes the check-then-insert atomic there (SQLite writers are serialised already).
    """
    if session.bind is not None and session.bind.dialect.name == "postgresql":
        await session.exec(text("SELECT pg_advisory_xact_lock(:k)").bindparams(k=DEMO_LOCK_KEY))  # type: ignore[call-overload]
    if (await session.exec(select(Clinic.id).limit(1))).first() is not None:
        return False
    session.add(Clinic.model_validate(CLINIC.model_dump()))
    for service in SERVICES:
        session.add(Service.model_validate(service.model_dump()))
    await session.flush()
    for service in SERVICES:
        session.add(ClinicService(clinic_id=DEMO_CLINIC_ID, service_id=service.id))
    for cid, ja, en, languages, _hours in COUNSELORS:
        session.add(
            Counselor(
                id=cid,
                clinic_id=DEMO_CLINIC_ID,
                name={"ja": ja, "en": en},
                email=f"{cid}@demo-clinic.example",
                languages=languages,
            )
        )
    await session.flush()
    for cid, _ja, _en, _languages, hours in COUNSELORS:
        for weekday, (start, end) in hours.items():
            session.add(
                CounselorHours(counselor_id=cid, weekday=weekday, start=time(start), end=time(end))
            )
    for cid, day in _days_off(today):
        session.add(CounselorException(counselor_id=cid, day=day, kind="off"))
    session.add(
        ProviderCode(
            clinic_id=DEMO_CLINIC_ID,
            code=DEMO_PROVIDER_CODE,
            name=DEMO_INSTITUTION,
            updated=utcnow(),
        )
    )
    enrolled = utcnow() if enrol_demo_staff else None
    secret = DEMO_TOTP_SECRET if enrol_demo_staff else None
    for email, role, counselor_id in (
        (DEMO_STAFF_EMAIL, "clinic_admin", None),
        (DEMO_COUNSELOR_EMAIL, "counselor", DEMO_COUNSELOR_ID),
    ):
        session.add(
            StaffMember(
                email=email,
                clinic_id=DEMO_CLINIC_ID,
                role=role,
                counselor_id=counselor_id,
                totp_secret=secret,
                totp_confirmed_at=enrolled,
            )
        )
    if demo_week:
        await session.flush()
        await load_demo_week(
            session,
            clinic_id=DEMO_CLINIC_ID,
            timezone=CLINIC.timezone,
            counselors=[(cid, hours) for cid, _ja, _en, _languages, hours in COUNSELORS],
            days_off=_days_off(today),
            consent_version=CONSENT_VERSION,
            now=utcnow(),
        )
    return True
