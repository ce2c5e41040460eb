r"""The binormal model of the ROC AUC and the empirical AUC (Section 5.2, Eq. 10).

The binormal model (Eq. 10).  A classifier's scores are ``S+ ~ N(mu+, sigma+^2)``
for the positive class and ``S- ~ N(mu-, sigma-^2)`` for the negative class, so

.. math:: AUC = P(S_- < S_+) = \Phi\left(\frac{\mu_+ - \mu_-}{\sqrt{\sigma_+^2 + \sigma_-^2}}\right)  \qquad (10)

and ``mu+`` for a target AUC has the closed form
``mu+ = mu- + sqrt(sigma+^2 + sigma-^2) * Phi^{-1}(AUC)`` (the paper solves
for it numerically; no root finder is needed).

The empirical AUC of one classifier on a test set with ``n_pos`` positives
and ``n_neg`` negatives is the Mann-Whitney statistic ``U / (n_pos n_neg)``,
``U`` the number of (positive, negative) pairs ranked correctly, ties counted
one half.

Also the variance of the empirical AUC (exact binormal, Hanley-McNeil,
DeLong), the ROC curves of the figures and full score samples.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtr, ndtri, owens_t

from .._deprecate import keyword_only_since
from .._numba import njit
from .._rng import as_generator
from .._validate import check_int, check_probability, check_real

__all__ = [
    "binormal_auc",
    "binormal_mu_pos",
    "empirical_auc",
    "auc_variance",
    "hanley_mcneil_variance",
    "delong_variance",
    "simulate_scores",
    "roc_curve_points",
    "binormal_roc",
]


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
    r"""Exact variance of the empirical AUC under the binormal model.

    The U-statistic variance (Hanley and McNeil 1982, Eq. 2),

    .. math:: Var = \frac{A(1-A) + (n_+ - 1)(Q_1 - A^2) + (n_- - 1)(Q_2 - A^2)}{n_+ n_-},

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


def _standardized(aucs, sigma_pos, sigma_neg) -> tuple[np.ndarray, float]:
    """Positive means and sd in units where the negatives are ``N(0, 1)``."""
    sp, sn = _check_sigmas(sigma_pos, sigma_neg)
    mus = np.atleast_1d(binormal_mu_pos(aucs, 0.0, sp, sn)) / sn
    return np.asarray(mus, dtype=float), sp / sn


@keyword_only_since("rng")
def simulate_scores(
    auc: float,
    n_pos: int,
    n_neg: int,
    m: int,
    *,
    rng: int | np.random.Generator | None = None,
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
