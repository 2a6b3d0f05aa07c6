"""A booking made in a client's browser reaches a counselor's open board without a reload;
a booking of another counselor never shows there (the counselor's board follows their own
appointments only). Functional only: the time it takes is infra/bench/board_browser.py's."""

import re
from contextlib import AsyncExitStack
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, Page, expect

from tests.support.booking import Person, free_slots, person
from tests.support.browser import browser_of
from tests.support.clients import sign_in
from tests.support.server import ServerProcess

CLINIC_ZONE = ZoneInfo("Asia/Tokyo")
COUNSELOR_EMAIL = "sato@demo-clinic.example"
COUNSELOR_ID = "c-sato"
BOARD_DAYS = 28  # today and the 27 days after it (client/src/staff/BoardScreen.tsx)


def row(page: Page, someone: Person, status: str | None = None) -> Any:
    """The board's row of `someone`'s appointment (with that status when given)."""
    where = f'[data-status="{status}"]' if status else ""
    link = f'a[href="/staff/appointments/{someone.appointment_id}"]'
    return page.locator(f"li.staff-booking{where}:has({link})")


async def hold_in_window(someone: Person, sato: bool) -> None:
    """Hold the first free time inside the board's window of c-sato (or of another
    counselor when `sato` is False)."""
    last = datetime.now(CLINIC_ZONE).date() + timedelta(days=BOARD_DAYS - 1)
    for slot in await free_slots(someone.sock):
        if datetime.fromisoformat(slot["start"]).astimezone(CLINIC_ZONE).date() > last:
            continue
        counselors = [c for c in slot["counselorIds"] if (c == COUNSELOR_ID) == sato]
        if counselors and "data" in await someone.hold(slot["start"], counselors[0]):
            return
    raise AssertionError("no free time in the board's window")


async def test_a_booking_reaches_the_counselors_board_live(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    counselor = await sign_in(base, COUNSELOR_EMAIL)  # past the second factor (dev token)
    async with AsyncExitStack() as stack:
        own = await stack.enter_async_context(person(base, complete=True))
        other = await stack.enter_async_context(person(base, complete=True))
        await hold_in_window(own, sato=True)
        await hold_in_window(other, sato=False)

        board_context = await browser.new_context(locale="en-US", timezone_id="Asia/Tokyo")
        stack.push_async_callback(board_context.close)
        await board_context.add_cookies(
            [{"name": "gc_session", "value": counselor.token, "url": base}]
        )
        board = await board_context.new_page()
        await board.goto(base + "/staff")
        await expect(row(board, own, "hold")).to_be_visible(timeout=15_000)
        # Every counselor the board knows of (its filter would hide another's row otherwise):
        # whatever is missing now is missing because the server never sent it.
        await board.get_by_label("Counselor", exact=True).select_option("")
        await expect(row(board, other)).to_have_count(0)
        # Marks this document: a reload would lose it.
        await board.evaluate("() => { window.__sameDocument = true; }")

        # The other counselor's booking is confirmed first...
        submitted = await other.call(
            "appointment-updateStatus",
            {"appointmentId": other.appointment_id, "status": "submitted"},
        )
        assert submitted.get("data", {}).get("status") == "confirmed", submitted

        # ... then the client books in their own browser.
        client_context, client = await browser_of(browser, sqlite_server, own)
        stack.push_async_callback(client_context.close)
        await client.goto(base + "/b/review")
        confirm = client.get_by_role("button", name="Confirm booking")
        await expect(confirm).to_be_enabled(timeout=15_000)
        await confirm.click()
        await expect(client).to_have_url(re.compile(r"/b/confirmed$"), timeout=15_000)

        await expect(row(board, own, "confirmed")).to_be_visible(timeout=15_000)
        reloaded = not await board.evaluate("() => window.__sameDocument === true")
        assert not reloaded, "the board reloaded to show the booking"
        # Pushed before the counselor's own booking, the other one never came.
        await expect(row(board, other)).to_have_count(0)
