"""Benchmarks (``python -m experiments.bench.<name>``); results and machine
in ``docs/benchmarks.md``."""
