"""One run: boards first, patients arriving over the ramp, the stop after --duration, a
grace for the last pushes, the read-back checks and the report (docs/loadtest.md)."""

import asyncio
import contextlib
from typing import Any

from infra.loadtest.context import Context, discover, window_days
from infra.loadtest.integrity import check
from infra.loadtest.options import Options
from infra.loadtest.patient import patient
from infra.loadtest.progress import show
from infra.loadtest.recorder import Recorder
from infra.loadtest.report import build
from infra.loadtest.staff import Board, open_board, staff_tokens
from infra.loadtest.wire import CallFailed


async def run(options: Options) -> dict[str, Any]:
    service = await discover(options)
    first, last = window_days(service, options.window_days)
    ctx = Context(options, Recorder(), service, first, last)
    boards = await _open_boards(ctx)
    progress = None if options.quiet else asyncio.create_task(show(ctx, len(boards)))
    began = ctx.recorder.now()
    spacing = options.ramp / options.patients if options.patients else 0
    people = [asyncio.create_task(patient(ctx, n, n * spacing)) for n in range(options.patients)]
    await asyncio.sleep(options.duration)
    ctx.stopping.set()
    await asyncio.gather(*people)
    ended = ctx.recorder.now()
    await asyncio.sleep(options.grace)  # the last pushes on their way to the boards
    await _close(boards)
    if progress is not None:
        progress.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await progress
    findings = await check(ctx)
    return build(ctx, began, ended, findings)


async def _open_boards(ctx: Context) -> list[Board]:
    """The boards, following before any patient arrives; a run without them would measure
    no freshness, so a failure here ends it at once."""
    if not ctx.options.staff:
        return []
    try:
        tokens = await staff_tokens(ctx)
        return list(await asyncio.gather(*(open_board(ctx, n, t) for n, t in enumerate(tokens))))
    except CallFailed:
        raise SystemExit(
            f"the boards could not start: {dict(ctx.recorder.error_examples)}"
        ) from None


async def _close(boards: list[Board]) -> None:
    await asyncio.gather(*(board.sock.close() for board in boards))
