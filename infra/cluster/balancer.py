"""HAProxy's configuration for a set of nodes, and HAProxy itself as a child process."""

import resource
import subprocess
from collections.abc import Sequence
from pathlib import Path
from string import Template

TEMPLATE = Path(__file__).with_name("haproxy.cfg.in")
# Connections HAProxy accepts at once; each takes two descriptors (the client's and its
# node's), so the machine's file limit may lower it (room kept for listeners and checks).
MAXCONN = 20_000
RESERVED_FDS = 100


def max_connections() -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        return MAXCONN
    return min(MAXCONN, (hard - RESERVED_FDS) // 2)


def server_lines(addresses: Sequence[tuple[str, int]]) -> str:
    """One `server` line per node; its cookie value names it for sticky polling."""
    return "\n".join(
        f"    server node{n} {host}:{port} cookie node{n}"
        for n, (host, port) in enumerate(addresses, start=1)
    )


def render(bind: str, addresses: Sequence[tuple[str, int]]) -> str:
    return Template(TEMPLATE.read_text()).substitute(
        bind=bind, maxconn=max_connections(), servers=server_lines(addresses)
    )


def start_haproxy(config: Path, log_path: Path) -> subprocess.Popen[bytes]:
    """HAProxy in the foreground (-db), so it ends with this launcher; it checks the file
    first and exits at once on a bad one."""
    subprocess.run(["haproxy", "-c", "-q", "-f", str(config)], check=True)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            ["haproxy", "-db", "-f", str(config)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
