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
- with BENCH_TRACEMALLOC_OUT=<prefix>: tracemalloc starts at SIGUSR1 (10 frames, so the
  server's start-up is not slowed) and at SIGUSR2 what was allocated in the window and is
  still alive goes to `<prefix>.<n>.tracemalloc.txt`, grouped by line and by traceback
  (infra/bench/memprobe.py reads it per connection).
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
import tracemalloc
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


# Frames kept per allocation: enough to see which library line, and who called it.
TRACEMALLOC_FRAMES = 10
# Lines and tracebacks written per report.
TRACEMALLOC_TOP = 40


class AllocationWindow:
    """What was allocated between SIGUSR1 and SIGUSR2 and is still alive at the end."""

    def __init__(self) -> None:
        self.before: tracemalloc.Snapshot | None = None

    def start(self) -> None:
        gc.collect()
        tracemalloc.start(TRACEMALLOC_FRAMES)
        self.before = tracemalloc.take_snapshot()

    def dump(self, path: str) -> None:
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        if self.before is None:
            return
        own = [tracemalloc.Filter(False, tracemalloc.__file__)]
        after, before = after.filter_traces(own), self.before.filter_traces(own)
        partial = f"{path}.partial"  # renamed when whole, so a reader never sees half
        with open(partial, "w", encoding="utf-8") as out:
            for key in ("lineno", "traceback"):
                stats = after.compare_to(before, key)
                total = sum(stat.size_diff for stat in stats)
                out.write(f"==== by {key}: {total} bytes, {len(stats)} places\n")
                for stat in stats[:TRACEMALLOC_TOP]:
                    out.write(f"{stat.size_diff} bytes {stat.count_diff} blocks\n")
                    for line in stat.traceback.format(most_recent_first=True)[:12]:
                        out.write(f"    {line}\n")
        os.replace(partial, path)
        self.before = None


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
    memory_prefix = os.environ.get("BENCH_TRACEMALLOC_OUT")
    allocations = AllocationWindow() if memory_prefix else None
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
        if allocations is not None:
            allocations.start()

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
        if allocations is not None:
            allocations.dump(f"{memory_prefix}.{windows}.tracemalloc.txt")

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
