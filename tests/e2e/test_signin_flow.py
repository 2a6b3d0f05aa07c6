"""Sign-in by e-mail link in a real browser, through the dev outbox, in both languages."""

import re
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.conftest import unique_email
from tests.support.clients import connect, outbox, sign_in
from tests.support.server import ServerProcess

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "email": "E-mail address",
        "send": "Send sign-in link",
        "inbox": "Check your inbox",
        "confirm": "Confirm and sign in",
        "invalid": "This sign-in link can no longer be used",
        "new_link": "Send a new link",
        "sign_out": "Sign out",
        "booking": "Health care provider code",
        "bad_email": "Invalid email address.",
    },
    "ja": {
        "email": "メールアドレス",
        "send": "ログイン用リンクを送信",
        "inbox": "メールをご確認ください",
        "confirm": "確認してログイン",
        "invalid": "このログイン用リンクは使用できなくなりました",
        "new_link": "新しいリンクを送信",
        "sign_out": "ログアウト",
        "booking": "医療機関コード",
        "bad_email": "メールアドレスの形式が正しくありません。",
    },
}


async def new_page(browser: Browser, locale: str) -> Page:
    context = await browser.new_context(locale="ja-JP" if locale == "ja" else "en-US")
    return await context.new_page()


async def ask_for_link(page: Page, base: str, email: str, lang: str, query: str = "") -> str:
    texts = TEXTS[lang]
    await page.goto(f"{base}/{query}")
    await page.get_by_label(texts["email"]).fill(email)
    await page.get_by_role("button", name=texts["send"]).click()
    await expect(page.get_by_role("heading", name=texts["inbox"])).to_be_visible()
    mails = await outbox(base, email)
    link: str = mails[0]["links"][0]
    return link


async def user_record(base: str, email: str) -> dict[str, Any]:
    """The person's record as the server holds it (through a second session of theirs)."""
    person = await sign_in(base, email)
    async with connect(base, person.token) as sock:
        data: dict[str, Any] = (await sock.subscribe(f"users/{person.uid}"))["snapshot"]["data"]
    return data


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_same_device_sign_in_and_out(
    browser: Browser, sqlite_server: ServerProcess, lang: str
) -> None:
    base, texts, email = sqlite_server.url, TEXTS[lang], unique_email("e2e")
    page = await new_page(browser, lang)
    await page.goto(base + "/")
    await page.get_by_label(texts["email"]).fill("not-an-address")
    await page.get_by_role("button", name=texts["send"]).click()
    await expect(page.get_by_text(texts["bad_email"])).to_be_visible()
    link = await ask_for_link(page, base, email, lang, "?serviceId=pgt")
    await page.goto(link)
    await expect(page.get_by_role("heading", level=1)).to_have_text(texts["booking"])
    await expect(page).to_have_url(re.compile(r"/b/clinic$"))  # the token left the address
    record = await user_record(base, email)
    assert record["locale"] == lang
    assert record["userAgent"] and record["version"] and record["updated"]
    assert record["appointmentId"]
    await page.reload()
    await expect(page.get_by_role("heading", level=1)).to_have_text(texts["booking"])
    await page.get_by_role("button", name=texts["sign_out"]).click()
    await expect(page).to_have_url(re.compile(r"/$"))
    await page.goto(base + "/b/clinic")
    await expect(page).to_have_url(re.compile(r"/\?next="))
    await page.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_other_device_asks_for_the_address_again(
    browser: Browser, sqlite_server: ServerProcess, lang: str
) -> None:
    base, texts, email = sqlite_server.url, TEXTS[lang], unique_email("other-device")
    asking = await new_page(browser, lang)
    link = await ask_for_link(asking, base, email, lang)
    await asking.context.close()
    other = await new_page(browser, lang)  # a fresh context: nothing remembered
    await other.goto(link)
    await other.get_by_label(texts["email"]).fill(email)
    await other.get_by_role("button", name=texts["confirm"]).click()
    await expect(other.get_by_role("heading", level=1)).to_have_text(texts["booking"])
    await other.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_a_used_link_offers_one_click_to_a_new_one(
    browser: Browser, sqlite_server: ServerProcess, lang: str
) -> None:
    base, texts, email = sqlite_server.url, TEXTS[lang], unique_email("reused")
    page = await new_page(browser, lang)
    link = await ask_for_link(page, base, email, lang)
    await page.goto(link)
    await expect(page.get_by_role("heading", level=1)).to_have_text(texts["booking"])
    await page.get_by_role("button", name=texts["sign_out"]).click()
    await expect(page).to_have_url(re.compile(r"/$"))
    # The address is forgotten after sign-in: the same (used) link on this device.
    await page.goto(link)
    await page.get_by_label(texts["email"]).fill(email)
    await page.get_by_role("button", name=texts["confirm"]).click()
    await expect(page.get_by_role("alert").filter(has_text=texts["invalid"])).to_be_visible()
    before = len(await outbox(base, email))
    await page.get_by_role("button", name=texts["new_link"]).click()
    await expect(page.get_by_role("heading", name=texts["inbox"])).to_be_visible()
    mails = await outbox(base, email)
    assert len(mails) == before + 1 and mails[0]["links"][0] != link
    await page.goto(mails[0]["links"][0])
    await expect(page.get_by_role("heading", level=1)).to_have_text(texts["booking"])
    await page.context.close()
