"""A private redis-server on a free port, for tests that take Redis away and bring it back."""

import subprocess
import time
from pathlib import Path

import redis

from tests.support.server import free_port

STARTUP_SECONDS = 10.0


class PrivateRedis:
    """Not persistent; `stop` kills it, `start` brings a new empty one on the same port."""

    def __init__(self, log_path: Path) -> None:
        self.port = free_port()
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "PrivateRedis":
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return self
            except redis.RedisError:
                time.sleep(0.05)
        raise TimeoutError(f"redis-server did not start; see {self.log_path}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
