"""Rank aggregation: fusing a candidates x judges score matrix into one ranking.

Section 4 of Pavão's *How to judge a competition* {pavao2024judge}.  A score
matrix ``M`` has one row per candidate (``n`` rows) and one column per judge
(``m`` columns); a ranking function ``f`` maps it to one aggregate value per
candidate and the final ranking is ``r = rank(f(M))``.

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
* :func:`rank_candidates` returns the aggregate values in the orientation natural
  to each method (``higher_is_better`` says which): means and medians keep the
  scores' orientation, average ranks and Kemeny positions are lower-is-better,
  Copeland and relative-difference scores are higher-is-better.
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._numba import njit
from .._progress import progress
from .._rng import as_generator, check_rng
from .._validate import check_choice, check_int, check_memory

__all__ = [
    "METHODS",
    "TIE_RTOL",
    "Aggregation",
    "KemenyResult",
    "rank_candidates",
    "read_scores",
    "ScoreFile",
    "average_rank",
    "condorcet_winner",
    "copeland",
    "kemeny_objective",
    "kemeny_young",
    "kendall_tau_distance",
    "mean_score",
    "median_score",
    "pairwise_wins",
    "rank",
    "random_dictator",
    "relative_difference",
    "weighted_average_rank",
]

#: Relative tolerance under which two aggregate values count as a tie.
TIE_RTOL = 1e-9

#: The ranking functions of :func:`rank_candidates` (names as on the command line).
METHODS = (
    "random-dictator",
    "mean",
    "median",
    "average-rank",
    "weighted-average-rank",
    "copeland",
    "relative-difference",
    "kemeny",
)

#: Largest number of candidates for which Kemeny-Young is solved exactly by default.
KEMENY_EXACT_MAX = 15
#: Largest number of candidates for which all co-optimal Kemeny orderings are enumerated.
KEMENY_BRUTE_MAX = 8


# --------------------------------------------------------------------------- input


def _matrix(M, name: str = "M") -> np.ndarray:
    A = np.asarray(M, dtype=float)
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-d array (candidates x judges), got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} must contain only finite scores")
    return A


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


def copeland(M, lower_is_better: bool = False, *, show: bool | None = False) -> np.ndarray:
    """Copeland's method: ``f_i = 1/(n-1) sum_{j != i} w(c_i, c_j)`` (higher is better).

    ``w(u, v)`` is 1 if ``u`` is better than ``v`` for more judges than the
    reverse, 1/2 if as many judges prefer either, and 0 otherwise.  The
    pairs are compared in blocks (memory bounded for any number of
    candidates; time ``O(n^2 m)``, with a progress bar when ``show``).
    """
    A = _matrix(M)
    if lower_is_better:
        A = -A
    n, m = A.shape
    if n == 1:
        return np.ones(1)
    out = _by_rows(_copeland_rows, np.ascontiguousarray(A), np.empty(n), show, "copeland")
    return out / (n - 1)


def relative_difference(M, lower_is_better: bool = False, *, show: bool | None = False) -> np.ndarray:
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
    out = _by_rows(_reldiff_rows, np.ascontiguousarray(A), np.empty(n), show, "relative difference")
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


# ------------------------------------------------------------------ Kemeny-Young


def _preference(M, lower_is_better: bool, show: bool | None = False) -> np.ndarray:
    """``P[u, v]``: judges preferring ``u`` to ``v``, a tie counting one half for each side."""
    A = _matrix(M)
    if lower_is_better:
        A = -A
    n, m = A.shape
    _check_pairs(n, 1.5, "Kemeny-Young")  # the table, and the majority graph of its blocks
    return _by_rows(_preference_rows, np.ascontiguousarray(A), np.empty((n, n)), show, "pairwise preferences")


def kendall_tau_distance(order, scores, lower_is_better: bool = False) -> float:
    """Kendall's tau distance between a strict ordering and one judge's scores.

    The number of pairs the ordering puts the other way round from the
    judge, a pair the judge ties counting one half.
    """
    order = list(order)
    s = np.asarray(scores, dtype=float)
    if lower_is_better:
        s = -s
    d = 0.0
    for a in range(len(order)):
        for b in range(a + 1, len(order)):
            u, v = order[a], order[b]  # the ordering puts u above v
            if _close(np.array(s[u]), np.array(s[v])):
                d += 0.5
            elif s[v] > s[u]:
                d += 1.0
    return d


def kemeny_objective(M, order, lower_is_better: bool = False) -> float:
    """Sum over judges of Kendall's tau distances to ``order`` (best first): the Kemeny loss."""
    P = _preference(M, lower_is_better)
    order = list(order)
    return float(sum(P[order[b], order[a]] for a in range(len(order)) for b in range(a + 1, len(order))))


