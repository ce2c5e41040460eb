"""The properties of Table 4 as checks: random instances whose premise holds, and a verifier of the conclusion.

The makers and verifiers behind :func:`sotalib.judging.search_counterexample`; the
properties, the search and the paper's claims are described in
:mod:`sotalib.judging._properties` (Pavão, Section 4.2, Table 4).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from .._result import Result
from ._kemeny import _kemeny_brute, _preference
from ._ranking import rank_candidates
from ._ranking_functions import condorcet_winner, rank

__all__ = ["Counterexample"]


#: The ranking functions of Table 4, plus relative difference (not in the paper's table).
FUNCTIONS = ("random-dictator", "mean", "median", "average-rank", "copeland", "kemeny", "relative-difference")
#: The properties, in Table 4's order.
PROPERTIES = ("majority", "condorcet", "consistency", "participation", "iia", "liia", "clone-proof")


Lottery = dict  # tuple of doubled ranks -> Fraction


class _Ambiguous(Exception):
    """Kemeny-Young has several optimal orderings: no single ranking."""


def _key(r: np.ndarray) -> tuple:
    return tuple(int(round(2 * x)) for x in r)  # ranks are multiples of 1/2


def outcomes(function: str, M) -> Lottery:
    """The final ranking(s) of ``function`` on ``M``: ``{doubled rank vector: probability}``.

    Deterministic functions have one outcome of probability 1; the random
    dictator has each judge's ranking with probability ``1/m``.  Raises
    ``_Ambiguous`` for Kemeny-Young when several orderings are optimal.
    """
    A = np.asarray(M, dtype=float)
    if function == "random-dictator":
        lot: Lottery = {}
        R = rank(A)
        for k in range(A.shape[1]):
            key = _key(R[:, k])
            lot[key] = lot.get(key, Fraction(0)) + Fraction(1, A.shape[1])
        return lot
    if function == "kemeny":
        res = _kemeny_brute(_preference(A, False)) if A.shape[0] > 1 else None
        if res is not None:
            assert res.optimal_orders is not None  # the brute force lists every optimal order
            if len(res.optimal_orders) > 1:
                raise _Ambiguous
        r = np.ones(1) if res is None else res.positions()
        return {_key(r): Fraction(1)}
    return {_key(rank_candidates(A, function).ranks): Fraction(1)}


def _p_first(lot: Lottery, c: int) -> Fraction:
    return sum((w for r, w in lot.items() if r[c] == 2), Fraction(0))


def _p_above(lot: Lottery, u: int, v: int) -> Fraction:
    """P(u above v), a tie counting one half."""
    tot = Fraction(0)
    for r, w in lot.items():
        tot += w if r[u] < r[v] else (w / 2 if r[u] == r[v] else 0)
    return tot


def _restrict(lot: Lottery, idx) -> Lottery:
    out: Lottery = {}
    idx = list(idx)
    for r, w in lot.items():
        key = _key(rank(-np.array([r[i] for i in idx], dtype=float)))
        out[key] = out.get(key, Fraction(0)) + w
    return out


def _consecutive(r: tuple, S) -> bool:
    S = set(S)
    lo, hi = min(r[i] for i in S), max(r[i] for i in S)
    return not any(lo <= r[t] <= hi for t in range(len(r)) if t not in S)


@dataclass(frozen=True, repr=False)
class Counterexample(Result):
    """A score matrix (or two) on which a function violates a property.

    Attributes
    ----------
    function : str
        The ranking function.
    property : str
        The property violated.
    M : ndarray
        The profile (candidates x judges).
    M2 : ndarray or None
        The modified profile when the property compares two.
    explanation : str
        What goes wrong.
    names2 : tuple of str or None
        Names of the candidates of ``M2``, when they differ from ``M``'s.
    meta : dict or None
        The indices the property talks about.
    """

    function: str
    property: str
    M: np.ndarray
    M2: np.ndarray | None
    explanation: str
    names2: tuple | None = None
    meta: dict | None = None

    def verify(self) -> bool:
        """Re-check, deterministically, that this is a counterexample."""
        try:
            return _VERIFIERS[self.property](self.function, self.M, self.M2, self.meta or {}) is not None
        except _Ambiguous:
            return False


def _fmt_lottery(lot: Lottery, names) -> str:
    parts = []
    for r, w in sorted(lot.items(), key=lambda kv: -kv[1]):
        order = sorted(range(len(r)), key=lambda i: (r[i], i))
        txt = ""
        for a, i in enumerate(order):
            if a:
                txt += " = " if r[order[a - 1]] == r[i] else " > "
            txt += names[i]
        parts.append(txt if len(lot) == 1 else f"{txt} (p={w})")
    return "; ".join(parts)


def _names(n: int, clone_of: int | None = None) -> list[str]:
    names = [chr(ord("A") + i) for i in range(n)]
    if clone_of is not None:
        names[-1] = names[clone_of] + "'"
    return names


# ------------------------------------------------------------------ instances
#
# Each property has a *maker* (draws a random instance satisfying the premise,
# or returns None) and a deterministic *verifier* (returns a Counterexample if
# the instance violates the property, else None).  An instance is a tuple
# (M, M2, meta): the profile, the modified profile if any, and the indices the
# property talks about.  Counterexamples are shrunk by deleting judges and
# candidates while the violation persists.


def _random_matrix(rng, n, m, top=None):
    top = int(rng.choice([3, 4, 6, 9])) if top is None else top
    return rng.integers(1, top + 1, size=(n, m)).astype(float)


def _make_majority(rng, M):
    n, m = M.shape
    M = M.copy()
    c = int(rng.integers(n))
    S = rng.choice(m, size=int(rng.integers(m // 2 + 1, m + 1)), replace=False)
    for k in S:
        M[c, k] = np.max(np.delete(M[:, k], c)) + rng.integers(1, 3)
    return M, None, {"c": c}


def _verify_majority(f, M, _M2, meta):
    c = meta["c"]
    n, m = M.shape
    tops = sum(all(M[c, k] > M[d, k] for d in range(n) if d != c) for k in range(m))
    if 2 * tops <= m:
        return None
    lot = outcomes(f, M)
    if _p_first(lot, c) < 1:
        names = _names(n)
        return Counterexample(
            f,
            "majority",
            M,
            None,
            f"{names[c]} is strictly best for {tops} of {m} judges, but the ranking is {_fmt_lottery(lot, names)}",
        )
    return None


def _make_condorcet(_rng, M):
    c = condorcet_winner(M)
    return None if c is None else (M, None, {"c": c})


def _verify_condorcet(f, M, _M2, _meta):
    c = condorcet_winner(M)
    if c is None:
        return None
    lot = outcomes(f, M)
    if _p_first(lot, c) < 1:
        names = _names(M.shape[0])
        return Counterexample(
            f,
            "condorcet",
            M,
            None,
            f"{names[c]} is the Condorcet winner, but the ranking is {_fmt_lottery(lot, names)}",
        )
    return None


def _make_consistency(rng, A, f):
    n, mA = A.shape
    la = outcomes(f, A)
    for _attempt in range(8):  # look for a second panel that agrees with the first
        mB = int(rng.integers(1, 6))
        B = _random_matrix(rng, n, mB) if rng.random() < 0.5 else A[:, rng.integers(mA, size=mB)]
        try:
            lb = outcomes(f, B)
        except _Ambiguous:
            continue
        if la == lb:
            return np.hstack([A, B]), None, {"mA": mA}
    return None


def _verify_consistency(f, M, _M2, meta):
    mA = meta["mA"]
    m = M.shape[1]
    if not 1 <= mA < m:
        return None
    la, lb = outcomes(f, M[:, :mA]), outcomes(f, M[:, mA:])
    if la != lb:
        return None
    lm = outcomes(f, M)
    if lm != la:
        names = _names(M.shape[0])
        part = lambda a, b: f"judge {a}" if a == b else f"judges {a}-{b}"
        return Counterexample(
            f,
            "consistency",
            M,
            None,
            f"{part(1, mA)} alone and {part(mA + 1, m)} alone both give "
            f"{_fmt_lottery(la, names)}, but all {m} judges give {_fmt_lottery(lm, names)}",
        )
    return None


def _make_participation(_rng, M):
    return (M, None, {}) if M.shape[1] >= 2 else None


def _verify_participation(f, M, _M2, _meta):
    n, m = M.shape
    if m < 2:
        return None
    lm = outcomes(f, M)
    names = _names(n)
    for k in range(m):  # remove each judge in turn
        M2 = np.delete(M, k, axis=1)
        try:
            l2 = outcomes(f, M2)
        except _Ambiguous:
            continue
        for u, v in itertools.permutations(range(n), 2):
            if M[u, k] > M[v, k] and _p_above(l2, v, u) < _p_above(lm, v, u):
                return Counterexample(
                    f,
                    "participation",
                    M,
                    M2,
                    f"judge {k + 1} scores {names[u]} above {names[v]}; with it the ranking is "
                    f"{_fmt_lottery(lm, names)}, without it {_fmt_lottery(l2, names)}: removing the judge "
                    f"worsened {names[v]} relative to {names[u]}",
                )
    return None


def _make_iia(rng, M):
    n, m = M.shape
    u, v = (int(i) for i in rng.choice(n, size=2, replace=False))
    M2 = np.vstack([M[[u, v]], _random_matrix(rng, int(rng.integers(0, 4)), m)])
    return M, M2, {"u": u, "v": v}


def _verify_iia(f, M, M2, meta):
    u, v = meta["u"], meta["v"]
    lm, l2 = outcomes(f, M), outcomes(f, M2)
    if _p_above(lm, u, v) != _p_above(l2, 0, 1):
        names = _names(M.shape[0])
        names2 = [names[u], names[v]] + [chr(ord("A") + M.shape[0] + i) for i in range(M2.shape[0] - 2)]
        return Counterexample(
            f,
            "iia",
            M,
            M2,
            f"{names[u]} and {names[v]} keep their scores while the other candidates change: "
            f"the ranking goes from {_fmt_lottery(lm, names)} to {_fmt_lottery(l2, names2)}",
            tuple(names2),
        )
    return None


def _make_liia(_rng, M):
    return M, None, {}


def _verify_liia(f, M, _M2, _meta):
    n = M.shape[0]
    lm = outcomes(f, M)
    names = _names(n)
    for size in range(2, n):
        for S in itertools.combinations(range(n), size):
            if not all(_consecutive(r, S) for r in lm):
                continue
            ls = outcomes(f, M[list(S)])
            if _restrict(lm, S) != ls:
                sub = [names[i] for i in S]
                return Counterexample(
                    f,
                    "liia",
                    M,
                    M[list(S)],
                    f"{', '.join(sub)} are consecutive in {_fmt_lottery(lm, names)}, "
                    f"but alone they are ranked {_fmt_lottery(ls, sub)}",
                    tuple(sub),
                )
    return None


def _make_clone(rng, M0):
    n, m = M0.shape
    # distinct scores within each judge, so that "adjacent to c" is unambiguous;
    # half of the panels repeat a few distinct judges (strong, cyclic majorities)
    if rng.random() < 0.5:
        cols = [rng.permutation(2 * n)[:n] + 1 for _ in range(m)]
    else:
        pool = [rng.permutation(2 * n)[:n] + 1 for _ in range(int(rng.integers(2, 5)))]
        cols = [pool[i] for i in rng.integers(len(pool), size=m)]
    M = np.array(cols, dtype=float).T
    c = int(rng.integers(n))
    M2 = np.vstack([M, M[c] + rng.choice([-0.25, 0.0, 0.25], size=m)])
    return M, M2, {"c": c}


def _verify_clone(f, M, M2, meta):
    n = M.shape[0]
    c = meta["c"]
    lm, l2 = outcomes(f, M), outcomes(f, M2)
    others = [i for i in range(n) if i != c]
    if _restrict(lm, others) != _restrict(l2, others):
        names = _names(n + 1, clone_of=c)
        return Counterexample(
            f,
            "clone-proof",
            M,
            M2,
            f"adding {names[n]}, a clone of {names[c]}, changes the ranking from "
            f"{_fmt_lottery(lm, names[:n])} to {_fmt_lottery(l2, names)}",
            tuple(names),
        )
    return None


_MAKERS: dict[str, Callable[..., tuple | None]] = {
    "majority": _make_majority,
    "condorcet": _make_condorcet,
    "consistency": _make_consistency,
    "participation": _make_participation,
    "iia": _make_iia,
    "liia": _make_liia,
    "clone-proof": _make_clone,
}
_VERIFIERS: dict[str, Callable[..., Counterexample | None]] = {
    "majority": _verify_majority,
    "condorcet": _verify_condorcet,
    "consistency": _verify_consistency,
    "participation": _verify_participation,
    "iia": _verify_iia,
    "liia": _verify_liia,
    "clone-proof": _verify_clone,
}


def _delete(prop, inst, axis, i):
    """The instance with judge (axis 1) or candidate (axis 0) ``i`` deleted, or None."""
    M, M2, meta = inst
    meta = dict(meta)
    if axis == 1:
        if M.shape[1] <= 1:
            return None
        if prop == "consistency" and i < meta["mA"]:
            meta["mA"] -= 1
        M3 = np.delete(M, i, axis=1)
        M4 = None if M2 is None or prop in ("participation", "liia") else np.delete(M2, i, axis=1)
        return M3, M4, meta
    if M.shape[0] <= 3 or i in meta.values() and prop in ("majority", "iia", "clone-proof"):
        return None
    for key in ("c", "u", "v"):
        if key in meta and meta[key] > i:
            meta[key] -= 1
    M3 = np.delete(M, i, axis=0)
    if prop == "clone-proof":
        M4 = np.delete(M2, i, axis=0)
    elif prop == "iia":
        M4 = M2
    else:
        M4 = None
    return M3, M4, meta


def _shrink(f, prop, inst, ce):
    verify = _VERIFIERS[prop]
    changed = True
    while changed:
        changed = False
        for axis in (1, 0):
            for i in range(inst[0].shape[axis] - 1, -1, -1):
                smaller = _delete(prop, inst, axis, i)
                if smaller is None:
                    continue
                try:
                    ce2 = verify(f, *smaller)
                except _Ambiguous:
                    continue
                if ce2 is not None:
                    inst, ce, changed = smaller, replace(ce2, meta=dict(smaller[2])), True
                    break
            if changed:
                break
    return ce
