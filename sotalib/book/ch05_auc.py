"""The computations behind the AUC chapter's tables (the sample maximum of ROC AUC).

Each function is one table or one comparison of the chapter, built from the
public API of :mod:`sotalib.multiplicity`, so that the chapter can show it as
one call.  The numbers are Monte Carlo estimates with the seeds stated in the
arguments; each comes with its standard error.
"""

from __future__ import annotations

import json
import math
import sys
import time
from importlib import resources
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.collections import LineCollection
from scipy import stats

from .. import multiplicity as A
from ..multiplicity import (
    Summary,
    binormal_mu_pos,
    binormal_roc,
    iid_max_distribution,
    roc_curve_points,
    simulate_max_auc,
)
from ..multiplicity._auc_model import n_positives
from .style import COLORS, sci

__all__ = [
    "PAPER_FIG10",
    "sklearn_agreement",
    "variance_table",
    "load_direct_maxima",
    "quantile_se",
    "plain_max_summary",
    "max_methods_table",
    "imbalance_table",
    "roc_bands",
    "melanoma_v2_interval",
    "plot_figure10",
    "plot_same_auc",
    "plot_rho",
    "plot_figure11",
]

#: The paper's Section 5.2.2 numbers for AUC 0.90, n = 3,000, prevalence 0.017, m = 1,000
#: (10,000 simulated challenges).
PAPER_FIG10 = {
    "mean": 0.9562,
    "sd": 0.004459,
    "ci_low": 0.9486,
    "ci_high": 0.9662,
    "reps": 10_000,
}


def _pm(x: float, se: float | None, d: int = 4) -> str:
    """``x ± se`` with ``d`` decimals for ``x`` and one more for the standard error."""
    return f"{x:.{d}f}" if se is None else f"{x:.{d}f} ± {se:.{d + 1}f}"


def sklearn_agreement(datasets: int = 200, rng=5) -> float:
    """Largest difference between :func:`~sotalib.multiplicity.empirical_auc` and scikit-learn.

    Draws ``datasets`` random data sets of 20 to 2,000 items with heavy ties
    (integer scores on 2 to 50 levels, shifted by 0.7 for positives) and
    returns ``max |empirical_auc - sklearn.metrics.roc_auc_score|``.
    """
    from sklearn.metrics import roc_auc_score

    g = np.random.default_rng(rng)
    worst = 0.0
    for _ in range(datasets):
        k = int(g.integers(20, 2000))
        y = g.random(k) < g.uniform(0.01, 0.5)
        y[:2] = True, False
        s = g.integers(0, int(g.integers(2, 50)), k) + 0.7 * y
        worst = max(worst, abs(A.empirical_auc(s, y) - roc_auc_score(y, s)))
    return float(worst)


def variance_table(
    auc: float,
    n: int,
    prevalence: float,
    *,
    reps: int = 100_000,
    rng=11,
    delong_samples: int = 2000,
    delong_rng=12,
) -> pd.DataFrame:
    """Variance of one classifier's empirical AUC: exact, simulated, Hanley--McNeil, DeLong.

    Columns ``method``, ``variance``, ``sd`` and ``note``.  The simulated row
    uses ``reps`` test sets (:func:`~sotalib.multiplicity.simulate_auc`, ``rng``)
    and gives the standard error of its variance, ``Var sqrt(2 / (reps - 1))``;
    the DeLong row averages :func:`~sotalib.multiplicity.delong_variance` over
    ``delong_samples`` simulated test sets (``delong_rng``) and gives the middle
    95% of the single estimates.  The attributes ``sim_mean`` and
    ``sim_mean_se`` hold the mean of the simulated AUCs and its standard error.
    """
    n_pos, n_neg = n_positives(n, prevalence)
    sim = A.simulate_auc(auc, n, prevalence, n_resamples=reps, rng=rng)
    v_exact = A.auc_variance(auc, n_pos, n_neg)
    v_hm = A.hanley_mcneil_variance(auc, n_pos, n_neg)
    pos, neg = A.simulate_scores(
        auc, n_pos, n_neg, delong_samples, rng=delong_rng
    )
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    v_dl = np.array(
        [A.delong_variance(np.r_[p, q], y) for p, q in zip(pos, neg)]
    )
    v_sim = float(sim.var(ddof=1))
    lo, hi = np.quantile(v_dl, [0.025, 0.975])
    rows = [
        ("exact (binormal Q1, Q2)", v_exact, ""),
        (
            "simulated",
            v_sim,
            f"{reps:,} test sets; se of the variance {sci(v_sim * math.sqrt(2 / (reps - 1)))}",
        ),
        ("Hanley–McNeil", v_hm, "exponential-model Q1, Q2"),
        (
            "DeLong, mean over samples",
            float(v_dl.mean()),
            f"{delong_samples:,} samples; 95% of them in {sci(lo, 2)} to {sci(hi, 2)}",
        ),
    ]
    df = pd.DataFrame(rows, columns=["method", "variance", "note"])
    df.insert(2, "sd", np.sqrt(df["variance"]))
    df.attrs.update(
        sim_mean=float(sim.mean()),
        sim_mean_se=float(sim.std(ddof=1) / math.sqrt(reps)),
    )
    return df


