"""`python -m realtime`: the Procfile's web process."""

import logging

import uvicorn

from realtime.app import create_app
from realtime.settings import Settings


def main() -> None:
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s %(message)s"
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws="websockets-sansio",
        proxy_headers=True,
        timeout_graceful_shutdown=5,
    )


if __name__ == "__main__":
    main()
