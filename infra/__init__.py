"""Operational tooling around the realtime server (benchmarks, load generators)."""
