"""`python -m realtime`: the Procfile's web process."""

import gc
import sys
from typing import Any

import uvicorn
from pydantic import ValidationError
from pydantic_settings import SettingsError

from realtime.access_log import log_config
from realtime.app import create_app
from realtime.connections import guarded_http_protocol, trusted_hosts
from realtime.lean_websocket import LeanWebSocketProtocol
from realtime.logs import configure_logging
from realtime.settings import Settings
from realtime.settings_errors import refusal_lines

# Generation-0 threshold: a broadcast to thousands of sockets creates one task per recipient,
# and with CPython's default (700) that set off full collections of about a second each
# during every large push (docs/benchmarks.md). Fewer, larger young collections avoid them.
GC_THRESHOLDS = (50_000, 10, 10)


# Exit status of a start refused for its settings (any non-zero would do; 2 is "usage").
EXIT_BAD_SETTINGS = 2


def load_settings() -> Settings:
    """The settings, or exit non-zero printing only setting names and messages, never a
    value (realtime/settings_errors.py)."""
    try:
        return Settings()
    except (ValidationError, SettingsError) as error:
        for line in refusal_lines(error):
            print(f"refusing to start: {line}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_SETTINGS) from None


def main() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    settings = load_settings()
    configure_logging(settings.log_level)
    uvicorn.run(create_app(settings), **server_options(settings))


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options: proxy headers only from FORWARDED_ALLOW_IPS, slow clients cut off,
    no query strings in the log (docs/protocol.md, "Transport limits")."""
    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level,
        "log_config": log_config(),
        # uvicorn's websockets-sansio protocol, not keeping the handshake (lean_websocket.py).
        "ws": LeanWebSocketProtocol,
        # Uncompressed frames, as Node's socket.io sends by default: compression costs CPU and
        # memory per socket, and one broadcast frame then serves every subscriber
        # (realtime/broadcast.py).
        "ws_per_message_deflate": False,
        "http": guarded_http_protocol(
            read_timeout=settings.request_read_timeout_seconds,
            max_per_address=settings.max_connections_per_address,
            exempt=trusted_hosts(settings.forwarded_allow_ips),
        ),
        "proxy_headers": settings.forwarded_allow_ips is not None,
        # Never None: uvicorn would then read FORWARDED_ALLOW_IPS itself (default 127.0.0.1).
        "forwarded_allow_ips": settings.forwarded_allow_ips or "",
        "timeout_graceful_shutdown": 5,
    }


if __name__ == "__main__":
    main()
