"""Simulation of the empirical AUC and of the best of many (Section 5.2).

Sampling the empirical AUC without drawing ``n`` scores.  Sort the ``n_pos`` positive scores
``s_(1) < ... < s_(n_pos)``; every negative falls independently into one of the
``n_pos + 1`` intervals between consecutive positives with probabilities
``Phi((s_(i) - mu-)/sigma-) - Phi((s_(i-1) - mu-)/sigma-)``, so given the
positives the interval counts ``M_0, ..., M_{n_pos}`` are multinomial.  A
negative in interval ``i - 1`` (just below ``s_(i)``) is outscored by the
``n_pos - i + 1`` positives ``s_(i), ..., s_(n_pos)``, so
``U = sum_i (n_pos - i + 1) M_{i-1}`` (the interval above every positive counts
0).  Ties have probability zero in the continuous model.  Drawing the
positives and then the multinomial (as ``n_pos`` conditional binomials)
therefore gives ``U`` *exactly in distribution*, at a cost of ``O(n_pos)``
binomials instead of ``O(n log n)``.  The binomials are drawn by inversion of
their cdf from one uniform each, so that with a fixed int ``rng`` the draws are
common random numbers: the simulated maximum is a deterministic and (in all
our checks) monotone function of the classifiers' AUCs (needed by the shrinkage estimators of
Section 5.2.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import gammaln

from .._deprecate import keyword_only_since
from .._distribution import DistributionSummary
from .._json import json_safe
from .._progress import progress
from .._rng import as_generator, seed_record
from .._validate import check_alpha, check_choice, check_int, check_memory, check_probability, check_real
from ._auc_kernels import _max_u_batch, _max_u_correlated, _u_batch
from ._auc_model import _standardized, n_positives
from ._max_distribution import Summary

__all__ = ["simulate_auc", "simulate_max_auc", "simulate_auc_leaderboard"]


def _logfact(n: int) -> np.ndarray:
    return gammaln(np.arange(n + 1, dtype=float) + 1.0)


#: Probability, per classifier and replication, that the maximum's simulation
#: may ignore (Bernstein screening in ``_max_u_batch``); far below any digit.
SKIP_TOL = 1e-20

_CHUNK = 2**22  # doubles per drawn array in one chunk


def _check_rho(rho) -> float:
    return check_real("rho", rho, low=0.0, high=1.0)


def _draw_positive_counts(rng, n, prevalence, reps, positives) -> np.ndarray:
    """Number of positives of each replication's test set."""
    positives = check_choice("positives", positives, ("fixed", "binomial"))
    n_pos, _ = n_positives(n, prevalence)
    if positives == "fixed":
        return np.full(reps, n_pos, dtype=np.int64)
    k = rng.binomial(n, prevalence, size=reps)
    bad = (k < 1) | (k > n - 1)
    while np.any(bad):  # condition on both classes being present
        k[bad] = rng.binomial(n, prevalence, size=int(bad.sum()))
        bad = (k < 1) | (k > n - 1)
    return k


