"""Start-up: whole ``sotalib`` processes, each timed in pairs beside a reference process.

A command line is used one process at a time, so what a user waits for is
mostly start-up (interpreter, imports, Numba cache loading), not the
computation.  Absolute start-up times say little on a shared machine, so each
case is *paired* (see :mod:`benchmarks._harness`): ours and the reference run
alternately and the target bounds the median of the per-pair ratios
``ours / reference``.

* ``sotalib --help`` against ``python -c "import numpy"``: ours <= 1.5x ref;
* one ``sotalib maxdist`` (Table 1, row 1) against the same: ours <= 4x ref;
* the five rows of Table 1 of Møllersen & Holsbø as five ``sotalib maxdist``
  processes, one after another, against one process computing the same five
  rows exactly in plain NumPy (``benchmarks/_table1_numpy.py``, which checks
  itself against the command line with ``--check``): ours <= 0.2x ref, i.e.
  the command line at least 5x faster.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

from ._harness import Case

SOTALIB = str(Path(sysconfig.get_path("scripts")) / "sotalib")
PYTHON = sys.executable
TABLE1_NUMPY = str(Path(__file__).with_name("_table1_numpy.py"))

#: ``sotalib maxdist`` arguments of the five rows of Table 1 (n = 3000, m = 1000, theta_SOTA = 0.9).
BASE = ["maxdist", "--n", "3000", "--m", "1000", "--theta", "0.9", "--json"]
TABLE1_ROWS = [
    [],
    ["--spread", "0.025"],
    ["--rho", "0.6"],
    ["--rho", "0.6", "--y0", "fixed"],
    ["--rho", "0.6", "--spread", "0.025"],
]


def _run(*commands: list[str]):
    """A callable running the commands one after another, each as a process (output discarded)."""

    def run() -> None:
        for cmd in commands:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

    return run


IMPORT_NUMPY = _run([PYTHON, "-c", "import numpy"])

CASES = [
    Case(
        "start-up: sotalib --help",
        _run([SOTALIB, "--help"]),
        reference=IMPORT_NUMPY,
        reference_name="python -c 'import numpy'",
        ratio_target=1.5,
    ),
    Case(
        "start-up: sotalib maxdist (Table 1 row 1)",
        _run([SOTALIB, *BASE]),
        reference=IMPORT_NUMPY,
        reference_name="python -c 'import numpy'",
        ratio_target=4.0,
    ),
    Case(
        "Table 1 (5 rows): 5 sotalib maxdist processes",
        _run(*([SOTALIB, *BASE, *extra] for extra in TABLE1_ROWS)),
        reference=_run([PYTHON, TABLE1_NUMPY]),
        reference_name="plain NumPy, 1 process",
        ratio_target=0.2,
        note="reference: benchmarks/_table1_numpy.py (exact; agrees to 1e-13 with --check)",
    ),
]
