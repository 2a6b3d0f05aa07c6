"""The whole journey in a real browser, from the sign-in link to a confirmed appointment, for
the people the issue #15 walk-through could not serve: a person in Japan in Japanese on a
390x844 phone in Asia/Tokyo, and people abroad in English on a 1366x900 desktop in
America/Los_Angeles and in Europe/London (a Latin name, an international phone, a country
other than Japan, an address). axe-core checks the contact step in both languages; a phone
the library refuses is named at its field, and the click right after correcting it lands.

Every step's words come from the definition and the client's locale files, so that a change
of copy does not break the walk. One server (the session's SQLite one) serves every journey.
"""

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import Browser, Page, ViewportSize, expect

from realtime.auth import SESSION_COOKIE
from realtime.intake.definition import RULES, STEPS
from realtime.intake.validate import holds
from tests.conftest import unique_email
from tests.e2e.test_accessibility import assert_accessible, settle
from tests.e2e.test_questionnaire import AGREE, SAVE, TERMS, fill_step
from tests.e2e.test_signin_flow import TEXTS as SIGN_IN
from tests.e2e.test_signin_flow import ask_for_link
from tests.support.booking import free_slots
from tests.support.browser import browser_locale
from tests.support.clients import connect, sign_in
from tests.support.server import ROOT, ServerProcess

SERVICE = "cancer"  # the shortest questionnaire, and free: confirmed without a payment
CLINIC_ZONE = ZoneInfo("Asia/Tokyo")  # the demo clinic's: the calendar shows its days
PHONE = (390, 844)
DESKTOP = (1366, 900)
CONTACT = "contact"


@cache
def locale_file(lang: str, namespace: str) -> dict[str, Any]:
    path = ROOT / "client" / "src" / "locales" / lang / f"{namespace}.json"
    words: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return words


def ui(lang: str, key: str) -> str:
    """A text of the client in `lang`, by its i18next key ("booking:choose.hold")."""
    namespace, path = key.split(":")
    value: Any = locale_file(lang, namespace)
    for part in path.split("."):
        value = value[part]
    assert isinstance(value, str), key
    return value


@dataclass(frozen=True)
class Journey:
    name: str
    lang: str
    zone: str
    viewport: tuple[int, int]
    # The contact step's answers by path (the rest: the first plain answer of each field).
    contact: dict[str, Any]
    # A phone typed first and refused (None: none), and the number then stored.
    wrong_phone: str | None
    stored_phone: str
    extra: dict[str, Any] = field(default_factory=dict)


JOURNEYS = [
    Journey(
        "japan-ja-phone",
        "ja",
        "Asia/Tokyo",
        PHONE,
        {
            "intake.contactInfo.country": "JP",
            "intake.contactInfo.lastName": "ヤマダ",
            "intake.contactInfo.firstName": "ハナコ",
            "intake.contactInfo.phone": "090-1234-5678",
            "intake.contactInfo.subdivision": "JP-27",
        },
        wrong_phone="+81 90 1234 5678",  # the spec's domestic form: digits and dashes
        stored_phone="090-1234-5678",
    ),
    Journey(
        "abroad-en-los-angeles",
        "en",
        "America/Los_Angeles",
        DESKTOP,
        {
            "intake.contactInfo.country": "US",
            "intake.contactInfo.lastName": "Carter",
            "intake.contactInfo.firstName": "Emily",
            "intake.contactInfo.nameKana": "カーター エミリー",
            "intake.contactInfo.phone": "+1 (415) 555-0134",
            "intake.contactInfo.address": "500 Market St\nSan Francisco, CA 94105",
        },
        wrong_phone="+1 (415) 555-01",
        stored_phone="+14155550134",
    ),
    Journey(
        "abroad-en-london",
        "en",
        "Europe/London",
        DESKTOP,
        {
            "intake.contactInfo.country": "GB",
            "intake.contactInfo.lastName": "O’Brien-Núñez",
            "intake.contactInfo.firstName": "Zoë",
            "intake.contactInfo.phone": "020 7946 0958",  # read in the country chosen
            "intake.contactInfo.address": "10 Downing St, London SW1A 2AA",
        },
        wrong_phone=None,
        stored_phone="+442079460958",
    ),
]


