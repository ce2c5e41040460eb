"""Chapter 6's cached power simulation (the paper's Figure 3) and the power figure."""

from __future__ import annotations

import json
from pathlib import Path

from ..consistency._power import PowerPoint, power_oversampling
from .style import COLORS

__all__ = ["FIG3_REPS", "FIG3_SEED", "FIG3_DECIMALS", "fig3_power", "plot_power"]

#: Replications and seed of the cached Figure 3 simulation (``data/ch6_fig3_power.json``).
FIG3_REPS, FIG3_SEED, FIG3_DECIMALS = 200, 20240607, (2, 3, 4)


def fig3_power(path=None, recompute: bool = False) -> list[PowerPoint]:
    """Figure 3: power against oversampling before 5-fold CV at 2, 3 and 4 decimals (cached).

    The simulation (``FIG3_REPS`` replications per point, seed ``FIG3_SEED``)
    takes minutes, so its result ships as ``sotalib/data/ch6_fig3_power.json``;
    ``recompute=True`` reruns it and rewrites the file.
    """
    path = Path(path) if path else Path(__file__).parent / "data" / "ch6_fig3_power.json"
    if path.exists() and not recompute:
        return [PowerPoint(**d) for d in json.loads(path.read_text())]
    pts = [power_oversampling(d, reps=FIG3_REPS, seed=FIG3_SEED + d) for d in FIG3_DECIMALS]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([pt.__dict__ for pt in pts], indent=1))
    return pts


def plot_power(points_by_label: dict, ax=None, reference: dict | None = None):
    """Power against the number of decimals, one line per label, +-2 SE bars (Figs. 3 and 5)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 3.6))
    colors = [COLORS["single"], COLORS["better"], COLORS["sota"], COLORS["maximum"]]
    for (label, pts), c in zip(points_by_label.items(), colors):
        d = [pt.decimals for pt in pts]
        ax.errorbar(d, [pt.power for pt in pts], yerr=[2 * pt.se for pt in pts], marker="o", color=c,
                    label=label, capsize=3)
    for label, (d, v) in (reference or {}).items():
        ax.plot(d, v, ls="none", marker="x", ms=9, color=COLORS["reference"], label=label)
    ax.set_xlabel("decimals reported")
    ax.set_ylabel("power (probability of detection)")
    ax.set_ylim(-0.02, 1.05)
    ax.set_xticks(sorted({pt.decimals for pts in points_by_label.values() for pt in pts}))
    ax.legend(loc="lower right")
    return ax

