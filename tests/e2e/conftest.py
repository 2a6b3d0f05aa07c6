"""A real browser: Debian's chromium, headless, driven by Playwright.

Every browser context records the console messages of Content-Security-Policy violations,
and a test during which one was printed fails: the policy (realtime/security_headers.py)
must allow everything the client does.
"""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, ConsoleMessage, async_playwright

from tests.support.oidc_local import OidcLocal
from tests.support.server import ServerProcess
from tests.test_oidc_signin import _server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CSP_MARK = "Content Security Policy"
CSP_VIOLATIONS: list[str] = []


def record_csp_violation(message: ConsoleMessage) -> None:
    if CSP_MARK in message.text:
        CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {message.text}")


def watch_csp(browser: Browser) -> None:
    """Make every `browser.new_context()` report CSP violations to CSP_VIOLATIONS."""
    new_context = browser.new_context

    async def watched_context(**options: Any) -> BrowserContext:
        context = await new_context(**options)
        context.on("console", record_csp_violation)
        return context

    browser.new_context = watched_context  # type: ignore[method-assign]


@pytest_asyncio.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        watch_csp(chromium)
        yield chromium
        await chromium.close()


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    CSP_VIOLATIONS.clear()
    yield
    assert not CSP_VIOLATIONS, "Content-Security-Policy violations:\n" + "\n".join(CSP_VIOLATIONS)


@pytest.fixture(scope="module")
def idp(run_dir: Path, request: pytest.FixtureRequest) -> Iterator[OidcLocal]:
    """The local OpenID Connect provider of a module's browser tests."""
    local = OidcLocal(log_path=run_dir / f"{request.module.__name__}-idp.log").start()
    yield local
    local.stop()


@pytest.fixture(scope="module")
def idp_server(
    run_dir: Path, idp: OidcLocal, request: pytest.FixtureRequest
) -> Iterator[ServerProcess]:
    """A server on a SQLite file of its own whose demo clinic signs staff in at `idp`."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{run_dir / f'{name}.db'}"}
    server = _server(env, run_dir, name, idp).start()
    yield server
    server.stop()
