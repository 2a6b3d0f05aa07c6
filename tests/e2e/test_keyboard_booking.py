"""The whole booking flow with the keyboard alone, in a real browser, on each backend.

A signed-in person whose questionnaire is complete (set up through the API) opens
/b/appointment; from then on only keys are pressed (Tab, Shift+Tab, arrows, Home, End,
PageUp, PageDown, Enter, Space, Escape, and typing the cancel reason): the calendar grid
(after the counselor choice, left at "Any counselor"), a time, the e-mail language, "Hold
this time", the terms and "Confirm booking" on the review, then on /b/confirmed the cancel
dialog (named, described, modal, Tab and Shift+Tab kept inside, Escape gives focus back to
its opener) and the cancel itself. Between key presses the test asserts which element has
focus, so it proves that the focus order reaches every control and that focus lands on the
new page's title after each step change.
"""

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Browser, Locator, Page, expect

from storage.demo import COUNSELORS
from tests.support.booking import Person, free_slots, person
from tests.support.browser import browser_of
from tests.support.server import ServerProcess

TOKYO = ZoneInfo("Asia/Tokyo")  # the demo clinic's zone: the calendar shows its days
DEFAULT_HORIZON_DAYS = 60
CANCEL_REASON = "My plans changed"
COUNSELOR_NAMES = {counselor[0]: counselor[2] for counselor in COUNSELORS}  # id -> English name


def day_label(day: date) -> str:
    """A calendar day's name in en, e.g. "Wednesday, March 5, 2025"."""
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def month_of(day: date) -> date:
    return day.replace(day=1)


