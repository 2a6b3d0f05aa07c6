"""Run a server module under cProfile, switched by signals (benchmark harness only).

`BENCH_PROFILE_OUT=<prefix> python -m infra.bench.profiled <module>` runs `<module>` as
`__main__`. SIGUSR1 starts profiling the main thread (the event loop); SIGUSR2 stops and
writes `<prefix>.<n>.pstats`. The server code itself is not touched. Timings taken while
profiling are inflated and are not used for the benchmark's figures.
"""

import cProfile
import os
import runpy
import signal
import sys
from types import FrameType


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m infra.bench.profiled <module>")
    module = sys.argv[1]
    prefix = os.environ.get("BENCH_PROFILE_OUT", "bench-profile")
    profiler = cProfile.Profile()
    dumps = 0

    def start(signum: int, frame: FrameType | None) -> None:
        profiler.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal dumps
        profiler.disable()
        dumps += 1
        profiler.dump_stats(f"{prefix}.{dumps}.pstats")
        profiler.clear()

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
