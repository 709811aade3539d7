"""Benchmarks: ``python -m bench.recall`` (LoCoMo memory recall), ``python -m bench.load`` (node
latency under load), ``python -m bench.growth`` (latency against memory size). See
``bench/README.md``; figures in ``bench/RESULTS.md``."""