@keyword_only_since("n_resamples", "rng")
def simulate_auc(
    auc: float,
    n: int,
    prevalence: float,
    *,
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    positives: str = "fixed",
    sigma_pos: float = 1.0,
    sigma_neg: float = 1.0,
) -> np.ndarray:
    """Simulated empirical AUCs of one binormal classifier (exact in distribution).

    Each replication draws the positives' scores and then the multinomial
    counts of negatives between consecutive positives (module docstring):
    the Mann-Whitney statistic without drawing or sorting the negatives.

    Parameters
    ----------
    auc : float
        True AUC, in ``(0, 1)`` (Eq. 10 gives ``mu+``).
    n : int
        Test-set size.
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    n_resamples : int
        Number of test sets, ``>= 1``.
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``),
        a Generator (drawn from directly) or None (fresh entropy).
    positives : {"fixed", "binomial"}
        Number of positives ``round(n pi)`` (as in the paper) or ``Bin(n, pi)``
        per test set (conditioned on both classes present).
    sigma_pos, sigma_neg : float
        Score standard deviations (``mu- = 0``).

    Returns
    -------
    ndarray of shape (n_resamples,)
        The empirical AUCs.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_auc
    >>> x = simulate_auc(0.9, 3000, 0.017, n_resamples=2000, rng=1)
    >>> bool(abs(x.mean() - 0.9) < 4 * x.std() / 2000**0.5)
    True
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    reps = check_int("n_resamples", n_resamples, low=1)
    mus, sp = _standardized(auc, sigma_pos, sigma_neg)
    rng = as_generator(rng)
    ks = _draw_positive_counts(rng, n, prevalence, reps, positives)
    out = np.empty(reps)
    for k in np.unique(ks):
        idx = np.flatnonzero(ks == k)
        n_neg = n - int(k)
        lf = _logfact(n_neg)
        per = max(1, _CHUNK // int(k))
        for s in range(0, idx.size, per):
            ii = idx[s : s + per]
            z = rng.standard_normal((ii.size, int(k)))
            uu = rng.random((ii.size, int(k)))
            u = _u_batch(z, uu, np.full(ii.size, mus[0]), sp, n_neg, lf)
            out[ii] = u / (int(k) * n_neg)
    return out


def _simulate_max_u(mus, sp, n, prevalence, reps, rng, rho, positives, *, show=None) -> np.ndarray:
    """Maximum AUC over classifiers with standardized means ``mus``, per replication.

    Memory is bounded for any ``m`` and ``n``: the random draws are made in
    blocks of at most ``_CHUNK`` doubles (replications together while a
    replication's ``m x n_pos`` draws fit in one block, else classifiers in
    blocks within each replication, the maximum carried from block to block).
    A progress bar over the replications is drawn when ``show`` says
    so (:func:`sotalib._progress.progress`: by default only on a terminal).
    """
    m = mus.size
    ks = _draw_positive_counts(rng, n, prevalence, reps, positives)
    out = np.empty(reps)
    log_inv_tol = -math.log(SKIP_TOL)
    if rho == 0.0:
        uniq = np.unique(ks)
        bar = progress(range(reps), desc="simulated challenges", show=show)
        for k_value in uniq:
            k = int(k_value)
            idx = np.flatnonzero(ks == k)
            n_neg = n - k
            lf = _logfact(n_neg)
            if m * k <= _CHUNK:
                per = max(1, _CHUNK // (m * k))
                for s in range(0, idx.size, per):
                    ii = idx[s : s + per]
                    z = rng.standard_normal((ii.size, m, k))
                    uu = rng.random((ii.size, m, k))
                    out[ii] = _max_u_batch(z, uu, mus, sp, n_neg, lf, log_inv_tol) / (k * n_neg)
                    for _ in range(ii.size):
                        next(bar, None)
                continue
            per_m = max(1, _CHUNK // k)  # classifiers per block of one replication
            for row in idx:
                best = -1
                for j0 in range(0, m, per_m):
                    j1 = min(m, j0 + per_m)
                    z = rng.standard_normal((1, j1 - j0, k))
                    uu = rng.random((1, j1 - j0, k))
                    best = max(best, int(_max_u_batch(z, uu, mus[j0:j1], sp, n_neg, lf, log_inv_tol)[0]))
                out[row] = best / (k * n_neg)
                next(bar, None)
        for _ in bar:  # close the bar
            pass
        return out
    for r in progress(range(reps), desc="simulated challenges", show=show):
        k = int(ks[r])
        n_neg = n - k
        z0 = rng.standard_normal(k)
        w0 = rng.standard_normal(n_neg)
        best = -1
        per = max(1, _CHUNK // n)  # classifiers per block: bounded memory for any m, n
        for j0 in range(0, m, per):
            j1 = min(m, j0 + per)
            e_pos = rng.standard_normal((j1 - j0, k))
            e_neg = rng.standard_normal((j1 - j0, n_neg))
            best = max(best, _max_u_correlated(z0, w0, e_pos, e_neg, mus[j0:j1], sp, rho))
        out[r] = best / (k * n_neg)
    return out


@keyword_only_since("n_resamples", "rng")
def simulate_max_auc(
    auc: float,
    n: int,
    m: int,
    prevalence: float,
    *,
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    rho: float = 0.0,
    positives: str = "fixed",
    sigma_pos: float = 1.0,
    sigma_neg: float = 1.0,
) -> np.ndarray:
    """Simulated maxima of the empirical AUCs of ``m`` classifiers of equal true AUC.

    All classifiers are scored on the same test set (one per replication).
    With ``rho = 0`` they are independent and each AUC is drawn by the
    multinomial method; classifiers whose AUC given their positives cannot
    reach the running maximum except with probability below ``SKIP_TOL``
    (Bernstein's inequality) are not completed.  With ``rho > 0`` every
    classifier's scores correlate with those of a hidden reference classifier
    within each class (Section 5.3.1); then all ``n`` scores are drawn.

    Parameters
    ----------
    auc, n, prevalence, positives, sigma_pos, sigma_neg
        As in :func:`simulate_auc`.
    m : int
        Number of classifiers.
    n_resamples : int
        Number of simulated challenges, ``>= 1``.
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``),
        a Generator (drawn from directly) or None (fresh entropy).
    rho : float
        Within-class correlation of each classifier's scores with the
        reference classifier's, in ``[0, 1]``.

    Returns
    -------
    ndarray of shape (n_resamples,)
        The best empirical AUC of each challenge (:func:`summarize_max_auc`
        summarises them).

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Figure 10; Section 5.3.1.

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_max_auc
    >>> x = simulate_max_auc(0.9, 3000, 1000, 0.017, n_resamples=200, rng=1)
    >>> bool(abs(x.mean() - 0.9562) < 4 * x.std() / 200**0.5)
    True
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    m = check_int("m", m, low=1)
    reps = check_int("n_resamples", n_resamples, low=1)
    rho = _check_rho(rho)
    mus, sp = _standardized(auc, sigma_pos, sigma_neg)
    rng = as_generator(rng)
    return _simulate_max_u(np.full(m, mus[0]), sp, n, prevalence, reps, rng, rho, positives)


