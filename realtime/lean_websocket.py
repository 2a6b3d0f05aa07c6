"""uvicorn's WebSocket protocol (websockets, sans-I/O), without the handshake response kept.

uvicorn 0.54 keeps the parsed opening request and the response it answered with (both with
their header tables) on the connection for its whole life, though nothing reads them once
the response has been written. Dropping the response saves about 1.4 KiB per open socket
(docs/upstream.md, "An idle socket's footprint"); the request stays alive regardless, held by
the websockets library's parser (its `ServerProtocol.parse` keeps it in a local while it
goes on parsing frames), and the app's ASGI scope keeps the headers it was given.
"""

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from realtime.wait_queue import WaitQueue


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's `ws="websockets-sansio"` protocol, forgetting the handshake once done, its
    received messages in a queue that costs next to nothing while empty (wait_queue.py)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn calls put_nowait, get and empty, which WaitQueue has as asyncio.Queue.
        self.queue = WaitQueue()  # type: ignore[assignment]

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # written; uvicorn reads them only before the handshake completes
            del self.request, self.response
