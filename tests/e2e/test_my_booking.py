"""My booking in a real browser (docs/product.md, "My booking"): a booked person who signs in
again by e-mail link lands on it, with the time and the add-to-calendar links, and no
questionnaire step leads them back into editing, and the page passes axe-core; a mail's
cancel link opened signed out leads there after the sign-in, with the cancel dialog open."""

import re
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import Browser, Page, expect

from tests.e2e.test_accessibility import assert_accessible, settle
from tests.e2e.test_journeys import ui
from tests.e2e.test_signin_flow import TEXTS as SIGN_IN
from tests.e2e.test_signin_flow import new_page
from tests.support.booking import Person, free_slots, person
from tests.support.clients import outbox
from tests.support.server import ServerProcess

LANG = "en"


async def book(someone: Person) -> datetime:
    """A confirmed appointment (the cancer service is free): its start."""
    slot = (await free_slots(someone.sock))[1]
    await someone.hold(slot["start"], slot["counselorIds"][0])
    reply = await someone.call(
        "appointment-updateStatus",
        {"appointmentId": someone.appointment_id, "status": "submitted"},
    )
    assert reply == {"data": {"status": "confirmed"}}, reply
    return datetime.fromisoformat(slot["start"])


async def sign_in_by_mail(page: Page, base: str, email: str) -> None:
    """On the login screen the page is at: ask for a link, then open it in this page."""
    await page.get_by_label(SIGN_IN[LANG]["email"]).fill(email)
    await page.get_by_role("button", name=SIGN_IN[LANG]["send"]).click()
    await expect(page.get_by_role("heading", name=SIGN_IN[LANG]["inbox"])).to_be_visible()
    links = [link for mail in await outbox(base, email) for link in mail["links"]]
    [link] = [link for link in links if "/login-confirmation?" in link]
    await page.goto(link)


async def test_a_booked_person_lands_on_my_booking_with_the_time_and_calendar_links(
    browser: Browser, sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    base = sqlite_server.url
    async with person(base, complete=True) as someone:
        start = await book(someone)
        page = await new_page(browser, LANG)  # a new browser: signed out
        await page.goto(base + "/")
        await sign_in_by_mail(page, base, someone.email)

        title = ui(LANG, "routes:myBooking.title")
        await expect(page.get_by_role("heading", level=1)).to_have_text(title)
        await expect(page).to_have_url(re.compile(r"/b/booking$"))
        card = page.get_by_role("region", name=ui(LANG, "booking:myBooking.heading"))
        await expect(card.locator(".my-booking-when")).to_contain_text(f"{start:%H:%M}")
        await expect(card.locator(".my-booking-status")).to_have_text(
            ui(LANG, "booking:myBooking.statuses.confirmed")
        )
        google = await card.get_by_role(
            "link", name=ui(LANG, "booking:myBooking.google")
        ).get_attribute("href")
        dates = parse_qs(urlsplit(google or "").query)["dates"][0]
        assert dates.split("/")[0] == start.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        outlook = card.get_by_role("link", name=ui(LANG, "booking:myBooking.outlook"))
        await expect(outlook).to_have_attribute("href", re.compile(r"^https://outlook\.live\.com/"))
        async with page.expect_download() as downloading:
            await card.get_by_role("button", name=ui(LANG, "booking:myBooking.ics")).click()
        saved = tmp_path / "appointment.ics"
        await (await downloading.value).save_as(saved)
        assert f"UID:{someone.appointment_id}@genecounsel" in saved.read_text()
        await settle(page, LANG)
        await assert_accessible(page, "/b/booking (en)")

        # No way back into editing: the questionnaire and the start lead here.
        for path in ("/b/contact", "/b/", "/"):
            await page.goto(base + path)
            await expect(page).to_have_url(re.compile(r"/b/booking$"))
            await expect(page.get_by_role("heading", level=1)).to_have_text(title)
        await page.context.close()


async def test_a_mail_cancel_link_opened_signed_out_continues_there_after_sign_in(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    async with person(base, complete=True) as someone:
        await book(someone)
        page = await new_page(browser, LANG)
        await page.goto(f"{base}/b/booking?id={someone.appointment_id}&action=cancel")
        await expect(page).to_have_url(re.compile(r"/\?next="))
        await sign_in_by_mail(page, base, someone.email)

        await expect(page).to_have_url(
            re.compile(rf"/b/booking\?id={someone.appointment_id}&action=cancel$")
        )
        dialog = page.get_by_role("dialog", name=ui(LANG, "booking:cancel.title"))
        await expect(dialog).to_be_visible()
        await dialog.get_by_role("button", name=ui(LANG, "booking:cancel.keep")).click()
        await expect(dialog).to_be_hidden()
        await expect(page).to_have_url(re.compile(rf"/b/booking\?id={someone.appointment_id}$"))
        await page.context.close()
