"""A socket flooding one event, as a separate process (so that its sending costs the test's
own event loop nothing while that loop measures someone else's latency).

`python -m tests.support.flood <base_url> <token> <count>` signs the socket in, prints
`ready`, waits for a line on stdin, then sends `count` acked `activity` events as fast as it
can (the step changing every time), reads the acks until all arrived or the server closed
the connection, and prints a JSON summary.
"""

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

import websockets

from tests.support.clients import ws_url

STEPS = ("intake", "contact", "schedule", "consent", "payment", "summary")
READ_SECONDS = 20.0


def ack_status(frame: str) -> str | None:
    """`ok`, an error status, or None for a frame that is not an ack (`43<id>[...]`)."""
    if not frame.startswith("43"):
        return None
    reply: Any = json.loads(frame[frame.index("[") :])[0]
    return "ok" if "error" not in reply else str(reply["error"]["status"])


async def flood(base_url: str, token: str, count: int) -> dict[str, Any]:
    answers: Counter[str] = Counter()
    async with websockets.connect(ws_url(base_url), max_queue=None) as ws:
        await ws.recv()
        await ws.send("40" + json.dumps({"token": token}))
        assert str(await ws.recv()).startswith("40")
        frames = [
            f"42{n}" + json.dumps(["activity", {"step": STEPS[n % len(STEPS)]}])
            for n in range(count)
        ]
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        started = time.monotonic()
        for frame in frames:
            await ws.send(frame)
        sent = time.monotonic() - started
        closed, timed_out = False, False
        try:
            async with asyncio.timeout(READ_SECONDS):
                while sum(answers.values()) < count:
                    frame = str(await ws.recv())
                    if frame == "2":  # Engine.IO ping
                        await ws.send("3")
                    status = ack_status(frame)
                    if status is not None:
                        answers[status] += 1
        except websockets.exceptions.ConnectionClosed:
            closed = True
        except TimeoutError:
            timed_out = True
    return {
        "answers": dict(answers),
        "closed": closed,
        "timedOut": timed_out,
        "sendSeconds": sent,
        "seconds": time.monotonic() - started,
    }


if __name__ == "__main__":
    url, token, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print(json.dumps(asyncio.run(flood(url, token, count))))
