"""The book's one plotting style and the helpers every chapter shares.

Each chapter calls :func:`use_style` once, at the top.  Colours carry the same
meaning in every figure (:data:`COLORS`), following the paper's figures: blue
for a single classifier, red for a better one, magenta for an observed
sample maximum, green for a state-of-the-art estimate, grey for observed
leaderboards.
"""

from __future__ import annotations

from importlib import resources

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

__all__ = ["COLORS", "STYLE", "use_style", "add_proportion_axis", "shade_tail", "vline"]

#: Path of the style sheet shipped inside the package.
STYLE = str(resources.files("sotalib.book").joinpath("sotalib.mplstyle"))

#: Semantic colours used by every chapter (colour-blind safe palette).
COLORS = {
    "single": "#0173B2",  # one classifier (theta)
    "better": "#D55E00",  # a better classifier (theta_{1-alpha/2})
    "maximum": "#CC78BC",  # the sample maximum (theta_hat_max)
    "observed": "#949494",  # an observed leaderboard
    "sota": "#029E73",  # a state-of-the-art estimate
    "shade": "#029E73",  # shaded probabilities
    "reference": "#000000",  # reference lines
    "accent": "#DE8F05",
}


def use_style() -> None:
    """Apply the book's style (matplotlib rc parameters and seaborn palette)."""
    mpl.rcParams.update(mpl.rcParamsDefault)
    plt.style.use(STYLE)
    sns.set_palette(plt.rcParams["axes.prop_cycle"].by_key()["color"])


def add_proportion_axis(ax, n: int, label: str = r"accuracy $\hat\theta = x/n$"):
    """Add a top axis showing counts ``x`` as proportions ``x / n`` (as in Figure 2)."""
    sec = ax.secondary_xaxis("top", functions=(lambda x: x / n, lambda p: p * n))
    sec.set_xlabel(label)
    return sec


def shade_tail(ax, x, y, start, color: str | None = None, alpha: float = 0.35, **kwargs):
    """Shade the bars of a pmf ``y`` at positions ``x >= start``."""
    x = np.asarray(x)
    y = np.asarray(y)
    sel = x >= start
    width = np.min(np.diff(x)) if x.size > 1 else 1.0
    return ax.bar(x[sel], y[sel], width=width, color=color or COLORS["shade"], alpha=alpha, linewidth=0, **kwargs)


def vline(ax, x: float, label: str | None = None, color: str | None = None, ls: str = "--", **kwargs):
    """A labelled vertical reference line."""
    return ax.axvline(x, color=color or COLORS["reference"], ls=ls, lw=1.2, label=label, **kwargs)


def plot_cdf_pmf(dist, axes=None, color: str | None = None, label: str | None = None):
    """Cdf (left) and pmf (right) of a :class:`~sotalib.multiplicity._maxdist.MaxDistribution` (Figures 2 and 6).

    The bottom axis counts successes ``x``; the top axis shows the accuracy ``x / n``.
    """
    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    color = color or COLORS["maximum"]
    x = dist.x
    axes[0].step(x, dist.cdf, where="post", color=color, label=label)
    axes[0].set_ylabel(r"cdf $F(x)$")
    axes[1].bar(x, dist.pmf, width=1.0, color=color, alpha=0.8, linewidth=0, label=label)
    axes[1].set_ylabel(r"pmf $f(x)$")
    lo, hi = dist.quantile(1e-5) * dist.n, dist.quantile(1 - 1e-5) * dist.n
    pad = max(1.0, 0.05 * (hi - lo))
    for ax in axes:
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_xlabel(r"number of successes $x$ of the best classifier")
        add_proportion_axis(ax, dist.n, label=r"$\hat\theta_{\max} = x/n$")
    return axes


def plot_beating_the_ensemble(n: int, theta: float, theta_better: float, dist, alpha: float = 0.05, ax=None):
    """Figure 3: pmfs of one classifier at ``theta`` and at ``theta_better`` against the maximum.

    Shades the probabilities that the better classifier reaches the expected
    maximum and the upper end of the maximum's interval.
    """
    from scipy import stats

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(
        int(n * min(theta, theta_better) - 6 * np.sqrt(n * theta * (1 - theta))),
        int(n * max(theta, theta_better) + 6 * np.sqrt(n * theta * (1 - theta))) + 1,
    )
    p_single = stats.binom.pmf(x, n, theta)
    p_better = stats.binom.pmf(x, n, theta_better)
    mean_max = dist.mean()
    hi_max = dist.interval(alpha)[1]
    ax.plot(x / n, p_single, color=COLORS["single"], label=rf"$\hat\theta$, $\theta = {theta:g}$")
    ax.plot(
        x / n,
        p_better,
        color=COLORS["better"],
        label=rf"$\hat\theta_{{m+1}}$, $\theta_{{m+1}} = \theta_{{1-\alpha/2}} = {theta_better:.4f}$",
    )
    sel_mean = x / n >= mean_max - 1e-12
    sel_hi = x / n >= hi_max - 1e-12
    ax.fill_between(
        x[sel_mean] / n,
        p_better[sel_mean],
        step=None,
        color=COLORS["shade"],
        alpha=0.25,
        lw=0,
        label=r"$P(\hat\theta_{m+1} \geq \mathrm{E}\,\hat\theta_{\max})$",
    )
    ax.fill_between(
        x[sel_hi] / n,
        p_better[sel_hi],
        color=COLORS["shade"],
        alpha=0.55,
        lw=0,
        label=r"$P(\hat\theta_{m+1} \geq \theta^m_{1-\alpha/2})$",
    )
    ax.axvline(theta_better, color=COLORS["better"], ls=":", lw=1)
    vline(ax, mean_max, color=COLORS["maximum"], ls="--", label=r"$\mathrm{E}\,\hat\theta_{\max}$")
    vline(ax, hi_max, color=COLORS["maximum"], ls="-.", label=r"$\theta^m_{1-\alpha/2}$")
    from ..multiplicity._binomial import clopper_pearson

    lo_ci, hi_ci = clopper_pearson(round(n * theta), n, alpha)
    ax.hlines(0, lo_ci, hi_ci, color=COLORS["single"], lw=4, label=r"CI $(\theta_{\alpha/2}, \theta_{1-\alpha/2})$")
    ax.set_xlabel(r"accuracy $\hat\theta = x / n$")
    ax.set_ylabel("probability")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def plot_bias_sd(values, curves: dict, ax_bias, ax_sd, xlabel: str, logx: bool = False, marks=()):
    """One column of Figure 4: bias and standard deviation against one parameter.

    ``curves`` maps a legend label to ``(bias, sd)`` arrays over ``values``;
    the first entry is the default curve (black), the others offsets.
    ``marks`` are parameter values with grey vertical lines (Table 3 rows).
    """
    styles = ["-", "--", ":", "-."]
    colors = [COLORS["reference"], COLORS["single"], COLORS["better"], COLORS["sota"]]
    for i, (label, (bias, sd)) in enumerate(curves.items()):
        kw = dict(color=colors[i % len(colors)], ls=styles[i % len(styles)], label=label)
        ax_bias.plot(values, bias, **kw)
        ax_sd.plot(values, sd, **kw)
    for ax, ylabel in (
        (ax_bias, r"bias $\mathrm{E}\,\hat\theta_{\max} - \theta$"),
        (ax_sd, r"standard deviation of $\hat\theta_{\max}$"),
    ):
        for v in marks:
            ax.axvline(v, color="0.6", lw=0.8, zorder=0)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logx:
            ax.set_xscale("log")
    ax_bias.legend(fontsize=8)
    return ax_bias, ax_sd
