"""The run's figures as one JSON document (docs/loadtest.md, "The figures")."""

from dataclasses import asdict
from typing import Any

from infra.loadtest.context import Context
from infra.loadtest.integrity import Findings
from infra.loadtest.recorder import percentile, summary

# The per-second counters a report carries as series.
SERIES = ("requests", "errors", "connects", "reconnects", "resyncs", "pushes window", "holds")


def freshness(ctx: Context) -> tuple[dict[str, Any], list[tuple[float, float]]]:
    """Commit to receipt by every board. The window's rows carry no commit time
    (docs/protocol.md, "The bookings window"), so for each acknowledged hold and submit, and
    each board following since before the call was sent, it is measured on this process's
    clock from the call's sending (`after_call`: an upper bound, the commit happened before
    the ack) and from its acknowledgement (`after_ack`: negative when the push overtook the
    ack, as it does when the server pushes before it answers)."""
    after_ack: list[float] = []
    after_call: list[tuple[float, float]] = []
    missed = 0
    for expected in ctx.expectations:
        for board, ready in ctx.boards_ready.items():
            if ready > expected.sent:
                continue
            received = ctx.receipts.get((board, expected.appointment_id, expected.status))
            if received is None:
                missed += 1
                continue
            after_call.append((expected.sent, received - expected.sent))
            after_ack.append(received - expected.acked)
    figures = {
        "expected": len(after_call) + missed,
        "received": len(after_call),
        "missed": missed,
        "after_call": summary([v for _, v in after_call]),
        "after_ack": summary(after_ack),
    }
    return figures, after_call


def per_second(values: list[tuple[float, float]], seconds: int, p: float) -> list[float]:
    """The p-th percentile (ms) of the samples that ended in each second of the run."""
    buckets: list[list[float]] = [[] for _ in range(seconds)]
    for at, value in values:
        if 0 <= int(at) < seconds:
            buckets[int(at)].append(value)
    return [round(percentile(sorted(b), p) * 1000, 3) for b in buckets]


# Options that are credentials: a report says whether they were given, never their value.
SECRET_OPTIONS = ("loadtest_key", "staff_token")


def _options(ctx: Context) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for name, value in asdict(ctx.options).items():
        if name in SECRET_OPTIONS:
            shown[name] = "(given)" if value else None
        elif value is None or isinstance(value, int | float | str | bool):
            shown[name] = value
        else:
            shown[name] = str(value)  # a path
    return shown


def build(ctx: Context, began: float, ended: float, findings: Findings) -> dict[str, Any]:
    """The report of a load that ran from `began` to `ended` (seconds of the run's clock,
    which starts before the boards open: the series count from there)."""
    rec = ctx.recorder
    elapsed = ended - began
    seconds = int(ended) + 1
    fresh, fresh_samples = freshness(ctx)
    if fresh["missed"]:
        for _ in range(fresh["missed"]):
            rec.error("freshness:missed", "a board never received an acknowledged change")
    calls = [pair for name, pairs in rec.samples.items() if " " in name for pair in pairs]
    error_total = sum(rec.errors.values())
    passed = findings.passed and error_total <= ctx.options.max_errors
    return {
        "options": _options(ctx),
        "run_id": ctx.run_id,
        "window": ctx.window_path,
        "service": ctx.service.id,
        "elapsed_s": round(elapsed, 3),
        "counts": dict(sorted(rec.counts.items())),
        "errors": dict(sorted(rec.errors.items())),
        "error_total": error_total,
        "error_examples": rec.error_examples,
        "latency": {
            name: summary([v for _, v in pairs]) for name, pairs in sorted(rec.samples.items())
        },
        "freshness": fresh,
        "rates": {
            f"{name}_per_s": round(rec.counts[name] / elapsed, 3) if elapsed else 0.0
            for name in ("requests", "connects", "reconnects", "resyncs")
        },
        "series": {
            "second": list(range(seconds)),
            **{name: [rec.per_second[name][s] for s in range(seconds)] for name in SERIES},
            "latency_p50_ms": per_second(calls, seconds, 50),
            "latency_p99_ms": per_second(calls, seconds, 99),
            "freshness_p50_ms": per_second(fresh_samples, seconds, 50),
            "freshness_max_ms": per_second(fresh_samples, seconds, 100),
        },
        "integrity": findings.as_json(),
        "passed": passed,
    }
