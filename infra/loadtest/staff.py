"""A simulated staff board: follows the bookings window of the coming days, applies its
`changes` pushes in version order (docs/protocol.md, "The bookings window") and records
when each booking first reaches it in each status, the receiving end of freshness."""

import asyncio
from typing import Any

from infra.loadtest.context import Context
from infra.loadtest.wire import LiveSocket, session_token


class Board:
    def __init__(self, ctx: Context, number: int, sock: LiveSocket) -> None:
        self.ctx = ctx
        self.number = number
        self.sock = sock
        self.days: dict[str, int] = {}
        self.following = False
        sock.on("changes", self.on_changes)
        sock.on_reconnect = self.resync

    async def follow(self) -> None:
        """Subscribe (again): the snapshot replaces the window; what it holds counts as
        received now."""
        reply = await self.sock.subscribe("window", self.ctx.window_path)
        data = reply["snapshot"]["data"]
        self.days = dict(data["days"])
        for booking in data["bookings"]:
            self._received(booking)
        self.following = True
        self.ctx.boards_ready.setdefault(self.number, self.ctx.recorder.now())

    async def resync(self) -> None:
        self.ctx.recorder.count("resyncs")
        self.following = False
        try:
            await self.follow()
        except Exception as exc:
            self.ctx.recorder.error("resync", repr(exc))

    async def on_changes(self, push: dict[str, Any]) -> None:
        self.ctx.recorder.count("pushes window")
        if not self.following:
            return  # a resync is under way: its snapshot will hold this
        day, version = push["day"], push["version"]
        held = self.days.get(day)
        if held is None or version <= held:
            return
        if version > held + 1:  # a push was missed: a fresh snapshot, as a client does
            await self.resync()
            return
        self.days[day] = version
        for change in push["changes"]:
            if "doc" in change:
                self._received(change["doc"])

    def _received(self, booking: dict[str, Any]) -> None:
        key = (self.number, str(booking["appointmentId"]), str(booking["status"]))
        self.ctx.receipts.setdefault(key, self.ctx.recorder.now())


async def staff_tokens(ctx: Context) -> list[str]:
    """A session per board from `/dev/token` (the first alone: concurrent first sign-ins of
    one address would race to create its user), or the given one for all."""
    opts = ctx.options
    if opts.staff_token:
        return [opts.staff_token] * opts.staff

    async def one() -> str:
        return await session_token(ctx.recorder, opts.url, opts.staff_email, opts.call_timeout)

    first = await one()
    return [first, *await asyncio.gather(*(one() for _ in range(opts.staff - 1)))]


async def open_board(ctx: Context, number: int, token: str) -> Board:
    opts = ctx.options
    sock = LiveSocket(ctx.recorder, opts.url, token, opts.call_timeout)
    board = Board(ctx, number, sock)
    await sock.open()
    await board.follow()
    return board
