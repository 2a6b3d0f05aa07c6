"""The one range of calendar days the server accepts from outside.

Python's dates end at 9999-12-31 and begin at 0001-01-01, so a day near either end overflows
as soon as the server steps from it (the months around a chosen time, a day's start in UTC):
an OverflowError, answered INTERNAL. Every day that comes in (a `vacancies-read` range, a hold's
`start`, a `vacancies/.../YYYY-MM` path, an intake date) must lie within these years, far from
both ends and wider than any birth date or booking.
"""

import re
from datetime import date

from realtime.errors import invalid_field

# A calendar day as every input writes it.
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
NOT_A_DAY = "Dates are YYYY-MM-DD."
EARLIEST = date(1900, 1, 1)
LATEST = date(2200, 12, 31)
OUT_OF_RANGE = f"Dates must be between {EARLIEST.isoformat()} and {LATEST.isoformat()}."


def in_range(day: date) -> bool:
    return EARLIEST <= day <= LATEST


def parse_day(value: str, field: str) -> date:
    """A `YYYY-MM-DD` day from outside, within the range; else INVALID_ARGUMENT naming
    `field` (NOT_A_DAY, or OUT_OF_RANGE)."""
    if not ISO_DAY.fullmatch(value):
        raise invalid_field(field, NOT_A_DAY)
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise invalid_field(field, NOT_A_DAY) from None
    if not in_range(day):
        raise invalid_field(field, OUT_OF_RANGE)
    return day
