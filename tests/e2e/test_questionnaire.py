"""Every questionnaire step filled in a real browser, for each service in ja and en, driven
by the one intake definition; a reload midway loses nothing; review finds nothing missing."""

import json
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from realtime.intake.definition import STEPS, Field
from realtime.intake.validate import holds
from realtime.nested import set_nested
from tests.conftest import unique_email
from tests.support.clients import connect, sign_in
from tests.support.server import ROOT, ServerProcess

DEFINITION = json.loads((ROOT / "realtime" / "intake" / "definition.json").read_text())
LABELS = {f["path"]: f for s in DEFINITION["steps"] for f in s["fields"]}
SAVE = {"en": "Save and continue", "ja": "保存して次へ"}
AGREE = {"en": "Agree and start answering", "ja": "同意して回答を始める"}
ADD_REPORT = {"en": "Add report", "ja": "レポートを追加"}
ENTRY = {"en": "Entry 1", "ja": "1件目"}
TERMS = {"en": "I agree to the terms of service", "ja": "利用規約に同意します"}
CONTINUE = {"en": "Continue to choose a date and time", "ja": "日時の選択へ進む"}
MISSING = {"en": "Some information is missing.", "ja": "未入力の項目があります。"}
TEXTS = {
    "katakana": "ヤマダ",
    "latinName": "Yamada",
    "internationalPhone": "+1 415 555 0134",
    "phone": "03-1234-5678",
    "email": "hanako@example.jp",
    "customAlphanumeric": "CR123",
    "patientId": "P001",
}
DATES = {"femaleDob": "1990-04-01", "testReportDate": "2026-01-05"}
CATEGORY = {"prenatal": "prenatal", "pgt": "pgt", "cancer": "cancer"}


def option_list(spec: dict[str, Any], category: str) -> list[dict[str, Any]]:
    name = spec["options"]
    if isinstance(name, dict):
        name = name.get(category, name["default"])
    options: list[dict[str, Any]] = DEFINITION["options"][name]
    return options


def answer_for(spec: dict[str, Any], category: str) -> Any:
    """An answer that asks for no follow-up: the last plain option, or a sensible text."""
    kind = spec["type"]
    if spec["path"] == "intake.contactInfo.country":
        return "JP"  # a person in Japan here; people abroad: tests/e2e/test_journeys.py
    if kind in ("radio", "select", "scale"):
        plain = [
            o
            for o in option_list(spec, category)
            if o["value"] not in ("other", "unknown") and not o.get("retired")
        ]
        return plain[-1]["value"]
    if kind == "checkbox":
        return [option_list(spec, category)[0]["value"]]
    if kind == "number":
        return 0
    if kind == "date":
        return DATES[spec["path"].rsplit(".", 1)[-1]]
    return TEXTS.get(spec.get("rule", ""), "トウキョウ")


def label_of(spec: dict[str, Any], lang: str) -> str:
    return str(spec["label"][lang])


async def fill(
    scope: Page | Locator, spec: dict[str, Any], value: Any, lang: str, category: str
) -> None:
    kind, label = spec["type"], label_of(spec, lang)
    if kind in ("radio", "scale", "checkbox"):
        group = scope.get_by_role("group", name=label, exact=True)
        chosen = value if isinstance(value, list) else [value]
        for option in option_list(spec, category):
            if option["value"] in chosen:
                await group.get_by_label(option["label"][lang], exact=True).check()
    elif kind == "select":
        option = next(o for o in option_list(spec, category) if o["value"] == value)
        await scope.get_by_label(label, exact=True).select_option(label=option["label"][lang])
    else:
        await scope.get_by_label(label, exact=True).fill(str(value))


def asked(spec: dict[str, Any], answers: dict[str, Any], category: str) -> dict[str, Any]:
    """The field as the page asks it: the rule and label of its first case that holds."""
    for case in spec.get("cases", []):
        if holds(case["when"], answers, category):
            return {**spec, **{key: case[key] for key in ("rule", "label") if key in case}}
    return spec


async def fill_step(
    page: Page,
    step_fields: tuple[Field, ...],
    answers: dict[str, Any],
    lang: str,
    category: str,
    chosen: dict[str, Any] | None = None,
) -> None:
    """Answer the shown required fields of a step (and those `chosen` names: path -> value),
    in order; `answers` follows what was filled."""
    chosen = chosen or {}
    for field in step_fields:
        spec = asked(LABELS[field.path], answers, category)
        if not holds(field.when, answers, category):
            continue
        needed = field.required or (
            field.required_when is not None and holds(field.required_when, answers, category)
        )
        if not needed and field.path not in chosen:
            continue
        if field.type == "repeater":
            await page.get_by_role("button", name=ADD_REPORT[lang]).click()
            entry = page.get_by_role("group", name=ENTRY[lang], exact=True)
            for item in spec["fields"]:
                if item.get("required"):
                    await fill(entry, item, answer_for(item, category), lang, category)
            continue
        value = chosen[field.path] if field.path in chosen else answer_for(spec, category)
        await fill(page, spec, value, lang, category)
        answers.update(set_nested(answers, field.path.split("."), value))


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("service", ["prenatal", "pgt", "cancer"])
async def test_every_step_for_each_service(
    browser: Browser, sqlite_server: ServerProcess, service: str, lang: str
) -> None:
    base, category = sqlite_server.url, CATEGORY[service]
    person = await sign_in(base, unique_email(f"q-{service}-{lang}"))
    async with connect(base, person.token) as sock:
        await sock.call("appointment-create", {"serviceId": service})
        await sock.update(f"users/{person.uid}", {"locale": lang})
    context = await browser.new_context(locale="ja-JP" if lang == "ja" else "en-US")
    await context.add_cookies([{"name": "gc_session", "value": person.token, "url": base}])
    page = await context.new_page()
    await page.goto(base + "/b/clinic")
    await page.get_by_role("button", name=AGREE[lang]).click()
    answers: dict[str, Any] = {}
    steps = [s for s in STEPS if holds(s.when, answers, category)]
    for index, step in enumerate(steps):
        await expect(page).to_have_url(re.compile(f"{step.route}$"))
        await fill_step(page, step.fields, answers, lang, category)
        await page.get_by_role("button", name=SAVE[lang]).click()
        if step.id == "contact":  # reload midway: what was saved is still there
            await expect(page).to_have_url(re.compile(f"{steps[index + 1].route}$"))
            await page.reload()
            await page.goto(base + "/b/contact")
            last_name = LABELS["intake.contactInfo.lastName"]
            await expect(page.get_by_label(label_of(last_name, lang), exact=True)).to_have_value(
                TEXTS["katakana"]
            )
            await page.get_by_role("button", name=SAVE[lang]).click()
    await page.goto(base + "/b/review")
    await expect(page.get_by_role("checkbox", name=TERMS[lang])).to_be_visible()
    await expect(page.get_by_text(MISSING[lang])).to_have_count(0)
    await page.get_by_role("checkbox", name=TERMS[lang]).check()
    await expect(page.get_by_role("button", name=CONTINUE[lang])).to_be_enabled()
    await context.close()
