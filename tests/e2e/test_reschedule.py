"""Rescheduling in a real browser (docs/product.md, "Rescheduling"): a person with a confirmed
booking opens /b/reschedule from their mail's link, picks a new day and time on the live
calendar, confirms the move and reads the new time."""

from datetime import datetime
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, expect

from realtime.auth import SESSION_COOKIE
from tests.support.booking import free_slots, person
from tests.support.browser import browser_locale
from tests.support.server import ServerProcess
from tests.test_reschedule import book

TOKYO = ZoneInfo("Asia/Tokyo")


async def test_a_confirmed_person_moves_their_time_and_sees_the_new_one(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, complete=True) as someone:
        await someone.sock.update(f"users/{someone.uid}", {"locale": "en"})
        old = datetime.fromisoformat((await book(someone))["start"]).astimezone(TOKYO)
        # A later day (the calendar opens on the booked month; the next one is a click away).
        target = next(
            local
            for slot in await free_slots(someone.sock)
            if (local := datetime.fromisoformat(slot["start"]).astimezone(TOKYO)).date()
            > old.date()
        )
        context = await browser.new_context(locale=browser_locale("en"), timezone_id="Asia/Tokyo")
        await context.add_cookies(
            [{"name": SESSION_COOKIE, "value": someone.token, "url": sqlite_server.url}]
        )
        page = await context.new_page()
        await page.goto(f"{sqlite_server.url}/b/reschedule?id={someone.appointment_id}")
        await expect(page.get_by_text("Your appointment is now at")).to_contain_text(f"{old:%H:%M}")
        if target.month != old.month:
            await page.get_by_role("button", name="Next month").click()
        day = f"{target:%A}, {target:%B} {target.day}, {target.year}"
        await page.get_by_role("button", name=day, exact=True).click()
        await page.get_by_role("radio", name=f"{target:%H:%M}", exact=True).check()
        await expect(page.get_by_text("Move your appointment from")).to_be_visible()
        await page.get_by_role("button", name="Move my appointment").click()
        done = page.get_by_text("Done. Your appointment is now at")
        await expect(done).to_contain_text(f"{target:%b} {target.day}, {target:%H:%M}")
        document = await someone.document()
        assert (document["date"], document["time"]) == (f"{target:%Y-%m-%d}", f"{target:%H:%M}")
        await context.close()
