"""Run a server module with diagnostics switched by signals (benchmark harness only).

`python -m infra.bench.profiled <module>` runs `<module>` as `__main__`, the server code
untouched. SIGUSR1 starts a measurement window, SIGUSR2 ends it and writes its files:
- with BENCH_PROFILE_OUT=<prefix>: cProfile of the main thread (the event loop) to
  `<prefix>.<n>.pstats` (timings taken while profiling are inflated; the benchmark does
  not report them);
- with BENCH_GC_OUT=<prefix>: every garbage-collector pass (generation, milliseconds) to
  `<prefix>.<n>.gc.json`, via gc.callbacks (cheap: two clock reads per pass).
- with BENCH_TIME_OUT=<prefix> and BENCH_TIME="pkg.module:function,pkg.module:Class.method":
  the wall time of every call of those functions or coroutine functions (wrapped at
  start-up, looked up by attribute at call time by their callers: a name imported into
  another module is timed as `that.module:name`) to `<prefix>.<n>.time.json`.
An experiment knob, to try a collector setting without editing the server:
- BENCH_GC_THRESHOLD="t0,t1,t2" calls gc.set_threshold(t0, t1, t2) before the server starts.
"""

import cProfile
import functools
import gc
import importlib
import inspect
import json
import os
import runpy
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any


class GcLog:
    """Durations of collector passes inside the current window."""

    def __init__(self) -> None:
        self.recording = False
        self.passes: list[tuple[int, float]] = []
        self._started = 0

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter_ns()
        elif self.recording:
            self.passes.append(
                (int(info["generation"]), (time.perf_counter_ns() - self._started) / 1e6)
            )

    def dump(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"passes": self.passes, "objects": len(gc.get_objects())}, out)
        self.passes = []


class CallTimes:
    """Durations (ms) of calls of wrapped coroutine functions inside the current window."""

    def __init__(self) -> None:
        self.recording = False
        self.calls: dict[str, list[float]] = {}

    def wrap(self, target: str) -> None:
        module_name, _, attribute = target.partition(":")
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        original: Callable[..., Any] = getattr(owner, name)
        durations = self.calls.setdefault(target, [])

        def record(started: int) -> None:
            if self.recording:
                durations.append((time.perf_counter_ns() - started) / 1e6)

        @functools.wraps(original)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter_ns()
            try:
                return await original(*args, **kwargs)
            finally:
                record(started)

        @functools.wraps(original)
        def timed_sync(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter_ns()
            try:
                return original(*args, **kwargs)
            finally:
                record(started)

        setattr(owner, name, timed if inspect.iscoroutinefunction(original) else timed_sync)

    def dump(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(self.calls, out)
        for durations in self.calls.values():
            durations.clear()


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m infra.bench.profiled <module>")
    module = sys.argv[1]
    profile_prefix = os.environ.get("BENCH_PROFILE_OUT")
    gc_prefix = os.environ.get("BENCH_GC_OUT")
    profiler = cProfile.Profile() if profile_prefix else None
    gc_log = GcLog() if gc_prefix else None
    time_prefix = os.environ.get("BENCH_TIME_OUT")
    call_times = CallTimes() if time_prefix else None
    if call_times is not None:
        for target in filter(None, os.environ.get("BENCH_TIME", "").split(",")):
            call_times.wrap(target.strip())
    if gc_log is not None:
        gc.callbacks.append(gc_log.callback)
    threshold = os.environ.get("BENCH_GC_THRESHOLD")
    if threshold:
        gc.set_threshold(*(int(part) for part in threshold.split(",")))
    windows = 0

    def start(signum: int, frame: FrameType | None) -> None:
        if call_times is not None:
            call_times.recording = True
        if gc_log is not None:
            gc_log.passes = []
            gc_log.recording = True
        if profiler is not None:
            profiler.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal windows
        windows += 1
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(f"{profile_prefix}.{windows}.pstats")
            profiler.clear()
        if gc_log is not None:
            gc_log.recording = False
            gc_log.dump(f"{gc_prefix}.{windows}.gc.json")
        if call_times is not None:
            call_times.recording = False
            call_times.dump(f"{time_prefix}.{windows}.time.json")

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