def load_direct_maxima() -> tuple[np.ndarray, dict]:
    """The cached 10,000 simulated maxima of Figure 10c and their parameters.

    The cache ``data/auc_max_direct.npz`` is written by
    ``python -m sotalib.book.cache auc_max_direct --out sotalib/book/data``
    (:func:`direct`); it stores the Mann--Whitney counts
    ``U`` as integers, so the maxima are exact multiples of ``1 / denom``.
    """
    with (
        resources.files("sotalib.book")
        .joinpath("data/auc_max_direct.npz")
        .open("rb") as fh
    ):
        cache = np.load(fh)
        maxima = cache["u"] / int(cache["denom"])
        params = {
            k: cache[k].item()
            for k in ("auc", "n", "m", "prevalence", "reps", "seed")
        }
    return maxima, params


def quantile_se(samples, q: float) -> float:
    """Standard error of the sample ``q``-quantile, from the binomial count of draws below it.

    The number of draws below the true quantile is binomial with standard
    deviation ``s = sqrt(k q (1 - q))``; the order statistics ``2 s`` below
    and above position ``k q`` bracket the quantile with about 95%
    probability, and a quarter of their distance estimates one standard error.
    """
    x = np.sort(np.asarray(samples, dtype=float))
    k = x.size
    s = math.sqrt(k * q * (1 - q))
    lo, hi = x[max(int(k * q - 2 * s), 0)], x[min(int(k * q + 2 * s), k - 1)]
    return float((hi - lo) / 4)


def plain_max_summary(
    dist, m: int, single_aucs, alpha: float = 0.05, batches: int = 10
) -> tuple[Summary, dict]:
    """The maximum of ``m`` from the empirical cdf of simulated single AUCs, raised to the power ``m``.

    ``dist`` (an :class:`~sotalib.multiplicity.AUCDistribution`) supplies the
    grid; ``single_aucs`` are simulated empirical AUCs of one classifier.  The
    standard errors are the spread of ``batches`` equal parts divided by
    ``sqrt(batches)`` (the error of the pooled estimate).
    """
    d = dist.n_pos * dist.n_neg
    u = np.rint(np.asarray(single_aucs) * d).astype(np.int64)

    def stats(part):
        pmf = np.bincount(part, minlength=d + 1) / part.size
        s = dist.max_distribution(m, pmf=pmf).summary(alpha)
        return np.array([s.mean, s.sd, s.ci_low, s.ci_high])

    rows = np.array([stats(p) for p in np.array_split(u, batches)])
    se = rows.std(axis=0, ddof=1) / math.sqrt(batches)
    s = dist.max_distribution(
        m, pmf=np.bincount(u, minlength=d + 1) / u.size
    ).summary(alpha)
    return s, dict(zip(("mean", "sd", "ci_low", "ci_high"), map(float, se)))


