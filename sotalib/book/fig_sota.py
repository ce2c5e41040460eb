"""Figures of the real-challenges chapter (Figures 8 and 9 of Møllersen & Holsbø)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..multiplicity import simulate_leaderboard
from .style import COLORS, vline

__all__ = ["leaderboard_panel", "plot_realisations"]


def leaderboard_panel(
    ax,
    observed,
    values=None,
    *,
    lines=(),
    interval=None,
    lo: float = 0.88,
    hi: float | None = None,
    binwidth: float = 0.0005,
    values_label: str | None = None,
):
    """One panel: the observed leaderboard (grey), optionally other values (black), lines and an interval.

    ``lines`` are ``(x, label, color, linestyle)``; ``interval`` is ``(low, high, label, color)``,
    drawn as a horizontal bar near the bottom of the panel.
    """
    observed = np.asarray(observed)
    top = max(observed.max(), np.max(values) if values is not None else 0) if hi is None else hi
    bins = np.arange(lo, top + 2 * binwidth, binwidth)
    ax.hist(observed[observed >= lo], bins=bins, color=COLORS["observed"], alpha=0.6, label=r"$\hat\Theta$")
    if values is not None:
        v = np.asarray(values)
        ax.hist(v[v >= lo], bins=bins, histtype="step", color=COLORS["reference"], lw=1.1, label=values_label)
    for x, label, color, ls in lines:
        vline(ax, x, label, color=color, ls=ls)
    # head room above the bars for the legend (and the interval's bar), so that it covers no data
    peak = ax.get_ylim()[1]
    ax.set_ylim(0, 2.0 * peak)
    if interval is not None:
        a, b, label, color = interval
        ax.hlines(1.08 * peak, a, b, color=color, lw=3, label=label)
    ax.set_xlabel("accuracy")
    ax.set_ylabel(f"teams per bin of {binwidth:g}")
    ax.legend(loc="upper left", fontsize="small")
    return ax


def plot_realisations(
    observed,
    results: dict,
    n: int,
    *,
    classes: int,
    rho: float = 0.6,
    seed: int = 0,
    lo: float = 0.88,
    shrunk: bool = True,
):
    """Figure 8 (``shrunk=True``: panels a-d) or Figure 9 (``shrunk=False``: panels a-b).

    ``results`` holds the cached estimates of the chapter (``naive``, ``observed`` and,
    for Figure 8, ``shrink_expected``).  Realisations are one simulated leaderboard
    each (:func:`sotalib.multiplicity.simulate_leaderboard`, seeds ``seed`` and ``seed + 1``).
    """
    observed = np.asarray(observed)
    s = observed[observed > 1.0 / classes]
    mx = float(s.max())
    nv, ob = results["naive"], results["observed"]
    # two panels a row, the column's width: Figure 8 (four panels) stays lower than a laptop's
    # screen, and each panel's legend sits in the head room above its histogram
    nrows = 2 if shrunk else 1
    fig, axes = plt.subplots(nrows, 2, figsize=(8.4, 3.1 * nrows), sharex=True, squeeze=False)
    m_line = (mx, r"$\max(\hat\Theta)$", COLORS["maximum"], ":")
    leaderboard_panel(
        axes[0, 0],
        s,
        lines=[m_line],
        lo=lo,
        interval=(nv["ci_low"], nv["ci_high"], r"95% CI of $\hat\theta_{\max}$ alone", COLORS["maximum"]),
    )
    real, _ = simulate_leaderboard(s, n, rho=rho, rng=seed)
    leaderboard_panel(
        axes[0, 1],
        s,
        real,
        lo=lo,
        values_label=r"realisation, $\Theta' = \hat\Theta$",
        lines=[m_line, (ob["expected_max"], r"$\mathrm{E}\max(\hat\Theta')$", COLORS["single"], "--")],
        interval=(ob["ci_low"], ob["ci_high"], r"95% CI of $\max(\hat\Theta')$", COLORS["single"]),
    )
    if shrunk:
        sh = results["shrink_expected"]
        w = sh["weight"]
        theta_p = w * s + (1 - w) / classes
        leaderboard_panel(
            axes[1, 0],
            s,
            theta_p,
            lo=lo,
            values_label=r"shrunk $\Theta'$",
            lines=[m_line, (sh["estimate"], r"$\max(\Theta')$", COLORS["sota"], "--")],
        )
        real2, _ = simulate_leaderboard(theta_p, n, rho=rho, rng=seed + 1)
        leaderboard_panel(
            axes[1, 1],
            s,
            real2,
            lo=lo,
            values_label=r"realisation of shrunk $\Theta'$",
            lines=[m_line, (sh["expected_max"], r"$\mathrm{E}\max(\hat\Theta')$", COLORS["better"], "--")],
            interval=(sh["ci_low"], sh["ci_high"], r"95% CI of $\max(\hat\Theta')$", COLORS["better"]),
        )
    for ax, tag in zip(axes.ravel(), "abcd"):
        ax.set_title(f"({tag})", loc="left")
    for ax in axes[:-1].ravel():  # the panels share the accuracy axis: label it once, at the bottom
        ax.set_xlabel("")
    for ax in axes[:, 1:].ravel():  # the row's left panel names the counts
        ax.set_ylabel("")
    return fig
