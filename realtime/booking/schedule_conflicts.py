"""The bookings a schedule change strands (docs/protocol.md, "Schedules", `<conflict>`).

A claim that still counts (a hold not yet expired, a booking pending payment or confirmed)
is stranded when its time no longer lies within one working window of its counselor on its
day, as the new hours read it (realtime/booking/schedule.py `Hours`: weekly windows, dated
changes, clinic holidays). It is listed, never cancelled: staff decide (reschedule, or
cancel as the clinic).
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from realtime.booking.schedule import Hours
from storage.repo_schedule import Booked


def fits(hours: Hours, counselor_id: str, start: datetime, end: datetime, zone: ZoneInfo) -> bool:
    """Whether [start, end) lies within one of the counselor's windows of its day."""
    local_start, local_end = start.astimezone(zone), end.astimezone(zone)
    if local_end.date() != local_start.date():
        return False  # past midnight: no window crosses it
    return any(
        window_start <= local_start.time() and local_end.time() <= window_end
        for window_start, window_end in hours.windows(local_start.date(), counselor_id)
    )


def stranded(hours: Hours, booked: list[Booked], *, timezone: str) -> list[Booked]:
    """The bookings of `booked` the hours no longer cover, in their order."""
    zone = ZoneInfo(timezone)
    return [
        item
        for item in booked
        if not fits(hours, item[0].counselor_id, item[0].start, item[0].end, zone)
    ]
