"""Dates and times in mails: the clinic's time, written the way each language writes it with
the zone named as people say it, and, for the person's own mails, their time beside it when
their zone reads the clock differently (docs/product.md, "Times" and "Mails").

Three shapes, one wording per language:
- `format_span(start, end, ...)`: a booked time, start and end with the weekday
  ("Thursday, December 10, 2026, 10:00–11:00 Japan Time" /
  "2026年12月10日（木）10:00～11:00（日本時間）");
- `format_when(start, ...)`: one moment with the full date (kept for callers that have no end);
- `format_moment(at, ...)`: a short moment in ONE zone, the reader's (no year), for a deadline
  or a subject ("Tuesday, December 8, 10:00 Japan Time" / "12月8日（火）10:00（日本時間）").

Zones are named as the client names them (Intl `longGeneric`, ICU's rule), so a mail and the
screen it links to say the same: a zone that changes its clocks gets its generic name ("Pacific
Time" / "米国太平洋時間"), right in every season where a specific name ("Pacific Daylight
Time") must match the date; a zone that never does gets its standard name ("Japan Standard
Time" / "日本標準時"), as ICU gives it. A zone without a generic name in CLDR (UTC) gets its
specific name at that moment ("Coordinated Universal Time") instead of CLDR's fallback
("Unknown Region (UTC) Time"). IANA ids (`Asia/Tokyo`) never reach a reader.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_name

JA_WEEKDAYS = "月火水木金土日"


def zone_name(zone: str, locale: str, at: datetime) -> str:
    """The zone as people say it in `locale` (see the module's docstring for the choice)."""
    lang = Locale.parse(locale)
    metazone = get_global("meta_zones").get(zone)
    names = lang.meta_zones.get(metazone, {}).get("long", {}) if metazone else {}
    generic = names.get("generic") if names else None
    if isinstance(generic, str) and generic and _changes_clocks(ZoneInfo(zone), at.year):
        return generic
    return get_timezone_name(at.astimezone(ZoneInfo(zone)), "long", locale=lang)


def _changes_clocks(zone: ZoneInfo, year: int) -> bool:
    """Does `zone` keep summer time in `year` (its offsets in January and July differ)?"""
    january, july = (datetime(year, month, 1, tzinfo=zone) for month in (1, 7))
    return january.utcoffset() != july.utcoffset()


def _clock(local: datetime, locale: str, *, clock12: bool, meridiem: bool = True) -> str:
    """Clinic times are 24-hour as everywhere in the product; the person's own follow their
    language's clock (12-hour in English). `meridiem=False` leaves out an AM/PM that the
    end of the same span repeats ("5:00–6:00 PM")."""
    if locale == "ja" or not clock12:
        return f"{local:%H:%M}"
    hour = f"{(local.hour % 12) or 12}:{local:%M}"
    return f"{hour} {'AM' if local.hour < 12 else 'PM'}" if meridiem else hour


def _day(local: datetime, locale: str, *, year: bool) -> str:
    if locale == "ja":
        weekday = JA_WEEKDAYS[local.weekday()]
        return f"{f'{local.year}年' if year else ''}{local.month}月{local.day}日（{weekday}）"
    return f"{local:%A}, {local:%B} {local.day}" + (f", {local.year}" if year else "")


def _with_zone(text: str, zone: str, locale: str, at: datetime) -> str:
    name = zone_name(zone, locale, at)
    return f"{text}（{name}）" if locale == "ja" else f"{text} {name}"


def _span_in(start: datetime, end: datetime, zone: str, locale: str, *, clock12: bool) -> str:
    """One span's wall times in `zone`; an end on another day names its day too."""
    first, last = start.astimezone(ZoneInfo(zone)), end.astimezone(ZoneInfo(zone))
    day = _day(first, locale, year=True)
    dash = "～" if locale == "ja" else "–"
    if last.date() != first.date():
        until = f"{_day(last, locale, year=False)}{'' if locale == 'ja' else ', '}"
        dash = dash if locale == "ja" else " – "  # a dash between two days reads spaced
        text = f"{_clock(first, locale, clock12=clock12)}{dash}{until}"
        text += _clock(last, locale, clock12=clock12)
    else:
        same_half = clock12 and (first.hour < 12) == (last.hour < 12)
        text = _clock(first, locale, clock12=clock12, meridiem=not same_half)
        text += f"{dash}{_clock(last, locale, clock12=clock12)}"
    joined = f"{day}{text}" if locale == "ja" else f"{day}, {text}"
    return _with_zone(joined, zone, locale, start)


def _moment_in(at: datetime, zone: str, locale: str, *, clock12: bool, year: bool) -> str:
    local = at.astimezone(ZoneInfo(zone))
    day, clock = _day(local, locale, year=year), _clock(local, locale, clock12=clock12)
    return _with_zone(f"{day}{clock}" if locale == "ja" else f"{day}, {clock}", zone, locale, at)


def _differs(at: datetime, zone: str, person_zone: str | None) -> bool:
    """Whether the person's zone reads the clinic's clock differently at `at`."""
    if person_zone is None or person_zone == zone:
        return False
    clinic = at.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    return at.astimezone(ZoneInfo(person_zone)).replace(tzinfo=None) != clinic


def _both(clinic: str, person: str, locale: str) -> str:
    """The clinic's time, then the person's own: the client's words ("your time", 現地時間)."""
    return f"{clinic}／現地時間：{person}" if locale == "ja" else f"{clinic} / your time: {person}"


def format_span(
    start: datetime, end: datetime, timezone: str, locale: str, person_zone: str | None = None
) -> str:
    """A booked time in the clinic's zone; with `person_zone` (a known IANA zone) whose wall
    clock differs, the person's own after it: "Thursday, December 10, 2026, 10:00–11:00 Japan
    Time / your time: Wednesday, December 9, 2026, 5:00–6:00 PM Pacific Time"."""
    clinic = _span_in(start, end, timezone, locale, clock12=False)
    if not _differs(start, timezone, person_zone):
        return clinic
    assert person_zone is not None
    return _both(clinic, _span_in(start, end, person_zone, locale, clock12=True), locale)


def format_when(start: datetime, timezone: str, locale: str, person_zone: str | None = None) -> str:
    """One moment with its full date in the clinic's zone, and the person's own after it when
    their wall clock differs: "Thursday, December 10, 2026, 10:00 Japan Time / your time: ..."."""
    clinic = _moment_in(start, timezone, locale, clock12=False, year=True)
    if not _differs(start, timezone, person_zone):
        return clinic
    assert person_zone is not None
    return _both(clinic, _moment_in(start, person_zone, locale, clock12=True, year=True), locale)


def format_moment(at: datetime, timezone: str, locale: str, person_zone: str | None = None) -> str:
    """A short moment in the reader's zone alone (the person's when their clock differs from
    the clinic's, else the clinic's), its zone named, without the year: a deadline next to a
    booked time ("Tuesday, December 8, 10:00 Japan Time") or a subject line."""
    if _differs(at, timezone, person_zone):
        assert person_zone is not None
        return _moment_in(at, person_zone, locale, clock12=True, year=False)
    return _moment_in(at, timezone, locale, clock12=False, year=False)
