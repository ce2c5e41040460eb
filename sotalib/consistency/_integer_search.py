"""Exact search of small integer programs: integer ``x`` in a box with ``lbs <= A x <= ubs``.

The linear programs of the two-level test (:mod:`sotalib.consistency._n_datasets`)
and of a fixed fold configuration (:mod:`sotalib.consistency._mos_kfold`) are
tiny: a few variables, a few rows with integer coefficients.  A MILP solver
spends most of its time on setting itself up for them (HiGHS via SciPy takes
10-20 ms for four variables), so they are decided here by a breadth-first
search over the variables, one at a time:

* a *state* is the vector of partial row values of the variables fixed so
  far; two assignments with the same state have the same completions, so
  states are kept once (the first assignment reaching it is remembered);
* a state that no values of the remaining variables can bring into the bounds
  (each row's remaining range is the sum of ``min``/``max`` of its terms) is
  dropped;
* the last variable is not enumerated: each row bounds it to an interval, so
  a state is completed exactly when the intersection holds an integer.

Everything is exact integer arithmetic (``int64``; the caller's rows must stay
below ``2**62``), so 'infeasible' is a proof.  A program with more than
``max_work`` assignments of all variables but the widest is 'unknown' at once
and the caller uses its solver: the search is a fast path, never a different
answer.
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []  # private: used by _twolevel and _mos_kfold

_LIMIT = 2**62


def _ceil_div(a: np.ndarray, b: int) -> np.ndarray:
    return -((-a) // b)


def _first_of_each(states: np.ndarray) -> np.ndarray:
    """Indices (ascending) of the first occurrence of every distinct row of ``states``."""
    if len(states) == 1:
        return np.zeros(1, dtype=np.int64)
    low = states.min(axis=0)
    span = states.max(axis=0) - low + 1
    if float(np.prod(span.astype(float))) < 2**62:  # one integer key per state (mixed radix)
        key = np.zeros(len(states), dtype=np.int64)
        for j in range(states.shape[1]):
            key = key * span[j] + (states[:, j] - low[j])
        _, first = np.unique(key, return_index=True)
    else:
        _, first = np.unique(states, axis=0, return_index=True)
    first.sort()
    return first


def search_box(rows, lbs, ubs, caps, *, max_work: int = 1_000_000):  # noqa: C901 (one depth-first search with its pruning rules in order)
    """Integer ``0 <= x <= caps`` with ``lbs <= rows @ x <= ubs``.

    Parameters
    ----------
    rows : sequence of sequences of int
        The integer coefficients, one row per constraint (each as long as ``caps``).
    lbs, ubs : sequence of int
        Bounds of each row (integers).
    caps : sequence of int
        Upper bound of each variable (lower bounds are 0).
    max_work : int
        Largest number of assignments of all variables but the widest (the product
        of their ranges) the search takes on; larger programs are 'unknown' at once.
        The states of a step never outnumber that product, so a program within it
        is always decided.

    Returns
    -------
    tuple
        ``('feasible', x)`` with ``x`` a tuple of ints, ``('infeasible', None)``
        (no integer point: a proof) or ``('unknown', None)`` (too large to search).
    """
    A = [[int(a) for a in r] for r in rows]
    lbs = [int(v) for v in lbs]
    ubs = [int(v) for v in ubs]
    caps = [int(c) for c in caps]
    V, R = len(caps), len(A)
    if any(lo > hi for lo, hi in zip(lbs, ubs)):
        return "infeasible", None
    if V == 0:
        return ("feasible", ()) if all(lo <= 0 <= hi for lo, hi in zip(lbs, ubs)) else ("infeasible", None)
    if any(sum(abs(a) * c for a, c in zip(r, caps)) + abs(lo) + abs(hi) >= _LIMIT for r, lo, hi in zip(A, lbs, ubs)):
        return "unknown", None
    # order: small ranges first, the largest last (it is solved for, not enumerated)
    order = sorted(range(V), key=lambda v: caps[v])
    work = 1
    for v in order[:-1]:
        work *= caps[v] + 1
        if work > max_work:
            return "unknown", None
    coef = np.array([[A[j][v] for j in range(R)] for v in order], dtype=np.int64).reshape(V, R)
    cap = [caps[v] for v in order]
    term = coef * np.array(cap, dtype=np.int64)[:, None]
    lo_t, hi_t = np.minimum(term, 0), np.maximum(term, 0)
    # rest_lo[i]: least value the variables i.. can add to each row
    rest_lo = np.zeros((V + 1, R), dtype=np.int64)
    rest_hi = np.zeros((V + 1, R), dtype=np.int64)
    for i in range(V - 1, -1, -1):
        rest_lo[i] = rest_lo[i + 1] + lo_t[i]
        rest_hi[i] = rest_hi[i + 1] + hi_t[i]
    lb = np.array(lbs, dtype=np.int64)
    ub = np.array(ubs, dtype=np.int64)
    states = np.zeros((1, R), dtype=np.int64)
    if np.any(rest_lo[0] > ub) or np.any(rest_hi[0] < lb):
        return "infeasible", None
    trail = []  # per enumerated variable: (parent index, value) of every kept state
    for i in range(V - 1):
        m, c = len(states), cap[i] + 1
        vals = np.arange(c, dtype=np.int64)
        new = (states[:, None, :] + vals[None, :, None] * coef[i][None, None, :]).reshape(m * c, R)
        ok = np.all(new + rest_lo[i + 1] <= ub, axis=1) & np.all(new + rest_hi[i + 1] >= lb, axis=1)
        idx = np.flatnonzero(ok)
        if idx.size == 0:
            return "infeasible", None
        new = new[idx]
        first = _first_of_each(new)
        idx, states = idx[first], new[first]
        trail.append((idx // c, idx % c))
    # the last variable: each row bounds it to an interval
    a = coef[V - 1]
    lo = np.zeros(len(states), dtype=np.int64)
    hi = np.full(len(states), cap[V - 1], dtype=np.int64)
    alive = np.ones(len(states), dtype=bool)
    for j in range(R):
        room_lo, room_hi = lb[j] - states[:, j], ub[j] - states[:, j]
        if a[j] > 0:
            lo = np.maximum(lo, _ceil_div(room_lo, int(a[j])))
            hi = np.minimum(hi, room_hi // int(a[j]))
        elif a[j] < 0:
            lo = np.maximum(lo, _ceil_div(-room_hi, int(-a[j])))
            hi = np.minimum(hi, (-room_lo) // int(-a[j]))
        else:
            alive &= (room_lo <= 0) & (room_hi >= 0)
    hit = np.flatnonzero(alive & (lo <= hi))
    if hit.size == 0:
        return "infeasible", None
    s = int(hit[0])
    x_ord = [0] * V
    x_ord[V - 1] = int(lo[s])
    for i in range(V - 2, -1, -1):
        parent, value = trail[i]
        x_ord[i] = int(value[s])
        s = int(parent[s])
    x = [0] * V
    for pos, v in enumerate(order):
        x[v] = x_ord[pos]
    return "feasible", tuple(x)