@dataclass(frozen=True)
class KemenyResult:
    """A Kemeny-Young ranking.

    Attributes
    ----------
    order : tuple of int
        Candidate indices, best first (one optimal ordering).
    objective : float
        Sum of Kendall tau distances to the judges (ties count one half).
    method : str
        ``"brute-force"``, ``"ilp"`` (both exact) or ``"heuristic"``.
    exact : bool
        Whether ``objective`` is proved minimal.
    optimal_orders : tuple of tuple of int or None
        Every optimal ordering (brute force only).
    mean_positions : tuple of float or None
        Each candidate's position averaged over the optimal orderings known,
        when the problem was solved in blocks (brute-force blocks contribute
        all their co-optimal orderings).
    """

    order: tuple
    objective: float
    method: str
    exact: bool
    optimal_orders: tuple | None = None
    mean_positions: tuple | None = None

    def positions(self) -> np.ndarray:
        """Position of each candidate (1 = best), averaged over all optimal orderings when known."""
        if self.mean_positions is not None:
            return np.asarray(self.mean_positions, dtype=float)
        orders = self.optimal_orders or (self.order,)
        n = len(self.order)
        pos = np.zeros(n)
        for o in orders:
            pos[list(o)] += np.arange(1, n + 1)
        return pos / len(orders)


def _kemeny_brute(P: np.ndarray) -> KemenyResult:
    n = P.shape[0]
    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64).reshape(-1, n)
    pos = np.empty_like(perms)
    rows = np.arange(perms.shape[0])[:, None]
    pos[rows, perms] = np.arange(n)
    # disagreement: pairs u above v in the ordering weighted by P[v, u]
    above = pos[:, :, None] < pos[:, None, :]  # (perm, u, v): u above v
    loss = (above * P.T[None, :, :]).sum(axis=(1, 2))
    best = loss.min()
    opt = np.flatnonzero(np.abs(loss - best) <= 1e-9 * max(1.0, best))
    orders = tuple(tuple(int(c) for c in perms[i]) for i in opt)
    return KemenyResult(orders[0], float(best), "brute-force", True, orders)


def _kemeny_ilp(P: np.ndarray, time_limit: float | None = None) -> KemenyResult:
    import pulp

    n = P.shape[0]
    prob = pulp.LpProblem("kemeny_young", pulp.LpMinimize)
    # x[u, v] = 1 iff u is ranked above v, for u < v; x[v, u] = 1 - x[u, v].
    x = {(u, v): prob.add_variable(f"x_{u}_{v}", 0, 1, cat="Binary") for u in range(n) for v in range(u + 1, n)}
    # loss: u above v costs P[v, u]; v above u costs P[u, v]
    prob += pulp.lpSum(x[u, v] * (P[v, u] - P[u, v]) for (u, v) in x) + float(sum(P[u, v] for (u, v) in x))
    for u, v, w in itertools.combinations(range(n), 3):
        # transitivity: no 3-cycle u>v>w>u nor u<v<w<u
        prob += x[u, v] + x[v, w] - x[u, w] <= 1
        prob += x[u, v] + x[v, w] - x[u, w] >= 0
    with warnings.catch_warnings():
        # PuLP 3.3 announces that its bundled CBC (PULP_CBC_CMD) moves to an extra in PuLP 4
        warnings.simplefilter("ignore", DeprecationWarning)
        solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit)
        status = prob.solve(solver)
    if pulp.LpStatus[status] != "Optimal":  # pragma: no cover - CBC proves optimality here
        raise RuntimeError(f"CBC did not prove optimality: {pulp.LpStatus[status]}")
    above = np.zeros((n, n), dtype=bool)
    for (u, v), var in x.items():
        if (var.value() or 0.0) > 0.5:  # a variable CBC never saw (n = 2, no preference) is 0
            above[u, v] = True
        else:
            above[v, u] = True
    order = tuple(int(c) for c in np.argsort(-above.sum(axis=1), kind="stable"))
    obj = float(sum(P[order[b], order[a]] for a in range(n) for b in range(a + 1, n)))
    return KemenyResult(order, obj, "ilp", True, None)