@dataclass(frozen=True, repr=False)
class MaxAUCSummary(DistributionSummary):
    """The distribution of the best empirical AUC of ``m`` classifiers (simulated).

    Returned by :func:`expected_max_auc` (the inner step of
    ``estimate_sota(metric="auc")``; the public door is
    :func:`sotalib.multiplicity.summarize_max_auc`).  The fields of every
    distribution summary (``mean, sd, ci_low, ci_high, alpha, engine,
    n_resamples, se_mean, seed``; ``sotalib._distribution.DistributionSummary``),
    with ``engine="simulate"``, and the model's:

    Attributes
    ----------
    n_pos, n_neg : int
        Positives (``round(n pi)``) and negatives of the test set.
    m, n : int
        Number of classifiers and test-set size.
    prevalence, rho : float
        The model's prevalence and correlation.
    """

    n_pos: int
    n_neg: int
    m: int
    n: int
    prevalence: float
    rho: float

    def to_dict(self) -> dict:
        """JSON-safe keys: the four numbers, the Monte Carlo record and the test set's class counts."""
        return json_safe(
            {
                "mean": self.mean,
                "sd": self.sd,
                "ci_low": self.ci_low,
                "ci_high": self.ci_high,
                "n_resamples": self.n_resamples,
                "se_mean": self.se_mean,
                "n_pos": self.n_pos,
                "n_neg": self.n_neg,
                "seed": self.seed,
            }
        )

    def summary(self) -> Summary:
        """The same numbers as a :class:`~sotalib.multiplicity.Summary` (``engine="simulate"``)."""
        return Summary(
            self.mean,
            self.sd,
            self.ci_low,
            self.ci_high,
            engine="simulate",
            n_resamples=self.n_resamples,
            se_mean=self.se_mean,
            seed=self.seed,
            alpha=self.alpha,
        )


