"""The one range of calendar days the server accepts from outside.

Python's dates end at 9999-12-31 and begin at 0001-01-01, so a day near either end overflows
as soon as the server steps from it (the months around a chosen time, a day's start in UTC):
an OverflowError, answered INTERNAL. Every day that comes in (a `vacancies-read` range, a hold's
`start`, a `vacancies/.../YYYY-MM` path, an intake date) must lie within these years, far from
both ends and wider than any birth date or booking.
"""

from datetime import date

EARLIEST = date(1900, 1, 1)
LATEST = date(2200, 12, 31)
OUT_OF_RANGE = f"Dates must be between {EARLIEST.isoformat()} and {LATEST.isoformat()}."


def in_range(day: date) -> bool:
    return EARLIEST <= day <= LATEST
