"""Chapter 2, the sample maximum: its figure of bias and spread, its comparison with Appendix A.

Only presentation: the chapter computes every number with the public API.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sotalib.multiplicity import iid_bias_sd

from .papers import APPENDIX_A
from .style import plot_bias_sd

__all__ = [
    "appendix_a_comparison",
    "plot_bias_sd_grid",
    "standard_errors_text",
]


def plot_bias_sd_grid(n: int, m: int, theta: float):
    """Figure 2.3 (the paper's Figure 4): exact bias and sd against m, n and theta."""
    m_grid = np.unique(np.round(np.logspace(0, 4, 41)).astype(int))
    n_grid = np.unique(np.round(np.logspace(2, 4.5, 41)).astype(int))
    t_grid = np.linspace(0.55, 0.995, 60)
    fig, axes = plt.subplots(3, 2, figsize=(8, 7), sharey="col")
    plot_bias_sd(
        m_grid,
        {
            rf"$n = {n:,}$".replace(",", "{,}"): iid_bias_sd(n, m_grid, theta),
            r"$n = 1{,}000$": iid_bias_sd(1000, m_grid, theta),
            r"$n = 10{,}000$": iid_bias_sd(10000, m_grid, theta),
        },
        axes[0, 0],
        axes[0, 1],
        r"number of classifiers $m$",
        logx=True,
        marks=(100, 1000, 5000),
    )
    plot_bias_sd(
        n_grid,
        {
            rf"$m = {m:,}$".replace(",", "{,}"): iid_bias_sd(n_grid, m, theta),
            r"$m = 100$": iid_bias_sd(n_grid, 100, theta),
            r"$m = 5{,}000$": iid_bias_sd(n_grid, 5000, theta),
        },
        axes[1, 0],
        axes[1, 1],
        r"test-set size $n$",
        logx=True,
        marks=(1000, 3000, 10000),
    )
    plot_bias_sd(
        t_grid,
        {
            rf"$m = {m:,}$".replace(",", "{,}"): iid_bias_sd(n, m, t_grid),
            r"$m = 100$": iid_bias_sd(n, 100, t_grid),
            r"$m = 5{,}000$": iid_bias_sd(n, 5000, t_grid),
        },
        axes[2, 0],
        axes[2, 1],
        r"probability of success $\theta$",
        marks=(0.85, 0.90, 0.95),
    )
    for ax, tag in zip(axes.ravel(), "abcdef", strict=True):
        ax.set_title(f"({tag})", loc="left")
    return fig


def appendix_a_comparison(book: pd.DataFrame) -> pd.DataFrame:
    """The paper's Appendix A beside the book's exact values, one row per quantity.

    ``book`` has columns ``m, n, theta, mean, sd``; "agrees" means equal at the paper's
    printed precision (four decimals for the mean, six for the sd).
    """
    rows = []
    for r in book.itertuples(index=False):
        mean, sd, version = APPENDIX_A[(int(r.m), int(r.n), float(r.theta))]
        setting = f"m = {int(r.m):,}, n = {int(r.n):,}, θ = {r.theta:.2f}"
        rows.append(
            (
                setting,
                "E max",
                version,
                f"{mean:.4f}",
                f"{r.mean:.6f}",
                round(r.mean, 4) == mean,
            )
        )
        rows.append(
            (
                setting,
                "sd",
                version,
                f"{sd:.6f}",
                f"{r.sd:.6f}",
                round(r.sd, 6) == sd,
            )
        )
    return pd.DataFrame(
        rows,
        columns=[
            "setting",
            "quantity",
            "printed in",
            "paper",
            "book",
            "agrees",
        ],
    )


def standard_errors_text(z: float) -> str:
    """``-1.13`` as "1.13 standard errors below", ``0.4`` as "0.40 standard errors above"."""
    return f"{abs(z):.2f} standard errors {'below' if z < 0 else 'above'}"