@njit(cache=True)
def _insertion_pass(P, order):
    """One pass of best single-candidate moves; returns whether the order changed.

    For the candidate at position ``i`` (positions visited in increasing order,
    on the order as it is being changed), the loss of placing it at each
    position ``p`` among the others is ``sum_{q < p} P[c, rest_q] +
    sum_{q >= p} P[rest_q, c]``; it moves to the first best position if that
    lowers the loss.  ``O(n)`` per candidate.
    """
    n = order.size
    changed = False
    gains = np.empty(n)
    for i in range(n):
        c = order[i]
        g = 0.0
        for q in range(n):
            if q != i:
                g += P[order[q], c]
        gains[0] = g
        p = 0
        for q in range(n):
            if q == i:
                continue
            d = order[q]
            g += P[c, d] - P[d, c]
            p += 1
            gains[p] = g
        best = 0
        for j in range(1, n):
            if gains[j] < gains[best]:
                best = j
        if gains[best] < gains[i] - 1e-12:
            if best < i:
                for q in range(i, best, -1):
                    order[q] = order[q - 1]
            else:
                for q in range(i, best):
                    order[q] = order[q + 1]
            order[best] = c
            changed = True
    return changed


def _kemeny_heuristic(P: np.ndarray, start: np.ndarray, show: bool | None = False) -> KemenyResult:
    """Borda start, then best single-candidate moves (insertions) until none improves.

    Proved optimal when the loss meets the lower bound ``sum_{u < v} min(P[u, v], P[v, u])``
    (every pair ordered as its majority prefers).
    """
    order = np.array([int(c) for c in start], dtype=np.int64)
    P = np.ascontiguousarray(P, dtype=float)
    for _ in progress(itertools.count(), desc="Kemeny-Young local search (passes)", show=show):
        if not _insertion_pass(P, order):
            break
    n = order.size
    obj = _objective(P, order)
    bound = 0.5 * sum(float(np.minimum(P[r], P[:, r].T).sum()) for r in _row_blocks(n, 1))
    exact = obj <= bound + 1e-9 * max(1.0, bound)
    return KemenyResult(tuple(int(c) for c in order), obj, "heuristic", bool(exact), None)


def _objective(P: np.ndarray, order) -> float:
    """Loss of an ordering: ``sum`` of ``P[v, u]`` over the pairs it puts ``u`` above ``v``."""
    n = P.shape[0]
    pos = np.empty(n, dtype=np.int64)
    pos[np.asarray(order, dtype=np.int64)] = np.arange(n)
    total = 0.0
    for r in _row_blocks(n, 1):  # rows v: P[v, u] over the u placed above v
        total += float(np.where(pos[None, :] < pos[r, None], P[r], 0.0).sum())
    return total


