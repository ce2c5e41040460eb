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
    """Figure: the paired standard error of each pair against the unpaired.

    ``pairs`` is the chapter's frame of pairs, with the columns ``se``
    (paired), ``se_unpaired`` and ``corr``.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5.6, 4.4))
    x = np.asarray(pairs["se_unpaired"], dtype=float)
    y = np.asarray(pairs["se"], dtype=float)
    points = ax.scatter(
        x, y, c=pairs["corr"], s=8, cmap="viridis", alpha=0.7, lw=0
    )
    top = float(np.nanmax(np.concatenate([x, y]))) * 1.05
    ax.plot([0, top], [0, top], ls="--", color=COLORS["reference"], lw=1)
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("unpaired SE of the difference")
    ax.set_ylabel("paired SE of the difference")
    ax.figure.colorbar(points, ax=ax, label="correlation of the pair")
    return ax


WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def count(n) -> str:
    """A count for the prose: a word up to seven, digits beyond."""
    n = int(n)
    return WORDS[n] if 0 <= n < len(WORDS) else f"{n:,}"
