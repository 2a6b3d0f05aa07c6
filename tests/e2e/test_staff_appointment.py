"""The staff's appointment page in a real browser: a person's intake with a known family,
answered through the server's own calls, opened by the demo clinic_admin, shows the booking,
the answers in words and the expected pedigree (squares, circles, a diamond for the pregnancy,
the affected shaded, one arrow), has no serious or critical axe-core finding, and its actions
work from the keyboard (cancelling for the clinic with a reason): in Japanese on a phone in
Asia/Tokyo, and in English on a desktop in another zone. Screenshots go to
var/e2e-screenshots/."""

import json
from typing import Any

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.support.booking import person
from tests.support.browser import signed_in
from tests.support.clients import sign_in
from tests.support.server import ROOT, ServerProcess
from tests.test_staff_audit import book

STAFF_EMAIL = "staff@demo-clinic.example"
SCREENSHOTS = ROOT / "var" / "e2e-screenshots"

# The woman's mother (Down syndrome), her older brother (autism) and her maternal grandfather
# (developmental disorder); the partner's father (cleft lip); the couple's daughter (VSD);
# pregnant now.
FAMILY: list[dict[str, Any]] = [
    {"side": 0, "relationship": 4, "disorders": ["Q90"]},
    {"side": 0, "relationship": 5, "disorders": ["F84.0"]},
    {"side": 0, "relationship": 11, "disorders": ["F89"]},
    {"side": 1, "relationship": 3, "disorders": ["Q36"]},
    {"side": 0, "relationship": 2, "disorders": ["Q21.0"]},
]
# Squares: partner, both fathers, the grandfather, the brother. Circles: the woman, both
# mothers, the grandmother, the daughter. One diamond: the pregnancy.
SYMBOLS = {"square": 5, "circle": 5, "diamond": 1}
AFFECTED = 5

WORDS = {
    "ja": {
        "family": "家族歴（家系図）",
        "mother": "母（女性側）、罹患：ダウン症候群",
        "country": "日本",
        "notAnswered": "未回答",
        "cancel": "クリニックとしてキャンセルする",
        "reason": "理由（ご本人に送られます）",
        "confirm": "予約をキャンセルする",
        "cancelled": "予約をキャンセルしました。",
        "status": "キャンセル",
        "exportAnswers": "回答をダウンロード（FHIR QuestionnaireResponse）",
        "exportForm": "問診票をダウンロード（FHIR Questionnaire）",
    },
    "en": {
        "family": "Family history (pedigree)",
        "mother": "Mother (Woman's side), affected: Down syndrome",
        "country": "Japan",
        "notAnswered": "Not answered",
        "cancel": "Cancel for the clinic",
        "reason": "Reason (sent to the person)",
        "confirm": "Cancel the appointment",
        "cancelled": "The appointment is canceled.",
        "status": "Canceled",
        "exportAnswers": "Download the answers (FHIR QuestionnaireResponse)",
        "exportForm": "Download the questionnaire (FHIR Questionnaire)",
    },
}

LAYOUTS: list[tuple[str, str, ViewportSize, str]] = [
    ("ja", "Asia/Tokyo", {"width": 390, "height": 844}, "phone"),
    ("en", "America/New_York", {"width": 1366, "height": 900}, "desktop"),
]


