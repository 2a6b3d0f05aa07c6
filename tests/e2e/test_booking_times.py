"""Times for people abroad, in a real browser (docs/product.md, "Times"): an English desktop in
Los Angeles reads its own time beside the clinic's on the calendar, the review and the
confirmation, and its mail does too; a Japanese phone in Tokyo reads one time only. Both
screens pass axe-core; screenshots go to test-results/booking-times/ for a look."""

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, Page, expect

from realtime.auth import SESSION_COOKIE
from tests.e2e.test_accessibility import assert_accessible
from tests.support.booking import Person, free_slots, person
from tests.support.browser import browser_locale
from tests.support.clients import outbox
from tests.support.server import ROOT, ServerProcess

TOKYO = ZoneInfo("Asia/Tokyo")
LOS_ANGELES = ZoneInfo("America/Los_Angeles")
SHOTS = ROOT / "test-results" / "booking-times"


async def page_of(
    browser: Browser,
    server: ServerProcess,
    someone: Person,
    lang: str,
    zone: str,
    size: tuple[int, int],
) -> Page:
    await someone.sock.update(f"users/{someone.uid}", {"locale": lang})
    context = await browser.new_context(
        locale=browser_locale(lang),
        timezone_id=zone,
        viewport={"width": size[0], "height": size[1]},
    )
    await context.add_cookies([{"name": SESSION_COOKIE, "value": someone.token, "url": server.url}])
    return await context.new_page()


async def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


def text_of(raw: str | None) -> str:
    """Text as read: the narrow no-break space some ICU versions put before AM/PM is a space."""
    return (raw or "").replace("\u202f", " ").replace("\xa0", " ")


async def test_en_desktop_in_los_angeles_sees_its_own_time_beside_the_clinics(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, complete=True) as someone:
        slot = (await free_slots(someone.sock))[0]
        start = datetime.fromisoformat(slot["start"])
        tokyo, la = start.astimezone(TOKYO), start.astimezone(LOS_ANGELES)
        own_short = f"{la:%a}, {la:%b} {la.day}, {(la.hour % 12) or 12}:{la:%M} {la:%p}"
        page = await page_of(
            browser, sqlite_server, someone, "en", "America/Los_Angeles", (1366, 900)
        )
        await page.goto(sqlite_server.url + "/b/appointment")
        await expect(page.get_by_text(re.compile(r"^Session: \d+ minutes\."))).to_be_visible()
        await expect(
            page.get_by_text("Under each time you also see your own time (Pacific Time).")
        ).to_be_visible()
        day = f"{tokyo:%A}, {tokyo:%B} {tokyo.day}, {tokyo.year}"
        await page.get_by_role("button", name=day, exact=True).click()
        times = page.get_by_role("group", name=f"Times on {day} (Japan Standard Time)")
        radio = times.get_by_role("radio", name=f"{tokyo:%H:%M}", exact=True)
        await expect(radio).to_be_visible()
        description = await page.locator(
            f"#{await radio.get_attribute('aria-describedby')}"
        ).text_content()
        assert text_of(description) == f"Your time: {own_short}"
        # Wide screen: the day's times sit beside the calendar, not under it.
        calendar_box = await page.locator(".booking-calendar").bounding_box()
        times_box = await times.bounding_box()
        assert calendar_box is not None and times_box is not None
        assert times_box["x"] > calendar_box["x"] + calendar_box["width"]
        await radio.check()
        await assert_accessible(page, "en /b/appointment, Los Angeles")
        await shot(page, "calendar-en-desktop-los-angeles")

        await page.get_by_role("button", name="Hold this time").click()
        await expect(page).to_have_url(re.compile(r"/b/review$"))
        own_row = page.locator(".booking-summary div").filter(has_text="Your local time")
        await expect(own_row).to_contain_text("Pacific Time")
        assert own_short in text_of(await own_row.text_content())
        await page.get_by_role("button", name="Confirm booking").click()
        await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=20_000)
        summary = page.locator(".booking-summary")
        await expect(summary).to_contain_text(
            f"{tokyo:%a}, {tokyo:%b} {tokyo.day}, {tokyo:%H:%M} Japan Standard Time"
        )
        assert f"{own_short} Pacific Time" in text_of(await summary.text_content())
        await assert_accessible(page, "en /b/confirmed, Los Angeles")
        await shot(page, "confirmed-en-desktop-los-angeles")
        assert (await someone.document())["personTimezone"] == "America/Los_Angeles"
        await page.context.close()
    mail = (await outbox(sqlite_server.url, someone.email))[0]["text"]
    assert "Japan Standard Time / your time: " in mail and re.search(r" [AP]M Pacific Time", mail)
    assert "America/Los_Angeles" not in mail and "Asia/Tokyo" not in mail


async def test_ja_phone_in_tokyo_sees_one_time(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, complete=True) as someone:
        slot = (await free_slots(someone.sock))[0]
        tokyo = datetime.fromisoformat(slot["start"]).astimezone(TOKYO)
        page = await page_of(browser, sqlite_server, someone, "ja", "Asia/Tokyo", (390, 844))
        await page.goto(sqlite_server.url + "/b/appointment")
        await expect(page.get_by_text(re.compile(r"^カウンセリング時間: \d+分"))).to_be_visible()
        day = f"{tokyo.year}年{tokyo.month}月{tokyo.day}日{'月火水木金土日'[tokyo.weekday()]}曜日"
        await page.get_by_role("button", name=day, exact=True).click()
        radio = page.get_by_role("radio", name=f"{tokyo:%H:%M}", exact=True)
        await radio.check()
        assert await radio.get_attribute("aria-describedby") is None
        await expect(page.get_by_text("現地時間")).to_have_count(0)
        await assert_accessible(page, "ja /b/appointment, Tokyo")
        await shot(page, "calendar-ja-phone-tokyo")
        await page.get_by_role("button", name="この日時を仮押さえする").click()
        await expect(page).to_have_url(re.compile(r"/b/review$"))
        await page.get_by_role("button", name="予約を確定する").click()
        await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=20_000)
        summary = page.locator(".booking-summary")
        await expect(summary).to_contain_text(f"{tokyo.month}月{tokyo.day}日")
        await expect(summary).to_contain_text("日本標準時")
        await expect(page.get_by_text("現地時間")).to_have_count(0)
        await assert_accessible(page, "ja /b/confirmed, Tokyo")
        await shot(page, "confirmed-ja-phone-tokyo")
        await page.context.close()
