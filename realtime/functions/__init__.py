"""Callable functions, one module per area. Importing this package registers them all."""

from realtime.functions import (
    account,
    analytics,
    appointment,
    booking,
    catalog,
    contact,
    payments,
    refunds,
    reschedule,
    schedule,
    send_email,
    staff,
    staff_auth,
    staff_calendar,
    waitlist,
)

__all__ = [
    "account",
    "analytics",
    "appointment",
    "booking",
    "catalog",
    "contact",
    "payments",
    "refunds",
    "reschedule",
    "schedule",
    "send_email",
    "staff",
    "staff_auth",
    "staff_calendar",
    "waitlist",
]
