"""Error bars, bootstrap intervals, variance decomposition and test-set size.

Section 3 of Pavão's *How to judge a competition* {pavao2024judge}:

* :func:`error_bars` -- standard deviation (Bessel-corrected), standard error
  of the mean and a Student-t confidence interval (Section 3.1);
* :func:`bootstrap_interval`, :func:`paired_bootstrap` -- percentile and BCa
  intervals of any metric computed from per-item predictions, with
  :func:`scipy.stats.bootstrap`, and the probability that the leader is
  really ahead; :func:`bootstrap_coverage` checks the intervals' coverage by
  simulation;
* :func:`cv_bootstrap_schema` -- the resampling patterns of k-fold
  cross-validation and of the bootstrap (Figure 6);
* :func:`variance_decomposition` -- within- and between-group variance, the
  law of total variance ``Var X = E[Var(X|Y)] + Var(E[X|Y])``;
* :func:`rule_of_thumb_size`, :func:`guyon_size`, :func:`achieved_precision`
  -- test-set size (Section 3.2);
* :func:`kendall_w`, :func:`ranking_stability` -- Kendall's W of the rankings
  over bootstrap trials against the number of test items (Figure 8).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._rng import as_generator
from .._validate import check_choice, check_int, check_probability, check_real

__all__ = [
    "BootstrapInterval",
    "Coverage",
    "ErrorBars",
    "GranularityRanks",
    "rank_sd_by_granularity",
    "PairedComparison",
    "accuracy",
    "VarianceDecomposition",
    "achieved_precision",
    "bootstrap_coverage",
    "bootstrap_interval",
    "cv_bootstrap_schema",
    "error_bars",
    "guyon_size",
    "kendall_w",
    "paired_bootstrap",
    "ranking_stability",
    "rule_of_thumb_size",
    "variance_decomposition",
]


# ----------------------------------------------------------------- error bars


@dataclass(frozen=True)
class ErrorBars:
    """The three common error bars of a sample (Section 3.1).

    ``sd`` uses Bessel's correction (``n - 1``); ``sem = sd / sqrt(n)``;
    ``(ci_low, ci_high)`` is the Student-t interval ``mean -/+ t_{1-alpha/2, n-1} sem``.
    """

    mean: float
    sd: float
    sem: float
    ci_low: float
    ci_high: float
    n: int
    alpha: float


def error_bars(x, alpha: float = 0.05) -> ErrorBars:
    """Standard deviation, standard error of the mean and t confidence interval of ``x``.

    Parameters
    ----------
    x : array_like, at least 2 finite values
        Independent observations (e.g. scores of re-runs).
    alpha : float in (0, 1)
        The interval's level is ``1 - alpha``.
    """
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    a = np.asarray(x, dtype=float).ravel()
    if a.size < 2 or not np.all(np.isfinite(a)):
        raise ValueError(f"x must hold at least 2 finite values, got {a.size}")
    mean = float(a.mean())
    sd = float(a.std(ddof=1))
    sem = sd / math.sqrt(a.size)
    t = float(stats.t.ppf(1 - alpha / 2, a.size - 1))
    return ErrorBars(mean, sd, sem, mean - t * sem, mean + t * sem, int(a.size), alpha)


# ------------------------------------------------------------------ bootstrap


@dataclass(frozen=True)
class BootstrapInterval:
    """A bootstrap confidence interval of a metric.

    ``estimate`` is the metric on the full test set, ``se`` the standard
    deviation of the bootstrap distribution, ``method`` ``"percentile"`` or
    ``"BCa"``; ``n_resamples`` bootstrap samples; level ``1 - alpha``.
    """

    estimate: float
    ci_low: float
    ci_high: float
    se: float
    method: str
    n_resamples: int
    alpha: float


def _run_bootstrap(data, statistic, **kw):
    """scipy.stats.bootstrap; a degenerate bootstrap distribution (every resample gives the same
    value, e.g. two identical candidates) yields the interval [value, value] instead of NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        warnings.simplefilter("ignore", RuntimeWarning)  # BCa acceleration 0/0 on a degenerate sample
        res = stats.bootstrap(data, statistic, **kw)
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    dist = np.asarray(res.bootstrap_distribution)
    if not (np.isfinite(lo) and np.isfinite(hi)) and np.ptp(dist) == 0:
        lo = hi = float(dist.flat[0])
    return res, lo, hi


