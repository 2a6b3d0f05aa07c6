"""Booking mails' signed links in a real browser (docs/product.md, "My booking"): the cancel
link of a confirmation mail, opened signed out, shows the booking with its cancel dialog and
cancels, without a sign-in and without showing the answers; the view link on a phone in
Japanese shows the booking and offers the sign-in for more. Both pass axe-core."""

import re
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.e2e.test_accessibility import assert_accessible, settle
from tests.e2e.test_journeys import ui
from tests.support.booking import Person, free_slots, person
from tests.support.clients import call_http, outbox, sign_in
from tests.support.server import ServerProcess


async def book(someone: Person) -> None:
    slot = (await free_slots(someone.sock))[4]
    await someone.hold(slot["start"], slot["counselorIds"][0])
    reply = await someone.call(
        "appointment-updateStatus", {"appointmentId": someone.appointment_id, "status": "submitted"}
    )
    assert reply == {"data": {"status": "confirmed"}}, reply


async def mailed_link(base: str, email: str, kind: str) -> str:
    """The confirmation mail's link of `kind` (cancel, reschedule or booking), as in its text."""
    [mail] = [m for m in await outbox(base, email) if any("t=" in x for x in m["links"])]
    links = [link for link in mail["links"] if "t=" in link]
    chosen = {
        "cancel": [x for x in links if "action=cancel" in x],
        "reschedule": [x for x in links if "/b/reschedule" in x],
        "booking": [x for x in links if "/b/booking" in x and "action=" not in x],
    }[kind]
    assert len(chosen) == 1 and chosen[0] in mail["text"], links
    link: str = chosen[0]
    return link


async def page_in(browser: Browser, lang: str, zone: str, size: tuple[int, int]) -> Page:
    context = await browser.new_context(
        locale="ja-JP" if lang == "ja" else "en-US",
        timezone_id=zone,
        viewport={"width": size[0], "height": size[1]},
    )
    return await context.new_page()


async def test_a_mailed_cancel_link_cancels_signed_out(
    browser: Browser, sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    base, lang = sqlite_server.url, "en"
    async with person(base, complete=True) as someone:
        await someone.sock.update(someone.path, {"locale": "en"})
        await book(someone)
        link = await mailed_link(base, someone.email, "cancel")
        page = await page_in(browser, lang, "America/Los_Angeles", (1280, 900))
        await page.goto(link)

        # Opened without a sign-in; the token has left the address bar.
        dialog = page.get_by_role("dialog", name=ui(lang, "booking:cancel.title"))
        await expect(dialog).to_be_visible(timeout=15_000)
        await expect(page).to_have_url(
            re.compile(rf"/b/booking\?id={someone.appointment_id}&action=cancel$")
        )
        await page.wait_for_timeout(350)  # the dialog's animation (it hides the heading)
        await assert_accessible(page, "/b/booking from a cancel link (en)")
        await page.screenshot(path=str(tmp_path / "cancel-link-en.png"), full_page=True)
        await dialog.get_by_label(ui(lang, "booking:cancel.reason")).fill("Plans changed")
        await dialog.get_by_role("button", name=ui(lang, "booking:cancel.confirm")).click()
        await expect(page.get_by_text(ui(lang, "booking:cancel.done"))).to_be_visible()

        again = await sign_in(base, someone.email)
        _, listed = await call_http(base, "appointments-mine", {}, again.token)
        assert listed["data"]["appointments"][0]["status"] == "cancelled"
        # The same link again: it no longer opens anything, and says how to sign in.
        await page.goto(link)
        await expect(page.get_by_role("alert")).to_have_text(ui(lang, "booking:mailLink.invalid"))
        await page.context.close()


async def test_a_mailed_view_link_on_a_phone_shows_the_booking_but_not_the_answers(
    browser: Browser, sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    base, lang = sqlite_server.url, "ja"
    async with person(base, complete=True) as someone:
        await book(someone)
        link = await mailed_link(base, someone.email, "booking")
        page = await page_in(browser, lang, "Asia/Tokyo", (390, 844))
        await page.goto(link)

        card = page.get_by_role("region", name=ui(lang, "booking:myBooking.heading"))
        await expect(card.locator(".my-booking-status")).to_have_text(
            ui(lang, "booking:myBooking.statuses.confirmed"), timeout=15_000
        )
        await expect(page).to_have_url(re.compile(rf"/b/booking\?id={someone.appointment_id}$"))
        more = page.locator(".sign-in-for-more")
        await expect(more).to_contain_text(ui(lang, "booking:mailLink.signInForMore"))
        # A view link neither cancels nor moves (its lead says where those are), and the
        # answers stay behind the sign-in.
        await expect(page.get_by_text(ui(lang, "routes:myBooking.descriptionView"))).to_be_visible()
        await expect(page.locator(".my-booking-answers")).to_have_count(0)
        await expect(
            page.get_by_role("button", name=ui(lang, "booking:cancel.open"))
        ).to_have_count(0)
        await settle(page, lang)
        await assert_accessible(page, "/b/booking from a view link (ja, phone)")
        await page.screenshot(path=str(tmp_path / "view-link-ja.png"), full_page=True)

        # "Sign in" leads to the e-mail sign-in, which would come back to this booking.
        await more.get_by_role("button", name=ui(lang, "booking:mailLink.signIn")).click()
        await expect(page).to_have_url(re.compile(r"/\?next=%2Fb%2Fbooking%3Fid%3D"))
        await page.context.close()