def max_methods_table(
    dist,
    m: int,
    maxima,
    single_aucs,
    alpha: float = 0.05,
    paper: dict = PAPER_FIG10,
):
    """The maximum AUC of ``m`` classifiers by every method, each with its Monte Carlo standard error.

    Rows: the paper's numbers (standard error of a mean of its repetitions),
    the direct simulation ``maxima``, the plain ``F^m`` from ``single_aucs``
    (:func:`plain_max_summary`), and the conditional Monte Carlo ``F^m`` of
    ``dist`` without and with its control variates.  Returns a table of
    formatted ``value ± se`` strings.
    """
    direct = Summary.from_samples(maxima, alpha)
    se_sd = direct.sd / math.sqrt(2 * (direct.n_resamples - 1))
    plain, plain_se = plain_max_summary(dist, m, single_aucs, alpha)
    raw, raw_se = (
        dist.max_summary(m, alpha, control=False),
        dist.max_summary_se(m, alpha, control=False),
    )
    cmc, cmc_se = dist.max_summary(m, alpha), dist.max_summary_se(m, alpha)
    p = paper
    rows = [
        (
            f"paper ({p['reps']:,} challenges)",
            _pm(p["mean"], p["sd"] / math.sqrt(p["reps"])),
            f"{p['sd']:.6f}",
            f"{p['ci_low']:.4f}",
            f"{p['ci_high']:.4f}",
        ),
        (
            f"direct simulation ({direct.n_resamples:,} challenges)",
            _pm(direct.mean, direct.se_mean),
            _pm(direct.sd, se_sd, 6),
            _pm(direct.ci_low, quantile_se(maxima, alpha / 2)),
            _pm(direct.ci_high, quantile_se(maxima, 1 - alpha / 2)),
        ),
    ]
    for label, s, se in (
        (f"plain Fᵐ ({len(single_aucs):,} single AUCs)", plain, plain_se),
        (
            f"conditional MC Fᵐ, no control ({dist.n_resamples:,} negative samples)",
            raw,
            raw_se,
        ),
        (
            f"conditional MC Fᵐ, control variates ({dist.n_resamples:,})",
            cmc,
            cmc_se,
        ),
    ):
        rows.append(
            (
                label,
                _pm(s.mean, se["mean"]),
                _pm(s.sd, se["sd"], 6),
                _pm(s.ci_low, se["ci_low"]),
                _pm(s.ci_high, se["ci_high"]),
            )
        )
    return pd.DataFrame(
        rows,
        columns=["method", "mean ± se", "sd ± se", "2.5% ± se", "97.5% ± se"],
    )


def imbalance_table(
    auc: float,
    n: int,
    m: int,
    prevalences,
    *,
    draws: int = 40,
    rng=31,
    alpha: float = 0.05,
    known: dict | None = None,
) -> pd.DataFrame:
    """Bias and spread of the maximum AUC by prevalence, and of the maximum accuracy.

    For each prevalence, :func:`~sotalib.multiplicity.auc_distribution` with
    ``draws`` negative samples (``rng``, 4 batches) and the control variates;
    ``known`` maps a prevalence to an :class:`~sotalib.multiplicity.AUCDistribution`
    already computed (so that a number the chapter reports once is the same
    number here).  The last row is accuracy ``theta = auc`` on ``n`` items
    (exact, :func:`~sotalib.iid_max_distribution`), which does not depend on
    the prevalence.  ``n_eff = A(1 - A) / Var`` is the number of items on
    which an accuracy ``A`` is as precise as the AUC.
    """
    rows = []
    for p in prevalences:
        d = (known or {}).get(p) or A.auc_distribution(
            auc, n, p, n_resamples=draws, rng=rng, batches=4
        )
        s = d.max_summary(m, alpha)
        sd1 = math.sqrt(d.var_true)
        rows.append(
            (
                f"{p:g}",
                d.n_pos,
                sd1,
                auc * (1 - auc) / d.var_true,
                s.mean - auc,
                s.sd,
                (s.mean - auc) / sd1,
            )
        )
    acc = iid_max_distribution(n, m, auc).summary(alpha)
    sd1 = math.sqrt(auc * (1 - auc) / n)
    rows.append(
        (
            "accuracy (any)",
            n,
            sd1,
            n,
            acc.mean - auc,
            acc.sd,
            (acc.mean - auc) / sd1,
        )
    )
    return pd.DataFrame(
        rows,
        columns=[
            "prevalence π",
            "positives",
            "sd of one AUC",
            "n_eff",
            "bias of the max",
            "sd of the max",
            "bias / sd of one",
        ],
    )


