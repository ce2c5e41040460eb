"""``python -m benchmarks [PATTERN]``: run every benchmark module and print one table."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from ._harness import print_table, run_cases


def main(argv: list[str]) -> int:
    pattern = argv[0] if argv else ""
    import benchmarks

    rows = []
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda i: i.name):
        if not info.name.startswith("bench_") or pattern not in info.name:
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        print(f"running {info.name} ...", file=sys.stderr, flush=True)
        rows += run_cases(module.CASES)
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
