"""Kemeny-Young: the ordering of the candidates nearest to the judges in Kendall's tau distance.

Optimal rank aggregation (Pavão, Section 4.1): brute force for a few
candidates, an integer program (CBC through PuLP) up to about fifteen, and a
local search beyond, after splitting the candidates into the blocks that
every optimal ordering keeps in majority order.
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._numba import njit
from .._progress import progress
from .._result import Result
from .._validate import check_choice, check_int
from ._ranking_functions import _by_rows, _check_pairs, _close, _matrix, _preference_rows, _row_blocks, average_rank

__all__ = ["KemenyResult", "kemeny_young"]

#: Largest number of candidates for which Kemeny-Young is solved exactly by default.
KEMENY_EXACT_MAX = 15
#: Largest number of candidates for which all co-optimal Kemeny orderings are enumerated.
KEMENY_BRUTE_MAX = 8

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


@dataclass(frozen=True, repr=False)
class KemenyResult(Result):
    """A Kemeny-Young ranking.

    Attributes
    ----------
    order : tuple of int
        Candidate indices, best first (one optimal ordering).
    objective : float
        Sum of Kendall tau distances to the judges (ties count one half).
    engine : str
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
    engine: str
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
    import pulp  # loaded only when an integer program is solved: PuLP is heavy and not needed otherwise

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


#: The local search's largest block: its passes grow like the cube of the block (5 s at 1,000
#: candidates, 18 s at 2,000, over 100 s at 4,000 on 2 cores); beyond, the run is refused up front.
KEMENY_LOCAL_MAX = 2000


def _check_local_size(k: int, n: int) -> None:
    if k > KEMENY_LOCAL_MAX:
        block = f"{k:,} of the {n:,} candidates that no majority splits" if k < n else f"{n:,} candidates"
        raise ValueError(
            f"method 'kemeny' on {block} is more than its local search takes within a minute (at most "
            f"{KEMENY_LOCAL_MAX:,}: its passes grow like the cube of the count); rank fewer candidates, or use "
            "method 'copeland' (every pair's majority, O(m n^2)) or method 'average-rank'"
        )


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
    scores: ArrayLike,
    *,
    lower_is_better: bool = False,
    engine: str = "auto",
    time_limit: float | None = None,
    progress: bool | None = None,
) -> KemenyResult:
    """Kemeny-Young: the ordering minimising the summed Kendall tau distance to the judges.

    Optimal rank aggregation with Kendall's tau.  With ``P[u, v]`` the number
    of judges preferring ``u`` to ``v`` (ties one half), the loss of an
    ordering is the sum of ``P[v, u]`` over the pairs it puts ``u`` above
    ``v``.  Finding it is NP-hard in general.

    Parameters
    ----------
    scores : array_like, shape (n, m)
        The score matrix, candidates x judges (finite).
    lower_is_better : bool
        The judges' scores are losses.
    engine : {"auto", "brute-force", "ilp", "heuristic"}
        ``"brute-force"`` enumerates all ``n!`` orderings and returns every
        optimal one (``n <= 8``); ``"ilp"`` solves the binary program with
        transitivity constraints on all triples with CBC through PuLP (exact;
        practical to about 15 candidates); ``"heuristic"`` starts from the
        average-rank order and moves single candidates while the loss
        decreases (``O(n^2)`` per pass), and is proved optimal only when its
        loss meets the lower bound ``sum_{u<v} min(P[u, v], P[v, u])``.
        ``"auto"``: brute force up to 8 candidates; beyond, the candidates
        are split into the blocks that every optimal ordering keeps in order
        (a strict majority of judges prefers every candidate of one block to
        every candidate of the next), and each block is solved on its own --
        brute force or ILP up to 15 candidates (exact), the heuristic beyond.
        The result is exact when every block is.
    time_limit : float, optional
        Seconds allowed to CBC.
    progress : bool or None
        Progress bar of the local search (None: when stderr is a terminal).

    Returns
    -------
    KemenyResult
        One optimal ordering, its loss, how it was found and whether it is
        proved optimal.

    Raises
    ------
    ValueError
        ``scores`` not a finite non-empty matrix, an unknown ``engine``,
        brute force on more than 9 candidates, or a preference table that
        cannot fit in memory.

    Notes
    -----
    Memory and time grow as ``n^2``: the ``n x n`` preference table (refused
    up front if it cannot fit) and each pass of the local search.

    References
    ----------
    Pavão, *How to judge a competition*, Section 4.1 (Kemeny-Young, optimal
    rank aggregation with Kendall's tau).

    Examples
    --------
    >>> from sotalib.judging import kemeny_young
    >>> M = [[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]]
    >>> res = kemeny_young(M)
    >>> res.objective, res.exact, len(res.optimal_orders)
    (5.5, True, 3)
    """
    A = _matrix(scores)
    engine = check_choice("engine", engine, ("auto", "brute-force", "ilp", "heuristic"))
    return _kemeny(A, lower_is_better, engine, time_limit, progress)


def _kemeny(
    A: np.ndarray, lower_is_better: bool, method: str, time_limit: float | None, show: bool | None
) -> KemenyResult:
    """:func:`kemeny_young` on a checked matrix ``A`` and method."""
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
        _check_local_size(n, n)
        start = np.argsort(average_rank(A, lower_is_better), kind="stable")
        return _kemeny_heuristic(P, start, show)
    return _kemeny_blocks(A, P, lower_is_better, time_limit, show)


def _kemeny_blocks(A, P, lower_is_better, time_limit, show) -> KemenyResult:
    """``engine="auto"`` beyond brute force: each block of :func:`_components` solved on its own."""
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
            _check_local_size(k, n)
            res = _kemeny_heuristic(sub, np.argsort(borda[b], kind="stable"), show)
        used.append(res.engine)
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