def _samples(arrays) -> tuple[np.ndarray, ...]:
    out = tuple(np.asarray(a) for a in arrays)
    if not out:
        raise ValueError("at least one per-item array is required")
    n = out[0].shape[0] if out[0].ndim else 0
    if n < 2 or any(a.ndim == 0 or a.shape[0] != n for a in out):
        raise ValueError("per-item arrays must have the same length, at least 2")
    return out


def bootstrap_interval(
    metric: Callable[..., float],
    *arrays,
    method: str = "BCa",
    alpha: float = 0.05,
    n_resamples: int = 2000,
    rng: np.random.Generator | int | None = None,
    vectorized: bool = False,
) -> BootstrapInterval:
    """Bootstrap confidence interval of ``metric(*arrays)`` over test items.

    The test items are resampled with replacement, jointly across ``arrays``
    (e.g. ``y_true`` and ``y_pred``: ``paired=True`` in
    :func:`scipy.stats.bootstrap`).

    Parameters
    ----------
    metric : callable
        ``metric(*arrays) -> float``, e.g. ``sklearn.metrics.f1_score``; with
        ``vectorized=True`` it must accept an ``axis`` keyword (e.g. ``np.mean``
        of per-item correctness) and is then much faster.
    *arrays : array_like
        Per-item data, all of the same length.
    method : {"percentile", "BCa"}
    alpha : float in (0, 1)
    n_resamples : int
    rng : int, numpy.random.Generator or None
        Randomness (SPEC 7): an int seed gives the numbers of ``numpy.random.default_rng(int)``;
        None draws fresh entropy.
    """
    method = check_choice("method", method, ("percentile", "BCa"))
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    n_resamples = check_int("n_resamples", n_resamples, low=10)
    data = _samples(arrays)
    rng = as_generator(rng)
    res, lo, hi = _run_bootstrap(
        data,
        metric,
        paired=True,
        vectorized=vectorized,
        method=method,
        confidence_level=1 - alpha,
        n_resamples=n_resamples,
        random_state=rng,
    )
    est = float(metric(*data))
    return BootstrapInterval(est, lo, hi, float(res.standard_error), method, n_resamples, alpha)


def accuracy(y_true, y_pred, axis=-1):
    """Accuracy, vectorized over ``axis`` (for the bootstrap functions' ``vectorized=True``)."""
    return np.mean(np.asarray(y_true) == np.asarray(y_pred), axis=axis)


@dataclass(frozen=True)
class PairedComparison:
    """Paired bootstrap comparison of two candidates scored on the same items.

    ``diff`` = metric(a) - metric(b) on the full test set with its bootstrap
    interval ``(ci_low, ci_high)``; ``prob_a_ahead`` is the fraction of
    bootstrap test sets on which ``a`` scores higher (a tie counting one half).
    """

    diff: float
    ci_low: float
    ci_high: float
    prob_a_ahead: float
    method: str
    n_resamples: int
    alpha: float


def paired_bootstrap(
    metric: Callable[..., float],
    y_true,
    pred_a,
    pred_b,
    *,
    method: str = "BCa",
    alpha: float = 0.05,
    n_resamples: int = 2000,
    rng: np.random.Generator | int | None = None,
    lower_is_better: bool = False,
    vectorized: bool = False,
) -> PairedComparison:
    """Paired bootstrap of the difference between two candidates, and P(a really ahead).

    Both candidates are scored on the *same* bootstrap test sets, which keeps
    the correlation between their errors.

    Parameters
    ----------
    metric : callable
        ``metric(y_true, y_pred) -> float``.
    y_true, pred_a, pred_b : array_like
        Per-item truth and the two candidates' predictions.
    lower_is_better : bool
        For losses: ``prob_a_ahead`` then counts bootstrap sets where a's loss is lower.
    vectorized : bool
        ``metric`` accepts ``axis`` (as :func:`accuracy` does): much faster.
    """
    method = check_choice("method", method, ("percentile", "BCa"))
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    n_resamples = check_int("n_resamples", n_resamples, low=10)
    y, a, b = _samples((y_true, pred_a, pred_b))
    sign = -1.0 if lower_is_better else 1.0

    if vectorized:

        def diff(yy, aa, bb, axis=-1):
            return metric(yy, aa, axis=axis) - metric(yy, bb, axis=axis)
    else:

        def diff(yy, aa, bb):
            return metric(yy, aa) - metric(yy, bb)

    res, lo, hi = _run_bootstrap(
        (y, a, b),
        diff,
        paired=True,
        vectorized=vectorized,
        method=method,
        confidence_level=1 - alpha,
        n_resamples=n_resamples,
        random_state=as_generator(rng),
    )
    dist = sign * np.asarray(res.bootstrap_distribution)
    p = float(np.mean(dist > 0) + 0.5 * np.mean(dist == 0))
    return PairedComparison(float(diff(y, a, b)), lo, hi, p, method, n_resamples, alpha)


