"""The server process is killed and restarted while a person is mid-form: the page says the
clinic's server cannot be reached (not that the internet is gone), typing goes on, and what
they typed and saved in the meantime is kept and sent once the server is back. A reload keeps
what was typed, and asks first while something typed is not saved yet."""

import asyncio
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Dialog, Page, expect

from tests.support.booking import person
from tests.support.clients import connect
from tests.support.server import ServerProcess

UNREACHABLE = "Cannot reach the clinic's server"
NO_INTERNET = "No internet connection"
QUEUED = "sent automatically when the connection returns"
TOPICS = "What would you like to talk about?"
TEXT = "結果の読み方について"
SAVE = "Save and continue"
SAVED = "Saved"


async def stored_topics(base_url: str, token: str, path: str) -> Any:
    async with connect(base_url, token) as sock:
        snapshot = (await sock.subscribe(path))["snapshot"]
    return (snapshot["data"]["intake"].get("requests") or {}).get("topics")


async def until_stored(base_url: str, token: str, path: str, text: str) -> Any:
    for _ in range(75):
        if await stored_topics(base_url, token, path) == text:
            break
        await asyncio.sleep(0.2)
    return await stored_topics(base_url, token, path)


async def expectations_page(browser: Browser, server: ServerProcess, token: str) -> Page:
    context = await browser.new_context(locale="en-US")
    await context.add_cookies([{"name": "gc_session", "value": token, "url": server.url}])
    page = await context.new_page()
    await page.goto(server.url + "/b/expectations")
    await expect(page.get_by_label(TOPICS, exact=True)).to_be_visible()
    return page


def restartable(tmp_path: Path, name: str) -> ServerProcess:
    return ServerProcess(
        env={"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/{name}.db"},
        log_path=tmp_path / f"{name}.log",
    ).start()


async def test_restart_mid_form_loses_nothing(browser: Browser, tmp_path: Path) -> None:
    server = restartable(tmp_path, "restart")
    try:
        async with person(server.url, complete=True) as someone:
            token, path = someone.token, someone.path
        page = await expectations_page(browser, server, token)
        topics = page.get_by_label(TOPICS, exact=True)

        server.stop()  # the process is gone, mid-form
        await topics.fill(TEXT)
        await page.get_by_role("button", name=SAVE).click()
        notice = page.get_by_role("region", name=UNREACHABLE)
        await expect(notice).to_be_visible(timeout=15_000)
        await expect(notice).to_contain_text(QUEUED)
        await expect(page.get_by_text(NO_INTERNET)).to_have_count(0)

        server.start()  # same port, same database
        await expect(notice).to_be_hidden(timeout=30_000)
        await expect(page).not_to_have_url(re.compile(r"/b/expectations$"), timeout=15_000)
        assert await until_stored(server.url, token, path, TEXT) == TEXT
        await page.context.close()
    finally:
        server.stop()


async def test_typing_while_the_server_is_down_is_kept_and_sent(
    browser: Browser, tmp_path: Path
) -> None:
    server = restartable(tmp_path, "down")
    try:
        async with person(server.url, complete=True) as someone:
            token, path = someone.token, someone.path
        page = await expectations_page(browser, server, token)
        topics = page.get_by_label(TOPICS, exact=True)

        server.stop()
        notice = page.get_by_role("region", name=UNREACHABLE)
        await expect(notice).to_be_visible(timeout=15_000)
        await expect(page.get_by_text(NO_INTERNET)).to_have_count(0)
        # Nothing blocks the form: typing goes on, and the notice then says it will be sent.
        await topics.fill(TEXT)
        await expect(topics).to_have_value(TEXT)
        await expect(notice).to_contain_text(QUEUED, timeout=5_000)
        await expect(page.get_by_role("status").filter(has_text="Not sent yet")).to_be_visible()

        server.start()  # no click: the typed answer is sent by itself
        await expect(notice).to_be_hidden(timeout=30_000)
        assert await until_stored(server.url, token, path, TEXT) == TEXT
        await expect(page.get_by_text(SAVED, exact=True)).to_be_visible()
        await expect(page).to_have_url(re.compile(r"/b/expectations$"))
        await page.context.close()
    finally:
        server.stop()


async def test_reload_keeps_what_was_typed_and_asks_while_unsaved(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    async with person(sqlite_server.url, complete=True) as someone:
        token, path = someone.token, someone.path
    page = await expectations_page(browser, sqlite_server, token)
    topics = page.get_by_label(TOPICS, exact=True)
    asked: list[str] = []

    async def stay(dialog: Dialog) -> None:
        asked.append(dialog.type)
        await dialog.dismiss()

    page.on("dialog", stay)
    await topics.fill(TEXT)
    # At once, before the answer is saved: the browser asks, and staying keeps the text.
    await page.evaluate("() => window.location.reload()")
    await page.wait_for_timeout(300)
    assert asked == ["beforeunload"]
    await expect(topics).to_have_value(TEXT)

    await expect(page.get_by_text(SAVED, exact=True)).to_be_visible(timeout=5_000)
    page.remove_listener("dialog", stay)
    await page.reload()
    await expect(page.get_by_label(TOPICS, exact=True)).to_have_value(TEXT)
    assert await stored_topics(sqlite_server.url, token, path) == TEXT
    assert asked == ["beforeunload"]
    await page.context.close()
