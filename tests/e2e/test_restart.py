"""The server process is killed and restarted while a person is mid-form: what they typed and
saved in the meantime is kept and sent, and the offline dialog comes and goes."""

import asyncio
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, expect

from tests.support.booking import person
from tests.support.clients import connect
from tests.support.server import ServerProcess

OFFLINE = "No internet connection"
TOPICS = "What would you like to talk about?"
TEXT = "結果の読み方について"


async def stored_topics(base_url: str, token: str, path: str) -> Any:
    async with connect(base_url, token) as sock:
        snapshot = (await sock.subscribe(path))["snapshot"]
    return (snapshot["data"]["intake"].get("requests") or {}).get("topics")


async def test_restart_mid_form_loses_nothing(browser: Browser, tmp_path: Path) -> None:
    server = ServerProcess(
        env={"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/restart.db"},
        log_path=tmp_path / "restart.log",
    ).start()
    try:
        async with person(server.url, complete=True) as someone:
            token, path = someone.token, someone.path
        context = await browser.new_context(locale="en-US")
        await context.add_cookies([{"name": "gc_session", "value": token, "url": server.url}])
        page = await context.new_page()
        await page.goto(server.url + "/b/expectations")
        topics = page.get_by_label(TOPICS, exact=True)
        await expect(topics).to_be_visible()

        server.stop()  # the process is gone, mid-form
        await topics.fill(TEXT)
        await page.get_by_role("button", name="Save and continue").click()
        dialog = page.get_by_role("alertdialog", name=OFFLINE).or_(
            page.get_by_role("dialog", name=OFFLINE)
        )
        await expect(dialog).to_be_visible(timeout=15_000)

        server.start()  # same port, same database
        await expect(dialog).to_be_hidden(timeout=30_000)
        await expect(page).not_to_have_url(re.compile(r"/b/expectations$"), timeout=15_000)
        for _ in range(50):
            if await stored_topics(server.url, token, path) == TEXT:
                break
            await asyncio.sleep(0.2)
        assert await stored_topics(server.url, token, path) == TEXT
        await context.close()
    finally:
        server.stop()
