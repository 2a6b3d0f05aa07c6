"""The cancellation policy's arithmetic (realtime/booking/policy.py)."""

from datetime import UTC, datetime, timedelta

from realtime.booking.policy import CancellationPolicy

START = datetime(2026, 12, 10, 1, 0, tzinfo=UTC)
POLICY = CancellationPolicy(free_cancel_hours=48, late_refund_percent=50, min_notice_hours=24)


def test_a_cancel_until_the_free_limit_is_refunded_in_full() -> None:
    at_limit = START - timedelta(hours=48)
    assert POLICY.free_until(START) == at_limit
    assert POLICY.refund_of(16500, START, at_limit) == 16500


def test_a_later_cancel_gets_the_late_share_rounded_down() -> None:
    later = START - timedelta(hours=47, minutes=59)
    assert POLICY.refund_of(16500, START, later) == 8250
    assert POLICY.refund_of(999, START, later) == 499


def test_no_late_share_means_nothing_back() -> None:
    strict = CancellationPolicy(free_cancel_hours=24, late_refund_percent=0, min_notice_hours=24)
    assert strict.refund_of(16500, START, START - timedelta(hours=2)) == 0


def test_a_booking_moves_until_the_minimum_notice() -> None:
    assert POLICY.movable_until(START) == START - timedelta(hours=24)
