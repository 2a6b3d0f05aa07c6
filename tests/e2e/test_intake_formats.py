"""What a person notices of typed formats and questions that apply, in a real browser: a
full-width patient ID and a Japanese era date are taken (and saved half-width and ISO), an
impossible birth date is refused in words, "none" clears the other ticks, the tests of an
earlier pregnancy are not asked after "No", and long texts count their characters."""

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.conftest import unique_email
from tests.e2e.test_accessibility import AGREE, assert_accessible, settle
from tests.support.browser import signed_in
from tests.support.clients import connect, sign_in
from tests.support.server import ServerProcess

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = Path("/tmp/h15-formats-shots")


async def start(
    browser: Browser, server: ServerProcess, lang: str, **page: object
) -> tuple[Page, str]:
    """A signed-in page with a prenatal appointment, consent given; and the document path."""
    person = await sign_in(server.url, unique_email(f"formats-{lang}"))
    async with connect(server.url, person.token) as sock:
        created = await sock.call("appointment-create", {"serviceId": "prenatal"})
        path = f"appointments/{created['data']['appointmentId']}"
    tab = await signed_in(browser, server.url, person, lang, **page)  # type: ignore[arg-type]
    await tab.goto(server.url + "/b/clinic")
    agree = AGREE[lang]
    await tab.get_by_role("button", name=agree).click()
    await expect(tab.get_by_role("button", name=agree)).to_have_count(0)
    tab.set_default_timeout(10_000)
    return tab, path


async def saved_document(server: ServerProcess, page: Page, path: str) -> dict[str, object]:
    cookies = await page.context.cookies()
    token = next(c["value"] for c in cookies if c["name"] == "gc_session")
    async with connect(server.url, token) as sock:
        data: dict[str, object] = (await sock.subscribe(path))["snapshot"]["data"]
        return data


