"""Browser pages signed in as a test person or staff member (the session cookie set
directly)."""

from playwright.async_api import Browser, BrowserContext, Page, ViewportSize

from realtime.auth import SESSION_COOKIE
from tests.support.booking import Person
from tests.support.clients import Account, connect
from tests.support.server import ServerProcess


def browser_locale(lang: str) -> str:
    return "ja-JP" if lang == "ja" else "en-US"


async def set_locale(base: str, account: Account, lang: str) -> None:
    """The account's interface language (a signed-in client follows the user record's)."""
    async with connect(base, account.token) as sock:
        saved = await sock.update(f"users/{account.uid}", {"locale": lang})
        assert "version" in saved, saved


async def signed_in(
    browser: Browser,
    base: str,
    account: Account,
    lang: str,
    zone: str = "Asia/Tokyo",
    viewport: ViewportSize | None = None,
) -> Page:
    """A page of a new context carrying `account`'s session cookie, its interface in
    `lang`, the browser in that language and `zone` (close it with `page.context.close()`)."""
    await set_locale(base, account, lang)
    context = await browser.new_context(
        locale=browser_locale(lang), timezone_id=zone, viewport=viewport
    )
    await context.add_cookies([{"name": SESSION_COOKIE, "value": account.token, "url": base}])
    return await context.new_page()


async def browser_of(
    browser: Browser, server: ServerProcess, someone: Person, timezone: str = "Asia/Tokyo"
) -> tuple[BrowserContext, Page]:
    """A new English context in `timezone`, signed in as `someone`, and a page in it."""
    context = await browser.new_context(locale="en-US", timezone_id=timezone)
    await context.add_cookies([{"name": SESSION_COOKIE, "value": someone.token, "url": server.url}])
    return context, await context.new_page()
