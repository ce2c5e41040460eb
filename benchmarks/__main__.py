"""``python -m benchmarks [PATTERN] [-k TEXT]``: run the benchmark modules whose name contains
PATTERN (all by default) and print one table; ``-k TEXT`` keeps only the rows whose name
contains TEXT (case-insensitive; the modules still do their import-time work)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from ._harness import print_table, run_cases


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("pattern", nargs="?", default="", help="part of a module name, e.g. consistency")
    parser.add_argument("-k", dest="rows", default="", help="part of a row name, e.g. CIFAR")
    args = parser.parse_args(argv)
    import benchmarks

    rows = []
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda i: i.name):
        if not info.name.startswith("bench_") or args.pattern not in info.name:
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        cases = [c for c in module.CASES if args.rows.lower() in c.name.lower()]
        if cases:
            print(f"running {info.name} ...", file=sys.stderr, flush=True)
            rows += run_cases(cases)
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
