"""A service's settings as clinic administrators edit them (`service-update`,
docs/protocol.md "Services"): their wire form, their rules, what changed. Pure: no database.

The settings carry the input's names (`sessionMinutes`, `gestation: {"minWeeks",
"maxWeeks"}`, ...). An edit is the stored settings with the given ones put over them; the
whole result is checked, so a rule between two fields (minimum notice within the horizon)
holds whichever of them is edited. Every refusal names its field (a dotted path).
"""

from typing import Any, Final

from realtime.payments.currencies import MAX_AMOUNT, STRIPE_CURRENCIES, THREE_DECIMAL
from storage.models import Service

Settings = dict[str, Any]

GRID_MINUTES: Final = 5  # sessions and buffers sit on the schedules' 5-minute grid
SESSION_MINUTES: Final = (15, 480)
BUFFER_MINUTES: Final = (0, 240)
NOTICE_HOURS: Final = (0, 720)  # up to 30 days
HORIZON_DAYS: Final = (1, 730)  # up to two years, as far as schedules go
GESTATION_WEEKS: Final = (0, 42)
FREE_CANCEL_HOURS: Final = (0, 8760)  # up to a year before
NAME_LENGTH: Final = 200
LOCALES: Final = ("ja", "en")
# Editing these changes which times are free: the service's months are pushed again.
SLOT_FIELDS: Final = frozenset(
    {"sessionMinutes", "bufferMinutes", "minNoticeHours", "horizonDays", "gestation", "active"}
)


def settings_of(service: Service) -> Settings:
    """The stored settings in the input's form."""
    price = None
    if service.price_amount is not None:
        price = {"amount": service.price_amount, "currency": service.price_currency}
    gestation = None
    if service.gestation_min_weeks is not None and service.gestation_max_weeks is not None:
        gestation = {
            "minWeeks": service.gestation_min_weeks,
            "maxWeeks": service.gestation_max_weeks,
        }
    return {
        "name": {locale: service.name.get(locale, "") for locale in LOCALES},
        "price": price,
        "sessionMinutes": service.session_minutes,
        "bufferMinutes": service.buffer_minutes,
        "minNoticeHours": service.min_notice_hours,
        "horizonDays": service.horizon_days,
        "gestation": gestation,
        "cancellation": {
            "freeUntilHours": service.free_cancel_hours,
            "lateRefundPercent": service.late_refund_percent,
        },
        "active": service.active,
    }


def edited(before: Settings, given: Settings) -> Settings:
    """The settings after an edit: names trimmed, the currency in capitals."""
    after = {**before, **given}
    after["name"] = {locale: after["name"][locale].strip() for locale in LOCALES}
    if after["price"] is not None:
        after["price"] = {**after["price"], "currency": after["price"]["currency"].upper()}
    return after


def _within(refused: dict[str, str], field: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if not low <= value <= high:
        refused[field] = f"{field} must be from {low} to {high}."


def _on_grid(refused: dict[str, str], field: str, value: int) -> None:
    if field not in refused and value % GRID_MINUTES:
        refused[field] = f"{field} must be a multiple of {GRID_MINUTES} minutes."


def _price(refused: dict[str, str], price: dict[str, Any] | None) -> None:
    if price is None:
        return  # free: no payment
    amount, currency = price["amount"], price["currency"]
    if currency not in STRIPE_CURRENCIES:
        refused["price.currency"] = "price.currency must be a currency the payments accept."
    if not 1 <= amount <= MAX_AMOUNT:
        refused["price.amount"] = (
            f"price.amount must be from 1 to {MAX_AMOUNT} in the currency's smallest unit "
            "(a free service has price null)."
        )
    elif currency in THREE_DECIMAL and amount % 10:
        refused["price.amount"] = "price.amount must end in 0 in this currency."


def refusals(settings: Settings) -> dict[str, str]:
    """Each field of `settings` that breaks a rule, with why (empty: all is well)."""
    refused: dict[str, str] = {}
    for locale in LOCALES:
        name = settings["name"][locale]
        if not name or len(name) > NAME_LENGTH:
            refused[f"name.{locale}"] = f"name.{locale} must have 1 to {NAME_LENGTH} characters."
    _price(refused, settings["price"])
    _within(refused, "sessionMinutes", settings["sessionMinutes"], SESSION_MINUTES)
    _on_grid(refused, "sessionMinutes", settings["sessionMinutes"])
    _within(refused, "bufferMinutes", settings["bufferMinutes"], BUFFER_MINUTES)
    _on_grid(refused, "bufferMinutes", settings["bufferMinutes"])
    _within(refused, "minNoticeHours", settings["minNoticeHours"], NOTICE_HOURS)
    _within(refused, "horizonDays", settings["horizonDays"], HORIZON_DAYS)
    if not refused.keys() & {"minNoticeHours", "horizonDays"} and (
        settings["minNoticeHours"] >= settings["horizonDays"] * 24
    ):
        refused["horizonDays"] = "horizonDays must reach beyond the minimum notice."
    gestation = settings["gestation"]
    if gestation is not None:
        _within(refused, "gestation.minWeeks", gestation["minWeeks"], GESTATION_WEEKS)
        _within(refused, "gestation.maxWeeks", gestation["maxWeeks"], GESTATION_WEEKS)
        if not refused.keys() & {"gestation.minWeeks", "gestation.maxWeeks"} and (
            gestation["minWeeks"] >= gestation["maxWeeks"]
        ):
            refused["gestation.maxWeeks"] = "gestation.maxWeeks must be after minWeeks."
    cancellation = settings["cancellation"]
    _within(
        refused, "cancellation.freeUntilHours", cancellation["freeUntilHours"], FREE_CANCEL_HOURS
    )
    _within(refused, "cancellation.lateRefundPercent", cancellation["lateRefundPercent"], (0, 100))
    return refused


def changes(before: Settings, after: Settings) -> dict[str, dict[str, Any]]:
    """The fields whose value differs, before and after (the audit entry's detail)."""
    return {
        field: {"before": before[field], "after": after[field]}
        for field in after
        if after[field] != before[field]
    }


def apply(service: Service, settings: Settings) -> None:
    """Write checked settings into the row."""
    price, gestation = settings["price"], settings["gestation"]
    service.name = dict(settings["name"])
    service.price_amount = price["amount"] if price is not None else None
    service.price_currency = price["currency"] if price is not None else None
    service.session_minutes = settings["sessionMinutes"]
    service.buffer_minutes = settings["bufferMinutes"]
    service.min_notice_hours = settings["minNoticeHours"]
    service.horizon_days = settings["horizonDays"]
    service.gestation_min_weeks = gestation["minWeeks"] if gestation is not None else None
    service.gestation_max_weeks = gestation["maxWeeks"] if gestation is not None else None
    service.free_cancel_hours = settings["cancellation"]["freeUntilHours"]
    service.late_refund_percent = settings["cancellation"]["lateRefundPercent"]
    service.active = settings["active"]
