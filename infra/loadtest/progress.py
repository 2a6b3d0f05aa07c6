"""The live progress line on stderr: one line, rewritten every second."""

import asyncio
import sys

from infra.loadtest.context import Context
from infra.loadtest.recorder import percentile


def line(ctx: Context, boards: int) -> str:
    rec = ctx.recorder
    second = rec.second()
    recent = sorted(
        v
        for name, pairs in rec.samples.items()
        if " " in name
        for at, v in pairs
        if at >= second - 1
    )
    return (
        f"{rec.now():6.1f}s patients {ctx.active_people():4d} boards {boards:3d} "
        f"requests {rec.counts['requests']:6d} ({rec.per_second['requests'][second - 1]:4d}/s) "
        f"p99 {percentile(recent, 99) * 1000:7.1f} ms holds {rec.counts['holds']:5d} "
        f"booked {rec.counts['bookings confirmed']:5d} "
        f"pushes {rec.counts['pushes window']:6d} errors {sum(rec.errors.values()):4d}"
    )


async def show(ctx: Context, boards: int) -> None:
    """Until cancelled: rewrite the line (a carriage return, the line, clear to its end)."""
    try:
        while True:
            sys.stderr.write("\r" + line(ctx, boards) + "\x1b[K")
            sys.stderr.flush()
            await asyncio.sleep(1)
    finally:
        sys.stderr.write("\r" + line(ctx, boards) + "\x1b[K\n")
        sys.stderr.flush()
