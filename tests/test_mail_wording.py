"""The words of the mails as their readers get them (docs/product.md, "Wording and terms"):
US English in the English mails, and Japanese that asks for nothing the reader cannot do."""

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from realtime.booking.mail_facts import booking_facts
from realtime.booking.notify import Booking
from realtime.booking.reminders import lead_of
from realtime.link_tokens import LinkSigner
from realtime.mail.links import MailLinks
from realtime.mail.render import BRAND, TEMPLATES, Rendered, render, subject_prefix
from realtime.mail.signature import signature_of
from realtime.mail.when import format_span, zone_name
from storage.models import Appointment, Clinic, Counselor, Service, SlotClaim

CLIENT_LOCALES = Path(__file__).parents[1] / "client" / "src" / "locales"

# British spellings with a US one; "cancellation" is US English too.
BRITISH = re.compile(r"\b(cancell(ed|ing)|organis\w*|colour\w*|behaviour\w*|centre\w*)\b", re.I)


def mails(locale: str) -> list[Rendered]:
    """Every mail a person or a counselor reads about a booking, a cancellation or a refund."""
    return [
        *person_mails(locale, "America/Los_Angeles").values(),
        *(
            render("booking_cancelled", locale, facts=past_facts(locale), reason="", refund=refund)
            for refund in (
                {"amount": "¥16,500", "share": 100, "full": True},
                {"amount": "¥8,250", "share": 50, "full": False},
                {"amount": "", "share": 0, "full": False},
            )
        ),
        *(
            render(
                "counselor_notification",
                locale,
                event="cancelled",
                appointment_id="a-1",
                when="x",
                when_short="x",
                service="Prenatal counseling",
                counselor="Sato",
                join_url="",
                cancelled_by=who,
                reason="Schedule conflict",
            )
            for who in ("clinic", "person")
        ),
    ]


def test_english_mails_about_a_cancellation_say_canceled() -> None:
    for mail in mails("en"):
        for part in (mail.subject, mail.text, mail.html):
            assert not BRITISH.search(part), part
    subjects = [mail.subject for mail in mails("en")]
    assert subjects[1] == (
        "[Genetic Counseling Booking] Your appointment has been canceled: "
        "Wednesday, December 9, 5:00 PM Pacific Time"
    )
    assert subjects[-1].startswith("[Genetic Counseling Booking] Booking canceled: ")


def test_japanese_mails_say_kyanseru_and_kurinikku_like_the_screens() -> None:
    for mail in mails("ja"):
        for part in (mail.subject, mail.text, mail.html):
            assert "取り消" not in part and "医療機関" not in part, part
            assert "(" not in part and ")" not in part, part  # full-width brackets in Japanese
    assert mails("ja")[1].subject == (
        "【遺伝カウンセリング予約】ご予約のキャンセルを承りました：12月9日（水）17:00（米国太平洋時間）"
    )


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_sign_in_mail_says_how_to_get_a_new_link(locale: str) -> None:
    mail = render(
        "auth_link",
        locale,
        link="https://example.test/l?token=t",
        minutes=10,
        signature=signature_of(CLINIC, locale),
    )
    if locale == "ja":
        # The reader asks for a new link; they are not asked to send one.
        assert "リンクをお送りください" not in mail.text
        assert "もう一度メールアドレスを入力し、新しいリンクを受け取ってください。" in mail.text
    else:
        assert "ask for a new one on the sign-in page" in mail.text


# --- Booking mails (docs/product.md, "Mails"): rendered from model rows, no server needed. ---

START = datetime(2026, 12, 10, 1, 0, tzinfo=UTC)  # Thursday 10:00 in Tokyo
PUBLIC_URL = "https://book.example.test"
LINKS = MailLinks(PUBLIC_URL, LinkSigner("a test secret of the mail links, long enough"))
CLINIC = Clinic(
    id="demo",
    name={"ja": "デモ遺伝カウンセリング外来", "en": "Demo Genetic Counseling Clinic"},
    timezone="Asia/Tokyo",
    contact_email="clinic@example.test",
    contact_phone="03-1234-5678",
    service_aliases={},
)
COUNSELOR = Counselor(
    id="c1", clinic_id="demo", name={"ja": "佐藤", "en": "Sato"}, email="c@x.test", languages=[]
)
SECRET = "体調不良のため"  # a reason the person wrote: mails to them may echo it, logs never


