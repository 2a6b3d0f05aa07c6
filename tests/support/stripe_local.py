"""infra/stripe_local as a real process beside a product server (tests only)."""

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.support.server import ROOT, free_port

WEBHOOK_SECRET = "whsec_test_local"


@dataclass
class StripeLocal:
    webhook_url: str
    log_path: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "StripeLocal":
        self.port = free_port()
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "infra.stripe_local",
                "--port",
                str(self.port),
                "--webhook-url",
                self.webhook_url,
                "--webhook-secret",
                WEBHOOK_SECRET,
            ],
            cwd=ROOT,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/_control/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise TimeoutError("stripe-local did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        if self.process is not None:
            self._log.close()
        self.process = None

    def server_env(self) -> dict[str, str]:
        return {
            "STRIPE_API_BASE": self.url,
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "STRIPE_SECRET_KEY": "sk_test_local",
        }

    async def control(self, method: str, path: str, **kwargs: Any) -> Any:
        async with httpx.AsyncClient(base_url=self.url) as http:
            reply = await http.request(method, f"/_control{path}", **kwargs)
        reply.raise_for_status()
        return reply.json()
