"""Staff sign-in end to end in a real browser, and the audit screen (docs/protocol.md, "Staff
sign-in and roles", "Staff reading and acting"):

- the counselor sato@demo-clinic.example signs in by e-mail link (from the dev outbox), is
  asked for the second factor, is told plainly when a code is wrong, enters a real TOTP code
  computed from the demo secret and lands on `/staff`, never in the patient questionnaire
  (whose address tells them it is for patients, with a link to the board);
  the audit screen tells them it is for clinic administrators;
- a fresh staff member enrolling sees the QR code, the key and the recovery codes;
- a client opening `/staff` is told the page is for clinic staff;
- the clinic_admin's audit screen lists entries in words and shows a new one without reload;
- axe-core finds nothing serious or critical on the second-factor and audit screens, in
  Japanese on a phone in Asia/Tokyo and in English on a desktop in another zone.

Screenshots go to var/e2e-screenshots/. A code is accepted once per account: a refused
current code (used by an earlier test) is followed by the next time step's, which the server's
one step of drift accepts, and if that was used too, by the one after it once the clock has
reached the next step.
"""

import asyncio
import re
import time

import pytest
from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.conftest import unique_email
from tests.e2e.test_accessibility import assert_accessible
from tests.support.booking import person
from tests.support.browser import browser_locale, set_locale, signed_in
from tests.support.clients import call_http, outbox, sign_in
from tests.support.server import ROOT, ServerProcess
from tests.test_staff_signin import COUNSELOR, DEMO_SECRET, code, dev_session, new_staff

ADMIN = "staff@demo-clinic.example"
PERIOD_SECONDS = 30  # a TOTP time step
ZBARIMG = "/usr/bin/zbarimg"  # reads QR codes from images (infra/services.sh installs it)
SCREENSHOTS = ROOT / "var" / "e2e-screenshots"
LAYOUTS: list[tuple[str, str, ViewportSize, str]] = [
    ("ja", "Asia/Tokyo", {"width": 390, "height": 844}, "phone"),
    ("en", "America/New_York", {"width": 1366, "height": 900}, "desktop"),
]
TEXTS: dict[str, dict[str, str]] = {
    "ja": {
        "email": "メールアドレス",
        "send": "ログイン用リンクを送信",
        "inbox": "メールをご確認ください",
        "second_factor": "2段階目のログイン",
        "code": "コード",
        "confirm": "確認",
        "wrong": "コードが正しくありません。",
        "board": "予約ボード",
        "questionnaire": "医療機関コード",
        "for_patients": "このページは患者さま向けです",
        "to_board": "予約ボードへ",
        "admins_only": "このページはクリニック管理者専用です",
        "not_for_clients": "このページはクリニックのスタッフ専用です",
        "audit": "監査ログ",
        "intake_read": "問診を閲覧",
        "qr": "このアカウントの認証アプリを設定するQRコード",
        "recovery": "リカバリーコード",
        "saved": "リカバリーコードを安全な場所に保管しました",
    },
    "en": {
        "email": "E-mail address",
        "send": "Send sign-in link",
        "inbox": "Check your inbox",
        "second_factor": "Second sign-in step",
        "code": "Code",
        "confirm": "Confirm",
        "wrong": "That code is not valid.",
        "board": "Bookings board",
        "questionnaire": "Health care provider code",
        "for_patients": "This page is for patients",
        "to_board": "Go to the bookings board",
        "admins_only": "This page is for clinic administrators",
        "not_for_clients": "This page is for clinic staff",
        "audit": "Audit log",
        "intake_read": "Read the intake",
        "qr": "QR code that sets up your authenticator app for this account",
        "recovery": "Recovery codes",
        "saved": "I have saved my recovery codes somewhere safe",
    },
}


async def new_context(
    browser: Browser, lang: str, zone: str, viewport: ViewportSize
) -> BrowserContext:
    return await browser.new_context(
        locale=browser_locale(lang), timezone_id=zone, viewport=viewport
    )


