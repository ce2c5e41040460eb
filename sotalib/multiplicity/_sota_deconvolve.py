"""Empirical Bayes by deconvolution (beyond the paper): ``estimate_sota(method="deconvolve")``.

The Kiefer-Wolfowitz nonparametric maximum-likelihood estimate (NPMLE) of the
mixing distribution ``G`` of the teams' true accuracies, and
``theta_SOTA = E max`` of ``m`` draws from it, with a nonparametric bootstrap
interval over teams.  It uses the marginal binomial likelihood, which is the
same for every ``rho``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import binom

from .. import _progress
from .._rng import as_generator, seed_record
from .._validate import check_alpha, check_int
from ._sota_model import _chance, prepare
from ._sota_result import SotaEstimate

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota

#: Bootstrap resamples of :func:`deconvolve` unless told otherwise.
N_RESAMPLES = 200

#: Points of the grid the NPMLE puts its mass on.
GRID_SIZE = 400


def npmle(counts, n: int, *, grid_size: int = 400, iters: int = 3000, tol: float = 1e-10, bin_width: int | None = None):
    """Kiefer-Wolfowitz NPMLE of ``G`` for ``X_j ~ B(n, theta_j)``, ``theta_j ~ G``, by EM on a grid.

    Returns ``(grid, weights)``.  The grid spans the range of ``X/n`` padded by
    four binomial standard deviations.  Under the dependent model each
    ``X_j`` is still ``B(n, theta_j)`` marginally, so this is a composite
    likelihood there.

    ``bin_width``: counts are pooled into bins of this many counts, each
    bin's likelihood taken at its mean count (default :func:`npmle_bin_width`:
    no pooling unless the board has more than 500 distinct counts).  At large
    ``n`` a board's thousands of distinct counts then cost as few likelihood
    rows as a Kaggle board's; pooling within a sixth of a binomial standard
    deviation widens each count's likelihood by under half a percent.
    """
    x = np.asarray(counts, dtype=np.int64)
    ux, cnt = np.unique(x, return_counts=True)
    p_lo, p_hi = ux.min() / n, ux.max() / n
    pad = 4 * math.sqrt(max(p_hi * (1 - p_hi), 1e-4) / n)
    grid = np.linspace(max(p_lo - pad, 1e-6), min(p_hi + pad, 1 - 1e-6), grid_size)
    if bin_width is None:
        bin_width = npmle_bin_width(x, n)
    if bin_width > 1:
        starts = np.flatnonzero(np.diff(ux // bin_width, prepend=-1))
        tot = np.add.reduceat(cnt, starts)
        ux = np.round(np.add.reduceat(ux * cnt, starts) / tot).astype(np.int64)
        cnt = tot
    lik = binom.pmf(ux[:, None], n, grid[None, :])  # (distinct counts, grid)
    lik /= lik.max(axis=1, keepdims=True)
    wts = np.full(grid_size, 1.0 / grid_size)
    frac = cnt / cnt.sum()
    for _ in range(iters):
        mix = lik @ wts
        new = wts * (lik.T @ (frac / mix))
        if np.abs(new - wts).max() < tol:
            wts = new
            break
        wts = new
    return grid, wts / wts.sum()


def npmle_bin_width(counts, n: int) -> int:
    """Counts pooled per likelihood row of :func:`npmle`.

    1 for at most 500 distinct counts, else a sixth of the smallest binomial standard deviation
    over their range (at least 1).
    """
    ux = np.unique(np.asarray(counts, dtype=np.int64))
    if ux.size <= 500:
        return 1
    p_edge = min(max(ux[0] / n, 1e-12), max(1 - ux[-1] / n, 1e-12))
    return max(1, int(math.sqrt(n * p_edge * (1 - p_edge)) / 6))


def _expected_max_of_draws(grid, wts, m: int) -> float:
    """``E max`` of ``m`` iid draws from the discrete distribution (grid, wts)."""
    cdf = np.minimum(np.cumsum(wts), 1.0)
    prev = np.concatenate([[0.0], cdf[:-1]])
    pm = np.exp(m * np.log(np.maximum(cdf, 1e-300))) - np.exp(m * np.log(np.maximum(prev, 1e-300)))
    return float(np.dot(grid, pm))


def _deconvolve(
    s: np.ndarray,
    below: int,
    n: int,
    n_resamples: int,
    rng: int | np.random.Generator | None,
    alpha: float,
    grid_size: int,
    progress: bool | None,
) -> SotaEstimate:
    """The NPMLE estimate and its bootstrap interval, on checked input."""
    x = np.round(s * n).astype(np.int64)
    width = npmle_bin_width(x, n)
    grid, w = npmle(x, n, grid_size=grid_size, bin_width=width)
    est = _expected_max_of_draws(grid, w, s.size)
    lo = hi = None
    boots = []
    seed = seed_record(rng)
    rng = as_generator(rng)
    if n_resamples >= 2:
        for _ in _progress.progress(range(n_resamples), total=n_resamples, desc="bootstrap", show=progress):
            xb = rng.choice(x, x.size, replace=True)
            g, wb = npmle(xb, n, grid_size=grid_size, iters=1000, bin_width=width)
            boots.append(_expected_max_of_draws(g, wb, s.size))
        lo, hi = (float(v) for v in np.quantile(boots, [alpha / 2, 1 - alpha / 2], method="inverted_cdf"))
    return SotaEstimate(
        "deconvolve",
        s.size,
        n,
        float(s.max()),
        est,
        ci_low=lo,
        ci_high=hi,
        teams_above=int(np.sum(s > est)),
        below_chance=below,
        details={
            "reps": n_resamples,
            "seed": seed,
            "grid_size": grid_size,
            "atoms": int(np.sum(w > 1e-6)),
            "count_bin_width": width,
        },
    )


def deconvolve(
    scores: ArrayLike,
    n: int,
    *,
    classes: int = 2,
    n_resamples: int = N_RESAMPLES,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
    grid_size: int = GRID_SIZE,
    progress: bool | None = None,
) -> SotaEstimate:
    """Empirical Bayes by deconvolution (``estimate_sota(method="deconvolve")``).

    Fits the Kiefer-Wolfowitz NPMLE ``G_hat`` (:func:`npmle`) and reports
    ``theta_SOTA = E max`` of ``m`` draws from ``G_hat``; the interval is the
    percentile interval of a nonparametric bootstrap over teams
    (``n_resamples`` resamples drawn from ``rng``: an int seed, a
    :class:`numpy.random.Generator` or None; ``details["seed"]`` records an
    int seed).  ``progress``: progress bar of the bootstrap (None: when
    stderr is a terminal).
    """
    s, below = prepare(scores, n, _chance(classes))
    n_resamples = check_int("n_resamples", n_resamples, low=0)
    alpha = check_alpha("alpha", alpha)
    return _deconvolve(s, below, n, n_resamples, rng, alpha, grid_size, progress)
