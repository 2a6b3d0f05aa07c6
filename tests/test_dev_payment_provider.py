"""The development server's own payment provider (realtime/payments/local.py starts
infra/stripe_local as a child) dies with the server, even after `kill -9` (issue #12 item 20)."""

import os
import signal
import time
from pathlib import Path

from tests.support.server import ServerProcess

PROC = Path("/proc")


def provider_child_of(server: ServerProcess) -> int:
    """The pid of the infra/stripe_local process sending webhooks to this server."""
    webhook = f"127.0.0.1:{server.port}/stripe/webhook".encode()
    for entry in PROC.iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if b"infra.stripe_local" in cmdline and webhook in cmdline:
            return int(entry.name)
    raise AssertionError(f"no infra/stripe_local child; see {server.log_path}")


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's exit may wait for a reaper that never comes)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_local_payment_provider_dies_with_a_killed_development_server(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        # Development with no STRIPE_API_BASE and the placeholder key: the server starts
        # infra/stripe_local itself.
        env={"APP_ENV": "development", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/d.db"},
        log_path=tmp_path / "dev.log",
    ).start()
    child = None
    try:
        assert server.process is not None
        child = provider_child_of(server)
        assert running(child)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(child), "infra/stripe_local outlived its server"
    finally:
        if child is not None and running(child):
            os.kill(child, signal.SIGKILL)
        server.stop()
