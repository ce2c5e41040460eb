"""The ranking functions of Pavão's Section 4: a candidates x judges score matrix to one value per candidate.

A score matrix ``M`` has one row per candidate (``n`` rows) and one column
per judge (``m`` columns); a ranking function ``f`` maps it to one aggregate
value per candidate and the final ranking is ``r = rank(f(M))``
{pavao2024judge}.  :func:`sotalib.judging.rank_candidates` is the front door;
the functions here are its workers and trust nothing but check their input.

Conventions
-----------
* :func:`rank` follows the chapter's definition (Section 4): the rank of
  candidate ``i`` is ``1 + #{j : v_j better than v_i} + 1/2 #{j != i : v_j = v_i}``,
  so rank 1 is the best and a tie counts one half (the tied candidates share
  the mean of the positions they occupy).
* Scores are compared with a relative tolerance ``TIE_RTOL`` so that sums
  of decimal scores that are equal on paper (``0.6 + 0.9 + 0.4 + 0.5`` and
  ``0.4 + 0.7 + 0.8 + 0.5``) tie as they do on paper.
* ``lower_is_better=True`` turns every method around (errors, losses, times).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

import numpy as np

from .._frame import as_matrix
from .._numba import njit
from .._progress import progress
from .._rng import as_generator
from .._validate import check_memory

__all__ = []

#: Relative tolerance under which two aggregate values count as a tie.
TIE_RTOL = 1e-9

# --------------------------------------------------------------------------- input


def _matrix(M, name: str = "M") -> np.ndarray:
    """The score matrix, candidates x judges, through the one coercion of score matrices (:func:`as_matrix`)."""
    return as_matrix(M, name)[0]


def _close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):  # |a - b| of opposite huge scores is inf: not close
        return np.abs(a - b) <= TIE_RTOL * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))


#: Doubles per temporary block of the pairwise comparisons (bounded memory for any n).
_BLOCK = 1 << 22


def _row_blocks(n: int, m: int, show: bool | None = False, desc: str = ""):
    """Slices of candidates whose comparisons with all ``n`` candidates over ``m`` judges fit a block."""
    step = max(1, _BLOCK // max(1, n * m))
    starts = range(0, n, step)
    for a in progress(starts, total=len(starts), desc=desc, show=show if n * n * m > 50 * _BLOCK else False):
        yield slice(a, min(n, a + step))


def _check_pairs(n: int, arrays: float, what: str) -> None:
    """Refuse up front an ``n x n`` computation that cannot fit (``arrays`` doubles per pair)."""
    check_memory(
        8.0 * arrays * n * n,
        f"{what} of {n:,} candidates compares every pair ({n:,} x {n:,})",
        "rank fewer candidates, or use mean, median or average-rank, which need no pairwise table",
    )


def _rank_1d(a: np.ndarray) -> np.ndarray:
    """The chapter's rank of one column (higher is better) in ``O(n log n)``.

    For each value the values within :data:`TIE_RTOL` of it form one
    contiguous run of the sorted column (``|a - b| - TIE_RTOL max(1, |a|, |b|)``
    grows as ``b`` moves away from ``a``), found by bisection; the values
    beyond the run are the better ones.
    """
    n = a.size
    order = np.argsort(a, kind="stable")
    v = a[order]
    idx = np.arange(n)
    # hi: first sorted index above i that is not close to v[i]; lo: first index at or below i that is close
    lo_b, hi_b = idx.copy(), np.full(n, n)  # invariant: close at lo_b, not close at hi_b (or hi_b = n)
    while np.any(hi_b - lo_b > 1):
        mid = (lo_b + hi_b) // 2
        ok = _close(v, v[np.minimum(mid, n - 1)])
        move = hi_b - lo_b > 1
        lo_b = np.where(move & ok, mid, lo_b)
        hi_b = np.where(move & ~ok, mid, hi_b)
    hi = hi_b
    lo_b, hi_b = np.full(n, -1), idx.copy()  # not close at lo_b (or -1), close at hi_b
    while np.any(hi_b - lo_b > 1):
        mid = (lo_b + hi_b) // 2
        ok = _close(v, v[np.maximum(mid, 0)])
        move = hi_b - lo_b > 1
        hi_b = np.where(move & ok, mid, hi_b)
        lo_b = np.where(move & ~ok, mid, lo_b)
    lo = hi_b
    out = np.empty(n)
    out[order] = 1.0 + (n - hi) + 0.5 * (hi - lo - 1)
    return out


def rank(v, lower_is_better: bool = False) -> np.ndarray:
    """The chapter's rank of every entry of ``v`` (Section 4): 1 is best, ties count one half.

    ``rank(v)_i = 1 + sum_{j != i} 1[v_j > v_i] + 1/2 sum_{j != i} 1[v_j = v_i]``
    (``<`` instead of ``>`` when ``lower_is_better``).  Values within the
    relative tolerance :data:`TIE_RTOL` tie.

    Parameters
    ----------
    v : array_like, shape (n,) or (n, m)
        Scores; a 2-d array is ranked column by column (each judge separately).
    lower_is_better : bool
        Rank the smallest value first.

    Returns
    -------
    ndarray of float, the same shape as ``v``; values in ``{1, 1.5, 2, ..., n}``.
    """
    a = np.asarray(v, dtype=float)
    if a.ndim == 1:
        return rank(a[:, None], lower_is_better)[:, 0]
    if lower_is_better:
        a = -a
    out = np.empty(a.shape)
    for k in range(a.shape[1]):  # O(n log n) per judge, no n x n table
        out[:, k] = _rank_1d(a[:, k])
    return out


# ------------------------------------------------------------------ the functions


def mean_score(M) -> np.ndarray:
    """Mean over judges of each candidate's scores (the *mean* judge).

    Summed as ``sum_k M[:, k] / m``, so scores near the largest double do not overflow.
    """
    A = _matrix(M)
    return (A / A.shape[1]).sum(axis=1) if np.abs(A).max() > 1e300 else A.mean(axis=1)


def median_score(M) -> np.ndarray:
    """Median over judges of each candidate's scores (the *median* judge).

    Of an even number of judges, the mean of the two middle scores, halved
    before adding so that scores near the largest double do not overflow.
    """
    A = np.sort(_matrix(M), axis=1)
    m = A.shape[1]
    if m % 2:
        return A[:, m // 2].copy()
    return 0.5 * A[:, m // 2 - 1] + 0.5 * A[:, m // 2]


def average_rank(M, lower_is_better: bool = False) -> np.ndarray:
    """Average rank, or Borda count: ``f(M) = (1/m) sum_j rank(j)`` (lower is better)."""
    return rank(_matrix(M), lower_is_better).mean(axis=1)


def weighted_average_rank(M, weights, lower_is_better: bool = False) -> np.ndarray:
    """Weighted average rank ``f(M) = (1/m) sum_j w_j rank(j)`` (Section 4.3; lower is better).

    ``weights`` are non-negative, one per judge, not all zero.
    """
    A = _matrix(M)
    w = np.asarray(weights, dtype=float)
    if w.shape != (A.shape[1],) or not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise ValueError(f"weights must be {A.shape[1]} non-negative finite numbers, not all zero")
    return (rank(A, lower_is_better) * w).sum(axis=1) / A.shape[1]


@njit(cache=True)
def _close1(a, b):
    d = abs(a - b)
    return d <= TIE_RTOL * max(1.0, abs(a), abs(b))


@njit(cache=True)
def _pair_counts(A, u, v):
    """Judges scoring ``u`` strictly better than ``v``, and the reverse (within TIE_RTOL: a tie)."""
    w = 0
    loss = 0
    for k in range(A.shape[1]):
        a, b = A[u, k], A[v, k]
        if not _close1(a, b):
            if a > b:
                w += 1
            else:
                loss += 1
    return w, loss


@njit(cache=True)
def _copeland_rows(A, lo, hi, out):
    n = A.shape[0]
    for u in range(lo, hi):
        acc = 0.0
        for v in range(n):
            if v != u:
                w, loss = _pair_counts(A, u, v)
                acc += 1.0 if w > loss else (0.5 if w == loss else 0.0)
        out[u] = acc


@njit(cache=True)
def _preference_rows(A, lo, hi, P):
    n, m = A.shape
    for u in range(lo, hi):
        for v in range(n):
            if v == u:
                P[u, v] = 0.0
            else:
                w, loss = _pair_counts(A, u, v)
                P[u, v] = w + 0.5 * (m - w - loss)


@njit(cache=True)
def _reldiff_rows(A, lo, hi, out):
    n, m = A.shape
    for u in range(lo, hi):
        acc = 0.0
        for v in range(n):
            t = 0.0
            for k in range(m):
                s = A[u, k] + A[v, k]
                if s > 0:
                    t += (A[u, k] - A[v, k]) / s
            acc += t / m
        out[u] = acc


def _by_rows(kernel, A, out, show, desc):
    """Run a row kernel over blocks of candidates (a progress bar over the blocks when asked)."""
    n, m = A.shape
    step = max(1, _BLOCK // max(1, n * m))
    starts = range(0, n, step)
    bar = show if n * n * m > 50 * _BLOCK else False
    for a in progress(starts, total=len(starts), desc=desc, show=bar):
        kernel(A, a, min(n, a + step), out)
    return out


def _wins_block(A: np.ndarray, rows: slice) -> tuple[np.ndarray, np.ndarray]:
    """For the candidates ``rows``: judges preferring each to every candidate, and the reverse."""
    xu, xv = A[rows, None, :], A[None, :, :]
    tie = _close(xu, xv)
    return ((xu > xv) & ~tie).sum(axis=2), ((xv > xu) & ~tie).sum(axis=2)


def pairwise_wins(M, lower_is_better: bool = False) -> np.ndarray:
    """``W[u, v]``: the number of judges scoring candidate ``u`` strictly better than ``v``."""
    A = _matrix(M)
    if lower_is_better:
        A = -A
    n, m = A.shape
    _check_pairs(n, 1, "the pairwise table")
    W = np.empty((n, n), dtype=np.int64)
    for rows in _row_blocks(n, m):
        W[rows] = _wins_block(A, rows)[0]
    return W


def copeland(M, lower_is_better: bool = False, *, progress: bool | None = False) -> np.ndarray:
    """Copeland's method: ``f_i = 1/(n-1) sum_{j != i} w(c_i, c_j)`` (higher is better).

    ``w(u, v)`` is 1 if ``u`` is better than ``v`` for more judges than the
    reverse, 1/2 if as many judges prefer either, and 0 otherwise.  The
    pairs are compared in blocks (memory bounded for any number of
    candidates; time ``O(n^2 m)``, with a progress bar when ``progress``).
    """
    A = _matrix(M)
    if lower_is_better:
        A = -A
    n, m = A.shape
    if n == 1:
        return np.ones(1)
    out = _by_rows(_copeland_rows, np.ascontiguousarray(A), np.empty(n), progress, "copeland")
    return out / (n - 1)


def relative_difference(M, lower_is_better: bool = False, *, progress: bool | None = False) -> np.ndarray:
    """Relative difference: ``w(u, v) = (1/m) sum_k (u_k - v_k) / (u_k + v_k)`` (higher is better).

    Needs non-negative scores; a term with ``u_k = v_k = 0`` is 0.  With
    ``lower_is_better`` the terms change sign, ``w(u, v) = (1/m) sum_k (v_k - u_k) / (u_k + v_k)``.
    The terms are scale-free, so scores near the largest double are scaled
    down first (by a power of two) rather than overflow; pairs are compared
    in blocks (memory bounded; time ``O(n^2 m)``).
    """
    A = _matrix(M)
    if np.any(A < 0):
        raise ValueError("relative difference needs non-negative scores")
    n, m = A.shape
    if n == 1:
        return np.zeros(1)
    if A.max() > 2.0**1000:
        A = A * 2.0**-64
    out = _by_rows(_reldiff_rows, np.ascontiguousarray(A), np.empty(n), progress, "relative difference")
    if lower_is_better:
        out = -out
    return out / (n - 1)


def random_dictator(M, rng: np.random.Generator | int | None = None) -> tuple[np.ndarray, int]:
    """The random dictator (random ballot): one judge drawn uniformly decides.

    Returns the chosen judge's scores and its column index.
    """
    A = _matrix(M)
    rng = as_generator(rng)
    k = int(rng.integers(A.shape[1]))
    return A[:, k].copy(), k


@overload
def _labels(given: Iterable[object] | None, default: tuple, count: int, what: str) -> tuple: ...
@overload
def _labels(given: Iterable[object] | None, default: None, count: int, what: str) -> tuple | None: ...
def _labels(given: Iterable[object] | None, default: tuple | None, count: int, what: str) -> tuple | None:
    if given is None:
        return default
    names = tuple(str(x) for x in given)
    if len(names) != count:
        raise ValueError(
            f"{what} must name each of the {count} {'rows' if what == 'candidates' else 'columns'}, "
            f"got {len(names)} names"
        )
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names must be unique")
    return names


# --------------------------------------------------------------- Condorcet graphs


def condorcet_winner(M, lower_is_better: bool = False) -> int | None:
    """The candidate that beats every other one in a strict pairwise majority, if any."""
    W = pairwise_wins(M, lower_is_better)
    n = W.shape[0]
    for c in range(n):
        if all(W[c, d] > W[d, c] for d in range(n) if d != c):
            return c
    return None
