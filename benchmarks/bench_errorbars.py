"""Error bars of every model and every pair (``sotalib errorbars``), beside eval-arena's estimators pair by pair.

Three cases (issue 33):

* ``errorbars --pairs --json`` end to end (a fresh process: start-up, reading the CSV, every pair
  computed, the JSON without the pairs beyond 100,000) on 1,000 models x 1,000 items, 499,500 pairs:
  target 10 s; and the same writing every pair with ``--pairs-file`` (no target: the text of four
  million full-precision floats takes seconds on its own);
* the library's ``evaluation_noise`` beside the same estimators written pair by pair with pandas and
  NumPy as eval-arena writes them (``benchmarks/_eval_arena_reference.py``), on 100 models x 1,000
  items (4,950 pairs; the reference would take minutes on the 499,500 pairs);
* a board the size of the Open LLM Leaderboard on MMLU-Pro, simulated: 4,500 models x 12,000 items,
  the summary (every pair is still computed for the close pairs, block by block) in a fresh process,
  target one minute, with its peak resident memory in the note.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from ._eval_arena_reference import models_table, pairs_table, simulate
from ._harness import Case

ROOT = Path(__file__).resolve().parent.parent
_TMP = Path(tempfile.mkdtemp(prefix="sotalib-bench-errorbars-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def write_wide_csv(path: Path, Y: np.ndarray) -> None:
    """The wide CSV (``item`` then one 0/1 column per model), written in one pass."""
    n, m = Y.shape
    with open(path, "w", encoding="ascii") as fh:
        fh.write("item," + ",".join(f"m{j}" for j in range(m)) + "\n")
        for i in range(n):
            fh.write(f"q{i}," + ",".join("1" if v else "0" for v in Y[i]) + "\n")


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}


class _LiveNote(str):
    """A note completed by the run (the peak memory measured in the child process)."""

    extra: str

    def __new__(cls, text: str):
        obj = super().__new__(cls, text)
        obj.extra = ""
        return obj

    def __str__(self) -> str:
        return super().__str__() + self.extra


# ------------------------------------------------------------------ 1,000 x 1,000 through the command line
Y_1K = simulate(1_000, 1_000, seed=33)
CSV_1K = _TMP / "board_1000x1000.csv"
write_wide_csv(CSV_1K, Y_1K)
NOTE_1K = _LiveNote("fresh process: start-up, reading the CSV, every pair, the JSON (pairs left out beyond 100,000)")

_CHILD = r"""
import resource, sys
from sotalib.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("PEAK_RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def _peak_mb(stderr: str) -> float:
    for line in stderr.splitlines():
        if line.startswith("PEAK_RSS_KB"):
            return int(line.split()[1]) / 1024
    return float("nan")


NOTE_FILE = _LiveNote("every pair written to a JSONL file (full-precision floats: about 4 million of them)")


def _cli(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, env=_env(), cwd=ROOT, check=True
    )


def cli_pairs() -> None:
    """The issue's command: beyond 100,000 pairs the JSON leaves them out (with a note)."""
    proc = _cli(["errorbars", "--per-item", str(CSV_1K), "--pairs", "--json"])
    summary = json.loads(proc.stdout)["summary"]
    NOTE_1K.extra = f"; {summary['n_pairs']:,} pairs; peak RSS {_peak_mb(proc.stderr):.0f} MB"


def cli_pairs_file() -> None:
    out = _TMP / "pairs.jsonl"
    proc = _cli(["errorbars", "--per-item", str(CSV_1K), "--pairs", "--pairs-file", str(out), "--json"])
    with open(out, encoding="utf-8") as fh:
        lines = sum(1 for _ in fh)
    NOTE_FILE.extra = f"; {lines:,} lines; peak RSS {_peak_mb(proc.stderr):.0f} MB"


# ------------------------------------------------------------------ the library beside eval-arena pair by pair
Y_REF = Y_1K[:, :100].copy()
NAMES_REF = [f"m{j}" for j in range(100)]


def ours_small():
    import sotalib

    return sotalib.evaluation_noise(sotalib.PerItem(Y_REF, models=NAMES_REF), pairs=True)


def reference_small():
    return models_table(Y_REF, NAMES_REF), pairs_table(Y_REF, NAMES_REF)


def _agreement() -> str:
    """Largest differences between the library and the reference (the same estimators, so near zero)."""
    try:
        r = ours_small()
        ref_models, ref_pairs = reference_small()
    except Exception as exc:  # the library not there yet: the table says so
        return f"(agreement not checked: {exc})"
    frame = r.pairs.to_frame()
    worst = {
        "difference": np.nanmax(np.abs(frame["difference"].to_numpy() - ref_pairs["difference"].to_numpy())),
        "se": np.nanmax(np.abs(frame["se"].to_numpy() - ref_pairs["SE(A-B)"].to_numpy())),
        "p": np.nanmax(np.abs(frame["p_value"].to_numpy() - ref_pairs["pvalue"].to_numpy())),
        "holm": np.nanmax(np.abs(frame["p_adjusted"].to_numpy() - ref_pairs["p_adjusted"].to_numpy())),
        "model se": np.nanmax(np.abs(np.asarray(r.models.se) - ref_models["SE(A)"].to_numpy())),
    }
    return "max |ours - ref|: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items())


# ------------------------------------------------------------------ 4,500 x 12,000, simulated, in a fresh process
_BIG = r"""
import resource, sys, time
import numpy as np
sys.path.insert(0, {root!r})
from benchmarks._eval_arena_reference import simulate
import sotalib
Y = simulate(12_000, 4_500, seed=34)
t0 = time.perf_counter()
r = sotalib.evaluation_noise(sotalib.PerItem(Y), pairs=False)
seconds = time.perf_counter() - t0
print(seconds, r.summary.n_pairs, r.summary.close_pairs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
NOTE_BIG = _LiveNote("summary (every pair for the close ones, block by block); fresh process, simulation included")


def big_board() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _BIG.format(root=str(ROOT))], capture_output=True, text=True, env=_env(), check=True
    )
    seconds, n_pairs, close, rss = proc.stdout.split()
    NOTE_BIG.extra = (
        f"; evaluation_noise {float(seconds):.1f} s, {int(n_pairs):,} pairs ({int(close):,} close); "
        f"peak RSS {int(rss) / 1024:.0f} MB (the 0/1 matrix alone: {12_000 * 4_500 * 8 / 2**20:.0f} MB)"
    )


CASES = [
    Case(
        "errorbars --pairs: 1,000 models x 1,000 items (CLI, fresh process)",
        cli_pairs,
        target=10.0,
        repeat=1,
        warmup=True,
        note=NOTE_1K,
    ),
    Case(
        "errorbars --pairs --pairs-file: 1,000 models x 1,000 items (CLI, fresh process)",
        cli_pairs_file,
        target=None,
        repeat=1,
        warmup=False,
        note=NOTE_FILE,
    ),
    Case(
        "evaluation_noise, every pair: 100 models x 1,000 items (4,950 pairs)",
        ours_small,
        target=1.0,
        repeat=3,
        reference=reference_small,
        reference_name="eval-arena's estimators pair by pair (pandas/NumPy/scipy)",
        note=_agreement(),
    ),
    Case(
        "errorbars summary: 4,500 models x 12,000 items (simulated, fresh process)",
        big_board,
        target=60.0,
        repeat=1,
        warmup=False,
        note=NOTE_BIG,
    ),
]
