"""The schedule screen in a real browser (docs/product.md "Schedules"): an administrator on an
English desktop in New York gives a counselor extra hours on a Sunday, when nobody works,
and a client's calendar, open in another browser, offers that Sunday without a reload (the
grid also takes a real mouse drag); on a
Japanese phone in Tokyo the week grid, driven by the keyboard alone, adds weekly hours that
are saved. axe-core finds nothing serious on either; screenshots go to
test-results/schedule-admin/ for a look. Each test puts the counselor's schedule back as
it found it (the server is shared by the whole run)."""

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.support.booking import free_slots, person
from tests.support.browser import browser_of, signed_in
from tests.support.clients import Account, connect, sign_in
from tests.support.server import ROOT, ServerProcess

TOKYO = ZoneInfo("Asia/Tokyo")
ADMIN = "staff@demo-clinic.example"
CLINIC = "demo-clinic"
SATO = "c-sato"
SHOTS = ROOT / "test-results" / "schedule-admin"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 900}


async def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


def free_sunday(schedule: dict[str, Any], at_least_days: int = 3) -> date:
    """A Sunday far enough ahead for any minimum notice of the demo services, on which the
    counselor has no exception yet (one a date: the demo gives days off at random offsets)."""
    taken = {item["date"] for item in schedule["exceptions"]}
    day = datetime.now(TOKYO).date() + timedelta(days=at_least_days)
    day += timedelta(days=(6 - day.weekday()) % 7)
    while day.isoformat() in taken:
        day += timedelta(days=7)
    return day


async def sato_schedule(base: str, admin: Account) -> dict[str, Any]:
    async with connect(base, admin.token) as sock:
        reply = await sock.call("schedule-read", {"clinicId": CLINIC, "counselorId": SATO})
    schedule: dict[str, Any] = reply["data"]["counselors"][0]
    return schedule


@asynccontextmanager
async def restored(base: str, admin: Account) -> AsyncIterator[dict[str, Any]]:
    """The counselor's schedule as it was, written back at the end whatever happened."""
    before = await sato_schedule(base, admin)
    try:
        yield before
    finally:
        now = await sato_schedule(base, admin)
        async with connect(base, admin.token) as sock:
            reply = await sock.call(
                "schedule-update",
                {
                    "clinicId": CLINIC,
                    "counselorId": SATO,
                    "version": now["version"],
                    "weekly": before["weekly"],
                    "exceptions": before["exceptions"],
                    "languages": before["languages"],
                },
            )
        assert "data" in reply, reply