@dataclass(frozen=True)
class Coverage:
    """Monte Carlo coverage of an interval: ``rate`` of ``reps`` intervals containing the truth."""

    rate: float
    se: float
    reps: int
    nominal: float
    method: str
    mean_width: float


def bootstrap_coverage(
    theta: float,
    n: int,
    *,
    method: str = "BCa",
    alpha: float = 0.05,
    reps: int = 1000,
    n_resamples: int = 999,
    rng: np.random.Generator | int | None = None,
) -> Coverage:
    """How often the bootstrap interval of an accuracy contains the true accuracy ``theta``.

    Each replication draws ``n`` items correct with probability ``theta``
    (independently) and computes the bootstrap interval of their mean.
    Degenerate samples (all right or all wrong) count as misses for BCa.
    """
    theta = check_probability("theta", theta, open_low=True, open_high=True)
    n = check_int("n", n, low=2)
    reps = check_int("reps", reps, low=1)
    method = check_choice("method", method, ("percentile", "BCa"))
    rng = as_generator(rng)
    hits, widths = 0, []
    for _ in range(reps):
        x = (rng.random(n) < theta).astype(float)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = stats.bootstrap(
                (x,),
                np.mean,
                vectorized=True,
                method=method,
                confidence_level=1 - alpha,
                n_resamples=n_resamples,
                random_state=rng,
            )
        lo, hi = res.confidence_interval.low, res.confidence_interval.high
        if np.isfinite(lo) and np.isfinite(hi):
            hits += lo <= theta <= hi
            widths.append(hi - lo)
    rate = float(hits) / reps
    return Coverage(
        rate,
        math.sqrt(rate * (1 - rate) / reps),
        reps,
        1 - alpha,
        method,
        float(np.mean(widths)) if widths else math.nan,
    )


def cv_bootstrap_schema(n: int, k: int, n_boot: int, rng: np.random.Generator | int | None = None):
    """The resampling patterns of Figure 6.

    Returns ``(folds, counts)``: ``folds[i, j]`` is True if item ``j`` is in
    the test fold of round ``i`` of ``k``-fold cross-validation (shuffled
    items), and ``counts[b, j]`` how many times item ``j`` appears in
    bootstrap sample ``b`` (0: left out).
    """
    n = check_int("n", n, low=2)
    k = check_int("k", k, low=2, high=n)
    n_boot = check_int("n_boot", n_boot, low=1)
    rng = as_generator(rng)
    perm = rng.permutation(n)
    folds = np.zeros((k, n), dtype=bool)
    for i, part in enumerate(np.array_split(perm, k)):
        folds[i, part] = True
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot)
    return folds, counts


# --------------------------------------------------------- variance decomposition


@dataclass(frozen=True)
class VarianceDecomposition:
    """Law of total variance: ``total = within + between``.

    ``within = E[Var(X | Y)]`` (the mean of the groups' variances, weighted by
    group size), ``between = Var(E[X | Y])`` (the variance of the group means,
    weighted likewise); all variances divide by the number of values
    (population variances), so the identity is exact.
    """

    total: float
    within: float
    between: float
    groups: int


