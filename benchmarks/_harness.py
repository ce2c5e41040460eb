"""A small timing harness: median wall time of repeated calls, printed as a table."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable


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


def fmt_seconds(t: float | None) -> str:
    if t is None or (isinstance(t, float) and math.isnan(t)):
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.0f} us"
    if t < 1:
        return f"{t * 1e3:.1f} ms"
    return f"{t:.2f} s"


def run_cases(cases: list[Case]) -> list[dict]:
    rows = []
    for case in cases:
        ours = time_call(case.func, case.repeat, case.warmup)
        ref = None
        if case.reference is not None:
            try:
                ref = time_call(case.reference, max(1, case.repeat // 2), warmup=False)
            except Exception as exc:  # the reference may be unavailable; say so
                ref = None
                case = Case(**{**case.__dict__, "note": f"{case.note} (reference failed: {exc})".strip()})
        rows.append({
            "benchmark": case.name,
            "time": ours,
            "target": case.target,
            "met": None if case.target is None else ours <= case.target,
            "reference": case.reference_name if case.reference is not None else "",
            "ref_time": ref,
            "ratio": None if ref is None else ref / ours,
            "note": case.note,
        })
    return rows


def print_table(rows: list[dict]) -> None:
    header = ["benchmark", "time", "target", "met", "reference", "ref time", "ref/ours", "note"]
    body = []
    for r in rows:
        body.append([
            r["benchmark"], fmt_seconds(r["time"]),
            "-" if r["target"] is None else fmt_seconds(r["target"]),
            "-" if r["met"] is None else ("yes" if r["met"] else "NO"),
            r["reference"] or "-", fmt_seconds(r["ref_time"]),
            "-" if r["ratio"] is None else f"{r['ratio']:.1f}x", r["note"],
        ])
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for cells in body:
        print(line(cells))