async def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def wrong_code() -> str:
    """Six digits that are none of the codes the server would accept now."""
    near = {code(DEMO_SECRET, offset) for offset in (-1, 0, 1, 2)}
    return next(c for c in ("000000", "111111", "222222", "333333", "444444") if c not in near)


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_a_counselor_signs_in_by_link_then_totp_and_lands_on_the_board(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base, texts = sqlite_server.url, TEXTS[lang]
    # A signed-in interface follows the account's language: set it as this run's.
    await set_locale(base, await sign_in(base, COUNSELOR), lang)
    context = await new_context(browser, lang, zone, viewport)
    page = await context.new_page()
    await page.goto(base + "/")
    await page.get_by_label(texts["email"]).fill(COUNSELOR)
    await page.get_by_role("button", name=texts["send"]).click()
    await expect(page.get_by_role("heading", name=texts["inbox"])).to_be_visible()
    link = (await outbox(base, COUNSELOR))[0]["links"][0]
    await page.goto(link)

    # Asked for the second factor, never the questionnaire.
    heading = page.get_by_role("heading", level=1)
    await expect(heading).to_have_text(texts["second_factor"], timeout=15_000)
    await expect(page).to_have_url(f"{base}/staff/second-factor")
    await assert_accessible(page, f"/staff/second-factor ({lang}, {name})")
    await shoot(page, f"staff-second-factor-{lang}-{name}")

    # A wrong code: said plainly, in the page's language, and the page stays.
    field = page.get_by_label(texts["code"], exact=True)
    await field.fill(wrong_code())
    await page.get_by_role("button", name=texts["confirm"], exact=True).click()
    await expect(page.get_by_role("alert").filter(has_text=texts["wrong"])).to_be_visible()
    await expect(page).to_have_url(f"{base}/staff/second-factor")
    await assert_accessible(page, f"/staff/second-factor with a wrong code ({lang}, {name})")
    await shoot(page, f"staff-second-factor-{lang}-{name}-wrong")

    # The real code: the current step's, else the next one's (the account used this one
    # already), else, once the clock reached the next step, the one after it.
    for attempt in range(3):
        if attempt == 2:
            await asyncio.sleep(PERIOD_SECONDS - time.time() % PERIOD_SECONDS + 0.5)
        await field.fill(code(DEMO_SECRET, min(attempt, 1)))
        await page.get_by_role("button", name=texts["confirm"], exact=True).click()
        try:
            await expect(heading).to_have_text(texts["board"], timeout=5_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    await expect(page).to_have_url(f"{base}/staff")
    await expect(page.get_by_text(texts["questionnaire"])).to_have_count(0)
    # The questionnaire's address says it is for patients and leads back to the board.
    await page.goto(base + "/b/clinic")
    await expect(heading).to_have_text(texts["for_patients"], timeout=15_000)
    await page.get_by_role("link", name=texts["to_board"]).click()
    await expect(heading).to_have_text(texts["board"], timeout=15_000)
    await shoot(page, f"staff-counselor-board-{lang}-{name}")

    # The audit log is the administrators'.
    await page.goto(base + "/staff/audit")
    await expect(heading).to_have_text(texts["admins_only"], timeout=15_000)
    await assert_accessible(page, f"/staff/audit as a counselor ({lang}, {name})")
    await context.close()


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_enrolment_shows_the_qr_code_key_and_recovery_codes(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base, texts = sqlite_server.url, TEXTS[lang]
    email = await new_staff(base)
    account = await dev_session(base, email, second_factor=False)
    page = await signed_in(browser, base, account, lang, zone, viewport)
    await page.goto(base + "/staff")
    await expect(page.get_by_role("heading", level=1)).to_have_text(
        texts["second_factor"], timeout=15_000
    )
    qr = page.get_by_role("img", name=texts["qr"])
    await expect(qr).to_be_visible()
    box = await qr.bounding_box()
    assert box is not None and box["width"] >= 150 and abs(box["width"] - box["height"]) < 2
    # Drawn as the browser draws it, the code reads back as the set-up address shown below it.
    address = await page.locator(".staff-uri").inner_text()
    assert address.startswith("otpauth://totp/")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"staff-enrolment-qr-{lang}-{name}.png"
    await qr.screenshot(path=str(shot))
    scan = await asyncio.create_subprocess_exec(
        ZBARIMG, "--quiet", "--raw", str(shot), stdout=asyncio.subprocess.PIPE
    )
    scanned, _ = await scan.communicate()
    assert scan.returncode == 0
    assert scanned.decode().strip() == address
    codes = page.get_by_role("list", name=texts["recovery"]).get_by_role("listitem")
    await expect(codes).to_have_count(10)
    # The code form asks that the recovery codes were saved.
    await expect(page.get_by_label(texts["saved"])).not_to_be_checked()
    await assert_accessible(page, f"/staff/second-factor enrolling ({lang}, {name})")
    await shoot(page, f"staff-enrolment-{lang}-{name}")
    await page.context.close()


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_a_client_opening_staff_is_told_it_is_for_clinic_staff(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base, texts = sqlite_server.url, TEXTS[lang]
    client = await sign_in(base, unique_email("not-staff"))
    page = await signed_in(browser, base, client, lang, zone, viewport)
    for path in ("/staff", "/staff/audit"):
        await page.goto(base + path)
        await expect(page.get_by_role("heading", level=1)).to_have_text(
            texts["not_for_clients"], timeout=15_000
        )
    await page.context.close()


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_the_audit_screen_lists_entries_in_words_and_shows_new_ones_live(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base, texts = sqlite_server.url, TEXTS[lang]
    admin = await dev_session(base, ADMIN, second_factor=True)
    async with person(base, complete=True) as someone:
        read = {"appointmentId": someone.appointment_id}
        assert (await call_http(base, "staff-appointment-read", read, admin.token))[0] == 200
        page = await signed_in(browser, base, admin, lang, zone, viewport)
        # The board's header links to the audit log.
        await page.goto(base + "/staff")
        await page.get_by_role("link", name=texts["audit"]).click()
        await expect(page).to_have_url(f"{base}/staff/audit")
        heading = page.get_by_role("heading", level=1)
        await expect(heading).to_have_text(texts["audit"], timeout=15_000)
        row = page.locator(f'tr:has(a[href="/staff/appointments/{someone.appointment_id}"])')
        await expect(row.first).to_be_visible(timeout=15_000)
        await expect(row.first).to_contain_text(texts["intake_read"])
        await expect(row.first).to_contain_text(ADMIN)
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/audit ({lang}, {name})")
        await shoot(page, f"staff-audit-{lang}-{name}")

        # Another read, elsewhere: its entry appears without reload, highlighted.
        assert (await call_http(base, "staff-appointment-read", read, admin.token))[0] == 200
        await expect(row).to_have_count(2, timeout=15_000)
        # (the screen's own first read of the log is new in this list too)
        await expect(row.and_(page.locator("tr[data-new]"))).to_have_count(1)
        await expect(page.get_by_test_id("audit-announcer")).not_to_be_empty()

        # Filtered by the appointment: only its entries.
        await page.get_by_label(re.compile("予約ID|Appointment ID")).fill(someone.appointment_id)
        await page.get_by_role("button", name=re.compile("表示する|Show entries")).click()
        await expect(page.locator("tbody tr")).to_have_count(2, timeout=15_000)
        await assert_accessible(page, f"/staff/audit filtered ({lang}, {name})")
        await shoot(page, f"staff-audit-{lang}-{name}-filtered")
        await page.context.close()
