"""Start the product exactly as the Procfile's `web` line does, as a real process."""

import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from infra.cluster.nodes import free_port as free_port  # re-exported for the suites
from infra.procfile import procfile_command

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60.0
# Every test client comes from 127.0.0.1: per-IP limits are tested on their own.
PER_IP_LIMITS_OFF = {
    "SIGN_IN_LINKS_PER_IP": "100000",
    "ADMIN_REPORTS_PER_IP": "100000",
    "CONTACT_MESSAGES_PER_IP": "100000",
    "HOLDS_PER_IP": "100000",
    "TOTP_ATTEMPTS_PER_IP": "100000",
    "SOCKETS_PER_ADDRESS": "100000",
}


@dataclass
class ServerProcess:
    """One `web` process on a free port; ended by PID (and its group) when stopped."""

    env: Mapping[str, str]
    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    # The payment provider beside it, if any (tests.support.stripe_local.StripeLocal).
    payments: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, healthy: bool = True) -> "ServerProcess":
        self._spawn()
        self.wait_ready(healthy=healthy)
        return self

    def _spawn(self) -> None:
        env = {
            **os.environ,
            "APP_ENV": "test",
            "LOG_LEVEL": "warning",
            "PUBLIC_URL": f"http://127.0.0.1:{self.port}",
            **PER_IP_LIMITS_OFF,
            "FILES_DIR": str(self.log_path.parent / f"files-{self.port}"),
            **self.env,
            "PORT": str(self.port),
        }
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            procfile_command(),
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def launch(self) -> "ServerProcess":
        """Start without waiting (for a process expected to refuse to start)."""
        self._spawn()
        return self

    def wait_ready(self, *, healthy: bool = True) -> None:
        """Wait for /healthz to answer (200 when `healthy`, any answer otherwise)."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.log_path}:\n{self.log()}")
            try:
                status = httpx.get(f"{self.url}/healthz", timeout=3).status_code
                if status == 200 or not healthy:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"server not healthy in time; see {self.log_path}")

    def exit_code(self, timeout: float) -> int:
        """Wait for a process expected to exit by itself (refusing to start)."""
        assert self.process is not None
        return self.process.wait(timeout=timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()
        self.process = None
