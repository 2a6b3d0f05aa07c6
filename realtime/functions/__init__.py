"""Callable functions, one module per area. Importing this package registers them all."""

from realtime.functions import (
    analytics,
    appointment,
    booking,
    catalog,
    contact,
    payments,
    refunds,
    send_email,
    staff,
    staff_auth,
    staff_calendar,
)

__all__ = [
    "analytics",
    "appointment",
    "booking",
    "catalog",
    "contact",
    "payments",
    "refunds",
    "send_email",
    "staff",
    "staff_auth",
    "staff_calendar",
]
