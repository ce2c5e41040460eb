"""Wilcoxon signed-rank tests of many pairs at once, and Holm's step-down correction.

The pairwise tests Demšar (2006) recommends for comparing two candidates over
many judges {demsar2006statistical}, with Holm's correction for testing every
pair {holm1979simple}; used by :func:`sotalib.judging.compare_candidates`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import ndtr

from .._result import Result
from .._validate import check_probability
from ._ranking_functions import _matrix

__all__ = ["Pairwise"]


def _run_lengths(sorted_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows sorted ascending: the first and last index of the run of equal values each entry belongs to."""
    n = sorted_rows.shape[1]
    idx = np.arange(n)
    first = np.ones(sorted_rows.shape, dtype=bool)
    first[:, 1:] = sorted_rows[:, 1:] != sorted_rows[:, :-1]
    last = np.ones(sorted_rows.shape, dtype=bool)
    last[:, :-1] = sorted_rows[:, :-1] != sorted_rows[:, 1:]
    start = np.maximum.accumulate(np.where(first, idx, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, idx, n - 1)[:, ::-1], axis=1)[:, ::-1]
    return start, end


@lru_cache(maxsize=128)
def _wilcoxon_cdf(n: int) -> np.ndarray:
    """``P(T+ <= t)``, ``t = 0..n(n+1)/2``, under the null (no ties): counts of subsets of ``{1..n}`` by sum."""
    top = n * (n + 1) // 2
    counts = np.zeros(top + 1)
    counts[0] = 1.0
    for i in range(1, n + 1):
        counts[i:] = counts[i:] + counts[:-i].copy()
    return np.cumsum(counts / 2.0**n)


def wilcoxon_signed_rank(d) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Wilcoxon signed-rank tests of many paired differences at once: ``(T+, p)``.

    Each row of ``d`` (shape ``(P, N)``) is one test of "the differences are
    symmetric about 0".  Zero differences are dropped (Wilcoxon's method);
    the absolute differences are ranked with ties sharing the mean rank.  The
    p-value is exact (the null distribution of ``T+``) when the row has no
    ties and no zeros and at most 50 non-zero differences -- as
    :func:`scipy.stats.wilcoxon` with ``method="auto"`` -- and otherwise the
    normal approximation with the tie-corrected variance and no continuity
    correction (``method="asymptotic"`` there).  A row of zeros has ``p = 1``.

    Returns
    -------
    r_plus : ndarray, shape (P,)
        Sum of the ranks of the positive differences.
    p : ndarray, shape (P,)
    """
    d = np.atleast_2d(np.asarray(d, dtype=float))
    P, N = d.shape
    a = np.abs(d)
    order = np.argsort(a, axis=1)  # tied entries get the same (mean) rank whatever their order
    s = np.take_along_axis(a, order, axis=1)
    sd = np.take_along_axis(d, order, axis=1)
    zeros = (s == 0).sum(axis=1)
    ranks = np.broadcast_to(np.arange(1.0, N + 1.0), (P, N)).copy()
    ties = np.zeros(P)
    tied = np.any(s[:, 1:] == s[:, :-1], axis=1)  # rows with equal absolute differences (zeros included)
    if tied.any():
        start, end = _run_lengths(s[tied])
        ranks[tied] = (start + end) / 2.0 + 1.0
        L = (end - start + 1).astype(float)
        ties[tied] = np.sum(np.where(s[tied] > 0, L**2 - 1.0, 0.0), axis=1)
    ranks -= zeros[:, None]
    r_plus = np.sum(np.where(sd > 0, ranks, 0.0), axis=1)
    n = N - zeros
    has_ties = ties > 0
    mn = n * (n + 1) / 4.0
    se = np.sqrt((n * (n + 1) * (2 * n + 1) - ties / 2.0) / 24.0)
    p = np.ones(P)
    asym = (n > 0) & (has_ties | (zeros > 0) | (n > 50))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (r_plus - mn) / se
    p[asym] = np.minimum(1.0, 2.0 * ndtr(-np.abs(z[asym])))
    exact = (n > 0) & ~asym
    for m in np.unique(n[exact]):
        rows = np.flatnonzero(exact & (n == m))
        cdf = np.concatenate(([0.0], _wilcoxon_cdf(int(m))))  # cdf[t + 1] = P(T+ <= t)
        t = np.rint(r_plus[rows]).astype(np.int64)
        low, high = cdf[t + 1], 1.0 - cdf[t]
        p[rows] = np.minimum(1.0, 2.0 * np.minimum(low, high))
    return r_plus, p


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values {holm1979simple}: ``max_{j <= i} min(1, (m - j + 1) p_(j))`` in sorted order."""
    p = np.asarray(p, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adj
    return out


@dataclass(frozen=True, repr=False)
class Pairwise(Result):
    """Pairwise Wilcoxon signed-rank tests with Holm's correction.

    Attributes
    ----------
    a, b : ndarray of int
        The candidates of test ``i`` are ``a[i]`` and ``b[i]`` (``a < b``).
    p : ndarray
        Two-sided p-values.
    p_holm : ndarray
        Holm's adjusted p-values.
    significant : ndarray of bool
        ``p_holm < alpha``.
    alpha : float
        The significance level.
    """

    a: np.ndarray
    b: np.ndarray
    p: np.ndarray
    p_holm: np.ndarray
    significant: np.ndarray
    alpha: float


def pairwise_wilcoxon(M, alpha: float = 0.05) -> Pairwise:
    """Wilcoxon signed-rank test of every pair of candidates (rows of ``M``) over the judges, Holm-corrected.

    The test is symmetric in the orientation of the scores, so there is no
    ``lower_is_better``.  See :func:`wilcoxon_signed_rank` for zeros, ties and
    the exact/normal choice.
    """
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    return _pairwise_wilcoxon(_matrix(M), alpha)


#: Differences per block of the pairwise tests (bounded temporary memory for any number of pairs).
_PAIR_BLOCK = 1 << 21


def _pairwise_wilcoxon(A: np.ndarray, alpha: float) -> Pairwise:
    """:func:`pairwise_wilcoxon` of a checked matrix and level, in blocks of pairs of bounded memory."""
    k, N = A.shape
    a, b = np.triu_indices(k, 1)
    p = np.empty(a.size)
    step = max(1, _PAIR_BLOCK // max(1, N))
    for lo in range(0, a.size, step):
        hi = min(a.size, lo + step)
        p[lo:hi] = wilcoxon_signed_rank(A[a[lo:hi]] - A[b[lo:hi]])[1]
    ph = holm(p)
    return Pairwise(a, b, p, ph, ph < alpha, alpha)
