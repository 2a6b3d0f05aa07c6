"""Withdrawing consent and deleting one's data from the terms page, in a real browser."""

import httpx
from playwright.async_api import Browser, expect

from tests.support.booking import person
from tests.support.browser import signed_in
from tests.support.clients import Account, outbox
from tests.support.server import ServerProcess


async def test_a_person_erases_their_data_from_the_terms_page(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.url
    async with person(base, complete=True) as someone:
        account = Account(someone.uid, someone.email, someone.token)
        page = await signed_in(browser, base, account, "ja")
        try:
            await page.goto(f"{base}/terms")
            await page.get_by_role("button", name="同意を撤回してデータを削除する…").click()
            dialog = page.get_by_role("alertdialog", name="データを削除しますか？")
            await expect(dialog.get_by_text("この操作は取り消せません。")).to_be_visible()
            await dialog.get_by_role("button", name="はい、削除します").click()
            await expect(page.get_by_role("alert")).to_have_text(
                "同意の撤回とデータの削除が完了し、ログアウトしました。"
                "確認のメールをお送りしましたので、ご確認ください。"
            )
        finally:
            await page.context.close()
    async with httpx.AsyncClient(base_url=base) as http:
        bearer = {"Authorization": f"Bearer {someone.token}"}
        session = await http.get("/auth/session", headers=bearer)
    assert session.json() == {"data": None}
    mails = await outbox(base, someone.email)
    assert len(mails) == 1 and "同意の撤回とデータ削除" in mails[0]["subject"]
