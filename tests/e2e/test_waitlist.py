"""The waitlist in a real browser (docs/product.md "Waitlist"): a person joins it from the
calendar step and, when someone else cancels a matching time, sees it held for them at once,
live, and goes on to the review."""

import re
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta

from playwright.async_api import Browser, expect

from tests.support.booking import free_slots, person
from tests.support.browser import browser_of
from tests.support.server import ServerProcess


async def test_a_waitlisted_person_sees_a_cancelled_time_held_for_them_live(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    async with AsyncExitStack() as stack:
        waiter = await stack.enter_async_context(person(base, complete=True))
        holder = await stack.enter_async_context(person(base))
        await waiter.sock.update(waiter.path, {"locale": "en"})
        after = datetime.now(UTC) + timedelta(days=3)
        slot = next(
            s for s in await free_slots(holder.sock) if datetime.fromisoformat(s["start"]) > after
        )
        day = datetime.fromisoformat(slot["start"]).date().isoformat()  # the clinic's day
        counselor = slot["counselorIds"][0]
        assert "data" in await holder.hold(slot["start"], counselor)

        context, page = await browser_of(browser, sqlite_server, waiter)
        stack.push_async_callback(context.close)
        await page.goto(base + "/b/appointment")
        await page.get_by_role("button", name="None of these times work?").click()
        await page.get_by_label("First day", exact=True).fill(day)
        await page.get_by_label("Last day", exact=True).fill(day)
        await page.get_by_role("button", name="Join the waitlist").click()
        await expect(page.get_by_role("status").filter(has_text="on the waitlist")).to_be_visible()
        stack.push_async_callback(
            waiter.call, "waitlist-leave", {"appointmentId": waiter.appointment_id}
        )

        cancelled = await holder.call(
            "appointment-cancel", {"appointmentId": holder.appointment_id, "reason": "changed"}
        )
        assert cancelled == {"data": {"status": "cancelled", "refund": None}}
        offer = page.get_by_role("alert").filter(has_text="is held for you until")
        await expect(offer).to_be_visible()
        start = datetime.fromisoformat(slot["start"])
        await expect(offer).to_contain_text(f"{start:%H:%M}")
        await offer.get_by_role("button", name="Continue to the review").click()
        await expect(page).to_have_url(re.compile(r"/b/review$"))
