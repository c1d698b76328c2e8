"""Benchmarks: ``make bench`` (or ``python -m benchmarks [NAME ...]``) runs them and prints figures.

Each ``bench_*.py`` module has ``main() -> None`` that measures and prints its figures
(medians and ratios from one run; these machines are shared and noisy).
"""