def add_months(month: date, delta: int) -> date:
    index = month.year * 12 + month.month - 1 + delta
    return date(index // 12, index % 12 + 1, 1)


def sunday_index(day: date) -> int:
    """0 for Sunday ... 6 for Saturday (the calendar's weeks start on Sunday)."""
    return (day.weekday() + 1) % 7


@dataclass(frozen=True)
class CalendarModel:
    """What the calendar does with a key (client/src/components/CalendarGrid.tsx; the month
    range is booking/BookingCalendar.tsx's): arrows by day and week, Home/End to the week's
    ends, PageUp/PageDown to the same day (at most the 28th) of the previous/next month; never
    outside the months from today's to the horizon's."""

    first_month: date
    last_month: date

    def after(self, day: date, key: str) -> date:
        steps = {"ArrowLeft": -1, "ArrowRight": 1, "ArrowUp": -7, "ArrowDown": 7}
        if key in steps:
            target = day + timedelta(days=steps[key])
        elif key == "Home":
            target = day - timedelta(days=sunday_index(day))
        elif key == "End":
            target = day + timedelta(days=6 - sunday_index(day))
        elif key in ("PageUp", "PageDown"):
            month = add_months(month_of(day), -1 if key == "PageUp" else 1)
            target = month.replace(day=min(day.day, 28))
        else:
            raise ValueError(key)
        return target if self.first_month <= month_of(target) <= self.last_month else day


@dataclass(frozen=True)
class Choice:
    """The day the calendar's Tab stop is on (the first free day), the day and time to book,
    and where that time is among the day's radios."""

    first_free_day: date
    day: date
    time: str
    times: list[str]
    start: str
    counselor_ids: list[str]


def choose(slots: list[dict[str, Any]]) -> Choice:
    """A free time at least a week after the first free day, not the first of its day, so
    that reaching it takes arrow keys in the grid and in the radio group."""
    by_day: dict[date, list[tuple[str, str]]] = defaultdict(list)
    counselors: dict[str, list[str]] = {}
    for slot in slots:
        local = datetime.fromisoformat(slot["start"]).astimezone(TOKYO)
        by_day[local.date()].append((local.strftime("%H:%M"), slot["start"]))
        counselors[slot["start"]] = slot["counselorIds"]
    first = min(by_day)
    candidates = [d for d in sorted(by_day) if len(by_day[d]) >= 2]
    assert candidates, "no day with two free times in the demo schedule"
    day = next((d for d in candidates if (d - first).days >= 8), candidates[-1])
    times = sorted(by_day[day])
    time, start = times[1]
    return Choice(first, day, time, [t for t, _ in times], start, counselors[start])


async def focused_day(page: Page) -> str | None:
    """The date (YYYY-MM-DD) of the grid day that has focus now, or None: read at once, with
    no waiting."""
    day = await page.evaluate(
        """() => {
            const el = document.activeElement;
            return el && el.closest('[role="grid"]') ? el.getAttribute('data-day') : null;
        }"""
    )
    return day if isinstance(day, str) else None


async def press(page: Page, key: str, focused: Locator) -> None:
    await page.keyboard.press(key)
    await expect(focused).to_be_focused()


async def tab_to(page: Page, target: Locator, limit: int = 60) -> int:
    """Presses Tab until `target` (already on the page) has focus; returns how many presses."""
    await expect(target).to_be_visible()
    for presses in range(1, limit + 1):
        await page.keyboard.press("Tab")
        if await target.evaluate("(el) => el === document.activeElement", timeout=2_000):
            return presses
    raise AssertionError(f"{limit} presses of Tab never reached {target}")


async def horizon_of(someone: Person) -> int:
    reply = await someone.call("service-read", {"id": "cancer", "clinicId": "demo-clinic"})
    horizon = reply["data"].get("horizonDays")
    return horizon if isinstance(horizon, int) else DEFAULT_HORIZON_DAYS


async def pick_date(page: Page, choice: Choice, model: CalendarModel) -> None:
    """The grid: Tab reaches its one tab stop (the first free day), then PageDown/PageUp,
    End/Home and the arrows walk to the chosen day (overshooting once each way), Enter.

    The walk never waits: after each key the day it leads to must have focus already, even
    in a month whose free times are still loading (the grid stays, its days not yet
    choosable), and the next key is pressed at once. A key lost while a month loads, or focus
    dropped to <body>, fails the walk."""
    first = page.get_by_role("button", name=day_label(choice.first_free_day), exact=True)
    await tab_to(page, first)
    await expect(first).to_have_attribute("tabindex", "0")
    # Only one day of the grid takes Tab (roving tabindex).
    await expect(page.get_by_role("grid").locator("button[tabindex='0']")).to_have_count(1)

    keys = ["PageDown", "PageUp", "End", "Home"]
    walk_from = choice.first_free_day
    for key in keys:
        walk_from = model.after(walk_from, key)
    weeks, days = divmod((choice.day - walk_from).days, 7)
    assert weeks >= 0, "the chosen day is before the week the walk starts from"
    keys += ["ArrowDown"] * (weeks + 1) + ["ArrowUp"] + ["ArrowRight"] * (days + 1) + ["ArrowLeft"]
    cursor = choice.first_free_day
    for key in keys:
        cursor = model.after(cursor, key)
        await page.keyboard.press(key)
        assert await focused_day(page) == cursor.isoformat(), (key, cursor)
    assert cursor == choice.day, (cursor, choice.day)
    # Named by its date alone once its month's times are in (until then it is not choosable).
    chosen = page.get_by_role("button", name=day_label(choice.day), exact=True)
    await expect(chosen).to_be_focused()
    await page.keyboard.press("Enter")
    legend = f"Times on {day_label(choice.day)} (Japan Standard Time)"
    await expect(page.get_by_role("group", name=legend)).to_be_visible()
    await expect(chosen).to_be_focused()  # choosing a day leaves focus on it


async def test_book_and_cancel_with_the_keyboard_alone(
    browser: Browser, server: ServerProcess
) -> None:
    async with person(server.url, complete=True) as someone:
        # The terms are left for the review screen, to be agreed to there with the keyboard.
        assert "version" in await someone.sock.update(someone.path, {"agreedToTerms": False})
        choice = choose(await free_slots(someone.sock))
        today = datetime.now(TOKYO).date()
        horizon = await horizon_of(someone)
        model = CalendarModel(month_of(today), month_of(today + timedelta(days=horizon)))
        context, page = await browser_of(browser, server, someone)
        await page.goto(server.url + "/b/appointment")
        await expect(page.get_by_role("grid")).to_be_visible(timeout=15_000)

        # --- the calendar ------------------------------------------------------------
        await pick_date(page, choice, model)

        # --- a time: Tab into the radio group (its first time), arrows to the chosen one --
        first_time = page.get_by_role("radio", name=choice.times[0], exact=True)
        await press(page, "Tab", first_time)
        time_radio = page.get_by_role("radio", name=choice.time, exact=True)
        for _ in range(choice.times.index(choice.time)):
            await page.keyboard.press("ArrowDown")
        await expect(time_radio).to_be_focused()
        await expect(time_radio).to_be_checked()

        # --- the counselor (chosen before the calendar: any), the e-mail language, the hold
        for counselor_id in choice.counselor_ids:  # offered by name
            name = COUNSELOR_NAMES[counselor_id]
            await expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
        any_counselor = page.get_by_role("radio", name="Any counselor", exact=True)
        await expect(any_counselor).to_be_checked()
        english = page.get_by_role("radio", name="English", exact=True)
        japanese = page.get_by_role("radio", name="日本語", exact=True)
        await press(page, "Tab", english)
        await expect(english).to_be_checked()
        await press(page, "ArrowLeft", japanese)
        await expect(japanese).to_be_checked()
        hold = page.get_by_role("button", name="Hold this time", exact=True)
        await press(page, "Tab", hold)
        # Shift+Tab walks the same order back.
        await press(page, "Shift+Tab", japanese)
        await press(page, "Shift+Tab", time_radio)
        for _ in range(2):
            await page.keyboard.press("Tab")
        await expect(hold).to_be_focused()
        await page.keyboard.press("Enter")

        # --- the review: focus on the new page's title, then the terms and Confirm ------
        await expect(page).to_have_url(re.compile(r"/b/review$"))
        await expect(page.get_by_role("heading", level=1, name="Review and submit")).to_be_focused()
        assigned = (await someone.document())["counselorId"]
        await expect(page.get_by_text(COUNSELOR_NAMES[assigned], exact=True)).to_be_visible()
        terms = page.get_by_role("checkbox", name="I agree to the terms of service")
        await expect(terms).not_to_be_checked()
        await tab_to(page, terms)
        await page.keyboard.press("Space")
        await expect(terms).to_be_checked()
        await press(page, "Tab", page.get_by_role("link", name="Change the time"))
        confirm = page.get_by_role("button", name="Confirm booking", exact=True)
        await press(page, "Tab", confirm)
        await expect(confirm).to_have_attribute("aria-disabled", "false")
        await page.keyboard.press("Enter")

        # --- confirmed ---------------------------------------------------------------
        await expect(page).to_have_url(re.compile(r"/b/confirmed$"), timeout=15_000)
        title = page.get_by_role("heading", level=1, name="Appointment confirmed")
        await expect(title).to_be_focused()
        booked = await someone.document()
        assert booked["status"] == "confirmed"
        assert (booked["date"], booked["time"][:5]) == (choice.day.isoformat(), choice.time)
        assert booked["locale"] == "ja"
        assert booked["agreedToTerms"] is True

        # --- the cancel dialog: modal, named, described, focus kept inside ---------------
        opener = page.get_by_role("button", name="Cancel appointment", exact=True)
        await tab_to(page, opener)
        await page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog", name="Cancel your appointment")
        await expect(dialog).to_be_visible()
        await expect(dialog).to_have_attribute("aria-modal", "true")
        await expect(dialog).to_have_accessible_description(
            re.compile(
                r"^Appointment: .+ Japan Standard Time"
                r" Your appointment will be canceled and you will be signed out\."
            )
        )
        await expect(page.locator("#root")).to_have_attribute("inert", "")
        reason = dialog.get_by_role("textbox", name="Reason for canceling")
        do_cancel = dialog.get_by_role("button", name="Cancel the appointment", exact=True)
        keep = dialog.get_by_role("button", name="Keep my appointment", exact=True)
        await expect(reason).to_be_focused()
        for key, focused in [
            ("Tab", do_cancel),
            ("Tab", keep),
            ("Tab", reason),  # from the last control back to the first
            ("Shift+Tab", keep),  # and from the first to the last
            ("Shift+Tab", do_cancel),
            ("Shift+Tab", reason),
        ]:
            await press(page, key, focused)
        await page.keyboard.press("Escape")
        await expect(dialog).to_have_count(0)
        await expect(opener).to_be_focused()
        await expect(page.locator("#root")).not_to_have_attribute("inert", "")

        # --- and the cancel itself, by keyboard ----------------------------------------
        await page.keyboard.press("Enter")
        await expect(reason).to_be_focused()
        await page.keyboard.type(CANCEL_REASON)
        await press(page, "Tab", do_cancel)
        await page.keyboard.press("Enter")
        await expect(page.get_by_text("Your appointment has been canceled")).to_be_visible()
        await expect(page).to_have_url(re.compile(r"/(\?.*)?$"))
        await context.close()
