"""Browser pages signed in as a test person (the session cookie set directly)."""

from playwright.async_api import Browser, BrowserContext, Page

from realtime.auth import SESSION_COOKIE
from tests.support.booking import Person
from tests.support.server import ServerProcess


async def browser_of(
    browser: Browser, server: ServerProcess, someone: Person, timezone: str = "Asia/Tokyo"
) -> tuple[BrowserContext, Page]:
    """A new English context in `timezone`, signed in as `someone`, and a page in it."""
    context = await browser.new_context(locale="en-US", timezone_id=timezone)
    await context.add_cookies([{"name": SESSION_COOKIE, "value": someone.token, "url": server.url}])
    return context, await context.new_page()
