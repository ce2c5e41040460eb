"""Drawings of a comparison: the critical-difference diagram and the rank-interval plot.

Both draw on a matplotlib ``Axes`` in the current style (the book applies its
own first; the command line uses matplotlib's defaults).  matplotlib is
imported inside the functions: it is not a dependency of the library, and
``ImportError`` says how to install it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ._bradley_terry import BradleyTerry
from ._compare import Comparison
from ._uncertainty import RankUncertainty

if TYPE_CHECKING:
    from matplotlib.axes import Axes
else:
    try:  # matplotlib is optional: the type of the axes drawn on, when it is installed (for get_type_hints)
        from matplotlib.axes import Axes
    except ImportError:  # pragma: no cover - depends on the environment
        Axes = Any

__all__ = ["plot_cd_diagram", "plot_rank_intervals"]


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt  # optional dependency, loaded only to draw
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("drawing needs matplotlib: pip install matplotlib") from None
    return plt


def plot_cd_diagram(
    comparison: Comparison, *, ax: Axes | None = None, color: str | None = None, label_size: float | None = None
) -> Axes:
    """The critical-difference diagram of {demsar2006statistical} (his Figure 1) for a :class:`Comparison`.

    An axis of average ranks (1, the best, on the left); each candidate is
    joined to its average rank by a line from the left side (the better half)
    or the right side (the worse half); a thick bar joins every group of
    candidates that the Nemenyi test does not tell apart (average ranks
    closer than the critical difference); the critical difference is drawn
    as a scale bar above the axis.

    Parameters
    ----------
    comparison : Comparison
        The result of :func:`compare_candidates`.
    ax : matplotlib Axes, optional
        Drawn on a new figure if omitted.
    color : str, optional
        Colour of the group bars (default: the first colour of the style's cycle).
    label_size : float, optional
        Font size of the candidate names.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Raises
    ------
    ImportError
        If matplotlib is not installed.

    References
    ----------
    Demšar (2006), *Statistical comparisons of classifiers over multiple data
    sets*, JMLR 7, Section 3.2.2 and Figure 1.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sotalib.judging import compare_candidates, plot_cd_diagram
    >>> cmp = compare_candidates([[0.9, 0.8, 0.85], [0.8, 0.75, 0.8], [0.7, 0.7, 0.75]])
    >>> ax = plot_cd_diagram(cmp)
    >>> float(ax.figure.get_size_inches()[0])
    7.0
    """
    plt = _pyplot()
    R = np.asarray(comparison.average_ranks, dtype=float)
    names = comparison.candidates
    k = len(R)
    order = np.argsort(R, kind="stable")
    groups = [g for g in comparison.groups if len(g) > 1]
    left = order[: (k + 1) // 2]
    right = order[(k + 1) // 2 :][::-1]
    rows = max(len(left), len(right))
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 1.4 + 0.28 * (rows + len(groups))))
    if color is None:
        color = plt.rcParams["axes.prop_cycle"].by_key()["color"][0]
    line = plt.rcParams.get("text.color", "black")
    lo, hi = 1.0, float(k)
    ax.set_xlim(lo - 0.5, hi + 0.5)
    # axis of average ranks at y = 0, growing downwards below it
    ax.plot([lo, hi], [0, 0], color=line, lw=1)
    for t in range(1, k + 1):
        ax.plot([t, t], [0, 0.12], color=line, lw=1)
        ax.text(t, 0.2, str(t), ha="center", va="bottom", fontsize="small")
    # critical difference scale bar
    cd = comparison.critical_difference
    if cd < hi - lo + 1:
        ax.plot([lo, lo + cd], [0.75, 0.75], color=line, lw=1.5)
        for x in (lo, lo + cd):
            ax.plot([x, x], [0.65, 0.85], color=line, lw=1)
        ax.text(lo + cd / 2, 0.9, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize="small")
    # group bars just below the axis
    gap = 0.35
    for i, g in enumerate(groups):
        y = -gap * (i + 1)
        r = R[g]
        ax.plot([r.min() - 0.03, r.max() + 0.03], [y, y], color=color, lw=3.5, solid_capstyle="round")
    top = -gap * (len(groups) + 1)
    step = 0.45
    for side, idx in (("left", left), ("right", right)):
        for row, j in enumerate(idx):
            y = top - step * row
            x_end = lo - 0.45 if side == "left" else hi + 0.45
            ax.plot([R[j], R[j], x_end], [0, y, y], color=line, lw=0.8)
            ax.text(
                x_end + (-0.05 if side == "left" else 0.05),
                y,
                f"{names[j]} ({R[j]:.2f})" if side == "left" else f"({R[j]:.2f}) {names[j]}",
                ha="right" if side == "left" else "left",
                va="center",
                fontsize=label_size or "small",
            )
    ax.set_ylim(top - step * rows, 1.4)
    ax.axis("off")
    return ax


def plot_rank_intervals(
    result: RankUncertainty | BradleyTerry,
    *,
    ax: Axes | None = None,
    true_rank: ArrayLike | None = None,
    blobs: bool | None = None,
    color: str | None = None,
) -> Axes:
    """Each candidate's rank interval from a :class:`RankUncertainty` or :class:`BradleyTerry` (a "blob plot" for few candidates).

    Candidates are placed along the horizontal axis in the order of their
    observed rank; a vertical bar spans each rank interval and a dot marks
    the observed rank.  With ``blobs`` (default for at most 30 candidates)
    a disc at every rank the candidate takes in the bootstrap, of area
    proportional to how often it does, shows the whole distribution (the blob
    plot of {wiesenfarth2021methods}).  ``true_rank`` (if known) is drawn as
    a cross: in ``color`` when inside the interval, else in the style's
    second colour.

    Parameters
    ----------
    result : RankUncertainty or BradleyTerry
        The result of :func:`estimate_rank_uncertainty` or :func:`bradley_terry`.
    ax : matplotlib Axes, optional
        Drawn on a new figure if omitted.
    true_rank : array_like, optional
        The true rank of each candidate, if known.
    blobs : bool, optional
        Draw the whole rank distribution (default: for at most 30 candidates).
    color : str, optional
        Colour of the bars (default: the first colour of the style's cycle).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Raises
    ------
    ImportError
        If matplotlib is not installed.

    References
    ----------
    Wiesenfarth et al. (2021), *Methods and open-source toolkit for analyzing
    and visualizing challenge results*, Scientific Reports 11 (the blob
    plot); Pavão, *How to judge a competition*, Section 3.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sotalib import PerItem
    >>> from sotalib.judging import estimate_rank_uncertainty, plot_rank_intervals
    >>> correct = PerItem(np.random.default_rng(0).random((100, 3)) < 0.7)  # 100 items x 3 models
    >>> ax = plot_rank_intervals(estimate_rank_uncertainty(correct, n_resamples=50, rng=1))
    >>> ax.get_ylabel()
    'rank (1 is best)'
    """
    plt = _pyplot()
    k = len(result.candidates)
    order = result.order
    x = np.arange(1, k + 1)
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    color = color or cycle[0]
    miss = cycle[1 % len(cycle)]
    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 4.0))
    if blobs is None:
        blobs = k <= 30
    if blobs:
        counts = result.rank_counts[order] / result.n_resamples
        xs, ys = np.nonzero(counts)
        ax.scatter(xs + 1, ys + 1, s=300 * counts[xs, ys], color=color, alpha=0.35, lw=0)
    ax.vlines(x, result.rank_low[order], result.rank_high[order], color=color, lw=1.2 if k > 60 else 2)
    ax.plot(x, result.rank[order], "o", color=color, ms=2 if k > 60 else 4)
    if true_rank is not None:
        t = np.asarray(true_rank)[order]
        inside = (t >= result.rank_low[order]) & (t <= result.rank_high[order])
        ax.plot(x[inside], t[inside], "x", color=plt.rcParams.get("text.color", "black"), ms=3 if k > 60 else 5)
        ax.plot(x[~inside], t[~inside], "x", color=miss, ms=5 if k > 60 else 7, mew=1.5)
    ax.set_xlabel("candidate, by observed rank")
    ax.set_ylabel("rank (1 is best)")
    ax.set_xlim(0, k + 1)
    ax.set_ylim(k + 1, 0)
    if k <= 30:
        ax.set_xticks(x, [result.candidates[j] for j in order], rotation=60, ha="right")
    return ax
