"""Staff sign in at their clinic's own identity provider in chromium (docs/protocol.md, "Staff
sign-in through the clinic's identity provider"): the sign-in screen of the staff workspace
offers "Sign in with Local IdP", the browser goes to the real local provider process
(infra/oidc_local), the person picks their account there and comes back signed in on the
board (the provider asserted MFA); a person with no account here comes back to the sign-in
screen told so in their language. Japanese on a phone in Asia/Tokyo, English on a desktop
in New York; axe-core on the sign-in screen with the provider and with the refusal.
"""

import re

import pytest
from playwright.async_api import Browser, ViewportSize, expect

from tests.conftest import unique_email
from tests.e2e.test_accessibility import assert_accessible
from tests.e2e.test_staff_signin_flow import new_context, shoot
from tests.support.oidc_local import OidcLocal
from tests.support.server import ServerProcess
from tests.test_oidc_signin import new_member

LAYOUTS: list[tuple[str, str, ViewportSize, str]] = [
    ("ja", "Asia/Tokyo", {"width": 390, "height": 844}, "phone"),
    ("en", "America/New_York", {"width": 1366, "height": 900}, "desktop"),
]
TEXTS = {
    "ja": {
        "button": "Local IdPでログイン",
        "board": "予約ボード",
        "unknown": "アクセス権がありません",
    },
    "en": {"button": "Sign in with Local IdP", "board": "Bookings board", "unknown": "no access"},
}


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_staff_sign_in_at_the_clinics_provider_and_land_on_the_board(
    browser: Browser,
    idp_server: ServerProcess,
    idp: OidcLocal,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base, texts = idp_server.url, TEXTS[lang]
    email = await new_member(base)
    await idp.add_user(email, mfa=True)
    context = await new_context(browser, lang, zone, viewport)
    page = await context.new_page()
    await page.goto(f"{base}/?next=/staff")
    button = page.get_by_role("link", name=re.compile(texts["button"]))
    await expect(button).to_be_visible()
    await assert_accessible(page, f"oidc sign-in screen {name}")
    await shoot(page, f"oidc-signin-{name}")
    await button.click()
    await page.get_by_role("button", name=email).click()  # at the provider
    await expect(page.get_by_role("heading", name=texts["board"], level=1)).to_be_visible()
    assert page.url.startswith(f"{base}/staff")
    await shoot(page, f"oidc-board-{name}")

    # Someone the clinic never invited comes back to the sign-in screen, told why.
    stranger = unique_email("stranger")
    await idp.add_user(stranger, mfa=True)
    other = await new_context(browser, lang, zone, viewport)
    page = await other.new_page()
    await page.goto(f"{base}/?next=/staff")
    await page.get_by_role("link", name=re.compile(texts["button"])).click()
    await page.get_by_role("button", name=stranger).click()
    await expect(page.get_by_role("alert")).to_contain_text(texts["unknown"])
    assert "staffSignIn=unknown" in page.url
    await assert_accessible(page, f"oidc refusal {name}")
    await shoot(page, f"oidc-refused-{name}")
    await context.close()
    await other.close()
