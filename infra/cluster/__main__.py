"""`python -m infra.cluster [--nodes 3] [--port 8080]`: the cluster until Ctrl-C.

Settings come from the environment as for one node (APP_ENV, SECRET_KEY, ...); DATABASE_URL
defaults to `gc_cluster` on the local PostgreSQL (created when missing), REDIS_URL to the
local Redis. A node that exits is started again (kill -9 one to see clients move);
SIGHUP restarts the nodes one after another. docs/operations.md, "A cluster".
"""

import argparse
import os
import signal
import threading
from pathlib import Path
from types import FrameType

from infra.cluster.cluster import Cluster
from infra.cluster.database import default_database_url
from infra.procfile import ROOT

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# How often the launcher looks for nodes that exited.
SUPERVISE_SECONDS = 1.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m infra.cluster", description=__doc__)
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--port", type=int, default=8080, help="the balancer's port")
    parser.add_argument("--workdir", type=Path, default=ROOT / "var" / "cluster")
    return parser.parse_args()


def shared_settings() -> dict[str, str]:
    """The two a cluster cannot run without; the rest (FILES_DIR, PUBLIC_URL, APP_ENV, ...)
    pass through from the environment or take the cluster's defaults."""
    passed = {key: os.environ[key] for key in ("FILES_DIR", "PUBLIC_URL") if key in os.environ}
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or default_database_url(),
        "REDIS_URL": os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
        **passed,
    }


def report(cluster: Cluster) -> None:
    print(
        f"cluster: {cluster.url} (HAProxy pid {cluster.haproxy and cluster.haproxy.pid})",
        flush=True,
    )
    for node in cluster.nodes:
        print(f"  {node.name}: {node.url} pid {node.pid}, log {node.log_path}", flush=True)
    print(
        f"  haproxy.cfg: {cluster.config_path}; Ctrl-C stops all, SIGHUP rolls a restart",
        flush=True,
    )


def supervise(cluster: Cluster, stopping: threading.Event, rolling: threading.Event) -> None:
    """Start again any node that exited, and roll a restart when asked, until stopped."""
    while not stopping.wait(SUPERVISE_SECONDS):
        if rolling.is_set():
            rolling.clear()
            cluster.rolling_restart()
            report(cluster)
        for node in cluster.nodes:
            if not node.running() and not stopping.is_set():
                print(f"cluster: {node.name} exited; starting it again", flush=True)
                cluster.restart(node)
                print(f"  {node.name}: pid {node.pid}", flush=True)


def main() -> None:
    args = parse_args()
    workdir: Path = args.workdir.resolve()
    cluster = Cluster(nodes=args.nodes, port=args.port, workdir=workdir, env=shared_settings())
    stopping = threading.Event()
    rolling = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    def roll(signum: int, frame: FrameType | None) -> None:
        rolling.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, roll)
    try:
        cluster.start()
        report(cluster)
        supervise(cluster, stopping, rolling)
    finally:
        print("cluster: stopping HAProxy and the nodes", flush=True)
        cluster.stop()


if __name__ == "__main__":
    main()
