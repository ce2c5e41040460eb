"""Today's leaderboards (language models): the chapter's figure.

Only presentation: the chapter computes every number with the public API
(:func:`sotalib.multiplicity.estimate_dependence`,
:func:`sotalib.multiplicity.dependence_fit`, :func:`sotalib.estimate_sota`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from .style import COLORS

__all__ = ["plot_best_of_k"]


def plot_best_of_k(fit, ax=None):
    """Figure: the best of k models, observed against the paper's model."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.6))
    ks = [b["m"] for b in fit.best_of_m]
    for key, color, marker, ls, label in (
        ("observed", COLORS["observed"], "o", "-", "observed"),
        ("predicted", COLORS["sota"], "s", "--", "the paper's model"),
    ):
        mean = [b[f"{key}_mean"] for b in fit.best_of_m]
        lo = [b[f"{key}_q05"] for b in fit.best_of_m]
        hi = [b[f"{key}_q95"] for b in fit.best_of_m]
        ax.plot(ks, mean, marker=marker, ls=ls, color=color, label=label)
        ax.fill_between(ks, lo, hi, color=color, alpha=0.15)
    ax.set_xscale("log")
    ax.set_xlabel("models in the subset, $k$")
    ax.set_ylabel("best accuracy of $k$ models")
    ax.legend(loc="lower right")
    return ax
