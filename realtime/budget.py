"""Per-socket event budget: a token bucket, and a count of refusals that ends a flood.

Every client event costs one token; tokens come back at `rate` per second up to `burst` (a
page subscribing to many documents at once fits in the burst). An event without a token is
refused and adds a strike; strikes fade at the same rate, so a client briefly over the
limit recovers, while one that keeps sending far beyond it reaches STRIKES_PER_BURST times
the burst and is disconnected (docs/protocol.md "Transport limits"). The defaults are those
of SOCKET_EVENTS_PER_SECOND and SOCKET_EVENT_BURST (realtime/settings.py).
"""

import enum
from dataclasses import dataclass, field
from time import monotonic

RATE = 50.0
BURST = 200
STRIKES_PER_BURST = 2


class Verdict(enum.Enum):
    ALLOW = "allow"
    REFUSE = "refuse"
    CLOSE = "close"


@dataclass
class EventBudget:
    rate: float = RATE
    burst: int = BURST
    tokens: float = field(init=False)
    strikes: float = 0.0
    stamp: float = field(default_factory=monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def spend(self, now: float) -> Verdict:
        """Charge one event received at `now` (time.monotonic())."""
        refill = max(now - self.stamp, 0.0) * self.rate
        self.stamp = now
        self.tokens = min(self.burst, self.tokens + refill)
        self.strikes = max(0.0, self.strikes - refill)
        if self.tokens >= 1:
            self.tokens -= 1
            return Verdict.ALLOW
        self.strikes += 1
        too_many = self.strikes >= STRIKES_PER_BURST * self.burst
        return Verdict.CLOSE if too_many else Verdict.REFUSE