def _components(P: np.ndarray) -> list[np.ndarray]:
    """Blocks of candidates that every Kemeny-Young ordering keeps together and in this order.

    If every candidate of a set ``X`` beats every candidate of ``Y`` by a
    strict majority, every optimal ordering puts ``X`` before ``Y`` (else
    swapping an adjacent ``y, x`` would lower the loss).  The finest such
    split is the condensation of the weak-majority graph (the strongly
    connected components, which a tournament orders totally); sorted by
    Copeland score, each valid cut is where the first ``k`` candidates beat
    the rest ``k (n - k)`` times, found with running sums in ``O(n^2)``.
    """
    n = P.shape[0]
    D = P > P.T  # strict majority
    score = D.sum(axis=1) + 0.5 * ((P == P.T).sum(axis=1) - 1)
    o = np.argsort(-score, kind="stable")
    Do = D[np.ix_(o, o)]
    # beats[k] = number of strict wins of the first k over the rest
    # beats[k] = strict wins of the first k over the rest; it grows by the wins of candidate k
    # over later ones and shrinks by the wins of earlier ones over it
    upper = np.triu(Do, 1)
    later, earlier = upper.sum(axis=1), upper.sum(axis=0)
    del Do, upper
    beats = np.concatenate([[0], np.cumsum(later - earlier)])
    k = np.arange(n + 1)
    cuts = np.flatnonzero(beats == k * (n - k))
    return [o[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


def kemeny_young(
    M, lower_is_better: bool = False, method: str = "auto", time_limit: float | None = None, *, show=False
) -> KemenyResult:
    """Kemeny-Young: the ordering minimising the summed Kendall tau distance to the judges.

    Optimal rank aggregation with Kendall's tau (Section 4.1).  With
    ``P[u, v]`` the number of judges preferring ``u`` to ``v`` (ties one half),
    the loss of an ordering is the sum of ``P[v, u]`` over the pairs it puts
    ``u`` above ``v``.  Finding it is NP-hard in general.

    Parameters
    ----------
    M : array_like, shape (n, m)
    lower_is_better : bool
    method : {"auto", "brute-force", "ilp", "heuristic"}
        ``"brute-force"`` enumerates all ``n!`` orderings and returns every
        optimal one (``n <= 8``); ``"ilp"`` solves the binary program with
        transitivity constraints on all triples with CBC through PuLP (exact;
        practical to about 15 candidates); ``"heuristic"`` starts from the
        average-rank order and moves single candidates while the loss
        decreases (``O(n^2)`` per pass), and is proved optimal only when its
        loss meets the lower bound ``sum_{u<v} min(P[u, v], P[v, u])``.
        ``"auto"``: brute force up to :data:`KEMENY_BRUTE_MAX` candidates;
        beyond, the candidates are split into the blocks that every optimal
        ordering keeps in order (a strict majority of judges prefers every
        candidate of one block to every candidate of the next), and each
        block is solved on its own -- brute force or ILP up to
        :data:`KEMENY_EXACT_MAX` candidates (exact), the heuristic beyond.
        The result is exact when every block is.
    time_limit : float, optional
        Seconds allowed to CBC.
    show : bool or None
        Progress bar of the local search (None: when stderr is a terminal).

    Notes
    -----
    Memory and time grow as ``n^2``: the ``n x n`` preference table (refused
    up front if it cannot fit) and each pass of the local search.
    """
    A = _matrix(M)
    method = check_choice("method", method, ("auto", "brute-force", "ilp", "heuristic"))
    n = A.shape[0]
    P = _preference(A, lower_is_better, show)
    if method == "auto" and n <= KEMENY_BRUTE_MAX:
        method = "brute-force"
    if n == 1:
        return KemenyResult((0,), 0.0, method, method != "heuristic", ((0,),) if method == "brute-force" else None)
    if method == "brute-force":
        check_int("number of candidates for brute force", n, low=1, high=9)
        return _kemeny_brute(P)
    if method == "ilp":
        return _kemeny_ilp(P, time_limit)
    if method == "heuristic":
        start = np.argsort(average_rank(A, lower_is_better), kind="stable")
        return _kemeny_heuristic(P, start, show)
    return _kemeny_blocks(A, P, lower_is_better, time_limit, show)


def _kemeny_blocks(A, P, lower_is_better, time_limit, show) -> KemenyResult:
    """``method="auto"`` beyond brute force: each block of :func:`_components` solved on its own."""
    n = P.shape[0]
    blocks = _components(P)
    order: list[int] = []
    positions = np.empty(n)
    used = []
    exact = True
    borda = average_rank(A, lower_is_better)
    for b in blocks:
        sub = P[np.ix_(b, b)]
        k = b.size
        if k == 1:
            res = KemenyResult((0,), 0.0, "trivial", True, ((0,),))
        elif k <= KEMENY_BRUTE_MAX:
            res = _kemeny_brute(sub)
        elif k <= KEMENY_EXACT_MAX:
            res = _kemeny_ilp(sub, time_limit)
        else:
            res = _kemeny_heuristic(sub, np.argsort(borda[b], kind="stable"), show)
        used.append(res.method)
        exact = exact and res.exact
        positions[b] = len(order) + res.positions()
        order.extend(int(b[i]) for i in res.order)
    obj = _objective(P, order)
    largest = max(b.size for b in blocks)
    kinds = sorted(set(used) - {"trivial"}) or ["trivial"]
    if len(blocks) == 1:
        how = kinds[0]
    else:
        how = f"{len(blocks)} blocks kept in majority order (largest {largest}), each by {' and '.join(kinds)}"
    return KemenyResult(tuple(order), obj, how, exact, None, tuple(positions.tolist()))


# --------------------------------------------------------------------- aggregate


@dataclass(frozen=True)
class Aggregation:
    """The result of a ranking function (what ``sotalib rank --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    method : str
    scores : ndarray
        The aggregate value ``f(M)`` per candidate.
    higher_is_better : bool
        Orientation of ``scores``.
    ranks : ndarray
        ``rank(f(M))``: 1 is best, ties count one half.
    order : ndarray of int
        Candidate indices best first (ties in index order).
    note : str
        E.g. which judge the random dictator drew, or how Kemeny-Young was solved.
    judge : int or None
        The column the random dictator drew (0-based).
    candidates : tuple of str
        Candidate names (``C1``, ``C2``, ... unless given).
    judges : tuple of str or None
        Judge names, if given.
    """

    method: str
    scores: np.ndarray
    higher_is_better: bool
    ranks: np.ndarray
    order: np.ndarray
    note: str = ""
    judge: int | None = None
    candidates: tuple = ()
    judges: tuple | None = None

    @property
    def ranking(self) -> list[str]:
        """Candidate names, best first."""
        return [self._name(i) for i in self.order]

    def _name(self, i) -> str:
        return self.candidates[i] if self.candidates else f"C{int(i) + 1}"

    def to_dict(self) -> dict:
        """JSON-safe form: ranking, scores and ranks by candidate (best first), method,
        higher_is_better, note -- the output of ``sotalib rank --json``."""

        def num(x):
            x = float(x)
            return x if np.isfinite(x) else None

        return {
            "ranking": self.ranking,
            "scores": {self._name(i): num(self.scores[i]) for i in self.order},
            "ranks": {self._name(i): num(self.ranks[i]) for i in self.order},
            "method": self.method,
            "higher_is_better": bool(self.higher_is_better),
            "note": self.note,
        }


def _labels(given, default, count: int, what: str) -> tuple | None:
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


def rank_candidates(
    M,
    method: str,
    lower_is_better: bool = False,
    *,
    weights=None,
    rng: np.random.Generator | int | None = None,
    candidates=None,
    judges=None,
    show: bool | None = False,
) -> Aggregation:
    """Rank the candidates (rows of ``M``) with one of the chapter's ranking functions.

    The front door of ``sotalib rank``: ``rank_candidates(...).to_dict()`` is
    what the command prints with ``--json``.

    Parameters
    ----------
    M : array_like, shape (n, m), or pandas.DataFrame
        Score matrix: candidates x judges.  A DataFrame's index names the
        candidates and its columns name the judges.
    method : str
        One of :data:`METHODS`.
    lower_is_better : bool
        The judges' scores are losses (smaller is better).
    weights : array_like, optional
        Judge weights for ``"weighted-average-rank"``.
    rng : int, numpy.random.Generator or None
        For ``"random-dictator"`` (SPEC 7): an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.
    candidates, judges : sequence of str, optional
        Names of the rows and columns (override a DataFrame's index and columns).
        Candidates default to ``C1, C2, ...``; with judge names, the random
        dictator's note names the judge drawn.
    show : bool or None
        Progress bars for the pairwise methods on many candidates (None:
        when stderr is a terminal; the command line passes False with ``--json``).

    Raises
    ------
    ValueError
        ``M`` not a finite non-empty 2-d matrix, an unknown ``method``, missing or
        bad ``weights``, names of the wrong number or not unique.

    Notes
    -----
    Kemeny scores are positions (1 = best); up to :data:`KEMENY_BRUTE_MAX`
    candidates (and within each block of that size, see :func:`kemeny_young`)
    they are averaged over *all* optimal orderings, so candidates that trade
    places between co-optimal orderings tie.  The note says how Kemeny-Young
    was solved and whether the ordering is proved optimal.

    Cost: mean, median, average rank and the random dictator take
    ``O(n log n)`` per judge; Copeland, relative difference and Kemeny-Young
    compare every pair, ``O(n^2 m)`` time in bounded blocks, and Kemeny-Young
    keeps an ``n x n`` table (refused up front when it cannot fit in memory).
    """
    if hasattr(M, "columns") and hasattr(M, "index") and hasattr(M, "to_numpy"):  # a pandas DataFrame
        candidates = list(M.index) if candidates is None else candidates
        judges = list(M.columns) if judges is None else judges
        M = M.to_numpy(dtype=float)
    A = _matrix(M)
    method = check_choice("method", method, METHODS)
    check_rng(rng)
    cand_names = _labels(candidates, (), A.shape[0], "candidates")
    judge_names = _labels(judges, None, A.shape[1], "judges")
    note, judge = "", None
    if method == "mean":
        s, hib = mean_score(A), not lower_is_better
    elif method == "median":
        s, hib = median_score(A), not lower_is_better
    elif method == "average-rank":
        s, hib = average_rank(A, lower_is_better), False
    elif method == "weighted-average-rank":
        if weights is None:
            raise ValueError("weights are required for weighted-average-rank")
        s, hib = weighted_average_rank(A, weights, lower_is_better), False
    elif method == "copeland":
        s, hib = copeland(A, lower_is_better, show=show), True
    elif method == "relative-difference":
        s, hib = relative_difference(A, lower_is_better, show=show), True
    elif method == "random-dictator":
        s, judge = random_dictator(A, rng)
        hib = not lower_is_better
        note = (
            f"judge {judge + 1} of {A.shape[1]} drawn" if judge_names is None else f"judge {judge_names[judge]!r} drawn"
        )
    else:
        res = kemeny_young(A, lower_is_better, show=show)
        s, hib = res.positions(), False
        if res.exact:
            note = f"Kemeny-Young by {res.method}, proved optimal"
        elif res.method == "heuristic":
            note = "Kemeny-Young by local search from the average-rank order (heuristic, not proved optimal)"
        else:
            note = f"Kemeny-Young by {res.method} (heuristic, not proved optimal)"
        if res.optimal_orders is not None and len(res.optimal_orders) > 1:
            note += f"; {len(res.optimal_orders)} co-optimal orderings, positions averaged"
    r = rank(s, lower_is_better=not hib)
    order = np.lexsort((np.arange(len(r)), r))
    return Aggregation(method, np.asarray(s, dtype=float), hib, r, order, note, judge, cand_names, judge_names)


class ScoreFile(NamedTuple):
    """A score matrix read by :func:`read_scores`."""

    candidates: list
    judges: list
    scores: np.ndarray


def read_scores(path) -> ScoreFile:
    """Read a score matrix from a CSV file: ``(candidates, judges, scores)``.

    The first row is a header (its first cell is ignored, the others name the
    judges); each further row is a candidate: its name, then one finite number
    per judge.  Blank lines are skipped.

    Raises
    ------
    ValueError
        On malformed input (the message names the file and the line).
    OSError
        If the file cannot be read.
    """
    import csv
    import math

    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8 (CSV UTF-8 in a spreadsheet) and try again"
        ) from None
    except csv.Error as exc:
        raise ValueError(f"{path}: not a readable CSV file ({exc})") from None
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one candidate row")
    header = [c.strip() for c in rows[0]]
    if len(header) < 2:
        raise ValueError(f"{path}: need a name column and at least one judge column")
    names, values = [], []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        names.append(r[0].strip())
        try:
            vals = [float(c) for c in r[1:]]
        except ValueError:
            raise ValueError(f"{path}: line {i}: scores must be numbers") from None
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"{path}: line {i}: scores must be finite")
        values.append(vals)
    if len(set(names)) != len(names):
        seen, twice = set(), []
        for name in names:
            if name in seen and name not in twice:
                twice.append(name)
            seen.add(name)
        raise ValueError(
            f"{path}: candidate names must be unique; listed more than once: {', '.join(map(repr, twice[:5]))}"
            + (f" and {len(twice) - 5} more" if len(twice) > 5 else "")
        )
    return ScoreFile(names, header[1:], np.array(values, dtype=float))


# --------------------------------------------------------------- Condorcet graphs


def condorcet_winner(M, lower_is_better: bool = False) -> int | None:
    """The candidate that beats every other one in a strict pairwise majority, if any."""
    W = pairwise_wins(M, lower_is_better)
    n = W.shape[0]
    for c in range(n):
        if all(W[c, d] > W[d, c] for d in range(n) if d != c):
            return c
    return None
