"""A person whose booking was cancelled signs in again, lands on My booking with the
cancelled appointment, and is asked whether to start from their previous answers
(docs/product.md, "Booking again"); saying yes opens a new appointment that carries them,
and the cancelled one stays as it was."""

import re

from playwright.async_api import Browser, expect

from tests.support.booking import person
from tests.support.browser import signed_in
from tests.support.clients import connect, sign_in
from tests.support.server import ServerProcess


async def test_a_cancelled_person_starts_again_from_their_answers(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    async with person(base, complete=True) as someone:
        old = await someone.document()
        cancel = {"appointmentId": someone.appointment_id, "reason": "changed plans"}
        assert await someone.call("appointment-cancel", cancel) == {
            "data": {"status": "cancelled", "refund": None}
        }
    account = await sign_in(base, someone.email)
    page = await signed_in(browser, base, account, "en")
    try:
        await page.goto(base + "/b/clinic")  # no questionnaire for an ended appointment
        await expect(page).to_have_url(re.compile(r"/b/booking"))
        question = page.get_by_role("heading", level=2, name="Start from your previous answers?")
        await expect(question).to_be_visible()
        await page.get_by_role("button", name="Yes, use my previous answers").click()
        await expect(page).to_have_url(base + "/b/clinic")
        await expect(question).to_have_count(0)
    finally:
        await page.context.close()
    async with connect(base, account.token) as sock:
        record = (await sock.subscribe(f"users/{someone.uid}"))["snapshot"]["data"]
        new_id = record["appointmentId"]
        assert new_id != someone.appointment_id
        new = (await sock.subscribe(f"appointments/{new_id}"))["snapshot"]["data"]
        cancelled = (await sock.subscribe(someone.path))["snapshot"]["data"]
    assert new["copiedFrom"] == someone.appointment_id and new["intake"] == old["intake"]
    assert new["status"] == "draft" and new["consent"] is None
    assert cancelled["status"] == "cancelled" and cancelled["intake"] == old["intake"]
