"""The calendar subscription card on the staff board, in a real browser: the demo counselor
makes their private address, reads it once, subscribes with it as a calendar program would,
then replaces it after confirming, and the old address stops answering; no serious or
critical axe-core finding at each step, in Japanese and in English."""

import re

import httpx
import pytest
from icalendar import Calendar
from playwright.async_api import Browser, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.support.browser import signed_in
from tests.support.clients import sign_in
from tests.support.server import ServerProcess

COUNSELOR = "sato@demo-clinic.example"
TEXT = {
    "ja": {
        "title": "カレンダーの購読",
        "create": "カレンダーのアドレスを発行",
        "rotate": "新しいアドレスを発行",
        "confirm": "新しいアドレスを発行する",
        "address": "あなた専用のカレンダーのアドレス",
    },
    "en": {
        "title": "Calendar subscription",
        "create": "Make a calendar address",
        "rotate": "Make a new address",
        "confirm": "Yes, make a new address",
        "address": "Your private calendar address",
    },
}


async def feed_status(url: str) -> int:
    async with httpx.AsyncClient() as http:
        reply = await http.get(url)
    if reply.status_code == 200:
        assert Calendar.from_ical(reply.content).get("X-WR-CALNAME")
    return reply.status_code


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_a_counselor_makes_and_replaces_their_calendar_address(
    browser: Browser, sqlite_server: ServerProcess, lang: str
) -> None:
    base = sqlite_server.url
    words = TEXT[lang]
    sato = await sign_in(base, COUNSELOR)
    page = await signed_in(browser, base, sato, lang)
    await page.goto(base + "/staff")
    card = page.get_by_role("region", name=words["title"])
    await expect(card).to_be_visible(timeout=15_000)
    # Whatever an earlier run left: a first address, or a new one after confirming.
    button = card.get_by_role("button", name=words["create"])
    rotate = card.get_by_role("button", name=words["rotate"])
    await expect(button.or_(rotate)).to_be_visible(timeout=15_000)
    if await rotate.is_visible():
        await rotate.click()
        await card.get_by_role("button", name=words["confirm"]).click()
    else:
        await button.click()
    address = card.get_by_label(words["address"])
    pattern = re.compile(re.escape(f"{base}/calendar/") + r"[A-Za-z0-9_-]{43}\.ics")
    await expect(address).to_have_value(pattern)
    first = await address.input_value()
    assert await feed_status(first) == 200
    await assert_accessible(page, f"/staff calendar address ({lang})")

    await card.get_by_role("button", name=words["rotate"]).click()
    question = card.get_by_role("group")
    await expect(question).to_be_visible()
    await assert_accessible(page, f"/staff calendar confirmation ({lang})")
    await question.get_by_role("button", name=words["confirm"]).click()
    await expect(address).not_to_have_value(first)
    second = await address.input_value()
    assert await feed_status(second) == 200
    assert await feed_status(first) == 404
    await page.context.close()
