"""Memory per idle socket of ours, and where it goes (issue #18's target: <= 20 KiB).

`python -m infra.bench.memprobe [--clients 2000] [--tracemalloc]` starts ours on a fresh
SQLite file (as the storm bench does), makes N distinct users (untimed), warms the server with
50 clients that connect, subscribe and leave, then connects the N, each subscribed to its user
record and the current vacancies month as a returning client (infra/bench/storm.py's
clients), and reports the server's RSS growth per socket once they are all idle.

With --tracemalloc the server runs under infra.bench.profiled with tracemalloc switched on
just before the N connect (so start-up is not traced) and the report adds the bytes still
alive per socket and the library lines that hold the most (the full report by traceback
is kept in the work directory). Tracing costs time and memory of its own, so the RSS
figure of such a run is not the one to publish.
"""

import argparse
import asyncio
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

from infra.bench import servers, storm

WARM_CLIENTS = 50
SETTLE_SECONDS = 3.0
# How long the server may take to write its tracemalloc report (the comparison of two
# snapshots of a few hundred thousand blocks takes a while).
REPORT_TIMEOUT_SECONDS = 300.0
LINES_SHOWN = 15


async def probe(clients: int, concurrency: int, traced: bool, workdir: Path) -> int:
    report = workdir / "memprobe"
    server = servers.start_server(
        "ours", workdir, None, None, tracemalloc_out=report if traced else None
    )
    async with httpx.AsyncClient() as http:
        try:
            await servers.wait_ready(server, http)
            identities = await storm.ours_identities(http, server.port, clients + WARM_CLIENTS)
            month = storm.month_path()
            versions = await storm.probe_versions(server.port, identities[0], month, 30)
            warm = storm.Storm(
                [server.port], identities[clients:], month, versions, WARM_CLIENTS, 30
            )
            await warm.run()
            warm.close()
            await asyncio.sleep(SETTLE_SECONDS)
            if traced:
                server.signal(signal.SIGUSR1)
                await asyncio.sleep(SETTLE_SECONDS)
            before = servers.rss_kib(server.pid)
            ports = [server.port]
            idle = storm.Storm(ports, identities[:clients], month, versions, concurrency, 30)
            seconds = await idle.run()
            await asyncio.sleep(SETTLE_SECONDS)
            after = servers.rss_kib(server.pid)
            live = len(idle.live_ns)
            errors = dict(idle.errors)
            print(f"{live} of {clients} sockets live in {seconds:.1f} s, errors {errors}")
            print(f"RSS growth per idle socket: {(after - before) / max(live, 1):.1f} KiB")
            if traced:
                server.signal(signal.SIGUSR2)
                text = await asyncio.to_thread(written, Path(f"{report}.1.tracemalloc.txt"))
                print_traced(text, live)
            idle.close()
            return 0 if live == clients else 1
        finally:
            server.stop()


def written(path: Path) -> str:
    """The report, once the server has written it (it renames it into place when whole)."""
    deadline = time.monotonic() + REPORT_TIMEOUT_SECONDS
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"no tracemalloc report in {path}")
        time.sleep(1.0)
    return path.read_text(encoding="utf-8")


def print_traced(text: str, live: int) -> None:
    """Bytes alive per socket, and the lines that allocated the most of them."""
    header = re.search(r"==== by lineno: (-?\d+) bytes", text)
    if header is None or not live:
        return
    print(f"traced allocations alive per socket: {int(header.group(1)) / live / 1024:.1f} KiB")
    section = text.split("==== by traceback")[0].splitlines()[1:]
    shown = 0
    for index, line in enumerate(section):
        match = re.match(r"(-?\d+) bytes (-?\d+) blocks", line)
        if match and index + 1 < len(section):
            where = section[index + 1].strip()
            size, blocks = int(match.group(1)) / live, int(match.group(2)) / live
            print(f"  {size:7.0f} B {blocks:5.1f} blocks  {where}")
            shown += 1
            if shown == LINES_SHOWN:
                break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=2000, help="idle sockets N")
    parser.add_argument("--concurrency", type=int, default=100, help="connecting at once")
    parser.add_argument("--tracemalloc", action="store_true", help="where the memory goes")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memprobe-") as workdir:
        return asyncio.run(
            probe(options.clients, options.concurrency, options.tracemalloc, Path(workdir))
        )


if __name__ == "__main__":
    sys.exit(main())
