"""The AUC chapter's cached simulations and figures (the sample maximum of ROC AUC).

The chapter computes its numbers and tables in visible code from the public
API of :mod:`sotalib.multiplicity`; this module writes the two simulations
that take minutes (:func:`direct`, :func:`rho`, run by ``make cache``) and
draws the figures.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection
from scipy import stats

from ..multiplicity import (
    Summary,
    binormal_mu_pos,
    binormal_roc,
    roc_curve_points,
    simulate_max_auc,
)
from .style import COLORS

__all__ = [
    "plot_figure10",
    "plot_same_auc",
    "plot_rho",
    "plot_figure11",
]

# ----------------------------------------------------------------------------------------------
# The cached simulations (regenerate: make cache NAME=auc_max_direct / NAME=auc_rho)
#
# * ``data/auc_max_direct.npz``: 10,000 simulated maxima of m = 1,000 independent classifiers
#   with AUC 0.90 on n = 3,000 items, prevalence 0.017 (the paper's Figure 10c), seed 20240510;
# * ``data/auc_rho.json``: mean, sd and 95% interval of the maximum AUC for classifiers
#   correlated with a hidden reference classifier, per ``rho`` (400 replications, seeds 1000 + i).
# ----------------------------------------------------------------------------------------------

DIRECT = dict(
    auc=0.9, n=3000, m=1000, prevalence=0.017, reps=10_000, seed=20240510
)
RHOS = (0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)
RHO_REPS = 400


def direct(out: str | Path) -> None:
    """Figure 10c's 10,000 simulated maxima, written to ``out/auc_max_direct.npz``."""
    t = time.perf_counter()
    p = DIRECT
    x = simulate_max_auc(
        p["auc"],
        p["n"],
        p["m"],
        p["prevalence"],
        n_resamples=p["reps"],
        rng=p["seed"],
    )
    u = np.rint(x * 51 * 2949).astype(np.int64)
    np.savez_compressed(
        Path(out) / "auc_max_direct.npz",
        u=u,
        denom=51 * 2949,
        **{k: v for k, v in p.items()},
    )
    print(f"direct: {time.perf_counter() - t:.1f} s", file=sys.stderr)


def rho(out: str | Path) -> None:
    """The best AUC against rho (400 replications each), written to ``out/auc_rho.json``."""
    rows = []
    for i, r in enumerate(RHOS):
        t = time.perf_counter()
        x = simulate_max_auc(
            0.9, 3000, 1000, 0.017, n_resamples=RHO_REPS, rng=1000 + i, rho=r
        )
        s = Summary.from_samples(x)
        rows.append({"rho": r, "seed": 1000 + i, **s.to_dict()})
        print(
            f"rho={r}: {time.perf_counter() - t:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    out = {
        "auc": 0.9,
        "n": 3000,
        "m": 1000,
        "prevalence": 0.017,
        "reps": RHO_REPS,
        "rows": rows,
    }
    (Path(out) / "auc_rho.json").write_text(json.dumps(out, indent=1) + "\n")


# ----------------------------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------------------------


