"""Provider codes and services in a real browser: a person on /b/clinic types DEMO and sees
the referring institution's name, and ZZZZ is refused with "Invalid code." in their
language; a clinic administrator changes a price on /staff/services and looks at the codes on
/staff/codes. In Japanese on a phone in Asia/Tokyo and in English on a desktop in New York,
with no serious or critical axe-core finding. Screenshots go to var/e2e-screenshots/."""

import pytest
from playwright.async_api import Browser, ViewportSize, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.e2e.test_staff_appointment import LAYOUTS, SCREENSHOTS, STAFF_EMAIL
from tests.support.booking import person
from tests.support.browser import signed_in
from tests.support.clients import Account, sign_in
from tests.support.server import ServerProcess
from tests.test_services_admin import restored, services

WORDS = {
    "ja": {
        "code": "医療機関コード（4文字）",
        "matched": "紹介元の医療機関: デモ産婦人科クリニック",
        "invalid": "コードが正しくありません。お手元のコードをもう一度ご確認ください。",
        "without": "コードなしで進む",
        "service": "出生前検査の遺伝カウンセリング",
        "edit": "編集",
        "amount": "金額",
        "save": "変更を保存",
        "saved": "保存しました。新しい予約はこの設定で受け付けます。",
        "price": "22,000円",
        "codes": "このクリニックのコード",
    },
    "en": {
        "code": "Provider code (4 characters)",
        "matched": "Referring institution: デモ産婦人科クリニック",
        "invalid": "Invalid code.",
        "without": "Continue without a code",
        "service": "Prenatal testing counseling",
        "edit": "Edit",
        "amount": "Amount",
        "save": "Save changes",
        "saved": "Saved. New bookings follow these settings now.",
        "price": "¥22,000",
        "codes": "Codes of this clinic",
    },
}


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_a_person_s_code_is_checked_on_the_first_step(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base = sqlite_server.url
    words = WORDS[lang]
    async with person(base, "prenatal") as someone:
        account = Account(uid=someone.uid, email=someone.email, token=someone.token)
        page = await signed_in(browser, base, account, lang, zone, viewport)
        await page.goto(f"{base}/b/clinic")
        field = page.get_by_role("textbox", name=words["code"])
        await expect(field).to_be_visible(timeout=15_000)
        await field.fill("DEMO")
        await expect(page.get_by_text(words["matched"])).to_be_visible()
        await expect(page.get_by_role("link", name=words["without"])).to_be_visible()
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/b/clinic with DEMO ({lang}, {name})")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SCREENSHOTS / f"clinic-code-demo-{lang}-{name}.png"))
        await field.fill("ZZZZ")
        await expect(page.get_by_text(words["invalid"])).to_be_visible()
        await expect(page.get_by_text(words["matched"])).to_be_hidden()
        await expect(field).to_have_attribute("aria-invalid", "true")
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/b/clinic with ZZZZ ({lang}, {name})")
        await page.screenshot(path=str(SCREENSHOTS / f"clinic-code-zzzz-{lang}-{name}.png"))
        await page.context.close()


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_an_administrator_changes_a_price_and_sees_the_codes(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base = sqlite_server.url
    words = WORDS[lang]
    staff = await sign_in(base, STAFF_EMAIL)
    async with restored(base, "prenatal-b2c") as admin:
        page = await signed_in(browser, base, staff, lang, zone, viewport)
        await page.goto(f"{base}/staff/services")
        title = page.get_by_role("heading", level=2, name=words["service"], exact=True)
        await expect(title).to_be_visible(timeout=15_000)
        card = page.locator("li.services-card").filter(has=title)
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/services ({lang}, {name})")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SCREENSHOTS / f"staff-services-{lang}-{name}.png"))
        await card.get_by_role("button", name=words["edit"]).click()
        amount = card.get_by_role("textbox", name=words["amount"])
        await amount.fill("22000")
        await card.get_by_role("button", name=words["save"]).click()
        await expect(card.get_by_text(words["saved"])).to_be_visible()
        await expect(card.locator(".services-facts")).to_contain_text(words["price"])
        assert (await services(base, admin.token))["prenatal-b2c"]["price"] == {
            "amount": 22000,
            "currency": "JPY",
        }
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/services editing ({lang}, {name})")
        await page.screenshot(
            path=str(SCREENSHOTS / f"staff-services-edit-{lang}-{name}.png"), full_page=True
        )

        await page.goto(f"{base}/staff/codes")
        await expect(page.get_by_role("list", name=words["codes"])).to_be_visible(timeout=15_000)
        await expect(page.get_by_text("DEMO", exact=True)).to_be_visible()
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/codes ({lang}, {name})")
        await page.screenshot(
            path=str(SCREENSHOTS / f"staff-codes-{lang}-{name}.png"), full_page=True
        )
        await page.context.close()
