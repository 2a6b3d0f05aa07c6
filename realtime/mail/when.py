"""Dates and times in mails: the clinic's timezone, written the way each language writes them."""

from datetime import datetime
from zoneinfo import ZoneInfo

JA_WEEKDAYS = "月火水木金土日"


def format_when(start: datetime, timezone: str, locale: str) -> str:
    local = start.astimezone(ZoneInfo(timezone))
    if locale == "ja":
        weekday = JA_WEEKDAYS[local.weekday()]
        return f"{local.year}年{local.month}月{local.day}日({weekday}) {local:%H:%M}({timezone})"
    return f"{local:%A}, {local:%B} {local.day}, {local.year} at {local:%H:%M} ({timezone})"
