"""The team screen in a real browser: a clinic administrator opens /staff/team, invites a
counselor and sees them listed (and the invitation in the outbox), then opens the removal
dialog and goes back; no serious or critical axe-core finding on the page or in the dialog,
in Japanese on a phone in Asia/Tokyo and in English on a desktop in another zone. And a member
removed through the dialog is signed out of their open page at once and is a client when they
sign in again. Screenshots go to var/e2e-screenshots/."""

import pytest
from playwright.async_api import Browser, ViewportSize, expect

from realtime.auth import SESSION_COOKIE
from tests.e2e.test_accessibility import assert_accessible
from tests.e2e.test_staff_board import LAYOUTS, SCREENSHOTS
from tests.support.browser import signed_in
from tests.support.clients import outbox, sign_in
from tests.support.server import ServerProcess
from tests.test_staff_accounts import team_clinic

WORDS = {
    "ja": {
        "title": "スタッフ",
        "email": "メールアドレス",
        "counselor": "カウンセラー",
        "counselorName": "相談員1",
        "submit": "招待メールを送る",
        "sent": "に招待メールを送りました。",
        "remove": "のアクセスを停止",
        "keep": "戻る",
        "notYet": "未設定",
    },
    "en": {
        "title": "Team",
        "email": "E-mail address",
        "counselor": "Counselor",
        "counselorName": "Counselor 1",
        "submit": "Send the invitation",
        "sent": "The invitation was sent to",
        "remove": "Remove ",
        "keep": "Go back",
        "notYet": "Not set up yet",
    },
}


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_an_admin_invites_a_counselor_and_sees_them_listed(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    words = WORDS[lang]
    team = await team_clinic(sqlite_server)
    invited = team.address(f"e2e-{lang}")
    page = await signed_in(browser, team.url, team.admin, lang, zone, viewport)
    try:
        await page.goto(team.url + "/staff/team")
        await expect(page.get_by_role("heading", level=1, name=words["title"])).to_be_visible(
            timeout=15_000
        )
        await expect(page.get_by_role("table")).to_be_visible(timeout=15_000)
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/team ({lang}, {name})")

        await page.get_by_label(words["email"], exact=True).fill(invited)
        await page.get_by_role("combobox", name=words["counselor"], exact=True).select_option(
            label=words["counselorName"]
        )
        await page.get_by_role("button", name=words["submit"]).click()
        await expect(page.get_by_text(words["sent"])).to_be_visible(timeout=15_000)
        row = page.get_by_role("row").filter(has_text=invited)
        await expect(row).to_be_visible(timeout=15_000)
        await expect(row).to_contain_text(words["counselorName"])
        await expect(row).to_contain_text(words["notYet"])
        [mail] = await outbox(team.url, invited)
        assert mail["links"][0].endswith("/?next=%2Fstaff")
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/team after an invitation ({lang}, {name})")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SCREENSHOTS / f"team-{lang}-{name}.png"), full_page=True)

        await row.get_by_role("button", name=words["remove"]).click()
        dialog = page.get_by_role("dialog")
        await expect(dialog).to_be_visible()
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/staff/team removal dialog ({lang}, {name})")
        await page.screenshot(path=str(SCREENSHOTS / f"team-remove-{lang}-{name}.png"))
        await dialog.get_by_role("button", name=words["keep"]).click()
        await expect(dialog).to_have_count(0)
    finally:
        await page.context.close()


async def test_a_member_removed_on_the_screen_is_signed_out_and_then_not_staff(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    """The removal confirmed in the dialog: the member's open page is signed out at once, and
    signing in again with their address shows the page for clients under /staff."""
    team = await team_clinic(sqlite_server)
    email = team.address("removed-e2e")
    await team.invite(email, "clinic_admin")
    member = await sign_in(team.url, email)
    admin_page = await signed_in(browser, team.url, team.admin, "en", "Europe/Berlin")
    member_page = await signed_in(browser, team.url, member, "en", "Europe/Berlin")
    try:
        await member_page.goto(team.url + "/staff/team")
        await expect(member_page.get_by_role("heading", level=1, name="Team")).to_be_visible(
            timeout=15_000
        )
        await admin_page.goto(team.url + "/staff/team")
        row = admin_page.get_by_role("row").filter(has_text=email)
        await row.get_by_role("button", name=f"Remove {email}").click()
        await admin_page.get_by_role("dialog").get_by_role("button", name="Remove access").click()
        await expect(row).to_contain_text("Removed on", timeout=15_000)
        # The member's open page lost its session at once: it is back at the sign-in.
        await expect(
            member_page.get_by_text("Your session has ended. Please sign in again.")
        ).to_be_visible(timeout=15_000)

        again = await sign_in(team.url, email)
        await member_page.context.add_cookies(
            [{"name": SESSION_COOKIE, "value": again.token, "url": team.url}]
        )
        await member_page.goto(team.url + "/staff/team")
        await expect(
            member_page.get_by_role("heading", level=1, name="This page is for clinic staff")
        ).to_be_visible(timeout=15_000)
        await member_page.screenshot(path=str(SCREENSHOTS / "team-removed-member-en.png"))
    finally:
        await admin_page.context.close()
        await member_page.context.close()