def variance_decomposition(values, groups) -> VarianceDecomposition:
    """Within- and between-group variance of ``values`` grouped by ``groups`` (Section 3.1).

    Parameters
    ----------
    values : array_like, shape (N,)
        E.g. bootstrap scores of one candidate on several tasks.
    groups : array_like, shape (N,)
        The group (task) of each value.
    """
    x = np.asarray(values, dtype=float).ravel()
    g = np.asarray(groups).ravel()
    if x.size < 1 or x.shape != g.shape or not np.all(np.isfinite(x)):
        raise ValueError("values and groups must be finite arrays of the same, non-zero length")
    labels, inv, counts = np.unique(g, return_inverse=True, return_counts=True)
    w = counts / x.size
    means = np.bincount(inv, weights=x) / counts
    var_in = np.bincount(inv, weights=(x - means[inv]) ** 2) / counts
    within = float(np.sum(w * var_in))
    between = float(np.sum(w * (means - x.mean()) ** 2))
    return VarianceDecomposition(float(x.var()), within, between, int(labels.size))


# ------------------------------------------------------------- test-set size


def rule_of_thumb_size(p: float) -> float:
    """Guyon et al.'s (1998) rule of thumb ``n = 100 / p`` for an error rate ``p`` (Section 3.2)."""
    p = check_probability("p", p, open_low=True)
    return 100.0 / p


def guyon_size(mu: float, sigma: float | None = None, k: float = 1.96, nu: float = 1.0) -> float:
    """Guyon's test-set size ``n = (sigma^2 / mu^2) k^2 10^(2 nu)`` (Section 3.2).

    The number of items for which the ``k``-standard-error half-width
    ``k sigma / sqrt(n)`` of the mean error is ``10^-nu`` times the mean
    error ``mu`` -- ``nu`` significant digits of relative precision at
    confidence ``k``.

    Parameters
    ----------
    mu : float > 0
        Mean error (loss) of the model evaluated.
    sigma : float >= 0, optional
        Standard deviation of the per-item errors; default
        ``sqrt(mu (1 - mu))``, that of 0/1 errors (then ``mu`` must be <= 1).
    k : float > 0
        Confidence as a number of standard errors (1.96 for 95%).
    nu : float
        Precision in decimal digits.
    """
    mu = check_real("mu", mu, low=0.0, low_open=True)
    if sigma is None:
        mu = check_real("mu", mu, low=0.0, high=1.0, low_open=True)
        sigma = math.sqrt(mu * (1 - mu))
    sigma = check_real("sigma", sigma, low=0.0)
    k = check_real("k", k, low=0.0, low_open=True)
    nu = check_real("nu", nu, low=-10, high=10)
    return (sigma / mu) ** 2 * k**2 * 10.0 ** (2 * nu)


def achieved_precision(n: float, mu: float, sigma: float | None = None, k: float = 1.96) -> float:
    """The precision ``nu`` that ``n`` items reach: Guyon's formula solved for ``nu``."""
    n = check_real("n", n, low=0.0, low_open=True)
    return 0.5 * math.log10(n / guyon_size(mu, sigma, k, 0.0))


# ------------------------------------------------------------- ranking stability


def _bootstrap_counts(rng: np.random.Generator, N: int, size: int, trials: int) -> np.ndarray:
    """``counts[b, i]``: how often item ``i`` is drawn in bootstrap test set ``b`` of ``size`` items."""
    idx = rng.integers(N, size=(trials, size)) + N * np.arange(trials)[:, None]
    return np.bincount(idx.ravel(), minlength=N * trials).reshape(trials, N).astype(float)