def roc_bands(
    auc: float,
    n: int,
    prevalence: float,
    sigmas,
    *,
    curves: int = 400,
    seed: int = 40,
):
    """Pointwise 95% bands of simulated empirical ROC curves for binormal shapes with the same AUC.

    For each ``(sigma_pos, sigma_neg)`` in ``sigmas`` (seed ``seed + i``):
    the exact standard deviation of the empirical AUC and
    ``(fpr_grid, tpr_low, tpr_high, pos, neg)``, the band of ``curves``
    simulated curves on a grid of 201 false positive rates and one simulated
    score sample -- the inputs of :func:`plot_same_auc`.
    """
    kp, kn = n_positives(n, prevalence)
    fg = np.linspace(0, 1, 201)
    sds, samples = [], []
    for i, (sp, sn) in enumerate(sigmas):
        sds.append(math.sqrt(A.auc_variance(auc, kp, kn, sp, sn)))
        P, N = A.simulate_scores(
            auc, kp, kn, curves, rng=seed + i, sigma_pos=sp, sigma_neg=sn
        )
        fpr, tpr = A.roc_curve_points(P, N)
        c = np.array(
            [np.interp(fg, f, t, right=1.0) for f, t in zip(fpr, tpr)]
        )
        lo, hi = np.quantile(c, [0.025, 0.975], axis=0)
        samples.append((fg, lo, hi, P[0], N[0]))
    return sds, samples


def melanoma_v2_interval(
    auc: float = 0.9352,
    winner: float = 0.9490,
    n: int = 7687,
    prevalence: float = 584 / 33126,
) -> dict:
    """The second version's Melanoma argument: the upper end of a single AUC's 95% interval.

    With ``auc +- 1.96 sd`` and the exact binormal standard deviation
    (:func:`~sotalib.multiplicity.auc_variance`) for equal variances, with
    Hanley--McNeil's, and the ratio ``sigma_pos / sigma_neg`` for which the
    upper end equals ``winner`` (solved by Brent's method).  The default
    prevalence is the training set's (584 melanomas among 33,126 images).
    """
    from scipy.optimize import brentq
    from scipy.stats import norm

    z = float(norm.ppf(0.975))
    kp, kn = n_positives(n, prevalence)

    def upper(sp):
        return auc + z * math.sqrt(A.auc_variance(auc, kp, kn, sp, 1.0))

    return {
        "positives": kp,
        "upper_equal": upper(1.0),
        "upper_hanley_mcneil": auc
        + z * math.sqrt(A.hanley_mcneil_variance(auc, kp, kn)),
        "sigma_ratio": brentq(
            lambda sp: upper(sp) - winner, 0.2, 1.0, xtol=1e-10
        ),
    }


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


def load_rho():
    """The cached best AUC against ``rho`` (``data/auc_rho.json``, written by :func:`rho`) as a table.

    One row per ``rho``: the mean, standard deviation and 95% interval of the
    maximum AUC of 1,000 classifiers with AUC 0.90, n = 3,000, prevalence
    0.017, from 400 simulated challenges (seed ``1000 + i`` for the i-th
    ``rho``), and the standard error of the mean; ``attrs`` holds the setting.
    """
    from importlib import resources

    import pandas as pd

    with (
        resources.files("sotalib.book")
        .joinpath("data/auc_rho.json")
        .open() as fh
    ):
        cache = json.load(fh)
    df = pd.DataFrame(cache["rows"])[
        ["rho", "mean", "se_mean", "sd", "ci_low", "ci_high", "seed"]
    ]
    df.attrs.update({k: v for k, v in cache.items() if k != "rows"})
    return df


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