def booking(status: str, person_zone: str | None, *, price: int | None = 16500) -> Booking:
    service = Service(
        id="prenatal-b2c",
        category="prenatal",
        name={"ja": "出生前カウンセリング", "en": "Prenatal counseling"},
        price_amount=price,
        price_currency="JPY" if price else None,
        consent_version="1",
        free_cancel_hours=48,
        late_refund_percent=50,
        min_notice_hours=24,
    )
    appointment = Appointment(
        id="a-1",
        user_id="u-1",
        date="2026-12-10",
        time="10:00",
        clinic_id="demo",
        service_id=service.id,
        status=status,
        person_timezone=person_zone,
        payment={"status": "paid", "amount": 16500, "currency": "JPY"} if price else None,
        join_url="https://meet.example.test/j",
        intake={},
    )
    claim = SlotClaim(
        appointment_id="a-1",
        counselor_id="c1",
        clinic_id="demo",
        service_id=service.id,
        start=START,
        end=START + timedelta(hours=1),
        blocked_until=START,
        kind="booking",
        created=START,
    )
    return Booking(appointment, CLINIC, service, claim)


def past_facts(locale: str) -> dict[str, object]:
    """The facts of a cancelled booking, as its mails show them."""
    return booking_facts(booking("cancelled", None), locale, LINKS, COUNSELOR)


def person_mails(locale: str, zone: str | None) -> dict[str, Rendered]:
    """Every mail to the person about a booked time, as notify.py and payments render them."""
    open_facts = booking_facts(booking("confirmed", zone), locale, LINKS, COUNSELOR)
    past = booking("cancelled", zone)
    facts = booking_facts(past, locale, LINKS, COUNSELOR)
    signature = facts["signature"]
    return {
        "booking_confirmed": render(
            "booking_confirmed", locale, facts=open_facts, join_url="https://meet.example.test/j"
        ),
        "booking_cancelled": render(
            "booking_cancelled", locale, facts=facts, reason=SECRET, refund=None
        ),
        "reservation_cancelled": render("reservation_cancelled", locale, facts=facts),
        "booking_cancelled_by_clinic": render(
            "booking_cancelled_by_clinic",
            locale,
            facts=facts,
            signature=signature,
            service="",
            reason="",
            refund=True,
        ),
        "payment_refunded_cancelled": render(
            "payment_refunded_cancelled", locale, facts=facts, refunded="", signature=signature
        ),
        "booking_rescheduled": render(
            "booking_rescheduled",
            locale,
            facts=open_facts,
            old_when="x",
            when="y",
            join_url="https://meet.example.test/j",
        ),
        "booking_expired": render(
            "booking_expired", locale, facts=facts, booking_url=f"{PUBLIC_URL}/b/booking?id=a-1"
        ),
        "waitlist_offer": render(
            "waitlist_offer", locale, facts=open_facts, until="x", link=f"{PUBLIC_URL}/b/review"
        ),
        "booking_reminder": render(
            "booking_reminder",
            locale,
            facts=open_facts,
            lead=lead_of(24 * 60),
            join_url="https://meet.example.test/j",
        ),
    }


def test_every_subject_has_the_brand_prefix_once() -> None:
    contexts: dict[str, Mapping[str, object]] = {
        "admin_report": {
            key: "x"
            for key in ("route", "report_locale", "user_agent", "code", "message", "details")
        }
        | {"context": "x", "stack": ""},
        "auth_link": {"link": "https://l", "minutes": 10, "signature": signature_of(CLINIC, "ja")},
        "contact_message": {
            "name": "A",
            "email": "a@x.test",
            "appointment_id": "-",
            "message": "m",
        },
        "contact_received": {"reply_days": 2, "signature": signature_of(CLINIC, "ja")},
        "account_erased": {"cancelled": True, "refunding": True},
        "counselor_notification": {
            "event": "confirmed",
            "appointment_id": "a-1",
            "when": "x",
            "when_short": "x",
            "counselor": "Sato",
            "service": "s",
            "join_url": "https://j",
            "cancelled_by": "",
            "reason": "",
        },
        "payment_refunded": {"signature": signature_of(CLINIC, "ja")},
        "payment_refunded_clinic": {"appointment_id": "a-1", "reason": "x", "amount": ""},
        "staff_invitation": {
            "clinic": "c",
            "inviter": "a@x.test",
            "admin": False,
            "counselor": "Sato",
            "email": "b@x.test",
            "link": "https://l",
            "signature": signature_of(CLINIC, "ja"),
        },
    }
    names = {p.name.split(".")[0] for p in TEMPLATES.glob("*/*.subject.txt")}
    assert names == set(contexts) | set(person_mails("ja", None)), names
    for locale in ("ja", "en"):
        prefix = subject_prefix(locale)
        subjects = [m.subject for m in person_mails(locale, "America/Los_Angeles").values()]
        subjects += [render(name, locale, **ctx).subject for name, ctx in contexts.items()]
        for subject in subjects:
            assert subject.startswith(prefix) and subject.count(BRAND[locale]) == 1, subject
            assert "【" not in subject[len(prefix) :] and "[" not in subject[len(prefix) :]
        # No template carries the prefix (or the old hand-written one) itself.
        for path in TEMPLATES.glob(f"{locale}/*.subject.txt"):
            assert BRAND[locale] not in path.read_text() and "【" not in path.read_text(), path


