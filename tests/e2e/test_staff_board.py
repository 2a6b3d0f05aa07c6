"""The staff board in a real browser: the demo staff account signs in, lands on `/staff`
(never in the questionnaire), sees a person's hold and then a new one appear live (announced
politely), with no serious or critical axe-core finding: in Japanese on a phone in Asia/Tokyo,
and in English on a desktop in another zone. Screenshots go to var/e2e-screenshots/."""

import pytest
from playwright.async_api import Browser, ViewportSize, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.support.booking import free_slots, person
from tests.support.browser import signed_in
from tests.support.clients import sign_in
from tests.support.server import ROOT, ServerProcess

STAFF_EMAIL = "staff@demo-clinic.example"
SCREENSHOTS = ROOT / "var" / "e2e-screenshots"
TITLE = {"ja": "予約ボード", "en": "Bookings board"}
TO_BOARD = {"ja": "予約ボードへ", "en": "Go to the bookings board"}
BOARD_LOADING = {"ja": "予約を読み込んでいます…", "en": "Loading the bookings…"}
ON_HOLD = {"ja": "仮押さえ", "en": "On hold"}
NEW_BOOKING = {"ja": "新しい予約：", "en": "New booking: "}

LAYOUTS: list[tuple[str, str, ViewportSize, str]] = [
    ("ja", "Asia/Tokyo", {"width": 390, "height": 844}, "phone"),
    ("en", "America/New_York", {"width": 1366, "height": 900}, "desktop"),
]


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_staff_board(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base = sqlite_server.url
    staff = await sign_in(base, STAFF_EMAIL)

    async with person(base, "cancer") as first, person(base, "cancer") as second:
        slots = await free_slots(first.sock)
        assert slots, slots
        held = await first.hold(slots[0]["start"], slots[0]["counselorIds"][0])
        assert "data" in held, held

        page = await signed_in(browser, base, staff, lang, zone, viewport)
        # A staff member opening the questionnaire is told it is for patients; its link leads
        # to the board.
        await page.goto(base + "/b/clinic")
        await page.get_by_role("link", name=TO_BOARD[lang]).click()
        await expect(page.get_by_role("heading", level=1, name=TITLE[lang])).to_be_visible(
            timeout=15_000
        )
        assert page.url == base + "/staff"
        await expect(page.locator("html")).to_have_attribute("lang", lang)
        await expect(page.get_by_text(BOARD_LOADING[lang], exact=True)).to_have_count(
            0, timeout=15_000
        )
        link = page.locator(f'a[href="/staff/appointments/{first.appointment_id}"]')
        await expect(link.first).to_be_visible()
        await expect(page.locator(".staff-badge", has_text=ON_HOLD[lang]).first).to_be_visible()
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff ({lang}, {name})")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(
            path=str(SCREENSHOTS / f"staff-board-{lang}-{name}.png"), full_page=True
        )

        # Another person holds a time: it appears live, highlighted and announced.
        other = (await free_slots(second.sock))[0]
        held = await second.hold(other["start"], other["counselorIds"][0])
        assert "data" in held, held
        announcer = page.get_by_test_id("board-announcer")
        await expect(announcer).to_contain_text(NEW_BOOKING[lang], timeout=15_000)
        await expect(announcer).to_have_attribute("aria-live", "polite")
        fresh = page.locator(
            f'li[data-new]:has(a[href="/staff/appointments/{second.appointment_id}"])'
        )
        await expect(fresh).to_be_visible()
        await assert_accessible(page, f"/staff with a new booking ({lang}, {name})")
        await page.screenshot(
            path=str(SCREENSHOTS / f"staff-board-{lang}-{name}-new.png"), full_page=True
        )

        # Keyboard: Tab reaches the filters and the bookings' links.
        await page.get_by_label({"ja": "カウンセラー", "en": "Counselor"}[lang], exact=True).focus()
        focused = ""
        for _ in range(10):
            await page.keyboard.press("Tab")
            focused = await page.evaluate(
                "() => document.activeElement?.getAttribute('href') ?? ''"
            )
            if focused.startswith("/staff/appointments/"):
                break
        assert focused.startswith("/staff/appointments/"), focused
        await page.keyboard.press("Enter")
        await expect(page).to_have_url(f"{base}{focused}")
        await expect(page.get_by_role("heading", level=1)).to_be_focused()
        await page.context.close()