def plot_figure10(auc, pos, neg, aucs, maxima, max_pmf=None, fig=None):
    """Figure 10 of the paper: (a) score densities and one sample, (b) ROC curves, (c) the maximum.

    Parameters
    ----------
    auc : float
        True AUC of every classifier (equal variances, ``mu- = 0``).
    pos, neg : ndarray (m, n_pos), (m, n_neg)
        Simulated scores of ``m`` classifiers; row 0 is drawn as the rugs.
    aucs : ndarray (m,)
        Their empirical AUCs.
    maxima : ndarray
        Simulated sample maxima (histogram of panel c).
    max_pmf : tuple (grid, pmf) or None
        The maximum's distribution from ``F^m``, drawn as a line over the histogram.
    """
    fig = fig or plt.figure(figsize=(8.4, 3.2))
    ax_a, ax_b, ax_c = fig.subplots(1, 3)
    mu = binormal_mu_pos(auc)
    s = np.linspace(-4, mu + 4, 400)
    ax_a.plot(
        s, stats.norm.pdf(s), color=COLORS["observed"], label="negatives $S_-$"
    )
    ax_a.plot(
        s,
        stats.norm.pdf(s, mu),
        color=COLORS["reference"],
        label="positives $S_+$",
    )
    ax_a.plot(
        neg[0],
        np.full(neg.shape[1], -0.015),
        "|",
        color=COLORS["observed"],
        ms=8,
        alpha=0.3,
    )
    ax_a.plot(
        pos[0],
        np.full(pos.shape[1], 0.43),
        "|",
        color=COLORS["reference"],
        ms=8,
    )
    # head room above the positives' rug for the legend, so that it covers neither curve nor rug
    ax_a.set_ylim(-0.03, 0.56)
    ax_a.set_xlabel("score $s$")
    ax_a.set_ylabel("density")
    ax_a.legend(
        loc="upper left",
        ncol=2,
        frameon=False,
        fontsize="small",
        handlelength=1.2,
        columnspacing=0.8,
    )
    ax_a.set_title("(a)", loc="left")

    fpr, tpr = roc_curve_points(pos, neg)
    q1, q3 = np.quantile(aucs, [0.25, 0.75])
    inner = (aucs >= q1) & (aucs <= q3)
    for sel, col, lw in ((~inner, "#d9d9d9", 0.5), (inner, "#7f7f7f", 0.5)):
        segs = [np.column_stack([f, t]) for f, t in zip(fpr[sel], tpr[sel])]
        ax_b.add_collection(LineCollection(segs, colors=col, linewidths=lw))
    j = int(np.argmax(aucs))
    ax_b.plot(
        fpr[j],
        tpr[j],
        color=COLORS["reference"],
        lw=1.5,
        label=f"maximum, AUC {aucs[j]:.3f}",
    )
    f = np.linspace(0, 1, 500)
    ax_b.plot(
        f,
        binormal_roc(f, auc),
        color=COLORS["single"],
        lw=1.2,
        ls="--",
        label=f"true ROC, AUC {auc:g}",
    )
    ax_b.set_xlim(0, 1)
    ax_b.set_ylim(0, 1.01)
    ax_b.set_xlabel("false positive rate")
    ax_b.set_ylabel("true positive rate")
    # the curves hug the top left: the legend sits below them, short enough for the panel
    ax_b.legend(
        loc="lower right",
        frameon=False,
        fontsize="small",
        handlelength=1.5,
        borderaxespad=0.2,
    )
    ax_b.set_title("(b)", loc="left")

    ax_c.hist(
        maxima,
        bins=60,
        density=True,
        color=COLORS["observed"],
        alpha=0.6,
        label="simulated maxima",
    )
    if max_pmf is not None:
        g, p = max_pmf
        width = g[1] - g[0]
        # bin the fine-grid pmf to a density on 0.0005-wide bins for display
        edges = np.arange(g[0], g[-1] + 0.0005, 0.0005)
        dens, _ = np.histogram(g, bins=edges, weights=p)
        ax_c.plot(
            0.5 * (edges[1:] + edges[:-1]),
            dens / 0.0005,
            color=COLORS["maximum"],
            label=r"$F^m$ (conditional MC)",
        )
        del width
    ax_c.axvline(
        auc, color=COLORS["single"], ls="--", lw=1, label=f"AUC = {auc:g}"
    )
    ax_c.set_xlim(auc - 0.005, float(np.max(maxima)) + 0.01)
    ax_c.set_xlabel(r"maximum empirical AUC")
    ax_c.set_ylabel("density")
    # head room above the peak: the legend sits in it, above the curve, not on its peak
    ax_c.set_ylim(0, 1.6 * ax_c.get_ylim()[1])
    ax_c.legend(loc="upper right", frameon=False, fontsize="small")
    ax_c.set_title("(c)", loc="left")

    return fig


def plot_same_auc(auc, sigmas, sds, samples, fig=None):
    """Figures 8-9 of the second version: ROC curves with the same AUC, their bands and scores.

    Parameters
    ----------
    auc : float
        The common AUC.
    sigmas : list of (sigma_pos, sigma_neg)
        Score standard deviations of each model.
    sds : list of float
        Standard deviation of the empirical AUC of each (shown in the legends).
    samples : list of (fpr_grid, tpr_lo, tpr_hi, pos, neg)
        Per model: a pointwise 95% band of simulated empirical ROC curves and
        one simulated score sample (rugs at the bottom: negatives grey,
        positives black below them).
    """
    k = len(sigmas)
    fig = fig or plt.figure(figsize=(2.8 * k, 5.6))
    axes = fig.subplots(2, k)
    f = np.linspace(0, 1, 500)
    for i, ((sp, sn), sd, (fg, lo, hi, pos, neg)) in enumerate(
        zip(sigmas, sds, samples)
    ):
        ax = axes[0, i]
        ax.fill_between(
            fg,
            lo,
            hi,
            color=COLORS["single"],
            alpha=0.25,
            lw=0,
            label="95% band",
        )
        ax.plot(
            f,
            binormal_roc(f, auc, sp, sn),
            color=COLORS["single"],
            label=f"true ROC\nsd(AUC) = {sd:.4f}",
        )
        ax.plot([0, 1], [0, 1], color=COLORS["observed"], lw=0.6, ls=":")
        ax.set_title(
            rf"({'abc'[i]}) $\sigma_+ = {sp:g}$, $\sigma_- = {sn:g}$",
            loc="left",
        )
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate" if i == 0 else "")
        ax.legend(loc="lower right", frameon=False, fontsize="small")
        ax = axes[1, i]
        mu = binormal_mu_pos(auc, 0.0, sp, sn)
        s = np.linspace(
            min(-4 * sn, mu - 4 * sp), max(4 * sn, mu + 4 * sp), 400
        )
        ax.plot(
            s,
            stats.norm.pdf(s, 0, sn),
            color=COLORS["observed"],
            label="negatives",
        )
        ax.plot(
            s,
            stats.norm.pdf(s, mu, sp),
            color=COLORS["reference"],
            label="positives",
        )
        top = max(stats.norm.pdf(0, 0, sn), stats.norm.pdf(0, 0, sp))
        ax.plot(
            neg,
            np.full(neg.size, -0.04 * top),
            "|",
            color=COLORS["observed"],
            alpha=0.3,
        )
        ax.plot(
            pos, np.full(pos.size, -0.10 * top), "|", color=COLORS["reference"]
        )
        ax.set_xlabel("score $s$")
        ax.set_ylabel("density" if i == 0 else "")
        ax.set_title(f"({'def'[i]})", loc="left")
        if i == 0:
            ax.legend(loc="upper left", frameon=False, fontsize="small")

    return fig


