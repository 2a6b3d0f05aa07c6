"""What every benchmark's `main()` does around its own measurements (infra/bench/fanout.py,
infra/bench/booking.py), so that they start, end, clean up and report alike:
- the machine's description and the CPUs given to the server and to the clients;
- a work directory for logs, removed at the end unless the run failed or
  `--keep-workdir` asked to keep it;
- SIGTERM and SIGHUP end a run as Ctrl-C does: the servers and processes it started are
  stopped, nothing is reported, the exit status is 130;
- the event loop (uvloop when installed), the wait for a quiet machine, the JSON document.
"""

import asyncio
import contextlib
import json
import math
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Coroutine, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from infra.bench import generator, servers

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
INTERRUPTED = 130  # the exit status of a run ended by Ctrl-C, SIGTERM or SIGHUP


def machine_note() -> dict[str, Any]:
    """CPUs, load average, Python and the commit measured: the note of a browser bench's
    JSON (infra/bench/board_browser.py, first_load.py)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=servers.ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return {
        "cpus": os.cpu_count(),
        "loadavg": [round(value, 2) for value in os.getloadavg()],
        "python": platform.python_version(),
        "commit": commit,
    }


def machine() -> dict[str, Any]:
    """CPUs, model, Python and the transport's package versions, for the JSON document
    (read before the process changes its CPU affinity)."""
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions: dict[str, str] = {}
    from importlib.metadata import PackageNotFoundError, version

    for package in ("python-socketio", "python-engineio", "uvicorn", "websockets", "uvloop"):
        with contextlib.suppress(PackageNotFoundError):
            versions[package] = version(package)
    return {
        "cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "cpu_model": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
    }


def split_cpus(pin: bool, host: dict[str, Any]) -> tuple[set[int] | None, set[int] | None]:
    """(server CPUs, client CPUs), also recorded in `host`. With `pin` and two CPUs or more
    the server gets the first and this process (its writer, the clients and generators it
    starts) moves to the others, so that the server has a core of its own; else both are
    None: anywhere."""
    cpus = sorted(os.sched_getaffinity(0))
    pinned = pin and len(cpus) >= 2
    client_cpus = set(cpus[1:]) if pinned else None
    server_cpus = {cpus[0]} if pinned else None
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    host["server_cpus"] = sorted(server_cpus) if server_cpus else "any"
    host["client_cpus"] = sorted(client_cpus) if client_cpus else "any"
    return server_cpus, client_cpus


@contextlib.contextmanager
def terminate_on_signals() -> Iterator[None]:
    """SIGTERM/SIGHUP end the run through the normal clean-up path."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class RunOptions(Protocol):
    """The options of every benchmark that `supervised` reads (--pin, --profile,
    --keep-workdir)."""

    pin: bool
    profile_dir: Path | None
    keep_workdir: bool


@dataclass
class Run:
    """One benchmark run: its work directory and CPUs (`split_cpus`), what to stop when it
    ends, how it ended."""

    workdir: Path
    server_cpus: set[int] | None
    client_cpus: set[int] | None
    cleanup: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    failed: bool = True  # until the run has results that say otherwise
    interrupted: bool = False

    def at_exit(self, stop: Callable[[], object]) -> None:
        """Call `stop` when the run ends, however it ends (the last registered first)."""
        self.cleanup.callback(stop)


@contextlib.contextmanager
def supervised(
    prefix: str, options: RunOptions, host: dict[str, Any], *, interrupted: str
) -> Iterator[Run]:
    """The frame of a benchmark's run. At the start: the open-file limit raised, a work
    directory, the --profile directory made, the CPUs split (`split_cpus`, into `host`).
    At the end, in this order: the `Run.at_exit` clean-ups (servers, processes, databases);
    an interruption (Ctrl-C, SIGTERM, SIGHUP) reported on stderr with `interrupted`, what it
    leaves, and not raised (`Run.interrupted`); the work directory removed, or its path
    printed when the run failed or --keep-workdir. Other exceptions go through the same
    clean-up and are raised."""
    generator.raise_open_file_limit()
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    if options.profile_dir is not None:
        options.profile_dir.mkdir(parents=True, exist_ok=True)
    run = Run(workdir, *split_cpus(options.pin, host))
    with terminate_on_signals():
        try:
            with run.cleanup:
                yield run
        except KeyboardInterrupt as exc:
            print(f"\ninterrupted ({exc or 'SIGINT'}): {interrupted}", file=sys.stderr)
            run.interrupted = True
        finally:
            if options.keep_workdir or run.failed or run.interrupted:
                print(f"work directory (logs): {run.workdir}", file=sys.stderr)
            else:
                shutil.rmtree(run.workdir, ignore_errors=True)


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """Run `main` on the event loop the generator processes use too."""
    with asyncio.Runner(loop_factory=generator.new_event_loop) as loop:
        return loop.run(main)


async def wait_quiet(limit: float, cores: float, own_cpu: Callable[[], float]) -> float:
    """Wait (at most `limit` s) until what else runs here uses under `cores` CPUs; returns
    the last one-second reading. `own_cpu`: CPU seconds of the benchmark's own processes,
    which do not count."""
    deadline = time.monotonic() + limit
    while True:
        before = (time.monotonic(), servers.system_busy_seconds(), own_cpu())
        await asyncio.sleep(1.0)
        after = (time.monotonic(), servers.system_busy_seconds(), own_cpu())
        load = max(0.0, (after[1] - before[1]) - (after[2] - before[2])) / (after[0] - before[0])
        if load < cores or time.monotonic() >= deadline:
            return load


def to_json(value: Any) -> Any:
    """NaN -> None, recursively (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    return value


def write_json(
    path: Path,
    benchmark: str,
    host: dict[str, Any],
    options: "DataclassInstance",
    results: dict[str, Any],
    *,
    leave_out: Collection[str] = (),
) -> None:
    """The `--json` document: the benchmark's name, when, the machine and the options (paths
    as text, without `leave_out`), then its `results`."""
    document = {
        "benchmark": benchmark,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": host,
        "options": {
            key: str(value) if isinstance(value, Path) else value
            for key, value in asdict(options).items()
            if key not in leave_out
        },
        **results,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(document), indent=2) + "\n")
    print(f"\nJSON: {path}")
