"""How noisy is a language-model evaluation? The chapter's figure.

Only presentation: the chapter computes every number with the public API
(:func:`sotalib.read_per_item`, :func:`sotalib.evaluation_noise`,
:func:`sotalib.estimate_test_size`, :func:`sotalib.estimate_sota`,
:func:`sotalib.estimate_rank_uncertainty`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import COLORS

__all__ = ["count", "plot_paired"]


def plot_paired(pairs, ax=None):
    """Figure: paired over unpaired standard error against the correlation.

    ``pairs`` is the chapter's frame of pairs, with the columns ``se``
    (paired), ``se_unpaired`` and ``corr``.  The curve is
    ``sqrt(1 - corr)``, the ratio for two models of equal variance.
    """
    if ax is None:
        # small enough that its fonts stay legible on a phone's width
        _, ax = plt.subplots(figsize=(4.8, 3.2))
    corr = np.asarray(pairs["corr"], dtype=float)
    ratio = np.asarray(pairs["se"], dtype=float) / np.asarray(
        pairs["se_unpaired"], dtype=float
    )
    ax.scatter(
        corr,
        ratio,
        s=14,
        color=COLORS["single"],
        alpha=0.5,
        lw=0,
        zorder=3,
        label="pairs of models",
    )
    grid = np.linspace(min(0.0, corr.min()), 1.0, 200)
    ax.plot(
        grid,
        np.sqrt(1 - grid),
        color=COLORS["sota"],
        ls="--",
        lw=1,
        label=r"$\sqrt{1 - \rho}$ (equal variances)",
    )
    ax.axhline(1.0, color=COLORS["reference"], lw=0.8)
    ax.set_xlim(grid[0], 1.0)
    ax.set_ylim(0.0, 1.1)
    ax.set_xlabel(r"correlation of the pair, $\rho$", fontsize=12)
    ax.set_ylabel("paired / unpaired SE", fontsize=12)
    ax.xaxis.set_major_locator(plt.MaxNLocator(5))
    ax.yaxis.set_major_locator(plt.MaxNLocator(4))
    ax.tick_params(labelsize=11)
    ax.legend(loc="lower left", fontsize=10)
    return ax


WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def count(n, zero: str = "no") -> str:
    """A count for the prose: a word up to seven, digits beyond."""
    n = int(n)
    if n == 0:
        return zero
    return WORDS[n] if 0 < n < len(WORDS) else f"{n:,}"
