"""Benchmarks: `make bench` runs every `bench_*` module; each prints ratios against a baseline
measured in the same run and writes a Markdown report under `benchmarks/reports/`."""
