"""The words of the mails as their readers get them (docs/product.md, "Wording and terms"):
US English in the English mails, and Japanese that asks for nothing the reader cannot do."""

import re

import pytest

from realtime.mail.render import Rendered, render

# British spellings with a US one; "cancellation" is US English too.
BRITISH = re.compile(r"\b(cancell(ed|ing)|organis\w*|colour\w*|behaviour\w*|centre\w*)\b", re.I)

CANCELLATION = {
    "when": "2026-12-01 10:00",
    "clinic": "Demo Clinic",
    "service": "Prenatal counseling",
    "reason": "Schedule conflict",
}


def mails(locale: str) -> list[Rendered]:
    """Every mail a person or a counselor reads about a cancellation or a refund."""
    return [
        render("booking_cancelled", locale, refund=None, **CANCELLATION),
        *(
            render("booking_cancelled", locale, refund=refund, **CANCELLATION)
            for refund in (
                {"amount": "¥16,500", "share": 100, "full": True},
                {"amount": "¥8,250", "share": 50, "full": False},
                {"amount": "", "share": 0, "full": False},
            )
        ),
        render("booking_cancelled_by_clinic", locale, refund=True, **CANCELLATION),
        render("payment_refunded_cancelled", locale, appointment_id="a-1", reason="x"),
        *(
            render(
                "counselor_notification",
                locale,
                event="cancelled",
                appointment_id="a-1",
                counselor="Sato",
                join_url="",
                cancelled_by=who,
                **CANCELLATION,
            )
            for who in ("clinic", "person")
        ),
    ]


def test_english_mails_about_a_cancellation_say_canceled() -> None:
    for mail in mails("en"):
        for part in (mail.subject, mail.text, mail.html):
            assert not BRITISH.search(part), part
    subjects = [mail.subject for mail in mails("en")]
    assert subjects[0] == "Your genetic counseling appointment has been canceled"
    assert subjects[-1].startswith("[Booking canceled]")


def test_japanese_mails_say_kyanseru_and_kurinikku_like_the_screens() -> None:
    for mail in mails("ja"):
        for part in (mail.subject, mail.text, mail.html):
            assert "取り消" not in part and "医療機関" not in part, part
            assert "(" not in part and ")" not in part, part  # full-width brackets in Japanese
    assert mails("ja")[0].subject == "【遺伝カウンセリング】ご予約のキャンセルを承りました"


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_the_sign_in_mail_says_how_to_get_a_new_link(locale: str) -> None:
    mail = render("auth_link", locale, link="https://example.test/l?token=t", minutes=10)
    if locale == "ja":
        # The reader asks for a new link; they are not asked to send one.
        assert "リンクをお送りください" not in mail.text
        assert "もう一度メールアドレスを入力し、新しいリンクを受け取ってください。" in mail.text
    else:
        assert "ask for a new one on the sign-in page" in mail.text