def test_the_brand_is_the_name_people_saw_while_booking() -> None:
    for locale in ("ja", "en"):
        common = json.loads((CLIENT_LOCALES / locale / "common.json").read_text())
        assert common["appName"] == BRAND[locale]


@pytest.mark.parametrize("locale", ["ja", "en"])
@pytest.mark.parametrize("zone", [None, "Asia/Tokyo", "America/Los_Angeles"])
def test_every_booking_mail_to_the_person_has_the_facts(locale: str, zone: str | None) -> None:
    abroad = zone == "America/Los_Angeles"
    for name, mail in person_mails(locale, zone).items():
        for part in (mail.subject, mail.text, mail.html):
            assert "Asia/Tokyo" not in part and "America/Los_Angeles" not in part, (name, part)
        text = mail.text
        if locale == "ja":
            assert "サービス：出生前カウンセリング" in text, name
            assert "日時：2026年12月10日（木）10:00～11:00（日本標準時）" in text, name
            assert (
                "／現地時間：2026年12月9日（水）17:00～18:00（米国太平洋時間）" in text
            ) == abroad
            assert "担当カウンセラー：佐藤" in text and "お支払い額：￥16,500" in text, name
        else:
            assert "Service: Prenatal counseling" in text, name
            when = "When: Thursday, December 10, 2026, 10:00–11:00 Japan Standard Time"
            assert when in text, name
            own = " / your time: Wednesday, December 9, 2026, 5:00–6:00 PM Pacific Time"
            assert (own in text) == abroad, name
            assert "Counselor: Sato" in text and "Amount paid: ¥16,500" in text, name
        # The signature: the clinic's name, e-mail and phone, in text and HTML.
        for part in (text, mail.html):
            assert CLINIC.name[locale] in part and "clinic@example.test" in part, name
            assert "03-1234-5678" in part, name
    # Only a booking that can still change links to its actions and states the policy.
    confirmed = person_mails(locale, zone)["booking_confirmed"]
    for link in ("/b/booking?id=a-1", "/b/reschedule?id=a-1", "/b/booking?id=a-1&action=cancel"):
        assert PUBLIC_URL + link in confirmed.text
        assert PUBLIC_URL + link.replace("&", "&amp;") in confirmed.html
    if locale == "ja":
        deadline = (
            "12月7日（月）17:00（米国太平洋時間）" if abroad else "12月8日（火）10:00（日本標準時）"
        )
        assert (
            f"開始48時間前の{deadline}までのキャンセルは、全額を返金いたします。" in confirmed.text
        )
        assert "お支払い額の50%を返金いたします" in confirmed.text
    else:
        deadline = (
            "Monday, December 7, 5:00 PM Pacific Time"
            if abroad
            else "Tuesday, December 8, 10:00 Japan Standard Time"
        )
        assert f"free until 48 hours before the start ({deadline})" in confirmed.text
        assert "50% of the amount paid is refunded" in confirmed.text
    cancelled = person_mails(locale, zone)["booking_cancelled"]
    assert "/b/reschedule" not in cancelled.text and "48" not in cancelled.text


def test_a_free_session_says_canceling_costs_nothing() -> None:
    for locale, words in (("ja", "キャンセル料はかかりません"), ("en", "canceling costs nothing")):
        facts = booking_facts(booking("confirmed", None, price=None), locale, LINKS, None)
        mail = render("booking_confirmed", locale, facts=facts, join_url="https://j")
        assert words in mail.text and "返金" not in mail.text and "refund" not in mail.text
        assert "お支払い額" not in mail.text and "Amount paid" not in mail.text


