"""A service's cancellation policy, in one place: who gets back how much when a booking is
cancelled, and until when a booking may still be moved.

A cancel until `free_cancel_hours` before the start is refunded in full; a later one gets
`late_refund_percent` of the amount paid (rounded down to the currency's smallest unit). A
cancel by the clinic is always refunded in full. A booking may be rescheduled until the
service's minimum notice before its start (the same notice a new booking needs).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from storage.models import Service


@dataclass(frozen=True)
class CancellationPolicy:
    free_cancel_hours: int
    late_refund_percent: int
    min_notice_hours: int

    @classmethod
    def of(cls, service: Service) -> "CancellationPolicy":
        return cls(service.free_cancel_hours, service.late_refund_percent, service.min_notice_hours)

    def free_until(self, start: datetime) -> datetime:
        """The last moment a cancel is refunded in full."""
        return start - timedelta(hours=self.free_cancel_hours)

    def refund_share(self, start: datetime, now: datetime) -> int:
        """The percent of the amount paid that a cancel made `now` gets back."""
        return 100 if now <= self.free_until(start) else self.late_refund_percent

    def refund_of(self, amount_paid: int, start: datetime, now: datetime) -> int:
        """The amount (smallest currency unit) a cancel made `now` gets back."""
        return amount_paid * self.refund_share(start, now) // 100

    def movable_until(self, start: datetime) -> datetime:
        """The last moment the booking may be rescheduled."""
        return start - timedelta(hours=self.min_notice_hours)
