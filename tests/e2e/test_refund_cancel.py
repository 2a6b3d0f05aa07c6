"""Cancelling a paid booking in a real browser: the cancel dialog says the refund the
cancellation policy gives before the person confirms, and the refund is made at the local
Stripe server (docs/product.md, "Cancelling and refunds")."""

import re

from playwright.async_api import Browser, expect

from tests.support.browser import browser_of
from tests.support.server import ServerProcess
from tests.test_refunds import EARLY, PAID, paid_booking, policy, refunds_at_provider, stored


async def test_the_cancel_dialog_shows_the_refund_and_the_refund_is_made(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with policy(sqlite_server, EARLY, 50), paid_booking(sqlite_server) as payer:
        context, page = await browser_of(browser, sqlite_server, payer)
        await page.goto(sqlite_server.url + "/b/confirmed")
        await page.get_by_role("button", name="Cancel appointment").click()
        dialog = page.get_by_role("dialog")
        await expect(dialog.get_by_text("You will be refunded ¥16,500.")).to_be_visible()
        await dialog.get_by_label("Reason for canceling").fill("Schedule changed")
        await dialog.get_by_role("button", name="Cancel the appointment").click()
        await expect(page.get_by_text("Your appointment has been canceled")).to_be_visible()
        await expect(page).to_have_url(re.compile(r"/(\?.*)?$"))
        assert (await stored(sqlite_server, payer, "refunded"))["refundAmount"] == PAID
        assert [r["amount"] for r in await refunds_at_provider(sqlite_server, payer)] == [PAID]
        await context.close()
