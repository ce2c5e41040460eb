"""Chapter 1, the coin-flip classifier: its table's number format and its figure.

Only presentation: the chapter computes every number with the public API.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

from .style import COLORS, sci, vline

__all__ = ["any_tail_text", "plot_coin_leaderboard", "probability_text"]


def probability_text(p: float, decimals: int = 4) -> str:
    """A probability as a reader should see it: never a rounded 1.0000 or 0.0000.

    ``probability_text(0.99996)`` is ``"1 − 4.0 × 10⁻⁵"``; ``probability_text(2e-7)`` is
    ``"2.0 × 10⁻⁷"``; probabilities that are exactly 0 or 1 print as ``"0"`` and ``"1"``.
    """
    p = float(p)
    half = 0.5 * 10.0**-decimals
    if p == 0.0 or p == 1.0:
        return f"{p:.0f}"
    if p >= 1 - half:
        return f"1 − {sci(1 - p)}"
    if p < half:
        return sci(p)
    return f"{p:.{decimals}f}"


def _sci_log10(log10_x: float) -> str:
    """``10**log10_x`` in scientific notation, for exponents beyond a float's range."""
    exponent = int(np.floor(log10_x))
    mantissa = 10 ** (log10_x - exponent)
    if round(mantissa, 1) >= 10:  # 9.96 rounds up to the next power of ten
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.1f} × 10{_superscript(exponent)}"


def _superscript(k: int) -> str:
    return str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def any_tail_text(table, n: int, theta: float, decimals: int = 4):
    """Table 1.1 as text: probability that the best of ``m`` (the columns) reaches ``t`` (the index).

    A probability within half a unit of the last decimal of 1 is written ``1 − q`` with its
    complement ``q = P_x^m`` computed in log space (it may be far below the smallest float).
    """
    out = table.copy().astype(object)
    half = 0.5 * 10.0**-decimals
    for column in table.columns:
        m = int(str(column).split("=")[-1].replace(",", ""))
        for t in table.index:
            p = float(table.loc[t, column])
            if p >= 1 - half:
                x = int(np.ceil(t * n - 1e-9)) - 1
                log10_q = m * stats.binom.logcdf(x, n, theta) / np.log(10)
                out.loc[t, column] = f"1 − {_sci_log10(log10_q)}"
            else:
                out.loc[t, column] = probability_text(p, decimals)
    return out


def plot_coin_leaderboard(acc: np.ndarray, n: int, theta: float, ax=None):
    """Figure 1.1: a simulated leaderboard of coin-flip classifiers beside the expected counts."""
    if ax is None:
        _, ax = plt.subplots()
    m = len(acc)
    winner = float(np.max(acc))
    values, counts = np.unique(acc, return_counts=True)
    ax.bar(
        values,
        counts,
        width=0.8 / n,
        color=COLORS["observed"],
        label="simulated leaderboard",
    )
    expected = m * stats.binom.pmf(np.arange(n + 1), n, theta)
    ax.plot(
        np.arange(n + 1) / n,
        expected,
        "o-",
        color=COLORS["single"],
        ms=3,
        label=r"expected, $m\,P(X=x)$",
    )
    vline(
        ax,
        theta,
        label=rf"$\theta_{{SOTA}} = {theta:g}$",
        color=COLORS["sota"],
    )
    vline(
        ax,
        winner,
        label=rf"winner, $\hat\theta_{{\max}} = {winner:.2f}$",
        color=COLORS["maximum"],
        ls=":",
    )
    ax.set_xlabel(rf"accuracy $\hat\theta$ on $n = {n}$ flips")
    ax.set_ylabel("number of classifiers")
    ax.legend(loc="upper left")
    return ax
