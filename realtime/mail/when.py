"""Dates and times in mails: the clinic's timezone, written the way each language writes them,
and, for the person's own mails, their time beside it when their zone reads the clock
differently (docs/product.md, "Times")."""

from datetime import datetime
from zoneinfo import ZoneInfo

JA_WEEKDAYS = "月火水木金土日"


def _in_zone(local: datetime, timezone: str, locale: str, *, clock12: bool) -> str:
    """One wall time with its weekday and zone. Clinic times are 24-hour as everywhere in the
    product; the person's own follow their language's clock (12-hour in English)."""
    if locale == "ja":
        weekday = JA_WEEKDAYS[local.weekday()]
        return f"{local.year}年{local.month}月{local.day}日({weekday}) {local:%H:%M}({timezone})"
    hour = f"{(local.hour % 12) or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"
    time = hour if clock12 else f"{local:%H:%M}"
    return f"{local:%A}, {local:%B} {local.day}, {local.year} at {time} ({timezone})"


def format_when(start: datetime, timezone: str, locale: str, person_zone: str | None = None) -> str:
    """The clinic's time; with `person_zone` (a known IANA zone) whose wall clock differs at
    that moment, the person's own after it:
    "Thursday, December 3, 2026 at 09:00 (Asia/Tokyo) / your time: Wednesday, December 2,
    2026 at 4:00 PM (America/Los_Angeles)"."""
    clinic = start.astimezone(ZoneInfo(timezone))
    text = _in_zone(clinic, timezone, locale, clock12=False)
    if person_zone is None:
        return text
    own = start.astimezone(ZoneInfo(person_zone))
    if own.replace(tzinfo=None) == clinic.replace(tzinfo=None):
        return text
    person = _in_zone(own, person_zone, locale, clock12=True)
    return f"{text} / 現地時間: {person}" if locale == "ja" else f"{text} / your time: {person}"
