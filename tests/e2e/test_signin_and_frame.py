"""Issue #15 in a real browser: unknown URLs are 404 with the not-found page; the phone header
stays on one row once signed in; "check your inbox" and its address survive the FAQ link and
Back; the login screens name the clinic once and the service; staff on a booking step are told
it is for patients. Each screen touched is scanned by axe-core in ja and en."""

import re

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.conftest import unique_email
from tests.e2e.test_accessibility import assert_accessible, settle
from tests.support.browser import browser_locale, signed_in
from tests.support.clients import sign_in
from tests.support.server import ServerProcess

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 900}


async def new_page(browser: Browser, lang: str, phone: bool = True) -> Page:
    context = await browser.new_context(
        locale=browser_locale(lang),
        timezone_id="Asia/Tokyo" if lang == "ja" else "America/Los_Angeles",
        viewport=PHONE if phone else DESKTOP,
    )
    return await context.new_page()


@pytest.mark.parametrize(
    ("lang", "text"), [("ja", "ページが見つかりません"), ("en", "Page not found")]
)
async def test_an_unknown_url_is_a_404_with_the_not_found_page(
    browser: Browser, sqlite_server: ServerProcess, lang: str, text: str
) -> None:
    page = await new_page(browser, lang)
    reply = await page.goto(sqlite_server.url + "/b/no-such-step")
    assert reply is not None and reply.status == 404
    await expect(page.get_by_role("heading", level=1)).to_have_text(text)
    await assert_accessible(page, f"404 ({lang})")
    known = await page.goto(sqlite_server.url + "/c/demo-clinic")
    assert known is not None and known.status == 200
    await page.context.close()


async def test_the_phone_header_stays_on_one_row_signed_in(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    person = await sign_in(sqlite_server.url, unique_email("header"))
    page = await signed_in(browser, sqlite_server.url, person, "ja", viewport=PHONE)
    await page.goto(sqlite_server.url + "/b/clinic")
    await settle(page, "ja")
    header = page.locator(".site-header")
    sign_out = header.get_by_role("button", name="ログアウト")
    await expect(sign_out).to_be_visible()
    boxes = [
        await header.get_by_role("link", name="遺伝カウンセリング予約").bounding_box(),
        await header.get_by_role("button", name="English").bounding_box(),
        await sign_out.bounding_box(),
    ]
    assert all(box is not None for box in boxes)
    centers = [box["y"] + box["height"] / 2 for box in boxes if box is not None]
    assert max(centers) - min(centers) < 4, centers  # side by side, not wrapped
    brand = boxes[0]
    assert brand is not None and brand["height"] < 30, brand  # the name on one line
    header_box = await header.bounding_box()
    title_box = await page.get_by_role("heading", level=1).bounding_box()
    assert header_box is not None and title_box is not None
    assert header_box["height"] <= 64, header_box
    assert title_box["y"] - (header_box["y"] + header_box["height"]) >= 24, (header_box, title_box)
    await page.context.close()


@pytest.mark.parametrize(
    ("lang", "label", "send", "inbox", "help_link", "faq"),
    [
        (
            "ja",
            "メールアドレス",
            "ログイン用リンクを送信",
            "メールをご確認ください",
            "メールが届かない場合",
            "よくあるご質問",
        ),
        (
            "en",
            "E-mail address",
            "Send sign-in link",
            "Check your inbox",
            "If the e-mail does not arrive",
            "Frequently asked questions",
        ),
    ],
)
async def test_the_help_link_and_back_keep_check_your_inbox_and_the_address(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    label: str,
    send: str,
    inbox: str,
    help_link: str,
    faq: str,
) -> None:
    email = unique_email("back")
    page = await new_page(browser, lang, phone=lang == "ja")
    await page.goto(sqlite_server.url + "/c/demo-clinic")
    await settle(page, lang)
    await page.get_by_label(label).fill(email)
    await page.get_by_role("button", name=send).click()
    await expect(page.get_by_role("heading", name=inbox)).to_be_visible()
    await assert_accessible(page, f"check your inbox ({lang})")
    await page.get_by_role("link", name=help_link).click()
    await expect(page.get_by_role("heading", level=1)).to_have_text(faq)
    # The domain to allow is MAIL_FROM's (the tests' default, "localhost"), not the page's host.
    carrier = page.locator("#receiving-email li").nth(1)
    await expect(carrier).to_contain_text("localhost")
    await expect(carrier).not_to_contain_text("127.0.0.1")
    await assert_accessible(page, f"FAQ ({lang})")
    await page.go_back()
    await expect(page.get_by_role("heading", name=inbox)).to_be_visible()
    await expect(page.get_by_role("status")).to_contain_text(email)
    await expect(page).to_have_url(re.compile(r"/c/demo-clinic$"))
    await page.context.close()


@pytest.mark.parametrize(
    ("lang", "path", "title", "service"),
    [
        ("ja", "/c/demo-clinic", "デモ遺伝カウンセリングクリニックのご予約", None),
        (
            "en",
            "/c/demo-clinic?serviceId=pgt",
            "Book with Demo Genetic Counseling Clinic",
            "Service: PGT results counseling",
        ),
        ("ja", "/prenatal", "ログイン", "サービス：出生前検査の遺伝カウンセリング"),
        ("en", "/pgt", "Sign in", "Service: PGT results counseling"),
    ],
)
async def test_login_screens_name_the_clinic_once_and_the_service(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    path: str,
    title: str,
    service: str | None,
) -> None:
    page = await new_page(browser, lang, phone=lang == "ja")
    await page.goto(sqlite_server.url + path)
    await expect(page.get_by_role("heading", level=1)).to_have_text(title)
    if service is not None:
        await expect(page.get_by_text(service, exact=True)).to_be_visible()
    main = await page.locator("main").inner_text()
    clinic = (
        "デモ遺伝カウンセリングクリニック" if lang == "ja" else "Demo Genetic Counseling Clinic"
    )
    assert main.count(clinic) <= 1, main
    await settle(page, lang)
    await assert_accessible(page, f"{path} ({lang})")
    await page.context.close()


@pytest.mark.parametrize(
    ("lang", "title", "board"),
    [
        ("ja", "このページは患者さま向けです", "予約ボードへ"),
        ("en", "This page is for patients", "Go to the bookings board"),
    ],
)
async def test_staff_on_a_booking_step_are_told_it_is_for_patients(
    browser: Browser, sqlite_server: ServerProcess, lang: str, title: str, board: str
) -> None:
    staff = await sign_in(sqlite_server.url, "staff@demo-clinic.example")
    page = await signed_in(browser, sqlite_server.url, staff, lang, viewport=PHONE)
    await page.goto(sqlite_server.url + "/b/patient")
    await expect(page.get_by_role("heading", level=1)).to_have_text(title, timeout=10_000)
    await expect(page.get_by_role("link", name=board)).to_have_attribute("href", "/staff")
    await settle(page, lang)
    await assert_accessible(page, f"staff on /b/patient ({lang})")
    await page.context.close()
