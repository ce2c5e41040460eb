"""The sample maximum of ROC AUC under class imbalance (Section 5.2).

The binormal model (Eq. 10).  A classifier's scores are ``S+ ~ N(mu+, sigma+^2)``
for the positive class and ``S- ~ N(mu-, sigma-^2)`` for the negative class, so

.. math:: AUC = P(S_- < S_+) = \\Phi\\left(\\frac{\\mu_+ - \\mu_-}{\\sqrt{\\sigma_+^2 + \\sigma_-^2}}\\right)  \\qquad (10)

and ``mu+`` for a target AUC has the closed form
``mu+ = mu- + sqrt(sigma+^2 + sigma-^2) * Phi^{-1}(AUC)`` (the paper solves
for it numerically; no root finder is needed).

The empirical AUC of one classifier on a test set with ``n_pos`` positives
and ``n_neg`` negatives is the Mann-Whitney statistic ``U / (n_pos n_neg)``,
``U`` the number of (positive, negative) pairs ranked correctly, ties counted
one half.

Sampling it without drawing ``n`` scores.  Sort the ``n_pos`` positive scores
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

Conditional Monte Carlo for one classifier's distribution.  Given the
``n_neg`` negative scores, the positives are iid and each contributes the
number of negatives below it, whose pmf on ``{0, ..., n_neg}`` is known
exactly (the ``N(mu+, sigma+^2)`` mass between consecutive negative order
statistics).  ``U`` is the sum of ``n_pos`` iid copies, whose pmf is the
``n_pos``-fold convolution (one FFT).  Averaging these conditional pmfs over
simulated negative samples estimates the whole distribution of the empirical
AUC, tails included, with only the (small) variability due to the negatives
left to Monte Carlo.  For ``m`` independent identical classifiers the cdf of
the maximum is ``F^m``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from numpy.typing import ArrayLike
from scipy import fft as sfft
from scipy.special import ndtr, ndtri, owens_t

from .._deprecate import renamed_arguments
from .._numba import njit
from .._progress import progress
from .._result import Result
from .._rng import as_generator, seed_record
from .._validate import check_alpha, check_choice, check_int, check_memory, check_probability, check_real
from ._maxdist import TAIL, MaxDistribution
from ._summary import Summary

__all__ = [
    "binormal_auc",
    "binormal_mu_pos",
    "n_positives",
    "empirical_auc",
    "auc_variance",
    "hanley_mcneil_variance",
    "delong_variance",
    "simulate_auc",
    "simulate_max_auc",
    "expected_max_auc",
    "MaxAUCSummary",
    "SKIP_TOL",
    "AUCDistribution",
    "auc_distribution",
    "simulate_scores",
    "roc_curve_points",
    "binormal_roc",
    "simulate_auc_leaderboard",
]


# --------------------------------------------------------------------------
# The binormal model (Eq. 10)
# --------------------------------------------------------------------------


def _check_sigmas(sigma_pos, sigma_neg) -> tuple[float, float]:
    return (
        check_real("sigma_pos", sigma_pos, low=0.0, low_open=True),
        check_real("sigma_neg", sigma_neg, low=0.0, low_open=True),
    )


def binormal_auc(mu_pos: float, mu_neg: float = 0.0, sigma_pos: float = 1.0, sigma_neg: float = 1.0) -> float:
    """AUC of the binormal model, ``Phi((mu+ - mu-) / sqrt(sigma+^2 + sigma-^2))`` (Eq. 10).

    Parameters
    ----------
    mu_pos, mu_neg : float
        Means of the positives' and the negatives' scores.
    sigma_pos, sigma_neg : float
        Their standard deviations, each ``> 0``.

    Returns
    -------
    float
        ``P(S_- < S_+)``, the true AUC.

    Raises
    ------
    ValueError
        If a mean is not finite or a standard deviation not positive.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import binormal_auc
    >>> round(binormal_auc(1.8122), 4)
    0.9
    """
    mu_pos = check_real("mu_pos", mu_pos)
    mu_neg = check_real("mu_neg", mu_neg)
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    return float(ndtr((mu_pos - mu_neg) / math.hypot(sp, sn)))


def binormal_mu_pos(
    auc: ArrayLike, mu_neg: float = 0.0, sigma_pos: float = 1.0, sigma_neg: float = 1.0
) -> float | np.ndarray:
    """Mean ``mu+`` of the positive scores that gives the target AUC (Eq. 10 solved).

    ``mu+ = mu- + sqrt(sigma+^2 + sigma-^2) Phi^{-1}(AUC)`` in closed form
    (the paper solves for it numerically); vectorised over ``auc``.

    Parameters
    ----------
    auc : float or array_like of float
        Target AUC, each in ``(0, 1)``.
    mu_neg, sigma_pos, sigma_neg : float
        The other parameters of Eq. 10 (defaults as in the paper: 0, 1, 1).

    Returns
    -------
    float or ndarray
        ``mu+``, of the shape of ``auc``.

    Raises
    ------
    ValueError
        If an AUC is outside ``(0, 1)`` or a standard deviation not positive.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import binormal_mu_pos
    >>> round(binormal_mu_pos(0.9), 6)
    1.812388
    """
    a = np.asarray(auc, dtype=float)
    if a.ndim == 0:
        check_probability("auc", float(a), open_low=True, open_high=True)
    elif not np.all((a > 0) & (a < 1)):
        bad = a[~((a > 0) & (a < 1))][0]
        raise ValueError(f"auc must be in (0, 1), got {bad:g}")
    mu_neg = check_real("mu_neg", mu_neg)
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    out = mu_neg + math.hypot(sp, sn) * ndtri(a)
    return float(out) if out.ndim == 0 else out


def n_positives(n: int, prevalence: float) -> tuple[int, int]:
    """Numbers of positives ``round(n pi)`` and negatives of a test set; both must be >= 1.

    >>> n_positives(3000, 0.017)
    (51, 2949)
    """
    n = check_int("n", n, low=2)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    n_pos = int(round(n * prevalence))
    if n_pos < 1 or n_pos > n - 1:
        raise ValueError(
            f"prevalence * n must round to at least one positive and one negative item, "
            f"got round({n} * {prevalence:g}) = {n_pos} positives of {n}"
        )
    return n_pos, n - n_pos


# --------------------------------------------------------------------------
# The empirical AUC (Mann-Whitney) and its variance
# --------------------------------------------------------------------------


@njit(cache=True)
def _mann_whitney_u2(scores, labels):
    """Twice the Mann-Whitney U (an integer): pairs ranked right count 2, ties 1."""
    order = np.argsort(scores, kind="mergesort")
    n = scores.size
    u2 = 0
    neg_below = 0
    i = 0
    while i < n:
        j = i
        v = scores[order[i]]
        p_g = 0
        n_g = 0
        while j < n and scores[order[j]] == v:
            if labels[order[j]]:
                p_g += 1
            else:
                n_g += 1
            j += 1
        u2 += p_g * (2 * neg_below + n_g)
        neg_below += n_g
        i = j
    return u2


def _scores_labels(scores, labels) -> tuple[np.ndarray, np.ndarray, int, int]:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels)
    if s.ndim != 1 or y.shape != s.shape:
        raise ValueError(f"scores and labels must be 1-d arrays of equal length, got shapes {s.shape} and {y.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite numbers")
    if y.dtype != bool:
        vals = np.unique(y)
        if not np.all(np.isin(vals, [0, 1])):
            raise ValueError(f"labels must be 0/1 or boolean, got values {vals[:5]}")
        y = y.astype(bool)
    n_pos = int(y.sum())
    n_neg = int(y.size - n_pos)
    if n_pos < 1 or n_neg < 1:
        raise ValueError(f"labels must contain at least one positive and one negative, got {n_pos} and {n_neg}")
    return s, y, n_pos, n_neg


def empirical_auc(scores: ArrayLike, labels: ArrayLike) -> float:
    """Empirical AUC: the Mann-Whitney statistic ``U / (n_pos n_neg)``, ties counted one half.

    Computed from one stable sort with integer pair counts, so the only
    rounding is the final division.  Agrees with
    ``sklearn.metrics.roc_auc_score`` (which integrates the ROC curve with
    the trapezoidal rule, the same number) to ``1e-12``.

    Parameters
    ----------
    scores : array_like of float
        Scores, higher meaning "more positive"; finite.
    labels : array_like of {0, 1} or bool
        True class, of the length of ``scores``; at least one of each.

    Returns
    -------
    float
        The share of (positive, negative) pairs ranked correctly.

    Raises
    ------
    ValueError
        If the arrays differ in shape, a score is not finite, a label is
        not 0/1, or a class is missing.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2; Hanley & McNeil (1982),
    *Radiology* 143: 29-36.

    Examples
    --------
    >>> from sotalib.multiplicity import empirical_auc
    >>> empirical_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    0.75
    """
    s, y, n_pos, n_neg = _scores_labels(scores, labels)
    return _mann_whitney_u2(s, y) / (2.0 * n_pos * n_neg)


def _bvn_orthant(r: float, h: float) -> float:
    """``P(Z1 < h, Z2 < h)`` for a standard bivariate normal with correlation ``r`` in ``(-1, 1)``.

    Exact via Owen's T function: ``Phi(h) - 2 T(h, sqrt((1 - r) / (1 + r)))``.
    """
    return float(ndtr(h) - 2.0 * owens_t(h, math.sqrt((1.0 - r) / (1.0 + r))))


def auc_variance(auc: float, n_pos: int, n_neg: int, sigma_pos: float = 1.0, sigma_neg: float = 1.0) -> float:
    """Exact variance of the empirical AUC under the binormal model.

    The U-statistic variance (Hanley and McNeil 1982, Eq. 2),

    .. math:: Var = \\frac{A(1-A) + (n_+ - 1)(Q_1 - A^2) + (n_- - 1)(Q_2 - A^2)}{n_+ n_-},

    with the exact binormal ``Q1 = P(S_- < S_+, S_- < S_+')`` (two positives
    beat one negative) and ``Q2 = P(S_- < S_+, S_-' < S_+)``: orthant
    probabilities of a bivariate normal with correlations
    ``sigma-^2 / (sigma+^2 + sigma-^2)`` and ``sigma+^2 / (sigma+^2 + sigma-^2)``.

    Parameters
    ----------
    auc : float
        True AUC, in ``(0, 1)``.
    n_pos, n_neg : int
        Numbers of positives and negatives, each ``>= 1``.
    sigma_pos, sigma_neg : float
        Standard deviations of the two classes' scores, each ``> 0``.

    Returns
    -------
    float
        ``Var(AUC_hat)``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Hanley & McNeil (1982), *Radiology* 143: 29-36, Eq. 2.  Møllersen &
    Holsbø, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import auc_variance
    >>> round(auc_variance(0.9, 51, 2949) ** 0.5, 4)
    0.0211
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    n_pos = check_int("n_pos", n_pos, low=1)
    n_neg = check_int("n_neg", n_neg, low=1)
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    h = float(ndtri(auc))
    tot = sp**2 + sn**2
    q1 = _bvn_orthant(sn**2 / tot, h)
    q2 = _bvn_orthant(sp**2 / tot, h)
    a = auc
    return (a * (1 - a) + (n_pos - 1) * (q1 - a * a) + (n_neg - 1) * (q2 - a * a)) / (n_pos * n_neg)


def hanley_mcneil_variance(auc: float, n_pos: int, n_neg: int) -> float:
    """Hanley-McNeil (1982) variance of the empirical AUC.

    Eq. 2 of Hanley and McNeil with their exponential-model approximations
    ``Q1 = A / (2 - A)`` and ``Q2 = 2 A^2 / (1 + A)``.

    Parameters
    ----------
    auc : float
        The AUC, in ``[0, 1]``.
    n_pos, n_neg : int
        Numbers of positives and negatives, each ``>= 1``.

    Returns
    -------
    float
        The approximate ``Var(AUC_hat)``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Hanley & McNeil (1982), *Radiology* 143: 29-36, Eqs. 2-3.

    Examples
    --------
    >>> from sotalib.multiplicity import hanley_mcneil_variance
    >>> round(hanley_mcneil_variance(0.9, 51, 2949) ** 0.5, 4)
    0.029
    """
    a = check_probability("auc", auc)
    n_pos = check_int("n_pos", n_pos, low=1)
    n_neg = check_int("n_neg", n_neg, low=1)
    q1 = a / (2 - a)
    q2 = 2 * a * a / (1 + a)
    return (a * (1 - a) + (n_pos - 1) * (q1 - a * a) + (n_neg - 1) * (q2 - a * a)) / (n_pos * n_neg)


def delong_variance(scores: ArrayLike, labels: ArrayLike) -> float:
    """DeLong, DeLong and Clarke-Pearson (1988) estimate of the AUC's variance from one sample.

    ``S10 / n_pos + S01 / n_neg`` with the sample variances of the structural
    components ``V10(x_i) = (#neg below x_i + #ties / 2) / n_neg`` and
    ``V01(y_k) = (#pos above y_k + #ties / 2) / n_pos``.

    Parameters
    ----------
    scores : array_like of float
        Scores, higher meaning "more positive"; finite.
    labels : array_like of {0, 1} or bool
        True class; at least one of each.

    Returns
    -------
    float
        The estimated variance of :func:`empirical_auc`.

    Raises
    ------
    ValueError
        As :func:`empirical_auc`.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), *Biometrics* 44: 837-845.

    Examples
    --------
    >>> from sotalib.multiplicity import delong_variance
    >>> round(delong_variance([0.1, 0.4, 0.35, 0.8, 0.2], [0, 0, 1, 1, 0]), 4)
    0.0556
    """
    s, y, n_pos, n_neg = _scores_labels(scores, labels)
    pos = np.sort(s[y])
    neg = np.sort(s[~y])
    v10 = (np.searchsorted(neg, pos, "left") + np.searchsorted(neg, pos, "right")) / (2.0 * n_neg)
    v01 = (2 * n_pos - np.searchsorted(pos, neg, "left") - np.searchsorted(pos, neg, "right")) / (2.0 * n_pos)
    s10 = np.var(v10, ddof=1) if n_pos > 1 else 0.0
    s01 = np.var(v01, ddof=1) if n_neg > 1 else 0.0
    return float(s10 / n_pos + s01 / n_neg)


# --------------------------------------------------------------------------
# Simulation kernels
# --------------------------------------------------------------------------


@njit(cache=True)
def _binom_inv(u, n, p, logfact):
    """Smallest ``k`` with ``P(Bin(n, p) <= k) >= u``: the binomial quantile function.

    Inversion of the cdf, so the draw is exactly ``Bin(n, p)`` for uniform
    ``u`` and it is non-decreasing in both ``u`` and ``p`` (common random
    numbers give monotone couplings).  The cdf is accumulated from 10
    standard deviations below the mean (the mass below is under ``1e-20``),
    costing ``O(sd)`` steps; ``p > 1/2`` uses the mirror image.  ``logfact[k]``
    is ``log k!`` for ``k = 0, ..., n``.
    """
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - _binom_inv(1.0 - u, n, 1.0 - p, logfact)
    mean = n * p
    sd = math.sqrt(mean * (1.0 - p))
    k = int(mean - 10.0 * sd - 1.0)
    lq = math.log1p(-p)
    if k <= 0:
        k = 0
        pmf = math.exp(n * lq)
    else:
        pmf = math.exp(logfact[n] - logfact[k] - logfact[n - k] + k * math.log(p) + (n - k) * lq)
    cdf = pmf
    r = p / (1.0 - p)
    while cdf < u and k < n:
        pmf *= (n - k) / (k + 1.0) * r
        k += 1
        cdf += pmf
        if pmf < 1e-300 and k > mean:  # rounding: u above the accumulated total
            break
    return k


@njit(cache=True)
def _phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@njit(cache=True)
def _sorted_q(z, mu, sigma_pos, buf, qs):
    """Sort the positives' noise ``z`` into ``buf``; ``qs[i] = Phi(mu + sigma_pos buf[i])``.

    ``qs[i]`` is the probability that a negative ``N(0, 1)`` falls below the
    ``i``-th lowest positive.  Insertion sort: ``n_pos`` is small, and it
    needs no allocation.
    """
    n_pos = z.size
    if n_pos > 64:
        buf[:] = np.sort(z)
    else:
        for i in range(n_pos):
            v = z[i]
            j = i - 1
            while j >= 0 and buf[j] > v:
                buf[j + 1] = buf[j]
                j -= 1
            buf[j + 1] = v
    for i in range(n_pos):
        qs[i] = _phi(mu + sigma_pos * buf[i])


@njit(cache=True)
def _u_from_q(qs, uu, n_neg, logfact):
    """Mann-Whitney ``U`` given the sorted ``qs`` (exact in distribution).

    The negatives fall into the intervals between consecutive positives by a
    multinomial, drawn as conditional binomials by inversion from the
    uniforms ``uu``.  Interval ``i`` lies below positive ``i`` and above
    positive ``i - 1``; its ``M_i`` negatives are beaten by the ``n_pos - i``
    positives ``i, ..., n_pos - 1`` (the interval above all positives counts 0).
    """
    n_pos = qs.size
    u = 0
    rem = n_neg
    q_prev = 0.0
    for i in range(n_pos):
        if rem == 0:
            break
        q = qs[i]
        mass_left = 1.0 - q_prev
        pc = (q - q_prev) / mass_left if mass_left > 0.0 else 1.0
        if pc < 0.0:
            pc = 0.0
        mi = _binom_inv(uu[i], rem, pc, logfact)
        rem -= mi
        u += mi * (n_pos - i)
        q_prev = q
    return u


@njit(cache=True)
def _u_from_draws(z, uu, mu, sigma_pos, n_neg, logfact, buf, qs):
    """``U`` of one classifier from ``n_pos`` standard normals ``z`` and ``n_pos`` uniforms ``uu``.

    Positives score ``mu + sigma_pos z``, negatives ``N(0, 1)``; ``buf`` and
    ``qs`` are scratch arrays of length ``n_pos``.
    """
    _sorted_q(z, mu, sigma_pos, buf, qs)
    return _u_from_q(qs, uu, n_neg, logfact)


@njit(parallel=True, cache=True)
def _u_batch(z, uu, mus, sigma_pos, n_neg, logfact):
    """``U`` for a batch of classifiers: ``z``, ``uu`` (k, n_pos); ``mus`` (k,)."""
    k, n_pos = z.shape
    out = np.empty(k, dtype=np.int64)
    for r in nb.prange(k):
        buf = np.empty(n_pos)
        qs = np.empty(n_pos)
        out[r] = _u_from_draws(z[r], uu[r], mus[r], sigma_pos, n_neg, logfact, buf, qs)
    return out


@njit(cache=True)
def _bernstein_margin(n_neg, var, log_inv_tol):
    """``t`` with ``exp(-n t^2 / (2 (var + t / 3))) = tol``: Bernstein's bound for a mean of ``n`` [0, 1] terms."""
    a = 2.0 * log_inv_tol / 3.0
    return (a + math.sqrt(a * a + 8.0 * n_neg * log_inv_tol * var)) / (2.0 * n_neg)


@njit(cache=True)
def _conditional_var(qs):
    """Variance of ``K / n_pos`` for one negative, given the positives (sorted ``qs``).

    ``K``, the number of positives above a negative, is ``n_pos - i`` with
    probability ``q_i - q_{i-1}`` (and 0 above all positives).
    """
    n_pos = qs.size
    m1 = 0.0
    m2 = 0.0
    q_prev = 0.0
    for i in range(n_pos):
        w = (n_pos - i) / n_pos
        d = qs[i] - q_prev
        m1 += d * w
        m2 += d * w * w
        q_prev = qs[i]
    return max(m2 - m1 * m1, 0.0)


@njit(parallel=True, cache=True)
def _max_u_batch(z, uu, mus, sigma_pos, n_neg, logfact, log_inv_tol):
    """Per replication, the maximum ``U`` over classifiers: ``z``, ``uu`` (reps, m, n_pos).

    Given its positives, a classifier's AUC is the mean of ``n_neg`` iid
    terms in ``[0, 1]`` (the share of positives above each negative) with
    known mean and variance.  Classifiers are visited in decreasing order of
    that conditional mean; one is skipped when Bernstein's inequality bounds
    its chance of beating the best ``U`` so far by ``exp(-log_inv_tol)``
    (first with the variance bound ``mean (1 - mean)``, then with the exact
    conditional variance), and otherwise its negatives are drawn.  The
    maximum is exact in distribution up to ``m exp(-log_inv_tol)`` per
    replication, and equal to the unscreened maximum unless that rare event
    happens.
    """
    reps, m, n_pos = z.shape
    out = np.empty(reps, dtype=np.int64)
    denom = n_pos * n_neg
    for r in nb.prange(reps):
        cmean = np.empty(m)
        buf = np.empty(n_pos)
        qs = np.empty(n_pos)
        for j in range(m):
            acc = 0.0
            for i in range(n_pos):
                acc += _phi(mus[j] + sigma_pos * z[r, j, i])
            cmean[j] = acc / n_pos
        order = np.argsort(-cmean)
        best = -1
        for jj in range(m):
            j = order[jj]
            if best >= 0:
                t = _bernstein_margin(n_neg, cmean[j] * (1.0 - cmean[j]), log_inv_tol)
                if (cmean[j] + t) * denom < best:
                    continue
            _sorted_q(z[r, j], mus[j], sigma_pos, buf, qs)
            if best >= 0:
                t = _bernstein_margin(n_neg, _conditional_var(qs), log_inv_tol)
                if (cmean[j] + t) * denom < best:
                    continue
            uj = _u_from_q(qs, uu[r, j], n_neg, logfact)
            if uj > best:
                best = uj
        out[r] = best
    return out


def _logfact(n: int) -> np.ndarray:
    from scipy.special import gammaln

    return gammaln(np.arange(n + 1, dtype=float) + 1.0)


@njit(parallel=True, cache=True)
def _max_u_correlated(z0, w0, e_pos, e_neg, mus, sigma_pos, rho):
    """Maximum ``U`` over classifiers correlated with a hidden reference (one replication).

    ``z0`` (n_pos,), ``w0`` (n_neg,): the reference classifier's standardized
    scores; ``e_pos`` (m, n_pos), ``e_neg`` (m, n_neg): each classifier's own
    noise.  Classifier ``j`` scores positive ``i`` as
    ``mus[j] + sigma_pos (rho z0_i + sqrt(1 - rho^2) e_ji)`` and negative ``k``
    as ``rho w0_k + sqrt(1 - rho^2) e_jk``.  ``U`` counts, for every negative,
    the positives above it (binary search in the sorted positives).
    """
    m, n_pos = e_pos.shape
    n_neg = e_neg.shape[1]
    c = math.sqrt(max(1.0 - rho * rho, 0.0))
    us = np.empty(m, dtype=np.int64)
    for j in nb.prange(m):
        pos = np.empty(n_pos)
        for i in range(n_pos):
            pos[i] = mus[j] + sigma_pos * (rho * z0[i] + c * e_pos[j, i])
        pos.sort()
        u = 0
        for k in range(n_neg):
            w = rho * w0[k] + c * e_neg[j, k]
            # number of positives <= w
            lo = 0
            hi = n_pos
            while lo < hi:
                mid = (lo + hi) // 2
                if pos[mid] <= w:
                    lo = mid + 1
                else:
                    hi = mid
            u += n_pos - lo
        us[j] = u
    return us.max()


# --------------------------------------------------------------------------
# Public simulation API
# --------------------------------------------------------------------------

#: Probability, per classifier and replication, that the maximum's simulation
#: may ignore (Bernstein screening in ``_max_u_batch``); far below any digit.
SKIP_TOL = 1e-20

_CHUNK = 2**22  # doubles per drawn array in one chunk


def _standardized(aucs, sigma_pos, sigma_neg) -> tuple[np.ndarray, float]:
    """Positive means and sd in units where the negatives are ``N(0, 1)``."""
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    mus = np.atleast_1d(binormal_mu_pos(aucs, 0.0, sp, sn)) / sn
    return np.asarray(mus, dtype=float), sp / sn


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


@renamed_arguments(reps="n_resamples")
def simulate_auc(
    auc: float,
    n: int,
    prevalence: float,
    n_resamples: int,
    rng: int | np.random.Generator | None = None,
    *,
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
    >>> x = simulate_auc(0.9, 3000, 0.017, 2000, rng=1)
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


def _simulate_max_u(mus, sp, n, prevalence, reps, rng, rho, positives, show=None) -> np.ndarray:
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
        for k in uniq:
            k = int(k)
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
            for r in idx:
                best = -1
                for j0 in range(0, m, per_m):
                    j1 = min(m, j0 + per_m)
                    z = rng.standard_normal((1, j1 - j0, k))
                    uu = rng.random((1, j1 - j0, k))
                    best = max(best, int(_max_u_batch(z, uu, mus[j0:j1], sp, n_neg, lf, log_inv_tol)[0]))
                out[r] = best / (k * n_neg)
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


@renamed_arguments(reps="n_resamples")
def simulate_max_auc(
    auc: float,
    n: int,
    m: int,
    prevalence: float,
    n_resamples: int,
    rng: int | np.random.Generator | None = None,
    *,
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
    >>> x = simulate_max_auc(0.9, 3000, 1000, 0.017, 200, rng=1)
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
class MaxAUCSummary(Result):
    """The distribution of the best empirical AUC of ``m`` classifiers (simulated).

    Returned by :func:`expected_max_auc`.

    Attributes
    ----------
    mean, sd : float
        Expected value and standard deviation of the maximum empirical AUC.
    ci_low, ci_high : float
        Its ``alpha/2`` and ``1 - alpha/2`` quantiles (the book's convention:
        smallest value whose empirical cdf reaches the level).
    reps : int
        Simulated challenges.
    se_mean : float
        Monte Carlo standard error of ``mean``, ``sd / sqrt(reps)``.
    n_pos, n_neg : int
        Positives (``round(n pi)``) and negatives of the test set.
    m, n : int
        Number of classifiers and test-set size.
    prevalence, rho, alpha : float
        The model's prevalence and correlation, and the interval's level ``1 - alpha``.
    seed : int or None
        The int seed given as ``rng`` (None for a Generator or fresh entropy).
    method : str
        Always ``"mc"``.
    """

    mean: float
    sd: float
    ci_low: float
    ci_high: float
    reps: int
    se_mean: float
    n_pos: int
    n_neg: int
    m: int
    n: int
    prevalence: float
    rho: float
    alpha: float
    seed: int | None
    method: str = "mc"

    def to_dict(self) -> dict:
        """The keys of ``sotalib auc-max --json`` (JSON-safe: finite numbers, ints or None)."""
        return {
            "mean": self.mean,
            "sd": self.sd,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "reps": self.reps,
            "se_mean": self.se_mean,
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "seed": self.seed,
        }

    def summary(self) -> Summary:
        """The same numbers as a :class:`~sotalib.multiplicity.Summary` (``method="mc"``)."""
        return Summary(
            self.mean,
            self.sd,
            self.ci_low,
            self.ci_high,
            method="mc",
            reps=self.reps,
            se_mean=self.se_mean,
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
    reps: int = 1000,
    rng=0,
    alpha: float = 0.05,
    show: bool | None = None,
    on_start=None,
) -> MaxAUCSummary:
    """Distribution of the best empirical AUC of ``m`` classifiers (the ``sotalib auc-max`` command).

    Classifier ``j`` has binormal scores with equal variances (Eq. 10,
    ``sigma+ = sigma- = 1``) and true AUC ``A_j``; all are scored on one test
    set of ``n`` items with ``round(n pi)`` positives (Section 5.2); the
    maximum empirical AUC is simulated ``reps`` times, each AUC drawn exactly
    in distribution (module docstring).  This is also the inner step of the
    AUC shrinkage estimator (Section 5.2.3).

    Common random numbers: with an int ``rng`` the random draws depend only
    on ``rng``, ``reps``, ``n``, ``prevalence`` and ``m``, never on the
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
    reps : int
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
        Mean, sd and interval of the maximum AUC, with ``reps``, the Monte
        Carlo standard error of the mean and the test set's ``n_pos, n_neg``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    Examples
    --------
    The paper's Figure 10c setting, 1,000 classifiers with AUC 0.9:

    >>> s = expected_max_auc(0.9, 3000, 0.017, m=1000, reps=200, rng=1)
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
    reps = check_int("reps", reps, low=2)
    alpha = check_alpha("alpha", alpha)
    rho = _check_rho(rho)
    _check_auc_memory(a.size, n, n_pos, reps, rho)
    return _simulated_max_auc(a, n, prevalence, rho, reps, rng, alpha, show, on_start)


def _simulated_max_auc(
    a: np.ndarray, n: int, prevalence: float, rho: float, reps: int, rng, alpha: float, show, on_start
) -> MaxAUCSummary:
    """The simulation of :func:`expected_max_auc` on checked arguments (``a`` the array of AUCs)."""
    n_pos, n_neg = n_positives(n, prevalence)
    seed = seed_record(rng)
    gen = as_generator(rng)
    mus, sp = _standardized(a, 1.0, 1.0)
    if on_start is not None:
        on_start()
    maxima = _simulate_max_u(mus, sp, n, prevalence, reps, gen, rho, "fixed", show)
    s = Summary.from_samples(maxima, alpha)
    return MaxAUCSummary(
        mean=s.mean,
        sd=s.sd,
        ci_low=s.ci_low,
        ci_high=s.ci_high,
        reps=s.reps,
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


# --------------------------------------------------------------------------
# The whole distribution of one classifier's AUC by conditional Monte Carlo
# --------------------------------------------------------------------------


def _count_pmfs(w_sorted: np.ndarray, mu: float, sp: float) -> np.ndarray:
    """Pmf of ``C`` = number of negatives below one positive, given the negatives.

    Row ``b`` of ``w_sorted`` holds sorted negative scores; ``P(C = k)`` is the
    ``N(mu, sp^2)`` mass between the ``k``-th and ``(k+1)``-th of them.  Cdf
    differences below the positives' median, survival-function differences
    above it, so both tails keep their relative accuracy.
    """
    t = (w_sorted - mu) / sp
    b = t.shape[0]
    inf = np.full((b, 1), np.inf)
    t = np.hstack([-inf, t, inf])
    lo, hi = t[:, :-1], t[:, 1:]
    below = ndtr(hi) - ndtr(lo)
    above = ndtr(-lo) - ndtr(-hi)
    return np.where(lo >= 0.0, above, below)


@dataclass(frozen=True, eq=False, repr=False)
class AUCDistribution(Result):
    """Distribution of one classifier's empirical AUC, ``U / (n_pos n_neg)``.

    Returned by :func:`auc_distribution`; :meth:`max_distribution` and
    :meth:`max_summary` give the best of ``m`` independent copies.

    Attributes
    ----------
    n_pos, n_neg : int
        Numbers of positives and negatives of the test set.
    pmf : ndarray
        ``P(U = u)`` for ``u = 0, ..., n_pos n_neg``.
    batch_pmfs : ndarray
        The same from each of ``batches`` independent parts of the
        simulation, shape ``(batches, n_pos n_neg + 1)``: their spread gives
        the Monte Carlo error of anything computed from ``pmf``.
    n_resamples : int
        Number of simulated negative samples averaged over.
    seed : int or None
        The int seed given as ``rng`` (None for a Generator or fresh entropy).
    auc, var_true : float
        The true AUC and the exact variance of the empirical AUC
        (:func:`auc_variance`): the expectations of the control variates.
    """

    n_pos: int
    n_neg: int
    pmf: np.ndarray
    batch_pmfs: np.ndarray
    n_resamples: int
    seed: int | None
    auc: float
    var_true: float

    @property
    def grid(self) -> np.ndarray:
        """The possible AUCs ``u / (n_pos n_neg)``."""
        return np.arange(self.pmf.size) / (self.n_pos * self.n_neg)

    def mean(self) -> float:
        """Expected empirical AUC."""
        return float(np.dot(self.grid, self.pmf))

    def var(self) -> float:
        """Variance of the empirical AUC."""
        g = self.grid
        mu = np.dot(g, self.pmf)
        return float(np.dot((g - mu) ** 2, self.pmf))

    def max_distribution(self, m: int, *, pmf: np.ndarray | None = None) -> MaxDistribution:
        """Distribution of the maximum of ``m`` independent copies: cdf ``F^m``.

        Returned as a :class:`~sotalib.multiplicity._maxdist.MaxDistribution` of counts
        ``U`` with ``n = n_pos n_neg`` (so ``theta_hat`` is the AUC), on the
        window that holds all but ``TAIL`` of the probability at each end.
        """
        m = check_int("m", m, low=1)
        f = self.pmf if pmf is None else pmf
        cdf = np.minimum(np.cumsum(f), 1.0)
        sf = np.maximum(np.cumsum(f[::-1])[::-1] - f, 0.0)  # P(U > u)
        with np.errstate(divide="ignore"):
            log_f = np.where(sf < 0.5, np.log1p(-sf), np.log(cdf))
        log_fm = m * log_f
        lo = int(np.argmax(log_fm > math.log(TAIL)))
        upper = -np.expm1(log_fm) <= TAIL
        hi = int(np.argmax(upper)) if upper.any() else f.size - 1
        return MaxDistribution.from_log_cdf(self.n_pos * self.n_neg, lo, log_fm[lo : hi + 1], method="mc")

    def _max_stats(self, m: int, alpha: float, pmf: np.ndarray, control: bool) -> np.ndarray:
        """(mean, sd, ci_low, ci_high) of the maximum from one pmf estimate, optionally controlled."""
        s = self.max_distribution(m, pmf=pmf).summary(alpha)
        out = np.array([s.mean, s.sd, s.ci_low, s.ci_high])
        if not control:
            return out
        g = self.grid
        mean_hat = float(np.dot(g, pmf))
        sd_hat = float(np.sqrt(np.dot((g - mean_hat) ** 2, pmf)))
        sd_true = math.sqrt(self.var_true)
        # the estimated F errs mostly by a shift and a stretch: remove both
        for i in (0, 2, 3):
            out[i] = self.auc + (out[i] - mean_hat) * sd_true / sd_hat
        out[1] *= sd_true / sd_hat
        return out

    def max_summary(self, m: int, alpha: float = 0.05, *, control: bool = True) -> Summary:
        """Mean, sd and ``1 - alpha`` interval of the maximum of ``m``, with Monte Carlo error.

        With ``control`` (default) the two control variates whose expectations
        are known exactly -- the mean ``AUC`` and the variance
        :func:`auc_variance` of one classifier's empirical AUC -- correct the
        estimate: every statistic ``x`` of the maximum becomes
        ``AUC + (x - mean_hat) sd / sd_hat`` (and the sd is rescaled), which
        removes the shift and stretch that dominate the error of the
        simulated ``F``.  ``reps`` is the number of simulated negative samples
        and ``se_mean`` the standard error of the mean from the spread over
        batches (see :meth:`max_summary_se`).
        """
        alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
        st = self._max_stats(m, alpha, self.pmf, control)
        se = self.max_summary_se(m, alpha, control=control)
        return Summary(
            float(st[0]),
            float(st[1]),
            float(st[2]),
            float(st[3]),
            method="mc",
            reps=self.n_resamples,
            se_mean=se["mean"],
            alpha=alpha,
        )

    def max_summary_se(self, m: int, alpha: float = 0.05, *, control: bool = True) -> dict:
        """Standard errors of the maximum's mean, sd and interval ends, from the spread over batches."""
        rows = np.array([self._max_stats(m, alpha, p, control) for p in self.batch_pmfs])
        se = rows.std(axis=0, ddof=1) / math.sqrt(rows.shape[0])
        return dict(zip(("mean", "sd", "ci_low", "ci_high"), map(float, se)))


@renamed_arguments(draws="n_resamples")
def auc_distribution(
    auc: float,
    n: int,
    prevalence: float,
    *,
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    batches: int = 10,
    sigma_pos: float = 1.0,
    sigma_neg: float = 1.0,
) -> AUCDistribution:
    """Whole distribution of one binormal classifier's empirical AUC, by conditional Monte Carlo.

    Given the ``n_neg`` negative scores, the positives are iid and each
    contributes ``C`` = the number of negatives below it, with the exact pmf
    of :func:`_count_pmfs`; ``U`` is the sum of ``n_pos`` iid copies, whose pmf
    is the ``n_pos``-fold convolution, computed with one FFT.  Averaging over
    ``draws`` simulated negative samples gives an unbiased estimate of
    ``P(U = u)`` for every ``u`` -- tails included, where plain simulation
    sees nothing -- with only the negatives' (small) share of the variance
    left to chance.

    Parameters
    ----------
    auc : float
        True AUC, in ``(0, 1)``.
    n : int
        Test-set size (``round(n pi)`` positives, at least one of each class).
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    n_resamples : int
        Number of simulated negative samples (a multiple of ``batches``).
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``),
        a Generator (drawn from directly) or None (fresh entropy).
    batches : int
        Independent batches kept for the Monte Carlo error (>= 2).
    sigma_pos, sigma_neg : float
        Score standard deviations (``mu- = 0``), each ``> 0``.

    Returns
    -------
    AUCDistribution
        ``P(U = u)`` for every ``u``, with the batches' estimates.

    Raises
    ------
    ValueError
        If an argument is out of range, or ``n_pos n_neg`` exceeds ``2**26``
        (the FFT grid; use :func:`simulate_max_auc` then).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import auc_distribution
    >>> d = auc_distribution(0.8, 200, 0.1, n_resamples=20, rng=1, batches=2)
    >>> round(d.mean(), 2), d.pmf.size
    (0.8, 3601)
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    batches = check_int("batches", batches, low=2)
    draws = check_int("n_resamples", n_resamples, low=batches)
    if draws % batches:
        raise ValueError(f"n_resamples must be a multiple of batches={batches}, got {draws}")
    if n_pos * n_neg > 2**26:
        raise ValueError(
            f"n_pos * n_neg must be at most 2**26 for the FFT grid of auc_distribution, got {n_pos} * {n_neg}; "
            "use simulate_max_auc"
        )
    mus, sp = _standardized(auc, sigma_pos, sigma_neg)
    mu = float(mus[0])
    size = n_pos * n_neg + 1
    nfft = sfft.next_fast_len(size, real=True)
    seed = seed_record(rng)
    rng = as_generator(rng)
    per_batch = draws // batches
    block = max(1, min(per_batch, 2**24 // nfft))
    batch_pmfs = np.zeros((batches, size))
    for b in range(batches):
        done = 0
        while done < per_batch:
            k = min(block, per_batch - done)
            w = np.sort(rng.standard_normal((k, n_neg)), axis=1)
            c = _count_pmfs(w, mu, sp)
            spec = sfft.rfft(c, nfft, axis=1) ** n_pos
            u = sfft.irfft(spec, nfft, axis=1)[:, :size]
            batch_pmfs[b] += np.clip(u, 0.0, None).sum(axis=0)
            done += k
        batch_pmfs[b] /= batch_pmfs[b].sum()
    sn = check_real("sigma_neg", sigma_neg, low=0.0, low_open=True)
    var_true = auc_variance(auc, n_pos, n_neg, sp * sn, sn)
    return AUCDistribution(n_pos, n_neg, batch_pmfs.mean(axis=0), batch_pmfs, draws, seed, auc, var_true)


# --------------------------------------------------------------------------
# ROC curves and full score samples (for the figures)
# --------------------------------------------------------------------------


def simulate_scores(
    auc: float,
    n_pos: int,
    n_neg: int,
    m: int,
    rng: int | np.random.Generator | None = None,
    *,
    sigma_pos: float = 1.0,
    sigma_neg: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of ``m`` independent binormal classifiers with true AUC ``auc`` (Eq. 10).

    Parameters
    ----------
    auc : float
        True AUC, in ``(0, 1)``.
    n_pos, n_neg : int
        Numbers of positives and negatives, each ``>= 1``.
    m : int
        Number of classifiers, ``>= 1``.
    rng : int, numpy.random.Generator or None
        An int seed, a Generator or None (fresh entropy).
    sigma_pos, sigma_neg : float
        Score standard deviations (``mu- = 0``), each ``> 0``.

    Returns
    -------
    pos, neg : ndarray
        Positives' scores (m, n_pos) and negatives' scores (m, n_neg).

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
    >>> from sotalib.multiplicity import simulate_scores
    >>> pos, neg = simulate_scores(0.9, 5, 20, 3, rng=1)
    >>> pos.shape, neg.shape
    ((3, 5), (3, 20))
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    n_pos = check_int("n_pos", n_pos, low=1)
    n_neg = check_int("n_neg", n_neg, low=1)
    m = check_int("m", m, low=1)
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    mu = binormal_mu_pos(auc, 0.0, sp, sn)
    rng = as_generator(rng)
    return mu + sp * rng.standard_normal((m, n_pos)), sn * rng.standard_normal((m, n_neg))


def roc_curve_points(pos: ArrayLike, neg: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Empirical ROC curve(s) of continuous scores as staircase corner points.

    Parameters
    ----------
    pos, neg : array_like, (n_pos,) / (n_neg,) or (m, n_pos) / (m, n_neg)
        Scores of the positives and negatives (no ties), one curve per row.

    Returns
    -------
    fpr, tpr : ndarray of shape (..., 2 n_pos + 2)
        Corners of the staircase from (0, 0) to (1, 1): the threshold passes
        the positives from the highest down; each positive lifts the TPR by
        ``1 / n_pos`` at the FPR of the negatives above it.  The area under it
        is :func:`empirical_auc`.

    Raises
    ------
    ValueError
        If the arrays have different numbers of rows (NumPy's error).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Figure 10a.

    Examples
    --------
    >>> from sotalib.multiplicity import roc_curve_points
    >>> fpr, tpr = roc_curve_points([0.9, 0.4], [0.1, 0.5])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0, 1.0])
    """
    one = np.ndim(pos) == 1
    pos = np.sort(np.atleast_2d(pos), axis=1)[:, ::-1]
    neg = np.sort(np.atleast_2d(neg), axis=1)
    n_pos, n_neg = pos.shape[1], neg.shape[1]
    above = n_neg - np.array([np.searchsorted(nr, pr) for nr, pr in zip(neg, pos)])
    fpr_at = above / n_neg
    tpr_lo = np.arange(n_pos) / n_pos
    tpr_hi = np.arange(1, n_pos + 1) / n_pos
    k = pos.shape[0]
    fpr = np.empty((k, 2 * n_pos + 2))
    tpr = np.empty_like(fpr)
    fpr[:, 0], tpr[:, 0] = 0.0, 0.0
    fpr[:, 1:-1:2], tpr[:, 1:-1:2] = fpr_at, tpr_lo
    fpr[:, 2:-1:2], tpr[:, 2:-1:2] = fpr_at, tpr_hi
    fpr[:, -1], tpr[:, -1] = 1.0, 1.0
    return (fpr[0], tpr[0]) if one else (fpr, tpr)


def binormal_roc(fpr: ArrayLike, auc: float, sigma_pos: float = 1.0, sigma_neg: float = 1.0) -> np.ndarray:
    """True ROC curve of the binormal model: ``TPR = Phi((mu+ - sigma- Phi^{-1}(1 - FPR)) / sigma+)``.

    Parameters
    ----------
    fpr : array_like of float
        False-positive rates, in ``[0, 1]``.
    auc : float
        True AUC, in ``(0, 1)`` (gives ``mu+`` by :func:`binormal_mu_pos`).
    sigma_pos, sigma_neg : float
        Score standard deviations (``mu- = 0``), each ``> 0``.

    Returns
    -------
    ndarray
        The true-positive rates at ``fpr``.

    Raises
    ------
    ValueError
        If ``auc`` or a standard deviation is out of range.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import binormal_roc
    >>> [round(float(t), 4) for t in binormal_roc([0.0, 0.1, 1.0], 0.9)]
    [0.0, 0.7022, 1.0]
    """
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    mu = binormal_mu_pos(auc, 0.0, sp, sn)
    f = np.asarray(fpr, dtype=float)
    with np.errstate(divide="ignore"):
        return ndtr((mu - sn * ndtri(1.0 - f)) / sp)


def simulate_auc_leaderboard(
    aucs: ArrayLike, n: int, prevalence: float, rng: int | np.random.Generator | None = None
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
