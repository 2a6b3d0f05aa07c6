"""A real uvicorn server in the test's own process, for tests that read a Socket.IO server's
state directly (its manager's counters, its sockets' tasks) while real clients use it."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import socketio
import uvicorn

from realtime.lean_websocket import LeanWebSocketProtocol
from tests.support.server import free_port


@asynccontextmanager
async def serving(sio: socketio.AsyncServer) -> AsyncIterator[int]:
    """`sio` served on a free port (yielded) with the product's WebSocket settings
    (realtime/__main__.py: its WebSocket protocol, no per-message compression)."""
    port = free_port()
    config = uvicorn.Config(
        socketio.ASGIApp(sio),
        port=port,
        log_level="warning",
        ws=LeanWebSocketProtocol,
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        await task
