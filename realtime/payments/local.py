"""The embedded default's payment provider: in development, with no STRIPE_API_BASE and the
placeholder key, the server starts infra/stripe_local (a server speaking Stripe's API with a
hosted checkout page) as a child process and points the SDK at it."""

import asyncio
import logging
import os
import socket
import sys
from pathlib import Path

from realtime.production import DEFAULT_STRIPE_SECRET_KEY
from realtime.settings import ROOT, Settings

log = logging.getLogger(__name__)
START_SECONDS = 20.0


def wants_local_stripe(settings: Settings) -> bool:
    return (
        settings.app_env == "development"
        and settings.stripe_api_base is None
        and settings.stripe_secret_key == DEFAULT_STRIPE_SECRET_KEY
        and (ROOT / "infra" / "stripe_local").is_dir()
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def start_local_stripe(settings: Settings) -> tuple[asyncio.subprocess.Process, str]:
    port = _free_port()
    webhook = f"http://127.0.0.1:{settings.port}/stripe/webhook"
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "infra.stripe_local",
        "--port",
        str(port),
        "--webhook-url",
        webhook,
        "--webhook-secret",
        settings.stripe_webhook_secret,
        # It exits when this process is gone, even by kill -9 (no orphan keeps the port).
        "--parent-pid",
        str(os.getpid()),
        cwd=Path(ROOT),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = asyncio.get_running_loop().time() + START_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            log.info("local payment provider (infra/stripe_local) at %s", url)
            return process, url
        except OSError:
            await asyncio.sleep(0.2)
    process.terminate()
    raise RuntimeError("infra/stripe_local did not start")