def plot_rho(rows, auc, single_sd, fig=None):
    """Bias and standard deviation of the maximum AUC against the correlation ``rho`` (like Figure 5b, c)."""
    fig = fig or plt.figure(figsize=(8.4, 3.3))
    ax_b, ax_s = fig.subplots(1, 2)
    r = np.array([x["rho"] for x in rows])
    mean = np.array([x["mean"] for x in rows])
    se = np.array([x["se_mean"] for x in rows])
    lo = np.array([x["ci_low"] for x in rows])
    hi = np.array([x["ci_high"] for x in rows])
    sd = np.array([x["sd"] for x in rows])
    ax_b.fill_between(
        r,
        lo - auc,
        hi - auc,
        color=COLORS["maximum"],
        alpha=0.2,
        lw=0,
        label="95% interval of the maximum",
    )
    ax_b.errorbar(
        r,
        mean - auc,
        yerr=2 * se,
        color=COLORS["maximum"],
        marker="o",
        ms=3,
        capsize=2,
        label=r"bias $\mathrm{E}\,\max_j \widehat{\mathrm{AUC}}_j - \mathrm{AUC}$ ($\pm 2$ se)",
    )
    ax_b.axhline(0, color=COLORS["reference"], lw=0.6)
    ax_b.set_xlabel(r"correlation with the reference classifier $\rho$")
    ax_b.set_ylabel("bias of the maximum AUC")
    ax_b.legend(loc="lower left", frameon=False, fontsize="small")
    ax_b.set_title("(a)", loc="left")
    ax_s.plot(
        r,
        sd,
        color=COLORS["maximum"],
        marker="o",
        ms=3,
        label="sd of the maximum",
    )
    ax_s.axhline(
        single_sd,
        color=COLORS["single"],
        ls="--",
        lw=1,
        label="sd of one classifier's AUC",
    )
    ax_s.set_xlabel(r"correlation with the reference classifier $\rho$")
    ax_s.set_ylabel("standard deviation")
    ax_s.set_ylim(0, None)
    ax_s.legend(loc="center left", frameon=False, fontsize="small")
    ax_s.set_title("(b)", loc="left")

    return fig


def plot_figure11(
    observed, shrunk, sample, estimate, expected_max, ci, fig=None
):
    """Figure 11 of the paper: (a) the leaderboard and its shrunk version, (b) one simulated leaderboard.

    Parameters
    ----------
    observed, shrunk, sample : ndarray
        Observed AUCs, shrunk AUCs ``AUC'`` and one simulated leaderboard from them.
    estimate : float
        The state-of-the-art estimate ``max AUC'``.
    expected_max : float
        Expected maximum empirical AUC of the shrunk set (equal to the observed maximum).
    ci : (float, float)
        95% interval of the maximum.
    """
    fig = fig or plt.figure(figsize=(8.4, 3.4))
    ax_a, ax_b = fig.subplots(1, 2, sharex=True)
    bins = np.arange(0.6, 0.9625, 0.0025)
    for ax in (ax_a, ax_b):
        ax.hist(
            observed,
            bins=bins,
            color=COLORS["observed"],
            alpha=0.5,
            label="leaderboard",
        )
        ax.axvline(
            float(np.max(observed)),
            color=COLORS["maximum"],
            ls=":",
            lw=1.2,
            label=f"observed maximum {np.max(observed):.4f}",
        )
    ax_a.hist(
        shrunk,
        bins=bins,
        histtype="step",
        color=COLORS["reference"],
        lw=1.2,
        label="shrunk AUC$'$",
    )
    ax_a.axvline(
        estimate,
        color=COLORS["sota"],
        lw=1.5,
        label=f"SOTA estimate max AUC$'$ = {estimate:.4f}",
    )
    ax_b.hist(
        sample,
        bins=bins,
        histtype="step",
        color=COLORS["reference"],
        lw=1.2,
        label="one simulated leaderboard",
    )
    ax_b.axvline(
        expected_max,
        color=COLORS["better"],
        lw=1.2,
        label=f"expected maximum {expected_max:.4f}",
    )
    y = ax_b.get_ylim()[1] * 0.9
    ax_b.plot(
        ci,
        [y, y],
        color=COLORS["better"],
        lw=2,
        label="95% interval of the maximum",
    )
    for ax, tag in ((ax_a, "(a)"), (ax_b, "(b)")):
        ax.set_xlabel("AUC")
        ax.set_ylabel("teams")
        ax.set_title(tag, loc="left")
        ax.legend(loc="upper left", frameon=False, fontsize="small")
    return fig