async def tab_to(page: Page, name: str, limit: int = 40) -> None:
    """Tab (from where focus is) until the focused element's text is `name`."""
    for _ in range(limit):
        await page.keyboard.press("Tab")
        text = await page.evaluate("() => document.activeElement?.textContent?.trim() ?? ''")
        if text == name:
            return
    raise AssertionError(f"Tab never reached {name!r}")


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_staff_appointment_page(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base = sqlite_server.url
    words = WORDS[lang]
    staff = await sign_in(base, STAFF_EMAIL)

    async with person(base, "prenatal", complete=True) as someone:
        answers = {"intake.familyMembers": FAMILY, "intake.currentPregnancy.isPregnant": 1}
        saved = await someone.sock.update(someone.path, answers)
        assert "version" in saved, saved

        page = await signed_in(browser, base, staff, lang, zone, viewport)
        await page.goto(f"{base}/staff/appointments/{someone.appointment_id}")
        family = page.get_by_role("region", name=words["family"])
        await expect(family).to_be_visible(timeout=15_000)
        await expect(page.locator("html")).to_have_attribute("lang", lang)

        # The pedigree: the expected symbols, shading and arrow, each person in words.
        chart = page.locator(".pedigree-svg")
        for symbol, count in SYMBOLS.items():
            await expect(chart.locator(f'[data-symbol="{symbol}"]')).to_have_count(count)
        await expect(chart.locator("[data-affected]")).to_have_count(AFFECTED)
        await expect(chart.locator("[data-proband-arrow]")).to_have_count(1)
        await expect(family.get_by_role("img", name=words["mother"])).to_have_count(1)
        # The answers in words: the country's name, and what was left empty said so.
        await expect(page.get_by_text(words["country"], exact=True).first).to_be_visible()
        await expect(page.get_by_text(words["notAnswered"]).first).to_be_visible()

        await page.wait_for_timeout(350)
        # Nothing wider than the screen (the drawing scrolls inside its own frame).
        wide = await page.evaluate(
            """() => [...document.querySelectorAll('body *')]
              .filter((e) => !e.closest('.pedigree-scroll'))
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
              .map((e) => `${e.tagName}.${e.className}`)"""
        )
        assert wide == [], wide
        await assert_accessible(page, f"/staff/appointments ({lang}, {name})")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(
            path=str(SCREENSHOTS / f"staff-appointment-{lang}-{name}.png"), full_page=True
        )
        await page.screenshot(path=str(SCREENSHOTS / f"staff-appointment-{lang}-{name}-top.png"))
        await family.screenshot(path=str(SCREENSHOTS / f"staff-pedigree-{lang}-{name}.png"))

        # Downloads: the answers and the service's questionnaire as FHIR files.
        for button, kind in (
            (words["exportAnswers"], "QuestionnaireResponse"),
            (words["exportForm"], "Questionnaire"),
        ):
            async with page.expect_download() as waiting:
                await page.get_by_role("button", name=button).click()
            download = await waiting.value
            saved_path = await download.path()
            resource = json.loads(saved_path.read_text(encoding="utf-8"))
            assert resource["resourceType"] == kind, resource
            assert download.suggested_filename.endswith(".fhir.json")

        # Printed: the answers and the drawing, without navigation nor actions.
        await page.emulate_media(media="print")
        await expect(page.locator(".staff-actions")).to_be_hidden()
        await expect(page.locator(".site-header")).to_be_hidden()
        await expect(chart).to_be_visible()
        await expect(page.locator(".staff-intake")).to_be_visible()
        await page.emulate_media(media="screen")

        # Keyboard only: cancel for the clinic with a reason.
        await page.get_by_role("heading", level=1).focus()
        await tab_to(page, words["cancel"])
        await page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_be_visible()
        await expect(dialog.get_by_label(words["reason"])).to_be_focused()
        await page.wait_for_timeout(400)  # its fade-in done: axe reads colours as drawn
        await assert_accessible(page, f"/staff/appointments cancel dialog ({lang}, {name})")
        await page.keyboard.type("Counselor unavailable")
        await tab_to(page, words["confirm"], limit=5)
        await page.keyboard.press("Enter")
        await expect(page.get_by_role("status").filter(has_text=words["cancelled"])).to_be_visible(
            timeout=15_000
        )
        details = page.locator('[data-row="status"]')
        await expect(details).to_contain_text(words["status"])
        await expect(page.locator('[data-row="cancellation"]')).to_contain_text(
            "Counselor unavailable"
        )
        assert (await someone.document())["status"] == "cancelled"
        await page.context.close()


async def test_staff_mark_a_confirmed_appointment_completed_by_keyboard(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    staff = await sign_in(base, STAFF_EMAIL)
    async with person(base, "cancer", complete=True) as someone:
        await book(someone, 2)
        page = await signed_in(browser, base, staff, "en", "Europe/London")
        await page.goto(f"{base}/staff/appointments/{someone.appointment_id}")
        await expect(page.locator('[data-row="status"]')).to_contain_text(
            "Confirmed", timeout=15_000
        )
        # The clinic's time, and the viewer's in London.
        await expect(page.locator('[data-row="when"]')).to_contain_text("Japan Standard Time")
        await expect(page.locator('[data-row="when"]')).to_contain_text("Your time:")
        await page.get_by_role("heading", level=1).focus()
        await tab_to(page, "Mark as completed")
        await page.keyboard.press("Enter")
        await expect(
            page.get_by_role("status").filter(has_text="The appointment is marked as completed.")
        ).to_be_visible(timeout=15_000)
        await expect(page.locator('[data-row="status"]')).to_contain_text("Completed")
        await expect(
            page.get_by_text("No action is possible for an appointment with this status.")
        ).to_be_visible()
        await assert_accessible(page, "/staff/appointments after an action (en)")
        assert (await someone.document())["status"] == "completed"
        await page.context.close()