def test_the_counselor_reads_the_span_in_the_clinics_zone_alone() -> None:
    for locale, span in (
        ("ja", "日時：2026年12月10日（木）10:00～11:00（日本標準時）\n"),
        ("en", "When: Thursday, December 10, 2026, 10:00–11:00 Japan Standard Time\n"),
    ):
        seen = booking("confirmed", "America/Los_Angeles")
        mail = render(
            "counselor_notification",
            locale,
            event="confirmed",
            appointment_id="a-1",
            when=seen.when(locale),
            when_short=seen.when_short(locale, for_person=False),
            counselor="Sato",
            service="s",
            join_url="https://j",
            cancelled_by="",
            reason="",
        )
        assert span in mail.text and "米国太平洋" not in mail.text + mail.subject
        assert "Pacific" not in mail.text + mail.subject


@pytest.mark.parametrize(
    ("zone", "locale", "name"),
    [
        # No summer time: the standard name, as the client's Intl (ICU) gives it.
        ("Asia/Tokyo", "ja", "日本標準時"),
        ("Asia/Tokyo", "en", "Japan Standard Time"),
        ("America/Los_Angeles", "ja", "米国太平洋時間"),
        ("America/Los_Angeles", "en", "Pacific Time"),
        ("Europe/London", "en", "British Time"),
        # No generic name in CLDR: the specific one, never "Unknown Region (UTC) Time".
        ("UTC", "en", "Coordinated Universal Time"),
        ("UTC", "ja", "協定世界時"),
        ("Pacific/Honolulu", "en", "Hawaii Time"),
    ],
)
def test_zones_are_named_as_people_say_them(zone: str, locale: str, name: str) -> None:
    assert zone_name(zone, locale, START) == name


def test_a_span_across_midnight_names_both_days() -> None:
    late = datetime(2026, 12, 10, 14, 30, tzinfo=UTC)  # 23:30 in Tokyo
    end = late + timedelta(hours=1)
    assert (
        format_span(late, end, "Asia/Tokyo", "ja")
        == "2026年12月10日（木）23:30～12月11日（金）00:30（日本標準時）"
    )
    assert (
        format_span(late, end, "Asia/Tokyo", "en")
        == "Thursday, December 10, 2026, 23:30 – Friday, December 11, 00:30 Japan Standard Time"
    )
    # 11:30 AM-12:30 PM in Los Angeles... both halves of the day keep their AM/PM.
    noon = datetime(2026, 12, 10, 19, 30, tzinfo=UTC)
    assert format_span(
        noon, noon + timedelta(hours=1), "America/Los_Angeles", "en", "Asia/Tokyo"
    ).endswith("your time: Friday, December 11, 2026, 4:30–5:30 AM Japan Standard Time")
    assert format_span(
        noon, noon + timedelta(hours=1), "Asia/Tokyo", "en", "America/Los_Angeles"
    ).endswith("your time: Thursday, December 10, 2026, 11:30 AM–12:30 PM Pacific Time")


def test_every_mail_exists_in_both_languages() -> None:
    for lang, other in (("ja", "en"), ("en", "ja")):
        mine = {p.name for p in (TEMPLATES / lang).iterdir()}
        theirs = {p.name for p in (TEMPLATES / other).iterdir()}
        assert mine <= theirs, mine - theirs


def test_japanese_mails_use_full_width_punctuation_in_labels() -> None:
    for mail in person_mails("ja", "America/Los_Angeles").values():
        assert not re.search(r"[ぁ-んァ-ヶ一-龠]: ", mail.text), mail.text
        assert "(" not in mail.text and ")" not in mail.text, mail.text


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_a_clinic_cancel_before_a_time_was_chosen_still_signs(locale: str) -> None:
    mail = render(
        "booking_cancelled_by_clinic",
        locale,
        facts=None,
        signature=signature_of(CLINIC, locale),
        service="Prenatal counseling",
        reason="",
        refund=False,
    )
    assert "Prenatal counseling" in mail.text and "03-1234-5678" in mail.text
    assert CLINIC.name[locale] in mail.html and mail.subject.startswith(subject_prefix(locale))
