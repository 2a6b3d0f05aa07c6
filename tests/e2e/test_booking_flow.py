"""Booking in real browsers: a slot taken in one browser vanishes from another's calendar at
once (that one in another timezone), then a full booking to /b/confirmed and a cancel; and a
card payment through the hosted checkout page of infra/stripe_local, paid and cancelled."""

import re
from contextlib import AsyncExitStack
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, expect

from tests.support.booking import Person, free_slots, person
from tests.support.browser import browser_of
from tests.support.server import ServerProcess

TOKYO = ZoneInfo("Asia/Tokyo")


def day_name(start: datetime) -> str:
    local = start.astimezone(TOKYO)
    return f"{local:%A}, {local:%B} {local.day}, {local.year}"


def single_counselor_slot(slots: list[dict[str, Any]]) -> dict[str, Any]:
    """A slot only one counselor can give, in the first month that has free times."""
    first_month = slots[0]["start"][:7]
    return next(s for s in slots if len(s["counselorIds"]) == 1 and s["start"][:7] == first_month)


async def test_a_taken_slot_vanishes_then_book_and_cancel(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with AsyncExitStack() as stack:
        alice = await stack.enter_async_context(person(sqlite_server.url, complete=True))
        bob = await stack.enter_async_context(person(sqlite_server.url, complete=True))
        slot = single_counselor_slot(await free_slots(alice.sock))
        start = datetime.fromisoformat(slot["start"])
        time_name = start.astimezone(TOKYO).strftime("%H:%M")
        a_context, a = await browser_of(browser, sqlite_server, alice)
        b_context, b = await browser_of(browser, sqlite_server, bob, "America/Los_Angeles")
        for page in (a, b):
            await page.goto(sqlite_server.url + "/b/appointment")
            await page.get_by_role("button", name=day_name(start), exact=True).click()
            await page.get_by_role("radio", name=time_name, exact=True).check()
        await a.get_by_role("button", name="Hold this time").click()
        await expect(a).to_have_url(re.compile(r"/b/review$"))
        # Bob (browsing from another zone, shown clinic time) is told at once.
        await expect(b.get_by_role("alert").filter(has_text="has just been taken")).to_be_visible()
        await expect(b.get_by_role("radio", name=time_name, exact=True)).to_have_count(0)

        await a.get_by_role("button", name="Confirm booking").click()
        await expect(a).to_have_url(re.compile(r"/b/confirmed$"))
        await expect(a.get_by_role("link", name="Join the video session")).to_be_visible()
        await a.get_by_role("button", name="Cancel appointment").click()
        dialog = a.get_by_role("dialog")
        await dialog.get_by_label("Reason for canceling").fill("Schedule changed")
        await dialog.get_by_role("button", name="Cancel the appointment").click()
        await expect(a.get_by_text("Your appointment has been canceled")).to_be_visible()
        await expect(a).to_have_url(re.compile(r"/(\?.*)?$"))
        await a_context.close()
        await b_context.close()


async def hold_first(someone: Person, service: str) -> None:
    await someone.sock.update(someone.path, {"locale": "en"})  # e-mails and checkout in English
    slot = (await free_slots(someone.sock, service))[0]
    assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])


async def test_pay_by_card_and_land_on_confirmed(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, "prenatal", complete=True) as payer:
        await hold_first(payer, "prenatal")
        context, page = await browser_of(browser, sqlite_server, payer)
        await page.goto(sqlite_server.url + "/b/review")
        await page.get_by_role("button", name="Continue to payment").click()
        await expect(page).to_have_url(re.compile(r"/b/checkout$"))
        await page.get_by_role("button", name="Pay by card").click()
        await page.get_by_role("button", name="Pay", exact=True).click()
        await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=20_000)
        await expect(page.get_by_role("link", name="Join the video session")).to_be_visible()
        assert (await payer.document())["payment"]["status"] == "paid"
        await context.close()


async def test_cancel_at_checkout_then_retry_and_pay(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, "prenatal", complete=True) as payer:
        await hold_first(payer, "prenatal")
        context, page = await browser_of(browser, sqlite_server, payer)
        await page.goto(sqlite_server.url + "/b/review")
        await page.get_by_role("button", name="Continue to payment").click()
        await page.get_by_role("button", name="Pay by card").click()
        await page.get_by_role("button", name="Cancel", exact=True).click()
        await expect(page).to_have_url(re.compile(r"/b/review\?payment=cancelled$"))
        dialog = page.get_by_role("alertdialog", name="Payment not completed")
        await expect(dialog).to_be_visible()
        await dialog.get_by_role("button", name="Try again").click()
        await expect(page).to_have_url(re.compile(r"/b/checkout$"))
        await page.get_by_role("button", name="Pay by card").click()
        await page.get_by_role("button", name="Pay", exact=True).click()
        await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=20_000)
        await context.close()
