"""The client shell in a real browser: languages, redirects, guards, live documents."""

import re

import pytest
from playwright.async_api import Browser, Page, Route, expect

from tests.conftest import unique_email
from tests.support.clients import connect, sign_in
from tests.support.server import ServerProcess


async def open_page(browser: Browser, locale: str) -> Page:
    context = await browser.new_context(locale=locale)
    return await context.new_page()


@pytest.mark.parametrize(
    ("browser_locale", "lang", "title", "footer_terms"),
    [("ja-JP", "ja", "ログイン", "利用規約"), ("en-US", "en", "Sign in", "Terms of service")],
)
async def test_login_page_in_the_browser_language(
    browser: Browser,
    sqlite_server: ServerProcess,
    browser_locale: str,
    lang: str,
    title: str,
    footer_terms: str,
) -> None:
    page = await open_page(browser, browser_locale)
    await page.goto(sqlite_server.url + "/")
    await expect(page.get_by_role("heading", level=1)).to_have_text(title)
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(
        page.get_by_role("contentinfo").get_by_role("link", name=footer_terms)
    ).to_be_visible()
    await page.context.close()


async def test_unsupported_browser_language_falls_back_to_japanese(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    page = await open_page(browser, "fr-FR")
    await page.goto(sqlite_server.url + "/")
    await expect(page.locator("html")).to_have_attribute("lang", "ja")
    await page.context.close()


async def test_locale_query_and_entry_redirect(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    page = await open_page(browser, "ja-JP")
    await page.goto(sqlite_server.url + "/pgt?locale=en")
    await expect(page).to_have_url(re.compile(r"/\?serviceId=pgt&locale=en$"))
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    await page.context.close()


async def test_signed_out_visitors_go_to_login_and_unknown_paths_are_not_found(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    page = await open_page(browser, "en-US")
    await page.goto(sqlite_server.url + "/b/review")
    await expect(page).to_have_url(re.compile(r"/\?next=%2Fb%2Freview$"))
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    await page.goto(sqlite_server.url + "/no/such/page")
    await expect(page.get_by_text("Page not found")).to_be_visible()
    await page.context.close()


async def test_signed_in_step_follows_the_user_record_live(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    """A signed-in person reaches a booking step; a change elsewhere switches the language."""
    person = await sign_in(sqlite_server.url, unique_email("browser"))
    page = await open_page(browser, "ja-JP")
    await page.context.add_cookies(
        [{"name": "gc_session", "value": person.token, "url": sqlite_server.url}]
    )
    await page.goto(sqlite_server.url + "/b/clinic")
    await expect(page.get_by_role("heading", level=1)).to_have_text("医療機関コード")
    async with connect(sqlite_server.url, person.token) as other_tab:
        await other_tab.update(f"users/{person.uid}", {"locale": "en"})
    await expect(page.get_by_role("heading", level=1)).to_have_text("Health care provider code")
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await page.context.close()


async def test_a_page_opened_directly_loads_its_guard_and_screen_while_the_session_is_read(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    """/b/family's guard (RequireAuth) and screen (Family) are both asked for before the
    session check answers: neither waits for the page above it to render."""
    person = await sign_in(sqlite_server.url, unique_email("preload"))
    page = await open_page(browser, "en-US")
    await page.context.add_cookies(
        [{"name": "gc_session", "value": person.token, "url": sqlite_server.url}]
    )
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    seen_by_session_reply: list[str] = []

    async def hold_session(route: Route) -> None:
        await page.wait_for_timeout(1_500)
        seen_by_session_reply.extend(asked)
        await route.continue_()

    await page.route("**/auth/session", hold_session)
    await page.goto(sqlite_server.url + "/b/family")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Family history")
    chunks = [
        re.sub(r"-[\w-]{8}\.js$", "", url.rsplit("/", 1)[-1]) for url in seen_by_session_reply
    ]
    assert "RequireAuth" in chunks
    assert "Family" in chunks
    await page.context.close()
