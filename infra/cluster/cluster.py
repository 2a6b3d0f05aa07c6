"""N nodes on one database, one Redis and one files directory, behind HAProxy."""

import os
import signal
import subprocess
from collections.abc import Mapping
from pathlib import Path

from infra.cluster.balancer import render, start_haproxy
from infra.cluster.nodes import HOST, STARTUP_SECONDS, Node, free_port, wait_for_health
from infra.procfile import ROOT, procfile_command

# The balancer's own address as the nodes see it: the one proxy whose X-Forwarded-For they
# believe (and do not cap per address).
BALANCER_ADDRESS = HOST
# PostgreSQL connections the cluster's nodes may hold together: under a default server's
# max_connections (100), leaving room for migrations, psql and other clients.
DATABASE_CONNECTIONS = 60


def pool_settings(nodes: int, connections: int = DATABASE_CONNECTIONS) -> dict[str, str]:
    """Each node's share of `connections`, kept open once opened (storage/db.py says why none
    overflow). A load past the share waits for a connection rather than being refused by
    PostgreSQL ("too many clients")."""
    share = max(1, connections // nodes)
    return {"DATABASE_POOL_SIZE": str(share), "DATABASE_MAX_OVERFLOW": "0"}


class Cluster:
    """`env` holds the settings every node shares (DATABASE_URL, REDIS_URL, ...); the
    cluster adds the ones that make them one system behind one address: one FILES_DIR
    (documents are files every node must read), PUBLIC_URL the balancer's, the balancer
    as the one trusted proxy, and each node's share of the database's connections (each
    overridable but the proxy)."""

    def __init__(self, *, nodes: int, port: int, workdir: Path, env: Mapping[str, str]) -> None:
        self.port = port
        self.workdir = workdir
        self.url = f"http://{HOST}:{port}"
        # PUBLIC_URL given: the address of a TLS terminator in front of the balancer.
        self.env = {
            "FILES_DIR": str(workdir / "files"),
            "PUBLIC_URL": self.url,
            **pool_settings(nodes),
            **env,
            "FORWARDED_ALLOW_IPS": BALANCER_ADDRESS,
        }
        self.nodes = [
            Node(f"node{n}", free_port(), self.env, workdir / f"node{n}.log")
            for n in range(1, nodes + 1)
        ]
        self.config_path = workdir / "haproxy.cfg"
        self.haproxy: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.migrate()
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            node.wait_healthy()
        self.config_path.write_text(render(f"{HOST}:{self.port}", self.addresses()))
        self.haproxy = start_haproxy(self.config_path, self.workdir / "haproxy.log")
        self.wait_balancer()

    def addresses(self) -> list[tuple[str, int]]:
        return [(HOST, node.port) for node in self.nodes]

    def migrate(self) -> None:
        """The Procfile's `release` once before any node, as a deployment runs it."""
        with (self.workdir / "release.log").open("ab") as log:
            subprocess.run(
                procfile_command("release"),
                cwd=ROOT,
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                check=True,
            )

    def wait_balancer(self, timeout: float = STARTUP_SECONDS) -> None:
        wait_for_health(
            self.url,
            lambda: self.haproxy is not None and self.haproxy.poll() is None,
            f"haproxy (see {self.workdir / 'haproxy.log'})",
            timeout,
        )

    def restart(self, node: Node, sig: signal.Signals = signal.SIGTERM) -> None:
        """Stop one node (gracefully, or SIGKILL as a crash) and start it again on its port,
        back once healthy: HAProxy's checks take it out and put it back."""
        node.stop(sig)
        node.start()
        node.wait_healthy()

    def rolling_restart(self) -> None:
        for node in self.nodes:
            self.restart(node)

    def stop(self) -> None:
        if self.haproxy is not None:
            if self.haproxy.poll() is None:
                self.haproxy.terminate()
            self.haproxy.wait()
            self.haproxy = None
        for node in self.nodes:
            node.stop()
