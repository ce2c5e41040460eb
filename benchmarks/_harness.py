"""A small timing harness: median wall time of repeated calls, printed as a table.

Two kinds of case:

* plain (default): ``func`` timed ``repeat`` times (median), against an
  absolute ``target`` in seconds; an optional ``reference`` is timed after it
  and the table shows ``ref/ours``;
* paired (``ratio_target`` set): ``func`` and ``reference`` are run
  alternately, ours then reference, ``pairs`` times after one untimed warm-up
  of each, and the case is judged on the median over the pairs of
  ``ours / reference``: met when it is ``<= ratio_target``.  Each ratio comes
  from two runs a moment apart, so a shared, noisy machine slows both sides
  alike; use this for targets that are only meaningful relative to a reference
  (start-up times, whole processes).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    """One benchmark.

    Attributes
    ----------
    name : str
        What is measured (shown in the table).
    func : callable
        Called with no arguments; its wall time is measured.
    target : float or None
        Target time in seconds (the table says whether it is met).
    repeat : int
        Number of timed calls; the median is reported.
    warmup : bool
        Call once untimed first (e.g. Numba compilation).
    reference : callable or None
        Optional reference implementation timed the same way (e.g. another
        package); the table shows the ratio reference / ours.
    reference_name : str
        Label of the reference.
    note : str
        Anything the reader should know (sizes, results).
    ratio_target : float or None
        Makes the case *paired* (needs ``reference``): met when the median of
        the per-pair ratios ``ours / reference`` is ``<= ratio_target``
        (shown as ``ours <= 1.5x ref``).  ``target``, ``repeat`` and
        ``warmup`` are then unused.
    pairs : int
        Number of timed (ours, reference) pairs of a paired case.
    """

    name: str
    func: Callable[[], object]
    target: float | None = None
    repeat: int = 3
    warmup: bool = True
    reference: Callable[[], object] | None = None
    reference_name: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)
    ratio_target: float | None = None
    pairs: int = 7

    @property
    def paired(self) -> bool:
        return self.ratio_target is not None


def time_call(func: Callable[[], object], repeat: int, warmup: bool) -> float:
    if warmup:
        func()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def _timed(func: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    func()
    return time.perf_counter() - t0


def time_pairs(func: Callable[[], object], reference: Callable[[], object], pairs: int) -> dict:
    """Run ``func`` and ``reference`` alternately (A B A B ...) after one untimed call of each.

    Returns the median times of each side, the median, minimum and maximum
    of the per-pair ratios ``ours / reference`` (``ratio``, ``ratio_min``,
    ``ratio_max``) and the median of ``reference / ours``.
    """
    if pairs < 1:
        raise ValueError(f"pairs must be >= 1, got {pairs}")
    func()
    reference()
    ours, refs = [], []
    for _ in range(pairs):
        ours.append(_timed(func))
        refs.append(_timed(reference))
    ratios = sorted(a / b for a, b in zip(ours, refs))
    return {
        "time": statistics.median(ours),
        "ref_time": statistics.median(refs),
        "ratio": statistics.median(ratios),
        "ref_over_ours": statistics.median(b / a for a, b in zip(ours, refs)),
        "ratio_min": ratios[0],
        "ratio_max": ratios[-1],
    }


def fmt_seconds(t: float | None) -> str:
    if t is None or (isinstance(t, float) and math.isnan(t)):
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.0f} us"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def _run_paired(case: Case) -> dict:
    if case.reference is None:
        raise ValueError(f"paired case {case.name!r} needs a reference")
    row = {
        "benchmark": case.name,
        "time": None,
        "target": None,
        "ratio_target": case.ratio_target,
        "met": None,
        "reference": case.reference_name,
        "ref_time": None,
        "ratio": None,
        "ours_over_ref": None,
        "note": f"{case.pairs} pairs; {case.note}".rstrip("; "),
    }
    try:
        t = time_pairs(case.func, case.reference, case.pairs)
    except Exception as exc:  # e.g. the reference is unavailable; say so rather than stop the table
        row["note"] = f"{row['note']} (failed: {exc})"
        return row
    row.update(
        time=t["time"],
        ref_time=t["ref_time"],
        ratio=t["ref_over_ours"],
        ours_over_ref=(t["ratio"], t["ratio_min"], t["ratio_max"]),
        met=t["ratio"] <= case.ratio_target,
    )
    return row


def run_cases(cases: list[Case]) -> list[dict]:
    rows = []
    for case in cases:
        if case.paired:
            rows.append(_run_paired(case))
            continue
        ours = time_call(case.func, case.repeat, case.warmup)
        ref = None
        if case.reference is not None:
            try:
                ref = time_call(case.reference, max(1, case.repeat // 2), warmup=False)
            except Exception as exc:  # the reference may be unavailable; say so
                ref = None
                case = Case(**{**case.__dict__, "note": f"{case.note} (reference failed: {exc})".strip()})
        rows.append(
            {
                "benchmark": case.name,
                "time": ours,
                "target": case.target,
                "ratio_target": None,
                "met": None if case.target is None else ours <= case.target,
                "reference": case.reference_name if case.reference is not None else "",
                "ref_time": ref,
                "ratio": None if ref is None else ref / ours,
                "ours_over_ref": None,
                "note": case.note,
            }
        )
    return rows


def fmt_target(r: dict) -> str:
    if r.get("ratio_target") is not None:
        return f"ours <= {r['ratio_target']:g}x ref"
    return "-" if r["target"] is None else fmt_seconds(r["target"])


def fmt_ours_over_ref(r: dict) -> str:
    """Median per-pair ``ours / reference`` of a paired case, with the range over the pairs."""
    if r.get("ours_over_ref") is None:
        return "-"
    med, lo, hi = r["ours_over_ref"]
    return f"{med:.2f}x ({lo:.2f}-{hi:.2f})"


def print_table(rows: list[dict]) -> None:
    """One Markdown table.  ``ref/ours`` > 1 means ours is faster; paired cases
    also show ``ours/ref`` (median of the pairs, and its range), the quantity
    their target bounds."""
    paired = any(r.get("ours_over_ref") is not None or r.get("ratio_target") is not None for r in rows)
    header = ["benchmark", "time", "target", "met", "reference", "ref time", "ref/ours"]
    if paired:
        header.append("ours/ref (pairs)")
    header.append("note")
    body = []
    for r in rows:
        cells = [
            r["benchmark"],
            fmt_seconds(r["time"]),
            fmt_target(r),
            "-" if r["met"] is None else ("yes" if r["met"] else "NO"),
            r["reference"] or "-",
            fmt_seconds(r["ref_time"]),
            "-" if r["ratio"] is None else f"{r['ratio']:.1f}x",
        ]
        if paired:
            cells.append(fmt_ours_over_ref(r))
        cells.append(r["note"])
        body.append(cells)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"

    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for cells in body:
        print(line(cells))
