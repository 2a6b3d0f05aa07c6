"""Per-socket event budget: a token bucket, and a count of refusals that ends a flood.

Every client event costs one token; tokens come back at RATE per second up to BURST (a page
subscribing to many documents at once fits in the burst). An event without a token is
refused and adds a strike; strikes fade at the same rate, so a client briefly over the
limit recovers, while one that keeps sending far beyond it reaches MAX_STRIKES and is
disconnected (docs/protocol.md "Transport limits").
"""

import enum
from dataclasses import dataclass, field
from time import monotonic

RATE = 50.0
BURST = 200.0
MAX_STRIKES = 400.0


class Verdict(enum.Enum):
    ALLOW = "allow"
    REFUSE = "refuse"
    CLOSE = "close"


@dataclass
class EventBudget:
    rate: float = RATE
    burst: float = BURST
    max_strikes: float = MAX_STRIKES
    tokens: float = BURST
    strikes: float = 0.0
    stamp: float = field(default_factory=monotonic)

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
        return Verdict.CLOSE if self.strikes >= self.max_strikes else Verdict.REFUSE
