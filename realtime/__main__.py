"""`python -m realtime`: the Procfile's web process."""

import gc
import logging

import uvicorn

from realtime.access_log import log_config
from realtime.app import create_app
from realtime.settings import Settings

# Generation-0 threshold: a broadcast to thousands of sockets creates one task per recipient,
# and with CPython's default (700) that set off full collections of about a second each
# during every large push (docs/benchmarks.md). Fewer, larger young collections avoid them.
GC_THRESHOLDS = (50_000, 10, 10)


def main() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s %(message)s"
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=log_config(),
        ws="websockets-sansio",
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
