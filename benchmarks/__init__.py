"""Benchmarks: ``make bench`` runs every ``benchmarks/bench_*.py`` and prints one table.

Each module defines ``CASES``, a list of :class:`benchmarks._harness.Case`.
Speed targets live here, never in timed unit tests.
"""
