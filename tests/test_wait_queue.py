"""realtime/wait_queue.py behaves as asyncio.Queue for what python-engineio and uvicorn use:
each scenario runs against both and must give the same outcome."""

import asyncio
from typing import Any

import pytest

from realtime.wait_queue import WaitQueue

KINDS = [asyncio.Queue, WaitQueue]


@pytest.mark.parametrize("kind", KINDS)
async def test_items_come_out_in_the_order_they_went_in(kind: Any) -> None:
    queue = kind()
    out = []
    for burst in ([1], [2, 3, 4], [], [5, 6]):
        for item in burst:
            await queue.put(item)
        while not queue.empty():
            out.append(queue.get_nowait())
    queue.put_nowait(7)
    assert (queue.qsize(), queue.empty(), await queue.get(), queue.empty()) == (1, False, 7, True)
    assert out == [1, 2, 3, 4, 5, 6]
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()


@pytest.mark.parametrize("kind", KINDS)
async def test_waiting_getters_are_served_in_the_order_they_came(kind: Any) -> None:
    queue = kind()
    getters = [asyncio.create_task(queue.get()) for _ in range(3)]
    await asyncio.sleep(0)
    assert len(queue._getters) == 3  # realtime/broadcast.py reads this: a writer waits
    for item in "abc":
        queue.put_nowait(item)
    assert await asyncio.gather(*getters) == ["a", "b", "c"]
    assert not queue._getters


@pytest.mark.parametrize("kind", KINDS)
async def test_a_woken_getter_cancelled_hands_its_item_to_the_next(kind: Any) -> None:
    queue = kind()
    first = asyncio.create_task(queue.get())
    second = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait("item")  # wakes the first getter...
    first.cancel()  # ...which leaves before taking it
    assert await asyncio.wait_for(second, 1) == "item"
    assert first.cancelled() and queue.empty()


@pytest.mark.parametrize("kind", KINDS)
async def test_a_getter_cancelled_while_waiting_leaves_no_trace(kind: Any) -> None:
    queue = kind()
    waiting = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.sleep(0)
    assert not queue._getters
    queue.put_nowait("kept")
    assert queue.get_nowait() == "kept"


@pytest.mark.parametrize("kind", KINDS)
async def test_join_waits_for_every_item_to_be_done(kind: Any) -> None:
    queue = kind()
    await queue.join()  # nothing unfinished: returns at once
    queue.put_nowait(1)
    queue.put_nowait(2)
    joined = asyncio.create_task(queue.join())
    queue.get_nowait()
    queue.task_done()
    await asyncio.sleep(0)
    assert not joined.done()
    queue.get_nowait()
    queue.task_done()
    await asyncio.wait_for(joined, 1)
    queue.put_nowait(3)  # unfinished again: a new join waits again
    again = asyncio.create_task(queue.join())
    await asyncio.sleep(0)
    assert not again.done()
    queue.get_nowait()
    queue.task_done()
    await asyncio.wait_for(again, 1)
    with pytest.raises(ValueError):
        queue.task_done()
