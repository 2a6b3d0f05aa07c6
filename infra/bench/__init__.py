"""Benchmarks of the realtime server; `python -m infra.bench.fanout` is the fan-out one."""
