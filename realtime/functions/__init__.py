"""Callable functions, one module per area. Importing this package registers them all."""

from realtime.functions import (
    account,
    analytics,
    appointment,
    booking,
    catalog,
    contact,
    payments,
    provider_codes,
    refunds,
    reschedule,
    send_email,
    services_admin,
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
    "provider_codes",
    "refunds",
    "reschedule",
    "send_email",
    "services_admin",
    "staff",
    "staff_auth",
    "staff_calendar",
    "waitlist",
]
