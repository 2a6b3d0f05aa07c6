"""Dates as people type them, read as one calendar day (the browser reads them the same way:
client/src/intake/dates.ts `parseTypedDate`; the shared cases are tests/intake_format_cases.json).

Accepted, in half-width or full-width digits, with spaces around the separators:
- year first: 1990-04-01, 1990/4/1, 1990.4.1, 1990年4月1日, and 19900401 (eight digits);
- year last, always month/day/year (US English, the only interface language that writes the
  year last; Japanese never does): 04/01/1990, 4/1/1990;
- a Japanese era: 平成2年4月1日, 平成元年4月1日, H2.4.1, H2/4/1, h2-4-1, 令和6年1月5日, with the
  eras of definition.json `eras`; a date outside its era (平成32年, 令和元年4月1日) is no date.
Anything else, and impossible days (2025-02-30), is None.
"""

import re
from datetime import date

from realtime.intake.definition import ERAS, MAX_DATE_STRING_LENGTH, Era
from realtime.text import half_width

_YEAR_FIRST = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?")
_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})")
_YEAR_LAST = re.compile(r"(\d{1,2})\s*/\s*(\d{1,2})\s*/\s*(\d{4})")
_ERA_NAMES = "|".join(re.escape(e.name) for e in ERAS)
_ERA_LETTERS = "".join(e.letter for e in ERAS)
_ERA = re.compile(
    rf"({_ERA_NAMES}|[{_ERA_LETTERS}])\s*(\d{{1,2}}|元)\s*[-/.年]\s*(\d{{1,2}})\s*[-/.月]\s*(\d{{1,2}})\s*日?",
    re.IGNORECASE,
)


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _era(mark: str) -> tuple[Era, date | None]:
    """The era of a name or letter, and the first day of the next one (None: the current)."""
    index = next(i for i, e in enumerate(ERAS) if mark in (e.name, e.letter))
    return ERAS[index], ERAS[index - 1].start if index > 0 else None


def parse_typed_date(text: str) -> date | None:
    if len(text) > MAX_DATE_STRING_LENGTH:
        return None
    typed = half_width(text).strip()
    if match := _YEAR_FIRST.fullmatch(typed) or _COMPACT.fullmatch(typed):
        return _day(int(match[1]), int(match[2]), int(match[3]))
    if match := _YEAR_LAST.fullmatch(typed):
        return _day(int(match[3]), int(match[1]), int(match[2]))
    if match := _ERA.fullmatch(typed):
        era, end = _era(match[1] if len(match[1]) > 1 else match[1].upper())
        year = 1 if match[2] == "元" else int(match[2])
        if year < 1:
            return None
        day = _day(era.start.year + year - 1, int(match[3]), int(match[4]))
        if day is None or day < era.start or (end is not None and day >= end):
            return None
        return day
    return None


def years_before(today: date, years: int) -> date:
    """The same month and day `years` earlier (29 February as the 28th in a common year)."""
    year = today.year - years
    if today.month == 2 and today.day == 29 and _day(year, 2, 29) is None:
        return date(year, 2, 28)
    return today.replace(year=year)
