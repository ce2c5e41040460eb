"""``sotalib check --batch`` on 10,000 reported accuracies of language-model benchmarks (issue 34).

Target: 10,000 rows in under 10 s.  The reference is a plain loop that calls the library's single
check (:func:`sotalib.consistency.check_report` with ``n_items``, or ``dataset``) once per report,
with the options already parsed: what the batch adds (reading the table, one verdict or one error
per row) is the difference.  The rows are a fixed mixture: half name a benchmark of
:data:`sotalib.consistency.BENCHMARKS`, half give ``items``; percents written with 1 to 3
decimals, a third the mean of 3 runs, a tenth a pass@1 over 10 samples per item.
"""

from __future__ import annotations

import io
import random

from sotalib.consistency import check_batch, check_report

from ._harness import Case

ROWS = 10_000
_BENCHMARKS = (
    "humaneval",
    "humaneval-plus",
    "mbpp",
    "mbpp-plus",
    "gsm8k",
    "math-500",
    "gpqa-diamond",
    "aime-2024",
    "swe-bench-verified",
    "swe-bench-lite",
    "arc-challenge",
    "hellaswag",
    "winogrande",
    "truthfulqa-mc1",
    "ifeval",
    "mmlu",
    "mmlu-pro",
    "bbh",
)
_SIZES = (30, 164, 198, 378, 500, 1172, 1319, 2294, 10042, 14042)


def reports(count: int = ROWS, seed: int = 34) -> list[dict]:
    """``count`` reports as the batch's columns (text cells, empty when not given)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        row = {"id": f"r{i}", "dataset": "", "items": "", "decimals": "", "repeats": "", "samples": "", "pass_at": ""}
        if rng.random() < 0.5:
            row["dataset"] = rng.choice(_BENCHMARKS)
        else:
            row["items"] = str(rng.choice(_SIZES))
        decimals = rng.choice((1, 2, 3))
        row["decimals"] = str(decimals)
        if rng.random() < 0.1:
            row["samples"], row["pass_at"] = "10", "1"
        elif rng.random() < 1 / 3:
            row["repeats"] = "3"
        row["acc"] = f"{round(rng.random() * 100, decimals):.{decimals}f}%"
        out.append(row)
    return out


REPORTS = reports()
COLUMNS = ("id", "dataset", "items", "decimals", "repeats", "samples", "pass_at", "acc")
CSV = "\n".join([",".join(COLUMNS)] + [",".join(r[c] for c in COLUMNS) for r in REPORTS]) + "\n"


def batch() -> list:
    return check_batch(io.StringIO(CSV), progress=False).consistent


def plain_loop() -> list:
    """The library's single check once per report, the options parsed by hand."""
    out: list[bool | None] = []
    for r in REPORTS:
        kwargs: dict = {"decimals": int(r["decimals"])}
        if r["dataset"]:
            kwargs["dataset"] = r["dataset"]
        else:
            kwargs["n_items"] = int(r["items"])
        if r["repeats"]:
            kwargs["repeats"] = int(r["repeats"])
        if r["samples"]:
            kwargs["samples"], kwargs["pass_at"] = int(r["samples"]), int(r["pass_at"])
        try:
            out.append(check_report({"acc": r["acc"]}, **kwargs).consistent)
        except ValueError:
            out.append(None)
    return out


CASES = [
    Case(
        f"check --batch: {ROWS:,} accuracies on named benchmarks or n items",
        batch,
        target=10.0,
        repeat=1,
        reference=plain_loop,
        reference_name="plain loop over check_report",
        note="target: 10,000 rows in under 10 s; ratio near 1: the table costs little beside the checks",
    ),
]
