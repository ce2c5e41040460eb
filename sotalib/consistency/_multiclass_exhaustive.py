"""The exhaustive engine of multiclass reports: every (diagonal, column sums) of one evaluation set.

Every (d, s) is screened in float64 with a margin of 1e-9 and every value near
an interval end is decided in rational arithmetic; the solution set (all
compatible (d, s)) and its size are exact.  See
:mod:`sotalib.consistency._multiclass` for the method.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ._multiclass_scores import (
    MulticlassInterval,
    multiclass_score,
    transport_feasible,
)

_MARGIN = 1e-9

#: 'auto' enumerates when the diagonals admitted by the scores of the diagonal alone, paired with
#: every column-sum vector, are at most this many (d, s) candidates.
EXHAUSTIVE_LIMIT = 3_000_000


# --------------------------------------------------------------------------- exact value of a report
def _unit_values(iv: MulticlassInterval, unit, zero_division):
    c, d, s = unit
    return multiclass_score(iv, c, d, s, zero_division=zero_division)


def _verify(units, weights, sol, intervals, zero_division) -> bool:
    for (c, _), (d, s) in zip(units, sol):
        if sum(s) != sum(c) or not transport_feasible(c, d, s) or any(x > y for x, y in zip(d, c)):
            return False
    for iv in intervals:
        tot = Fraction(0)
        for (c, _), (d, s), w in zip(units, sol, weights):
            v = multiclass_score(iv, c, d, s, zero_division=zero_division)
            if v is None:
                return False
            tot += w * v
        if not iv.contains(tot):
            return False
    return True


# --------------------------------------------------------------------------- exhaustive (one evaluation set)
def _compositions(n: int, k: int) -> np.ndarray:
    """All k-tuples of non-negative integers summing to n (rows)."""
    if k == 1:
        return np.array([[n]], dtype=np.int64)
    out = []
    for first in range(n + 1):
        rest = _compositions(n - first, k - 1)
        out.append(np.hstack([np.full((len(rest), 1), first, dtype=np.int64), rest]))
    return np.vstack(out)


def _float_values(iv, c, D, S, zero_division):
    """Float64 values of a score for candidate rows D, S (shape (m, k)); NaN where undefined."""
    c = np.asarray(c, dtype=np.float64)
    n, k = c.sum(), len(c)
    T = D.sum(axis=1)
    b2 = float(iv.beta) ** 2
    z = np.nan if zero_division is None else float(zero_division)
    with np.errstate(divide="ignore", invalid="ignore"):
        if iv.base == "acc":
            return T / n
        if iv.base == "bacc":
            return (D / c).mean(axis=1)
        if iv.base != "fbp_means" and iv.average == "micro":
            return T / n if iv.base in ("sens", "ppv", "fbp") else ((k - 2) * n + T) / ((k - 1) * n)

        def terms(base):
            if base == "sens":
                return D / c
            tn = n - c - S + D
            if base == "spec":
                return tn / (n - c)
            if base == "ppv":
                return np.where(S == 0, z, D / np.where(S == 0, 1, S))
            if base == "npv":
                return np.where(S == n, z, tn / np.where(S == n, 1, n - S))
            return (1 + b2) * D / (b2 * c + S)

        if iv.base == "fbp_means":
            P, R = terms("ppv").mean(axis=1), terms("sens").mean(axis=1)
            den = b2 * P + R
            return np.where(den == 0, 0.0, (1 + b2) * P * R / np.where(den == 0, 1, den))
        t = terms(iv.base)
        return t.mean(axis=1) if iv.average == "macro" else (t * (c / n)).sum(axis=1)


def _d_only(iv) -> bool:
    """Scores that depend on the diagonal alone (not on the column sums)."""
    return iv.base in ("acc", "bacc") or (iv.base != "fbp_means" and iv.average == "micro") or iv.base == "sens"


def _screen(iv, c, D, S, zero_division):
    """Float64 screen of candidates: (keep, borderline) masks with a margin of 1e-9."""
    v = _float_values(iv, c, D, S, zero_division)
    lo, hi = float(iv.lo), float(iv.hi)
    keep = np.isnan(v) | ((v >= lo - _MARGIN) & (v <= hi + _MARGIN))
    border = np.isnan(v) | (v < lo + _MARGIN) | (v > hi - _MARGIN)
    return keep, border


def _diagonals(c, intervals, zero_division):
    """Every diagonal that the scores of the diagonal alone admit, and whether each is certain (float screen)."""
    grids = np.meshgrid(*[np.arange(x + 1) for x in c], indexing="ij")
    D_all = np.stack([g.ravel() for g in grids], axis=1).astype(np.int64)
    sure_d = np.ones(len(D_all), dtype=bool)
    for iv in intervals:  # the diagonal alone decides these: screen it before pairing with column sums
        if _d_only(iv) and len(D_all):
            keep, border = _screen(iv, c, D_all, None, zero_division)
            D_all, sure_d = D_all[keep], (sure_d & ~border)[keep]
    return D_all, sure_d


def _n_candidates(c, D) -> int:
    """Number of (d, s) pairs the exhaustive method screens.

    Per diagonal, the off-diagonal column sums q = s - d are the compositions of Q = n - trace into k parts.
    """
    n, k = sum(c), len(c)
    Q, counts = np.unique(n - D.sum(axis=1), return_counts=True)
    return int(sum(int(m) * math.comb(int(q) + k - 1, k - 1) for q, m in zip(Q, counts)))


def _exhaustive(c, intervals, zero_division, max_solutions, diagonals=None):
    n, k = sum(c), len(c)
    D_all, sure_d = diagonals if diagonals is not None else _diagonals(c, intervals, zero_division)
    rest = [iv for iv in intervals if not _d_only(iv)]
    sols, count = [], 0
    cc = np.asarray(c, dtype=np.int64)
    Q_all = n - D_all.sum(axis=1)
    for Q in np.unique(Q_all).tolist():
        grp = Q_all == Q
        Dg, sure_g = D_all[grp], sure_d[grp]
        comps = _compositions(Q, k)  # the off-diagonal column sums q = s - d
        chunk = max(1, (4_000_000 // k) // len(comps))  # about 4e6 counts (32 MB) per array
        for start in range(0, len(Dg), chunk):
            Dc = Dg[start : start + chunk]
            D = np.repeat(Dc, len(comps), axis=0)
            q = np.tile(comps, (len(Dc), 1))
            sure = np.repeat(sure_g[start : start + chunk], len(comps))
            ok = ((cc - D) + q <= Q).all(axis=1)  # Hall's condition r_i + q_i <= Q
            D, S, sure = D[ok], (D + q)[ok], sure[ok]
            for iv in rest:
                if not len(D):
                    break
                keep, border = _screen(iv, c, D, S, zero_division)
                D, S, sure = D[keep], S[keep], (sure & ~border)[keep]
            for d, s_, is_sure in zip(D.tolist(), S.tolist(), sure.tolist()):
                if is_sure or all(
                    iv.contains(multiclass_score(iv, c, d, s_, zero_division=zero_division)) for iv in intervals
                ):
                    count += 1
                    if len(sols) < max_solutions:
                        sols.append((tuple(d), tuple(s_)))
    return count, sols