async def test_full_width_era_dates_and_questions_that_apply_in_japanese_on_a_phone(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    page, path = await start(browser, sqlite_server, "ja", zone="Asia/Tokyo", viewport=PHONE)
    base = sqlite_server.url

    # A full-width patient ID: its format is in the hint; it is taken and saved half-width.
    await page.goto(base + "/b/patient")
    role = page.get_by_role("group", name="どなたが回答されますか")
    await role.get_by_label("妊婦さんご本人").check()
    patient_id = page.get_by_label("患者ID（診察券番号）", exact=True)
    await expect(patient_id).to_have_accessible_description(re.compile("英数字"))
    await patient_id.fill("１０２９３８")
    await patient_id.blur()
    await expect(patient_id).to_have_value("102938")
    await page.screenshot(path=str(SHOTS / "patient-ja-phone.png"), full_page=True)
    await assert_accessible(page, "patient ja")
    await page.get_by_role("button", name="保存して次へ").click()
    await expect(page).to_have_url(re.compile("/b/contact$"))

    # An era date is taken; an impossible age is refused in words.
    await page.goto(base + "/b/profile")
    dob = page.get_by_label("女性の生年月日", exact=True)
    await dob.fill("1850/01/01")
    await page.get_by_role("button", name="保存して次へ").click()
    await expect(page.get_by_text("120歳を超える日付は入力できません")).to_be_visible()
    await page.screenshot(path=str(SHOTS / "profile-ja-phone-refused.png"), full_page=True)
    await assert_accessible(page, "profile ja, refused")
    await dob.fill("平成2年4月1日")
    await dob.blur()
    await expect(dob).to_have_value("1990/04/01")
    await expect(page.get_by_text("120歳を超える日付は入力できません")).to_have_count(0)
    await page.get_by_role("button", name="保存して次へ").click()
    await expect(page).to_have_url(re.compile("/b/family$"))
    intake: Any = (await saved_document(sqlite_server, page, path))["intake"]
    assert intake["healthCareProvider"]["patientId"] == "102938", intake
    assert intake["profile"]["femaleDob"] == "1990-04-01", intake

    # "No" to an earlier pregnancy: its tests are not asked.
    await page.goto(base + "/b/pregnancy-history")
    await (
        page.get_by_role("group", name="これまでに妊娠したことがありますか")
        .get_by_label("いいえ")
        .check()
    )
    await page.get_by_role("button", name="保存して次へ").click()
    await page.goto(base + "/b/prenatal-testing")
    await expect(
        page.get_by_role("group", name="今後、出生前検査を受ける予定はありますか")
    ).to_be_visible()
    await expect(
        page.get_by_role("group", name="以前の妊娠で出生前検査を受けたことがありますか")
    ).to_have_count(0)
    await settle(page, "ja")  # the step's fade-in done
    await assert_accessible(page, "prenatal testing ja")

    # "None" is ticked alone.
    await page.goto(base + "/b/expectations")
    expectations = page.get_by_role("group", name="カウンセリングに期待すること")
    await expectations.get_by_label("状況をよく理解したい").check()
    await expectations.get_by_label("専門家の助言がほしい").check()
    await expectations.get_by_label("特になし").check()
    await expect(expectations.get_by_label("状況をよく理解したい")).not_to_be_checked()
    await expect(expectations.get_by_label("専門家の助言がほしい")).not_to_be_checked()
    await expectations.get_by_label("考えを整理したい").check()
    await expect(expectations.get_by_label("特になし")).not_to_be_checked()
    topics = page.get_by_label("カウンセリングでお話ししたいこと", exact=True)
    await expect(page.get_by_text("0 / 2,000")).to_be_visible()
    await topics.fill("検査の結果について")
    await expect(page.get_by_text("9 / 2,000")).to_be_visible()
    await page.screenshot(path=str(SHOTS / "expectations-ja-phone.png"), full_page=True)
    await assert_accessible(page, "expectations ja")
    await page.context.close()


async def test_us_dates_and_the_counter_in_english_on_a_desktop(
    browser: Browser, sqlite_server: ServerProcess
) -> None:
    page, _ = await start(
        browser, sqlite_server, "en", zone="America/Los_Angeles", viewport=DESKTOP
    )
    base = sqlite_server.url
    await page.goto(base + "/b/profile")
    dob = page.get_by_label("Woman's date of birth", exact=True)
    await expect(dob).to_have_accessible_description(re.compile("month/day/year"))
    await dob.fill("04/12/1990")
    await dob.blur()
    await expect(dob).to_have_value("April 12, 1990")
    partner = page.get_by_label("Partner's date of birth", exact=True)
    await partner.fill("1850/01/01")
    await page.get_by_role("button", name="Save and continue").click()
    await expect(page.get_by_text("it would make the person older than 120")).to_be_visible()
    await page.screenshot(path=str(SHOTS / "profile-en-desktop-refused.png"), full_page=True)
    await assert_accessible(page, "profile en, refused")

    await page.goto(base + "/b/expectations")
    topics = page.get_by_label("What would you like to talk about?", exact=True)
    below = page.get_by_role("group", name="What do you expect from the counseling?")
    # The gap from the text box to the next question (the page above may still settle).
    gap = "(e, box) => e.getBoundingClientRect().top - box.getBoundingClientRect().top"
    before = await below.evaluate(gap, await topics.element_handle())
    await topics.fill("x" * 2010)
    await expect(page.get_by_text("2,010 / 2,000")).to_be_visible()
    await expect(page.get_by_text("(10 over the limit)")).to_be_visible()
    # The count was there all along: nothing under the text box moved.
    # (to a fraction of a pixel: the layout rounds to 1/64 px)
    assert abs(await below.evaluate(gap, await topics.element_handle()) - before) < 0.5
    await page.screenshot(path=str(SHOTS / "expectations-en-desktop-over.png"), full_page=True)
    await assert_accessible(page, "expectations en, over the limit")
    await page.context.close()
