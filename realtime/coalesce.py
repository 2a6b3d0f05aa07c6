"""Group bursts of the same background action: at most one run per key per interval.

The first request for a key runs at once; requests arriving within the interval after a run
are merged into one run at its end. Used for the staff's presence document, so that a burst
of connects, steps and disconnects costs one push per clinic per interval.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from time import monotonic

log = logging.getLogger(__name__)
# Past this many keys, those whose interval is over are forgotten (keys may be socket ids).
MEMORY_KEYS = 10_000


class Coalesced:
    def __init__(self, action: Callable[[str], Awaitable[None]], interval: float) -> None:
        self._action = action
        self._interval = interval
        self._last: dict[str, float] = {}
        self._waiting: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def request(self, key: str) -> None:
        """Ask for one run of the action for `key` (soon, not necessarily now)."""
        if key in self._waiting:
            return
        self._waiting.add(key)
        now = monotonic()
        if len(self._last) > MEMORY_KEYS:
            self._last = {k: at for k, at in self._last.items() if now - at < self._interval}
        delay = self._last.get(key, float("-inf")) + self._interval - now
        task = asyncio.create_task(self._run(key, max(delay, 0.0)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: str, delay: float) -> None:
        await asyncio.sleep(delay)
        # A request from now on asks for a run after this one: it sees its change.
        self._waiting.discard(key)
        self._last[key] = monotonic()
        try:
            await self._action(key)
        except Exception:
            log.exception("a grouped background update failed")