async def contact_step(page: Page, journey: Journey, answers: dict[str, Any]) -> None:
    """Fill the contact step as the journey's person; a refused phone first when it has one,
    with axe-core run on the step as it then stands."""
    step = next(s for s in STEPS if s.id == CONTACT)
    phone_path = "intake.contactInfo.phone"
    chosen = dict(journey.contact)
    if journey.wrong_phone is not None:
        chosen[phone_path] = journey.wrong_phone
    await fill_step(page, step.fields, answers, journey.lang, SERVICE, chosen)
    phone = page.get_by_role("textbox", name=re.compile(r"^(Phone number|電話番号)"))
    if journey.wrong_phone is not None:
        await page.get_by_role("button", name=SAVE[journey.lang]).click()
        rule = "phone" if journey.contact["intake.contactInfo.country"] == "JP" else None
        words = RULES[rule or "internationalPhone"].message[journey.lang]
        await expect(phone).to_have_attribute("aria-invalid", "true")
        await expect(page.get_by_text(words, exact=True)).to_be_visible()
        await expect(page).to_have_url(re.compile(r"/b/contact$"))
        await assert_accessible(page, f"{journey.name} /b/contact (a phone refused)")
        await phone.fill(journey.contact[phone_path])
    else:
        await assert_accessible(page, f"{journey.name} /b/contact")
    # No country's name, however long, widens the page past the screen (a phone's 390 px).
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= journey.viewport[0], width
    # Right after the correction: the click lands on the button and the step is saved.
    await page.get_by_role("button", name=SAVE[journey.lang]).click()


async def choose_a_time(page: Page, base: str, token: str, lang: str) -> None:
    async with connect(base, token) as sock:
        slot = (await free_slots(sock, SERVICE))[0]
    start = datetime.fromisoformat(slot["start"]).astimezone(CLINIC_ZONE)
    await expect(page).to_have_url(re.compile(r"/b/appointment$"))
    await page.locator(f'[role="grid"] [data-day="{start:%Y-%m-%d}"]').click()
    await page.get_by_role("radio", name=re.compile(f"^{start:%H:%M}")).check()
    await page.get_by_role("button", name=ui(lang, "booking:choose.hold")).click()


@pytest.mark.parametrize("journey", JOURNEYS, ids=[j.name for j in JOURNEYS])
async def test_sign_in_to_confirmed(
    browser: Browser, sqlite_server: ServerProcess, journey: Journey
) -> None:
    base, lang = sqlite_server.url, journey.lang
    width, height = journey.viewport
    context = await browser.new_context(
        locale=browser_locale(lang),
        timezone_id=journey.zone,
        viewport=ViewportSize(width=width, height=height),
    )
    errors: list[str] = []
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    email = unique_email(f"journey-{journey.name}")

    link = await ask_for_link(page, base, email, lang, f"?serviceId={SERVICE}")
    await page.goto(link)
    await expect(page.get_by_role("heading", level=1)).to_have_text(SIGN_IN[lang]["booking"])
    token = next(c["value"] for c in await context.cookies() if c["name"] == SESSION_COOKIE)
    await page.get_by_role("button", name=AGREE[lang]).click()

    answers: dict[str, Any] = {}
    steps = [s for s in STEPS if holds(s.when, {}, SERVICE)]
    for step in steps:
        await expect(page).to_have_url(re.compile(f"{step.route}$"))
        await settle(page, lang)
        if step.id == CONTACT:
            await contact_step(page, journey, answers)
        else:
            await fill_step(page, step.fields, answers, lang, SERVICE)
            await page.get_by_role("button", name=SAVE[lang]).click()

    await choose_a_time(page, base, token, lang)
    await expect(page).to_have_url(re.compile(r"/b/review$"))
    await settle(page, lang)
    # The review names the contact answers as they were asked, in the person's words.
    for path, value in journey.contact.items():
        if path.endswith(("country", "subdivision", "phone", "address")):
            continue
        await expect(page.get_by_text(value, exact=True).first).to_be_visible()
    await page.get_by_role("checkbox", name=TERMS[lang]).check()
    await page.get_by_role("button", name=ui(lang, "booking:submit.confirm")).click()
    await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=20_000)
    await expect(page.get_by_role("link", name=ui(lang, "booking:confirmed.join"))).to_be_visible()

    stored = await stored_contact(base, email)
    assert stored["phone"] == journey.stored_phone
    assert stored["country"] == journey.contact["intake.contactInfo.country"]
    assert errors == [], errors
    await context.close()


async def stored_contact(base: str, email: str) -> dict[str, Any]:
    """The contact answers of the person's appointment as the server keeps them (read
    through a second session of theirs)."""
    account = await sign_in(base, email)
    async with connect(base, account.token) as sock:
        user = (await sock.subscribe(f"users/{account.uid}"))["snapshot"]["data"]
        appointment = await sock.subscribe(f"appointments/{user['appointmentId']}")
    info: dict[str, Any] = appointment["snapshot"]["data"]["intake"]["contactInfo"]
    return info