def _check_auc_memory(m: int, n: int, n_pos: int, reps: int, rho: float, name: str = "reps") -> None:
    """Refuse up front a simulation whose arrays cannot fit (:func:`sotalib._validate.check_memory`).

    The simulated maxima and positive counts take 24 bytes per replication.
    Independent classifiers (``rho = 0``) draw blocks of ``_CHUNK`` doubles
    (classifiers in blocks within a replication when one replication does not
    fit; at least one classifier's positives), two doubles per classifier and
    positive; dependent ones draw blocks of ``_CHUNK`` doubles (at least one
    classifier's ``n`` scores).  The classifiers' means take 16 bytes each.
    """
    per_rep = 24.0 * reps + 16.0 * m
    if rho == 0.0:
        block = 24.0 * max(float(_CHUNK), float(n_pos))  # z, uu and the generator's working copy
        what = f"n={n} items ({n_pos} positives)"
        advice = "use a smaller test set"
    else:
        block = 16.0 * max(float(_CHUNK), 2.0 * n)
        what = f"n={n} items"
        advice = "use a smaller test set"
    if 24.0 * reps > block:
        what, advice = f"{name}={reps} replications", "use fewer replications"
    check_memory(per_rep + block, what, advice)


def expected_max_auc(
    auc,
    n: int,
    prevalence: float,
    *,
    m: int | None = None,
    rho: float = 0.0,
    n_resamples: int = 1000,
    rng=0,
    alpha: float = 0.05,
    show: bool | None = None,
    on_start=None,
) -> MaxAUCSummary:
    """Distribution of the best empirical AUC of ``m`` classifiers (the ``sotalib auc-max`` command).

    Classifier ``j`` has binormal scores with equal variances (Eq. 10,
    ``sigma+ = sigma- = 1``) and true AUC ``A_j``; all are scored on one test
    set of ``n`` items with ``round(n pi)`` positives (Section 5.2); the
    maximum empirical AUC is simulated ``n_resamples`` times, each AUC drawn exactly
    in distribution (module docstring).  This is also the inner step of the
    AUC shrinkage estimator (Section 5.2.3).

    Common random numbers: with an int ``rng`` the random draws depend only
    on ``rng``, ``n_resamples``, ``n``, ``prevalence`` and ``m``, never on the
    AUCs, so the result is a deterministic function of the AUCs that moves
    in small steps when they change (suitable for a root finder over a
    shrinkage weight).

    Parameters
    ----------
    auc : float or array of float
        The true AUC of every classifier (a number, with ``m``) or of each
        classifier (one entry per team, ``m = len(auc)``); each in ``(0, 1)``.
    n : int
        Test-set size (``n >= 2``; ``round(n pi)`` must leave at least one
        positive and one negative).
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    m : int, optional
        Number of classifiers (``m >= 1``); required with a scalar ``auc``,
        and must equal ``len(auc)`` if given with an array.
    rho : float
        Within-class correlation of each classifier's scores with a hidden
        reference classifier's, in ``[0, 1]`` (``0``: independent
        classifiers).  ``rho > 0`` draws all scores and is much slower.
    n_resamples : int
        Number of simulated challenges (``>= 2``).
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``,
        default 0 as on the command line), a Generator (drawn from directly)
        or None (fresh entropy).
    alpha : float
        The interval is the equal-tailed ``1 - alpha`` interval, ``alpha`` in ``[1e-10, 1)``.
    show : bool or None
        A progress bar over the simulated challenges on stderr: True, False,
        or None (default) for only when stderr is a terminal.  Memory stays
        bounded for any ``m`` and ``n`` (the draws are made in blocks).
    on_start : callable, optional
        Called without arguments once every argument has been checked, just
        before the simulation starts (the command line states a long run's
        cost there, after any error message it might have had to print).

    Returns
    -------
    MaxAUCSummary
        Mean, sd and interval of the maximum AUC, with ``n_resamples``, the Monte
        Carlo standard error of the mean and the test set's ``n_pos, n_neg``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    Examples
    --------
    The paper's Figure 10c setting, 1,000 classifiers with AUC 0.9:

    >>> s = expected_max_auc(0.9, 3000, 0.017, m=1000, n_resamples=200, rng=1)
    >>> abs(s.mean - 0.9562) < 4 * s.se_mean
    True
    """
    a = np.asarray(auc, dtype=float)
    if a.ndim == 0:
        if m is None:
            raise ValueError("m must be given (an integer >= 1) when auc is a single number")
        m = check_int("m", m, low=1)
        check_probability("auc", float(a), open_low=True, open_high=True)
        a = np.full(m, float(a))
    elif a.ndim != 1 or a.size < 1:
        raise ValueError(f"auc must be a number or a non-empty 1-d array, got shape {a.shape}")
    elif m is not None and check_int("m", m, low=1) != a.size:
        raise ValueError(f"m must equal len(auc) = {a.size}, got {m}")
    n = check_int("n", n, low=2)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    n_resamples = check_int("n_resamples", n_resamples, low=2)
    alpha = check_alpha("alpha", alpha)
    rho = _check_rho(rho)
    _check_auc_memory(a.size, n, n_pos, n_resamples, rho, name="n_resamples")
    return _simulated_max_auc(
        a, n, prevalence, rho, n_resamples=n_resamples, rng=rng, alpha=alpha, show=show, on_start=on_start
    )


