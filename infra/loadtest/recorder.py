"""Everything a run measures, on one monotonic clock: samples per measure, counts, errors
by kind, and per-second series (docs/loadtest.md, "The figures")."""

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

PERCENTILES = (50, 90, 99)


def percentile(ordered: list[float], p: float) -> float:
    """The nearest-rank percentile of an ascending list (empty: 0)."""
    if not ordered:
        return 0.0
    rank = max(1, round(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(values: list[float]) -> dict[str, Any]:
    """Count, p50/p90/p99 and max of a measure, in milliseconds."""
    ordered = sorted(values)
    figures: dict[str, Any] = {"count": len(ordered)}
    for p in PERCENTILES:
        figures[f"p{p}_ms"] = round(percentile(ordered, p) * 1000, 3)
    figures["max_ms"] = round(ordered[-1] * 1000, 3) if ordered else 0.0
    return figures


@dataclass
class Recorder:
    started: float = field(default_factory=time.monotonic)
    samples: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    per_second: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    error_examples: dict[str, str] = field(default_factory=dict)

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.started

    def second(self) -> int:
        return int(self.now())

    def sample(self, measure: str, seconds: float, at: float | None = None) -> None:
        self.samples[measure].append((self.now() if at is None else at, seconds))

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] += n
        self.per_second[name][self.second()] += n

    def error(self, kind: str, example: str = "") -> None:
        self.errors[kind] += 1
        self.per_second["errors"][self.second()] += 1
        self.error_examples.setdefault(kind, example[:300])
