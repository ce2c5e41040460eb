"""The consistency chapter's cached power simulation (the paper's Figure 3) and the power figure."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from ..consistency import PowerPoint, power_oversampling
from .style import COLORS

__all__ = [
    "FIG3_REPS",
    "FIG3_SEED",
    "FIG3_DECIMALS",
    "FILE",
    "cli_output",
    "count_phrase",
    "fig3_power",
    "pairs",
    "plot_power",
    "repeats_frame",
    "table5_comparison",
]

#: Replications and seed of the cached Figure 3 simulation (``data/ch6_fig3_power.json``).
FIG3_REPS, FIG3_SEED, FIG3_DECIMALS = 200, 20240607, (2, 3, 4)


FILE = "ch6_fig3_power.json"


def fig3_power(path=None, *, out=None) -> list[PowerPoint]:
    """Figure 3: power against oversampling before 5-fold CV at 2, 3 and 4 decimals (cached).

    The simulation (``FIG3_REPS`` replications per point, ``rng=FIG3_SEED + decimals``)
    takes minutes, so its result ships as ``sotalib/book/data/ch6_fig3_power.json``
    (or ``path``) and is read from there.  With ``out`` (a folder) it is rerun and
    written to ``out / FILE`` (``python -m sotalib.book.cache ch6_fig3_power --out ...``).

    The integer programs are solved with SciPy's HiGHS (``solver="highs"``),
    every solution verified exactly and every "infeasible" confirmed by CBC.
    An earlier version of this cache used HiGHS alone: three replications at
    four decimals ended "undecided" (counted as consistent), which CBC decides
    as infeasible, and the power at four decimals rose from 0.985 to its
    present value when CBC was added.
    """
    if out is None:
        if path is None:
            text = (
                resources.files("sotalib.book")
                .joinpath("data", FILE)
                .read_text()
            )
        else:
            text = Path(path).read_text()
        return [PowerPoint.from_dict(d) for d in json.loads(text)]
    pts = [
        power_oversampling(d, n_resamples=FIG3_REPS, rng=FIG3_SEED + d)
        for d in FIG3_DECIMALS
    ]
    target = Path(out) / FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps([pt.to_dict() for pt in pts], indent=1))
    return pts


def plot_power(points_by_label: dict, ax=None, reference: dict | None = None):
    """Power against the number of decimals, one line per label, +-2 SE bars (Figs. 3 and 5)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 3.6))
    colors = [
        COLORS["single"],
        COLORS["better"],
        COLORS["sota"],
        COLORS["maximum"],
    ]
    for (label, pts), c in zip(points_by_label.items(), colors):
        d = [pt.decimals for pt in pts]
        ax.errorbar(
            d,
            [pt.power for pt in pts],
            yerr=[2 * pt.se for pt in pts],
            marker="o",
            color=c,
            label=label,
            capsize=3,
        )
    for label, (d, v) in (reference or {}).items():
        ax.plot(
            d,
            v,
            ls="none",
            marker="x",
            ms=9,
            color=COLORS["reference"],
            label=label,
        )
    ax.set_xlabel("decimals reported")
    ax.set_ylabel("power (probability of detection)")
    ax.set_ylim(-0.02, 1.05)
    ax.set_xticks(
        sorted({pt.decimals for pts in points_by_label.values() for pt in pts})
    )
    ax.legend(loc="lower right")
    return ax


def pairs(rows) -> str:
    """(tp, tn) pairs or (p_i, n_i) folds as text: ``(1, 2), (3, 4)``."""
    return ", ".join(f"({int(a)}, {int(b)})" for a, b in rows)


def table5_comparison(agg: dict, printed: dict):
    """The paper's Table 5b beside ``aggregate_scores``: one row per score."""
    import pandas as pd

    rows = []
    for s in sorted(agg):
        mos, som = agg[s]
        p_mos, p_som = printed[s]
        rows.append(
            {
                "score": {"fbp": "f1+", "fbn": "f1-"}.get(s, s),
                "MoS": mos,
                "MoS (paper)": p_mos,
                "SoM": som,
                "SoM (paper)": p_som,
                "agree": "yes"
                if round(mos, 4) == p_mos and round(som, 4) == p_som
                else "no",
            }
        )
    return pd.DataFrame(rows)


def repeats_frame(results: dict):
    """The repeated-cross-validation verdicts, one row per number of repetitions."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "repetitions": r,
                "configurations": res.configurations_tested,
                "MoS verdict": res.status,
                "first repetition of the evidence": pairs(
                    res.configurations[0]
                )
                if res.configurations
                else "–",
            }
            for r, res in results.items()
        ]
    )


def cli_output(args: list[str], width: int = 76) -> str:
    """Run ``sotalib ARGS`` and return its standard output, long lines wrapped to ``width``.

    A wrapped line continues indented under its first word, so the verdict and
    every detail stay inside the book's text column.
    """
    import subprocess
    import sys
    import textwrap

    out = subprocess.run(
        [sys.executable, "-m", "sotalib", *args],
        capture_output=True,
        text=True,
    ).stdout
    lines = []
    for line in out.rstrip("\n").splitlines():
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        lines += textwrap.wrap(
            line, width, subsequent_indent=indent, break_on_hyphens=False
        ) or [""]
    return "\n".join(lines)


def count_phrase(n: int, singular: str, plural: str | None = None) -> str:
    """A count in English: ``no pair``, ``one pair``, ``2 pairs``, ``1,468 pairs``.

    ``plural`` defaults to ``singular + "s"``.  For prose whose count may be
    zero or one, so that the book never prints "0 pairs" or "1 pairs".
    """
    n = int(n)
    if n == 0:
        return f"no {singular}"
    if n == 1:
        return f"one {singular}"
    return f"{n:,} {plural or singular + 's'}"
