"""A clinic administrator sets the clinic's own sign-in service on /staff/identity in chromium,
then a counselor of that clinic signs in with it from the staff sign-in screen (docs/product.md,
"The clinic's sign-in service"): the real local provider process (infra/oidc_local) stands for
Entra ID or Google. A wrong issuer is refused at its field first, in the person's language.
Japanese on a phone in Asia/Tokyo, English on a desktop in New York; axe-core on the screen
empty, refused and saved. Screenshots go to var/e2e-screenshots/.
"""

import re
import secrets

import pytest
from playwright.async_api import Browser, ViewportSize, expect

from tests.e2e.test_accessibility import assert_accessible
from tests.e2e.test_staff_board import LAYOUTS
from tests.e2e.test_staff_signin_flow import new_context, shoot
from tests.support.browser import signed_in
from tests.support.oidc_local import CLIENT_ID, CLIENT_SECRET, OidcLocal
from tests.support.server import ServerProcess
from tests.test_staff_accounts import team_clinic

WORDS = {
    "ja": {
        "nav": "ログインサービス",
        "title": "ログインサービス",
        "name": "ログインボタンに表示する名前",
        "issuer": "発行者（Issuer）",
        "clientId": "クライアントID",
        "secret": "クライアントシークレット",
        "save": "保存",
        "saved": "保存しました。",
        "mismatch": "別の発行者を示しています",
        "copy": "リダイレクトURIをコピー",
        "copied": "コピーしました。",
        "on": "有効：スタッフはこのサービスでログインします",
        "board": "予約ボード",
    },
    "en": {
        "nav": "Sign-in service",
        "title": "Sign-in service",
        "name": "Name on the sign-in button",
        "issuer": "Issuer",
        "clientId": "Client ID",
        "secret": "Client secret",
        "save": "Save",
        "saved": "Saved.",
        "mismatch": "gives another issuer",
        "copy": "Copy the redirect URI",
        "copied": "Copied.",
        "on": "On: staff sign in through this service",
        "board": "Bookings board",
    },
}


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_an_admin_sets_the_provider_and_a_counselor_signs_in_with_it(
    browser: Browser,
    idp_server: ServerProcess,
    idp: OidcLocal,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    words = WORDS[lang]
    team = await team_clinic(idp_server)
    provider_name = f"IdP {secrets.token_hex(3)}"
    page = await signed_in(browser, team.url, team.admin, lang, zone, viewport)
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    await page.goto(team.url + "/staff")
    await page.get_by_role("link", name=words["nav"], exact=True).click()
    await expect(page.get_by_role("heading", level=1, name=words["title"])).to_be_visible()
    redirect = page.get_by_role("textbox", name=re.compile("URI"))
    await expect(redirect).to_have_value(f"{team.url}/auth/oidc/callback")
    await page.get_by_role("button", name=words["copy"]).click()
    await expect(page.get_by_text(words["copied"], exact=True)).to_be_visible()
    await assert_accessible(page, f"/staff/identity empty ({lang}, {name})")
    await shoot(page, f"identity-empty-{name}")

    # An issuer whose discovery document names another (a slash too many) is refused there.
    await page.get_by_label(words["name"]).fill(provider_name)
    await page.get_by_label(words["issuer"]).fill(idp.url + "/")
    await page.get_by_label(words["clientId"], exact=True).fill(CLIENT_ID)
    await page.get_by_label(words["secret"], exact=True).fill(CLIENT_SECRET)
    await page.get_by_role("button", name=words["save"], exact=True).click()
    await expect(page.get_by_text(re.compile(words["mismatch"]))).to_be_visible()
    await expect(page.get_by_label(words["issuer"])).to_have_attribute("aria-invalid", "true")
    await page.wait_for_timeout(350)
    await assert_accessible(page, f"/staff/identity refused ({lang}, {name})")
    await shoot(page, f"identity-refused-{name}")

    await page.get_by_label(words["issuer"]).fill(idp.url)
    await page.get_by_label(words["secret"], exact=True).fill(CLIENT_SECRET)
    await page.get_by_role("button", name=words["save"], exact=True).click()
    await expect(page.get_by_text(words["saved"], exact=True)).to_be_visible()
    await expect(page.get_by_text(words["on"], exact=True)).to_be_visible()
    await expect(page.get_by_label(words["secret"], exact=True)).to_have_value("")
    await page.wait_for_timeout(350)
    await assert_accessible(page, f"/staff/identity saved ({lang}, {name})")
    await shoot(page, f"identity-saved-{name}")
    await page.context.close()

    # A counselor of the clinic signs in with it from the staff sign-in screen.
    invited = await team.invite(team.address("counselor"), "counselor", team.counselors[0])
    await idp.add_user(invited["email"], mfa=True)
    context = await new_context(browser, lang, zone, viewport)
    page = await context.new_page()
    await page.goto(f"{team.url}/?next=/staff")
    button = page.get_by_role("link", name=re.compile(re.escape(provider_name)))
    await expect(button).to_be_visible()
    await button.click()
    await page.get_by_role("button", name=invited["email"]).click()  # at the provider
    await expect(page.get_by_role("heading", name=words["board"], level=1)).to_be_visible()
    assert page.url.startswith(f"{team.url}/staff")
    await shoot(page, f"identity-counselor-board-{name}")
    await context.close()
