"""An unbounded asyncio queue that costs next to nothing while it is empty.

Every open socket has two queues that are empty nearly all the time: python-engineio's packets
to send and uvicorn's received messages. An `asyncio.Queue` allocates three deques and an
Event (with a deque of its own) when it is made, and a deque always holds a 64-slot block:
about 2.5 KiB per queue, 5 KiB of an idle socket's footprint (docs/upstream.md). This queue
makes its item deque at the first put and drops it when drained, keeps its waiting getters in
a list, and makes the Event that `join` waits on only when somebody joins.

It behaves as `asyncio.Queue(maxsize=0)` for everything the two libraries call (`put`,
`put_nowait`, `get`, `get_nowait`, `task_done`, `join`, `empty`, `qsize`), down to the order
in which waiting getters are served and the hand-over when a woken getter is cancelled; its
waiting getters are `_getters`, as asyncio's, which realtime/broadcast.py reads to know that a
socket's writer is idle.
"""

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class WaitQueue(Generic[T]):
    """asyncio.Queue without a bound, lazily allocated (module docstring)."""

    __slots__ = ("_finished", "_getters", "_items", "_unfinished_tasks")

    def __init__(self) -> None:
        self._items: deque[T] | None = None
        self._getters: list[asyncio.Future[None]] = []
        self._unfinished_tasks = 0
        self._finished: asyncio.Event | None = None

    def qsize(self) -> int:
        return len(self._items) if self._items else 0

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return False

    def put_nowait(self, item: T) -> None:
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        self._unfinished_tasks += 1
        if self._finished is not None:
            self._finished.clear()
        self._wake_next_getter()

    async def put(self, item: T) -> None:
        self.put_nowait(item)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item

    async def get(self) -> T:
        while not self._items:
            getter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()  # in case it is not done yet
                if getter in self._getters:  # a put may have taken it off already
                    self._getters.remove(getter)
                if self._items and not getter.cancelled():
                    # woken by a put but leaving without the item: the next getter's turn
                    self._wake_next_getter()
                raise
        return self.get_nowait()

    def task_done(self) -> None:
        if self._unfinished_tasks <= 0:
            raise ValueError("task_done() called too many times")
        self._unfinished_tasks -= 1
        if self._unfinished_tasks == 0 and self._finished is not None:
            self._finished.set()

    async def join(self) -> None:
        if self._unfinished_tasks > 0:
            if self._finished is None:
                self._finished = asyncio.Event()
            await self._finished.wait()

    def _wake_next_getter(self) -> None:
        while self._getters:
            getter = self._getters.pop(0)
            if not getter.done():
                getter.set_result(None)
                break