def kendall_w(scores, lower_is_better: bool = False) -> float:
    """Kendall's coefficient of concordance W of ``m`` rankings of ``n`` candidates.

    ``scores[r, i]`` is the score of candidate ``i`` in trial (rater) ``r``;
    each row is ranked (mid-ranks for ties) and

    ``W = 12 S / (m^2 (n^3 - n) - m sum_r T_r)``, ``S = sum_i (R_i - m (n + 1) / 2)^2``,

    with ``R_i`` the rank sums and ``T_r = sum (t^3 - t)`` over the tie groups of
    row ``r`` (the tie correction).  W = 1 when every row ranks the candidates
    alike; it is 1 also if every row has the same ties.  Returns 1 when all
    rows are all-tied (no information, no disagreement).
    """
    A = np.asarray(scores, dtype=float)
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 2 or not np.all(np.isfinite(A)):
        raise ValueError(f"scores must be a finite (trials x candidates) array with >= 2 candidates, got {A.shape}")
    if lower_is_better:
        A = -A
    m, n = A.shape
    R = stats.rankdata(A, axis=1)
    S = float(np.sum((R.sum(axis=0) - m * (n + 1) / 2) ** 2))
    srt = np.sort(A, axis=1)
    T = 0.0
    # tie groups per row: run lengths of equal sorted values
    for row in srt:
        _, c = np.unique(row, return_counts=True)
        T += float(np.sum(c**3 - c))
    denom = m**2 * (n**3 - n) - m * T
    if denom <= 0:
        return 1.0
    return 12.0 * S / denom


def ranking_stability(correct, sizes, trials: int = 500, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Kendall's W of the rankings of candidates over bootstrap test sets of each size (Figure 8).

    For every size ``s`` in ``sizes``, ``trials`` test sets of ``s`` items are
    drawn with replacement from the available items; the candidates are
    ranked by their accuracy on each; W measures the agreement of these
    ``trials`` rankings.

    Parameters
    ----------
    correct : array_like of bool, shape (candidates, items)
        Per-item correctness of each candidate.
    sizes : sequence of int
    trials : int
    rng : int, numpy.random.Generator or None
        Randomness (SPEC 7): an int seed gives the numbers of ``numpy.random.default_rng(int)``;
        None draws fresh entropy.
    """
    C = np.asarray(correct, dtype=float)
    if C.ndim != 2 or C.shape[0] < 2 or C.shape[1] < 1:
        raise ValueError("correct must be a (candidates x items) array with >= 2 candidates")
    trials = check_int("trials", trials, low=2)
    rng = as_generator(rng)
    N = C.shape[1]
    out = []
    for s in sizes:
        s = check_int("size", s, low=1)
        out.append(kendall_w(_bootstrap_counts(rng, N, s, trials) @ C.T))
    return np.array(out)


@dataclass(frozen=True, eq=False)
class GranularityRanks:
    """Mean and standard deviation of each candidate's rank under two bootstraps (Figure 7 of the paper).

    ``items``: the test items of every task are resampled (high granularity);
    ``tasks``: the tasks are resampled (low granularity).  Arrays have one
    entry per candidate; ``reps`` bootstrap replications each.
    """

    mean_items: np.ndarray
    sd_items: np.ndarray
    mean_tasks: np.ndarray
    sd_tasks: np.ndarray
    reps: int


def rank_sd_by_granularity(correct, reps: int = 200, rng: np.random.Generator | int | None = None) -> GranularityRanks:
    """How much the candidates' ranks move when items, or tasks, are bootstrapped.

    ``correct[t, j, i]``: candidate ``j`` right on item ``i`` of task ``t``.
    Candidates are ranked by their mean accuracy over tasks (the chapter's
    rank, ties one half).  Resampling the items of every task measures the
    within-task (data) variability of the ranking; resampling the tasks
    measures the between-task variability.
    """
    from ._ranking import rank

    C = np.asarray(correct, dtype=float)
    if C.ndim != 3 or C.shape[0] < 2 or C.shape[1] < 2:
        raise ValueError("correct must be a (tasks x candidates x items) array with >= 2 tasks and candidates")
    reps = check_int("reps", reps, low=2)
    rng = as_generator(rng)
    T, J, N = C.shape
    acc_items = np.zeros((reps, J))
    for t in range(T):
        acc_items += _bootstrap_counts(rng, N, N, reps) @ C[t].T / N
    acc_items /= T
    full = C.mean(axis=2)  # (T, J)
    pick = rng.integers(T, size=(reps, T))
    acc_tasks = full[pick].mean(axis=1)
    r_items = np.array([rank(a) for a in acc_items])
    r_tasks = np.array([rank(a) for a in acc_tasks])
    return GranularityRanks(
        r_items.mean(axis=0), r_items.std(axis=0, ddof=1), r_tasks.mean(axis=0), r_tasks.std(axis=0, ddof=1), reps
    )