def _simulated_max_auc(
    a: np.ndarray, n: int, prevalence: float, rho: float, *, n_resamples: int, rng, alpha: float, show, on_start
) -> MaxAUCSummary:
    """The simulation of :func:`expected_max_auc` on checked arguments (``a`` the array of AUCs)."""
    n_pos, n_neg = n_positives(n, prevalence)
    seed = seed_record(rng)
    gen = as_generator(rng)
    mus, sp = _standardized(a, 1.0, 1.0)
    if on_start is not None:
        on_start()
    maxima = _simulate_max_u(mus, sp, n, prevalence, n_resamples, gen, rho, "fixed", show=show)
    s = Summary.from_samples(maxima, alpha)
    assert s.n_resamples is not None and s.se_mean is not None  # from_samples sets them
    return MaxAUCSummary(
        s.mean,
        s.sd,
        s.ci_low,
        s.ci_high,
        engine="simulate",
        n_resamples=s.n_resamples,
        se_mean=s.se_mean,
        n_pos=n_pos,
        n_neg=n_neg,
        m=int(a.size),
        n=n,
        prevalence=prevalence,
        rho=rho,
        alpha=alpha,
        seed=seed,
    )


@keyword_only_since("rng")
def simulate_auc_leaderboard(
    aucs: ArrayLike, n: int, prevalence: float, *, rng: int | np.random.Generator | None = None
) -> np.ndarray:
    """One simulated leaderboard: an empirical AUC for each classifier with true AUC ``aucs[j]``.

    Independent binormal classifiers (Eq. 10, equal variances) on one test set
    of ``n`` items with ``round(n pi)`` positives, each AUC drawn exactly in
    distribution by the multinomial method.

    Parameters
    ----------
    aucs : array_like of float
        True AUCs, each in ``(0, 1)``.
    n : int
        Test-set size (at least one positive and one negative).
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    rng : int, numpy.random.Generator or None
        An int seed, a Generator or None (fresh entropy).

    Returns
    -------
    ndarray
        The empirical AUCs, one per classifier.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2.3 (simulated AUC leaderboards).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_auc_leaderboard
    >>> x = simulate_auc_leaderboard([0.7, 0.8, 0.9], 3000, 0.017, rng=1)
    >>> x.shape, bool(((x > 0) & (x < 1)).all())
    ((3,), True)
    """
    a = np.asarray(aucs, dtype=float)
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"aucs must be a non-empty 1-d array, got shape {a.shape}")
    mus, sp = _standardized(a, 1.0, 1.0)
    n_pos, n_neg = n_positives(n, prevalence)
    rng = as_generator(rng)
    z = rng.standard_normal((a.size, n_pos))
    uu = rng.random((a.size, n_pos))
    return _u_batch(z, uu, mus, sp, n_neg, _logfact(n_neg)) / (n_pos * n_neg)
