"""A realistic week of bookings for the staff board (development only; docs/protocol.md,
"Demo data"): today and the next six days in the clinic's zone, across the demo counselors
and services, with completed, no-show, confirmed and cancelled appointments, one hold in
progress and one payment in flight, each with plausible intake answers and a family history.

Loaded with the demo data into an empty database when APP_ENV is `development` (never in
`test`, whose suites count appointments, nor in `production`). Every row is made here as the
booking calls would leave it: a person (user record), the appointment, and its slot claim
(active for holds and bookings, released for cancellations), so that the board, the month
documents and the appointment screen read them like any other.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from itertools import cycle
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, SlotClaim, User
from storage.types import iso

DAYS = 7
HOLD_MINUTES = 10  # a hold placed a moment ago
PAYMENT_MINUTES = 40  # a checkout session's hold: its 30 minutes and a grace
SERVICE_CYCLE = ("cancer-b2b", "prenatal-b2c", "pgt-post", "prenatal-b2b")
PRICED_SERVICE = "prenatal-b2c"
PRICE = {"amount": 16500, "currency": "JPY"}
# The first two times of the week ended already; then this cycle, then confirmed ones.
FIRST_STATUSES = ("completed", "no_show")
STATUS_CYCLE = (
    "confirmed",
    "hold",
    "confirmed",
    "cancelled",
    "pending_payment",
    "confirmed",
    "confirmed",
    "cancelled",
)
SESSION_MINUTES = 60
BUFFER_MINUTES = 15
HOURS_APART = 2  # times of one counselor's day, far enough apart for session and buffer


@dataclass(frozen=True)
class Person:
    last: str
    first: str
    phone: str
    prefecture: str  # ISO 3166-2:JP code (realtime/intake/definition.json "prefecture")
    born: date
    locale: str
    family: list[dict[str, Any]]
    topics: str


# Names in katakana as the questionnaire asks; addresses on the reserved .example domain.
PEOPLE = (
    Person(
        "ヤマダ",
        "ハナコ",
        "03-1234-5678",
        "JP-13",  # 東京都
        date(1990, 4, 1),
        "ja",
        [
            {"side": 0, "relationship": 4, "disorders": ["Q21.0"]},
            {"side": 1, "relationship": 13, "disorders": ["Q90"]},
        ],
        "母が心室中隔欠損症でした。子どもへの影響を知りたいです。",
    ),
    Person(
        "スズキ",
        "ミサキ",
        "06-2345-6789",
        "JP-27",  # 大阪府
        date(1987, 9, 12),
        "ja",
        [
            {"side": 0, "relationship": 7, "disorders": ["F84.0"]},
        ],
        "姉の子どもが自閉スペクトラム症と診断されています。",
    ),
    Person(
        "タカハシ",
        "ユイ",
        "052-345-6789",
        "JP-23",  # 愛知県
        date(1993, 1, 23),
        "en",
        [
            {"side": 1, "relationship": 9, "disorders": ["Q36", "Q35"]},
            {"side": 1, "relationship": 3, "disorders": ["Q36"]},
        ],
        "My partner's father and grandfather had a cleft lip.",
    ),
    Person(
        "イトウ",
        "サクラ",
        "011-456-7890",
        "JP-01",  # 北海道
        date(1985, 6, 30),
        "ja",
        [
            {"side": 0, "relationship": 11, "disorders": ["Q21.1"]},
            {"side": 0, "relationship": 15, "disorders": ["F89"]},
            {"side": 1, "relationship": 6, "disorders": ["Q25.0"]},
        ],
        "家族に心臓の病気が多く、検査を受けるか迷っています。",
    ),
    Person(
        "ワタナベ",
        "アオイ",
        "092-567-8901",
        "JP-40",  # 福岡県
        date(1991, 11, 5),
        "en",
        [
            {"side": 0, "relationship": 16, "disorders": ["Q91.3"]},
        ],
        "An aunt had a baby with trisomy 18. We would like to understand the risk.",
    ),
    Person(
        "ナカムラ",
        "メイ",
        "022-678-9012",
        "JP-04",  # 宮城県
        date(1989, 3, 18),
        "ja",
        [
            {"side": 1, "relationship": 5, "disorders": ["F84.0", "F89"]},
        ],
        "夫の兄に発達障害があります。",
    ),
)

CANCEL_REASONS = (
    {"reason": "都合が悪くなったため", "by": "person"},
    {"reason": "Counselor unavailable: moved by the clinic", "by": "clinic"},
)


def _intake(person: Person, index: int, service_id: str, today: date) -> dict[str, Any]:
    intake: dict[str, Any] = {
        "contactInfo": {
            "lastName": person.last,
            "firstName": person.first,
            "email": f"person{index + 1}@demo-patient.example",
            "phone": person.phone,
            "country": "JP",
            "subdivision": person.prefecture,
            "registrant": 1,
            "hasPrenatalServiceHistory": 0,
        },
        "profile": {"femaleDob": person.born.isoformat(), "partnerDob": "1988-08-08"},
        "familyMembers": person.family,
        "requests": {
            "topics": person.topics,
            "expectations": [1, 2] if index % 2 == 0 else [3, 5],
            "isDepressed": 0,
            "isDispleasured": 0,
            "referralSource": 3 if index % 3 == 0 else 1,
            **({"referralHospitalName": "デモ産婦人科クリニック"} if index % 3 == 0 else {}),
        },
    }
    if service_id.startswith("prenatal"):
        intake["contactInfo"]["pregnantWomanAttendance"] = 1
        intake["currentPregnancy"] = {
            "isPregnant": 1,
            # About 12 weeks pregnant this week: inside the services' 10-22 week window.
            "edd": (today + timedelta(days=196)).isoformat(),
            "fetusType": 1,
            "conceptionMethod": 1,
            "hasFetusDisorder": 0,
            "hasPgt": 0,
        }
        intake["pregnancyHistory"] = {"wasPregnant": 0}
        intake["prenatalTesting"] = {
            "hadPastTests": 0,
            "hasPresentTests": 0,
            "futurePlan": 3,
            "prenatalDiscussion": 1,
            "prenatalTestAgreement": 1,
            "disorderDecision": 6,
        }
    return intake


def _times(
    counselors: list[tuple[str, dict[int, tuple[int, int]]]],
    days_off: set[tuple[str, date]],
    today: date,
    zone: ZoneInfo,
) -> list[tuple[datetime, str]]:
    """Each working counselor's times of the week (every HOURS_APART hours of their hours,
    leaving the last hour free), in order."""
    found: list[tuple[datetime, str]] = []
    for offset in range(DAYS):
        day = today + timedelta(days=offset)
        for counselor_id, hours in counselors:
            if day.weekday() not in hours or (counselor_id, day) in days_off:
                continue
            start, end = hours[day.weekday()]
            for hour in range(start, end - 1, HOURS_APART):
                found.append((datetime.combine(day, time(hour), tzinfo=zone), counselor_id))
    return sorted(found)


def _statuses() -> Iterator[str]:
    yield from FIRST_STATUSES
    yield from STATUS_CYCLE
    while True:
        yield "confirmed"


async def load_demo_week(
    session: AsyncSession,
    *,
    clinic_id: str,
    timezone: str,
    counselors: list[tuple[str, dict[int, tuple[int, int]]]],
    days_off: list[tuple[str, date]],
    consent_version: str,
    now: datetime,
) -> int:
    """Insert the week's people, appointments and claims in the caller's transaction; the
    number of appointments made."""
    zone = ZoneInfo(timezone)
    today = now.astimezone(zone).date()
    # Every third time stays free: the week is busy, and the calendar still offers times.
    times = [t for n, t in enumerate(_times(counselors, set(days_off), today, zone)) if n % 3 != 2]
    statuses, services = _statuses(), cycle(SERVICE_CYCLE)
    cancellations = cycle(CANCEL_REASONS)
    made = 0
    for index, (start, counselor_id) in enumerate(times):
        status = next(statuses)
        service_id = PRICED_SERVICE if status == "pending_payment" else next(services)
        person = PEOPLE[index % len(PEOPLE)]
        appointment_id, uid = f"demo-week-{index + 1:02d}", f"demo-person-{index + 1:02d}"
        created = now - timedelta(days=3, hours=index)
        session.add(
            User(
                id=uid,
                email=f"person{index + 1}@demo-patient.example",
                appointment_id=appointment_id,
                locale=person.locale,
                entry_clinic_id=clinic_id,
                entry_service_id=service_id,
                created=created,
                updated=created,
            )
        )
        await session.flush()
        held_until = now + timedelta(
            minutes=PAYMENT_MINUTES if status == "pending_payment" else HOLD_MINUTES
        )
        payment: dict[str, Any] | None = None
        if service_id == PRICED_SERVICE and status != "hold":
            paid = {"pending_payment": "open", "cancelled": "refunded"}.get(status, "paid")
            payment = {"status": paid, **PRICE}
        session.add(
            Appointment(
                id=appointment_id,
                user_id=uid,
                clinic_id=clinic_id,
                service_id=service_id,
                status="draft" if status == "hold" else status,
                patient_role=1,
                date=start.date().isoformat(),
                time=start.strftime("%H:%M"),
                timezone=timezone,
                counselor_id=counselor_id,
                locale=person.locale,
                hold_expires_at=held_until if status in ("hold", "pending_payment") else None,
                join_url=None
                if status in ("hold", "pending_payment")
                else (f"https://meet.example/gc-demo-week-{index + 1:02d}"),
                agreed_to_terms=status != "hold",
                consent={"version": consent_version, "givenAt": iso(created)},
                payment=payment,
                cancellation=(
                    {**next(cancellations), "at": iso(now - timedelta(hours=5))}
                    if status == "cancelled"
                    else None
                ),
                intake=_intake(person, index, service_id, today),
                created=created,
                updated=now - timedelta(minutes=index),
            )
        )
        await session.flush()
        end = start + timedelta(minutes=SESSION_MINUTES)
        session.add(
            SlotClaim(
                appointment_id=appointment_id,
                counselor_id=counselor_id,
                clinic_id=clinic_id,
                service_id=service_id,
                start=start,
                end=end,
                blocked_until=end + timedelta(minutes=BUFFER_MINUTES),
                kind="hold" if status in ("hold", "pending_payment") else "booking",
                active=status != "cancelled",
                expires_at=held_until if status in ("hold", "pending_payment") else None,
                created=created,
            )
        )
        made += 1
    await session.flush()
    return made
