"""One `web` node: the Procfile's command on its own port, in its own process group."""

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx

from infra.procfile import ROOT, procfile_command

HOST = "127.0.0.1"
STARTUP_SECONDS = 60.0
# uvicorn's graceful shutdown is 5 s (realtime/__main__.py); past this a node is killed.
STOP_SECONDS = 10.0


def wait_for_health(
    url: str, alive: Callable[[], bool], what: str, timeout: float = STARTUP_SECONDS
) -> None:
    """Until `url`/healthz answers 200; an error as soon as the process behind it is gone
    (`alive`), or after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError(f"{what} exited")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{what} not healthy in {timeout:.0f} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Node:
    """Started and stopped by its process group, so children (a local payment provider in
    development) go with it."""

    name: str
    port: int
    env: Mapping[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        env = {**os.environ, **self.env, "HOST": HOST, "PORT": str(self.port)}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                procfile_command("web"),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_healthy(self, timeout: float = STARTUP_SECONDS) -> None:
        wait_for_health(self.url, self.running, f"{self.name} (see {self.log_path})", timeout)

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """SIGTERM: a graceful stop (sockets closed, clients reconnect elsewhere); SIGKILL: a
        crash. Returns when the process is gone."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None
