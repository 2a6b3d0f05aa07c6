"""A local stand-in for an outside service (infra/stripe_local, infra/oidc_local) as a real
process beside product servers (tests only): started on a free port, ready once its
`/_control/health` answers, driven through its `/_control` routes, stopped with its group."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Self

import httpx

from tests.support.server import ROOT, free_port

START_SECONDS = 30


class LocalService:
    """Subclasses name their module and its arguments; the process handling is here."""

    module = ""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def arguments(self) -> list[str]:
        """The service's own command-line options, after `--port`."""
        return []

    def start(self) -> Self:
        self.port = free_port()
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", self.module, "--port", str(self.port), *self.arguments()],
            cwd=ROOT,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/_control/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise TimeoutError(f"{self.module} did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        if self.process is not None:
            self._log.close()
        self.process = None

    async def control(self, method: str, path: str, **kwargs: Any) -> Any:
        async with httpx.AsyncClient(base_url=self.url) as http:
            reply = await http.request(method, f"/_control{path}", **kwargs)
        reply.raise_for_status()
        return reply.json()