async def test_extra_hours_reach_an_open_calendar_without_reload(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    admin = await sign_in(base, ADMIN)
    async with restored(base, admin) as before, person(base, complete=True) as someone:
        sunday = free_sunday(before)
        day_name = f"{sunday:%A}, {sunday:%B} {sunday.day}, {sunday.year}"
        # The client's calendar, open on the Sunday's month: nothing free that day.
        client_context, client = await browser_of(browser, sqlite_server, someone)
        await client.goto(base + "/b/appointment")
        closed = client.get_by_role("button", name=f"{day_name}, no available times")
        month = client.get_by_role("grid")
        for _ in range(2):
            await expect(month).to_be_visible(timeout=15_000)
            await expect(month).not_to_have_attribute("aria-busy", "true", timeout=15_000)
            if await closed.count() > 0:
                break
            await client.get_by_role("button", name="Next month").click()
        await expect(closed).to_be_visible(timeout=15_000)
        await client.evaluate("() => { window.__sameDocument = true; }")

        page = await signed_in(browser, base, admin, "en", "America/New_York", DESKTOP)
        await page.goto(base + "/staff/schedule")
        await expect(page.get_by_role("grid", name="Weekly hours")).to_be_visible(timeout=15_000)
        await page.get_by_label("Counselor").select_option(label="Hanako Sato")
        zone = page.get_by_text("Times are in the clinic's time zone: Japan Standard Time.")
        await expect(zone).to_be_visible()
        # A real mouse: press on Wednesday 19:00, drag down to 20:30, release: one window.
        grid = page.get_by_role("grid", name="Weekly hours")
        first = grid.get_by_role("gridcell", name="Wednesday 19:00–19:30, no hours")
        last = grid.get_by_role("gridcell", name="Wednesday 20:00–20:30, no hours")
        await last.scroll_into_view_if_needed()
        press, release = await first.bounding_box(), await last.bounding_box()
        assert press is not None and release is not None
        await page.mouse.move(press["x"] + 5, press["y"] + 5)
        await page.mouse.down()
        await page.mouse.move(release["x"] + 5, release["y"] + 5, steps=5)
        await page.mouse.up()
        dragged = grid.get_by_role("gridcell", name="Wednesday 20:00–20:30, in hours 19:00–20:30")
        await expect(dragged).to_be_visible()
        await page.get_by_role("button", name="Undo changes").click()
        await expect(dragged).to_have_count(0)

        await page.get_by_label("Date", exact=True).first.fill(sunday.isoformat())
        await page.get_by_label("Kind").select_option(label="Extra hours")
        await page.get_by_label("From").fill("10:00")
        await page.get_by_label("Until").fill("13:00")
        await page.get_by_role("button", name="Add", exact=True).click()
        await expect(
            page.get_by_text(f"{day_name}: extra hours 10:00–13:00", exact=True)
        ).to_be_visible()
        await page.get_by_role("button", name="Save schedule").click()
        announcer = page.get_by_test_id("schedule-announcer")
        await expect(announcer).to_have_text("The schedule was saved.")
        await assert_accessible(page, "/staff/schedule en desktop, New York")
        await shot(page, "schedule-en-desktop-new-york")

        # The client's open calendar now offers that Sunday, from 10:00, with no reload.
        opened = client.get_by_role("button", name=day_name, exact=True)
        await expect(opened).to_be_visible(timeout=15_000)
        await opened.click()
        await expect(client.get_by_role("radio", name="10:00", exact=True)).to_be_visible()
        same = await client.evaluate("() => window.__sameDocument === true")
        assert same, "the calendar reloaded"
        await page.context.close()
        await client_context.close()


async def test_the_week_grid_by_keyboard_alone_adds_hours_that_are_saved(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    admin = await sign_in(base, ADMIN)
    async with restored(base, admin) as before:
        assert not [w for w in before["weekly"] if w["weekday"] == 6], before
        page = await signed_in(browser, base, admin, "ja", "Asia/Tokyo", PHONE)
        await page.goto(base + "/staff/schedule")
        grid = page.get_by_role("grid", name="毎週の受付時間")
        await expect(grid).to_be_visible(timeout=15_000)
        await page.get_by_label("カウンセラー").select_option(label="佐藤 花子")
        zone = page.get_by_text("時刻はクリニックのタイムゾーン（日本標準時）です。")
        await expect(zone).to_be_visible()
        await assert_accessible(page, "/staff/schedule ja phone, Tokyo")
        await shot(page, "schedule-ja-phone-tokyo")

        # From the counselor picker, one Tab reaches the grid (one tab stop): Monday 09:00.
        await page.get_by_label("カウンセラー").focus()
        await page.keyboard.press("Tab")
        focused = page.locator(":focus")
        await expect(focused).to_have_attribute("role", "gridcell")
        await expect(focused).to_have_accessible_name(re.compile(r"^月曜日 09:00〜09:30"))
        for _ in range(6):
            await page.keyboard.press("ArrowRight")
        for _ in range(2):
            await page.keyboard.press("ArrowDown")
        await page.keyboard.press("Shift+ArrowDown")
        announcer = page.get_by_test_id("schedule-announcer")
        await expect(announcer).to_have_text("日曜日 10:00〜11:00を選択中です。Enterで追加します。")
        await page.keyboard.press("Enter")
        await expect(announcer).to_have_text("日曜日 10:00〜11:00を追加しました（未保存）。")
        await expect(focused).to_have_accessible_name("日曜日 10:30〜11:00、受付時間 10:00〜11:00")
        save = page.get_by_role("button", name="スケジュールを保存")
        for _ in range(80):
            if await save.evaluate("(button) => button === document.activeElement"):
                break
            await page.keyboard.press("Tab")
        await page.keyboard.press("Enter")
        await expect(announcer).to_have_text("スケジュールを保存しました。")
        await assert_accessible(page, "/staff/schedule ja phone, Tokyo, after saving")
        await shot(page, "schedule-ja-phone-tokyo-saved")
        await page.context.close()

        saved = await sato_schedule(base, admin)
        assert {"weekday": 6, "start": "10:00", "end": "11:00"} in saved["weekly"], saved
        assert saved["version"] == before["version"] + 1


async def test_a_stranded_booking_is_listed_and_moved_from_the_schedule(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    admin = await sign_in(base, ADMIN)
    async with restored(base, admin) as before, person(base, complete=True) as someone:
        taken = {item["date"] for item in before["exceptions"]}
        soon = datetime.now(TOKYO).date() + timedelta(days=3)
        for slot in await free_slots(someone.sock):
            start = datetime.fromisoformat(slot["start"]).astimezone(TOKYO)
            fits = SATO in slot["counselorIds"] and start.date() >= soon
            free_day = start.date().isoformat() not in taken
            if fits and free_day and "data" in await someone.hold(slot["start"], SATO):
                break
        else:
            raise AssertionError("no free time of c-sato")
        submitted = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert submitted.get("data", {}).get("status") == "confirmed", submitted

        page = await signed_in(browser, base, admin, "en", "America/New_York", DESKTOP)
        await page.goto(base + "/staff/schedule")
        await expect(page.get_by_role("grid", name="Weekly hours")).to_be_visible(timeout=15_000)
        await page.get_by_label("Counselor").select_option(label="Hanako Sato")
        await page.get_by_label("Date", exact=True).first.fill(start.date().isoformat())
        await page.get_by_role("button", name="Add", exact=True).click()
        await page.get_by_role("button", name="Save schedule").click()
        await expect(
            page.get_by_role("heading", name=re.compile("outside the new hours"))
        ).to_be_visible()
        link = f'a[href="/staff/appointments/{someone.appointment_id}"]'
        row = page.locator(f"tr:has({link})")
        await expect(row).to_contain_text(f"{start:%b} {start.day}, {start.year}, {start:%H:%M}")
        await expect(row).to_contain_text("Confirmed")
        await assert_accessible(page, "/staff/schedule conflicts, en desktop")
        await row.get_by_role("button", name=re.compile(r"^Move ")).click()
        dialog = page.get_by_role("dialog")
        choice = dialog.get_by_label("New time")
        await expect(choice).to_be_visible(timeout=15_000)
        await expect(choice.locator("option")).not_to_have_count(1)
        await page.wait_for_timeout(350)  # the dialog's fade-in (axe reads colours as shown)
        await assert_accessible(page, "/staff/schedule move dialog, en desktop")
        await shot(page, "schedule-move-en-desktop")
        await choice.select_option(index=1)
        await dialog.get_by_role("button", name="Move to this time").click()
        await expect(page.get_by_text(re.compile(r"^Moved to "))).to_be_visible(timeout=15_000)
        await expect(row).to_have_count(0)
        moved = await someone.document()
        assert moved["date"] != start.date().isoformat(), moved
        assert moved["counselorId"] == SATO and moved["status"] == "confirmed", moved
        await page.context.close()
