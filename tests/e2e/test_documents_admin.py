"""Clinic documents in a real browser: the demo clinic administrator opens /staff/documents,
uploads a PDF (its session cookie and our Origin: the cross-site rule of uploads), sees it
listed, and the downloads page shows the new title, type and size; then retires it after the
confirmation and the downloads page says it is no longer available. No serious or critical
axe-core finding: in Japanese on a phone in Asia/Tokyo, in English on a desktop in another
zone. Screenshots go to var/e2e-screenshots/."""

import secrets

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from tests.e2e.test_accessibility import AGREE, assert_accessible, signed_in_context
from tests.support.browser import signed_in
from tests.support.clients import sign_in
from tests.support.server import ROOT, ServerProcess

ADMIN = "staff@demo-clinic.example"
SCREENSHOTS = ROOT / "var" / "e2e-screenshots"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n" + b"%" * 3000

WORDS = {
    "ja": {
        "title": "文書の管理",
        "docId": "文書ID",
        "locale": "文書の言語",
        "language": "日本語",
        "titleField": "タイトル",
        "file": "ファイル",
        "upload": "アップロード",
        "uploaded": "をアップロードしました",
        "retire": "公開停止",
        "confirm": "公開を停止する",
        "dialog": "この文書の公開を停止しますか？",
        "retired": "この文書は現在提供していません。",
        "pdf": "PDF",
        "docTitle": "検査のご案内（2026年版）",
    },
    "en": {
        "title": "Clinic documents",
        "docId": "Document ID",
        "locale": "Document language",
        "language": "English",
        "titleField": "Title",
        "file": "File",
        "upload": "Upload",
        "uploaded": "Uploaded",
        "retire": "Retire",
        "confirm": "Retire the document",
        "dialog": "Retire this document?",
        "retired": "This document is no longer available.",
        "pdf": "PDF document",
        "docTitle": "Testing guide (2026 edition)",
    },
}

LAYOUTS: list[tuple[str, str, ViewportSize, str]] = [
    ("ja", "Asia/Tokyo", {"width": 390, "height": 844}, "phone"),
    ("en", "Europe/Berlin", {"width": 1366, "height": 900}, "desktop"),
]


async def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("lang", "zone", "viewport", "name"), LAYOUTS)
async def test_an_admin_uploads_and_retires_a_document(
    browser: Browser,
    sqlite_server: ServerProcess,
    lang: str,
    zone: str,
    viewport: ViewportSize,
    name: str,
) -> None:
    base = sqlite_server.url
    words = WORDS[lang]
    doc = f"guide-{secrets.token_hex(3)}"
    admin = await sign_in(base, ADMIN)
    page = await signed_in(browser, base, admin, lang, zone, viewport)
    try:
        await page.goto(base + "/staff/documents")
        await expect(page.get_by_role("heading", level=1, name=words["title"])).to_be_visible(
            timeout=15_000
        )
        await expect(page.locator('tr[data-doc="consent-form/ja"]')).to_be_visible()
        await assert_accessible(page, f"/staff/documents ({lang}, {name})")
        await shot(page, f"staff-documents-{lang}-{name}")

        await page.get_by_label(words["docId"]).fill(doc)
        await page.get_by_label(words["locale"], exact=True).select_option(label=words["language"])
        await page.get_by_label(words["titleField"], exact=True).fill(words["docTitle"])
        await page.get_by_label(words["file"], exact=True).set_input_files(
            {"name": "guide.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
        await page.get_by_role("button", name=words["upload"], exact=True).click()
        announcer = page.get_by_test_id("documents-announcer")
        await expect(announcer).to_contain_text(words["uploaded"], timeout=15_000)
        row = page.locator(f'tr[data-doc="{doc}/{lang}"]')
        await expect(row).to_contain_text(words["docTitle"])
        await assert_accessible(page, f"/staff/documents after an upload ({lang}, {name})")
        await shot(page, f"staff-documents-uploaded-{lang}-{name}")

        await page.goto(f"{base}/downloads/demo-clinic/{doc}/{lang}")
        card = page.locator(".download-card")
        await expect(card.get_by_role("heading", level=2, name=words["docTitle"])).to_be_visible(
            timeout=15_000
        )
        await expect(card).to_contain_text(words["pdf"])
        await expect(card).to_contain_text("3")  # about 3 kB
        await assert_accessible(page, f"/downloads after an upload ({lang}, {name})")
        await shot(page, f"downloads-uploaded-{lang}-{name}")

        await page.goto(base + "/staff/documents")
        await row.get_by_role("button", name=words["retire"]).click()
        dialog = page.get_by_role("dialog", name=words["dialog"])
        await expect(dialog).to_be_visible()
        await page.wait_for_timeout(400)  # its fade-in done: axe reads colours as drawn
        await assert_accessible(page, f"retire dialog ({lang}, {name})")
        await shot(page, f"staff-documents-retire-{lang}-{name}")
        await dialog.get_by_role("button", name=words["confirm"]).click()
        await expect(dialog).to_have_count(0, timeout=15_000)
        await expect(row.locator(".staff-document-state.retired")).to_be_visible()

        await page.goto(f"{base}/downloads/demo-clinic/{doc}/{lang}")
        await expect(page.get_by_text(words["retired"])).to_be_visible(timeout=15_000)
        await expect(page.locator(".download-card")).to_have_count(0)
        await assert_accessible(page, f"/downloads of a retired document ({lang}, {name})")
        await shot(page, f"downloads-retired-{lang}-{name}")
    finally:
        await page.context.close()


CONSENT_LINK = {
    "ja": "同意書をダウンロード（閲覧・印刷用）",
    "en": "Download the consent form to read or print",
}


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_the_consent_step_links_the_consent_form_in_the_persons_language(
    browser: Browser, sqlite_server: ServerProcess, lang: str
) -> None:
    base = sqlite_server.url
    context, _person = await signed_in_context(browser, base, lang)
    try:
        page = await context.new_page()
        await page.goto(base + "/b/clinic")
        await expect(page.get_by_role("button", name=AGREE[lang])).to_be_visible(timeout=15_000)
        link = page.get_by_role("link", name=CONSENT_LINK[lang])
        await expect(link).to_have_attribute("href", f"/downloads/demo-clinic/consent-form/{lang}")
        await page.wait_for_timeout(350)
        await assert_accessible(page, f"/b/clinic consent gate with its link ({lang})")
        await shot(page, f"consent-gate-link-{lang}")
        await link.click()
        await expect(page.locator(".download-card")).to_be_visible(timeout=15_000)
    finally:
        await context.close()
