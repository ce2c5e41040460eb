"""Consistency of multiclass reports: one test set, Score of Means and Mean of Scores over folds.

The unknown is a k x k confusion matrix per evaluation set (test set or
fold) with known row sums (class sizes).  Every score of
:mod:`sotalib.consistency._multiclass_scores` depends on a matrix only through
its diagonal ``d`` and its column sums ``s``, and a pair (d, s) belongs to some
matrix exactly when ``0 <= d_i <= c_i``, ``s_i >= d_i``, ``sum s = n`` and
``(c_i - d_i) + (s_i - d_i) <= n - sum d`` for every class (Hall's condition for
the off-diagonal part, :func:`transport_feasible`).  The search is therefore
over 2k integers per evaluation set instead of k^2, and every (d, s) found is
turned into a confusion matrix (:func:`build_matrix`) as evidence.

Two exact methods:

* ``'exhaustive'`` (small test sets): every (d, s) is screened in float64 with
  a margin of 1e-9 and every value near an interval end is decided in rational
  arithmetic; the solution set (all compatible (d, s)) and its size are exact.
* ``'ilp'``: an integer program in (d, s), solved in-process by SciPy's HiGHS (an
  infeasibility it reports is confirmed by CBC, bundled with PuLP).  Scores linear in the counts
  (accuracy, micro averages, macro and weighted recall and specificity,
  balanced accuracy) are linear rows, written with integer coefficients and
  exactly rounded bounds where their common denominator allows.  The
  non-linear per-class scores (precision, NPV, F-beta: a ratio whose
  denominator holds s_i) get one continuous variable t_i per class with the
  exact bilinear equation ``t_i * den_i(s_i) = num_i(d_i, s_i)``, linearised
  without approximation through the binary digits of s_i
  (``t_i * s_i = sum_b 2^b w_ib``, ``w_ib = t_i z_ib``); those rows are widened
  by 1e-7, more than the solver's tolerance.  Every solution the solver
  returns is verified in rational arithmetic; one failing the check triggers
  a second solve with bounds narrowed by 1e-7, and a time-out or a second
  failure gives the status ``'undecided'``, reported as consistent.  An
  inconsistency is only claimed when it is certain.

The F-beta of the macro precision P and the macro recall R (``f1_of_means``,
one test set or Score of Means) is non-linear in two aggregates: the integer
program holds a relaxation of it -- tangent planes of the convex set
``F >= lo`` and, for ``F <= hi`` (P below a convex decreasing function of R),
secants on intervals of R chosen by binaries -- refined at every solution
that fails the exact check until one passes; an infeasible relaxation is a
proof (the tests compare it with brute force).
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._deprecate import renamed_arguments
from .._json import json_safe
from .._result import Result
from .._validate import check_choice, check_int
from ._intervals import as_decimal, report_decimals
from ._multiclass_scores import (
    MulticlassInterval,
    _check_classes,
    build_matrix,
    multiclass_intervals,
    multiclass_score,
    transport_feasible,
)
from ._typos import Suggestion, typo_candidates

__all__ = [
    "MulticlassResult",
    "check_multiclass",
    "check_multiclass_intervals",
    "diagnose_multiclass",
    "stratified_class_folds",
]

_DELTA = 1e-7
_MARGIN = 1e-9
ENGINES = ("auto", "ilp", "exhaustive")
AGGREGATIONS = ("single", "som", "mos")

#: 'auto' enumerates when the diagonals admitted by the scores of the diagonal alone, paired with
#: every column-sum vector, are at most this many (d, s) candidates.
EXHAUSTIVE_LIMIT = 3_000_000


@dataclass(frozen=True, repr=False)
class MulticlassResult(Result):
    """Verdict on a multiclass report.

    Attributes
    ----------
    consistent : bool
        Some confusion matrix (per fold for Mean of Scores) reproduces every reported
        value; False is a proof of the contrary.
    evidence : list
        Confusion matrices (rows: true class): for a test set or Score of Means a list of
        k x k matrices, for Mean of Scores one list of per-fold matrices.
    configurations_tested : int
        1: the stated test set or fold configuration.
    details : dict
        ``status``, ``method``, ``aggregation``, ``classes`` (per fold for MoS), ``n_solutions``
        (exhaustive method: the exact number of compatible (diagonal, column sums); None otherwise),
        ``scores`` (how each reported name was read) and ``note``.
    status : {'feasible', 'infeasible', 'undecided'}
    solutions : list
        The same matrices as ``evidence`` (at most ``max_solutions``).
    suggestions : list of Suggestion
        The typo finder's proposals for an inconsistent report (:func:`diagnose_multiclass`).
    """

    consistent: bool
    status: str
    method: str
    aggregation: str
    classes: tuple
    solutions: list = field(default_factory=list)
    n_solutions: int | None = None
    intervals: tuple = field(repr=False, default=())
    note: str = ""
    suggestions: list = field(default_factory=list)

    @property
    def evidence(self) -> list:
        """Confusion matrices that reproduce the report (empty when inconsistent or undecided)."""
        return self.solutions

    @property
    def configurations_tested(self) -> int:
        return 1

    @property
    def details(self) -> dict:
        return {
            "status": self.status,
            "method": self.method,
            "aggregation": self.aggregation,
            "classes": [list(c) for c in self.classes],
            "n_solutions": self.n_solutions,
            "scores": {iv.name: iv.label() for iv in self.intervals},
            "note": self.note,
        }

    def to_dict(self) -> dict:
        """JSON-safe: the four common keys, then ``status``, ``n_solutions``, ``solutions`` (matrices) and
        ``suggestions`` (the typo finder's)."""
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.solutions,
                "configurations_tested": 1,
                "details": self.details,
                "status": self.status,
                "n_solutions": self.n_solutions,
                "solutions": self.solutions,
                "suggestions": [x.to_dict() for x in self.suggestions],
            }
        )


def stratified_class_folds(classes: Sequence[int], k: int) -> tuple[tuple[int, ...], ...]:
    """Class sizes of the k test folds of scikit-learn's ``StratifiedKFold`` (version >= 0.22).

    The items sorted by class are dealt to the folds in turn (``y_sorted[i::k]``
    goes to fold i), which is how scikit-learn allocates each class.

    Parameters
    ----------
    classes : sequence of int
        Class sizes of the data set.
    k : int
        Number of folds (>= 2).

    Returns
    -------
    tuple of tuple of int
        Per fold, the class sizes.

    Raises
    ------
    ValueError
        A negative class size, ``k`` below 2 or above the number of items.

    References
    ----------
    Fazekas & Kovacs, Table 6 (the binary case).

    Examples
    --------
    >>> from sotalib.consistency import stratified_class_folds
    >>> stratified_class_folds([10, 7, 3], 3)
    ((4, 2, 1), (3, 3, 1), (3, 2, 1))
    """
    classes = _check_classes(classes)
    k = check_int("k", k, low=2)
    if k > max(classes):
        raise ValueError(f"k must be <= the largest class size {max(classes)} (scikit-learn), got {k}")
    y = np.repeat(np.arange(len(classes)), classes)
    return tuple(tuple(np.bincount(y[i::k], minlength=len(classes)).tolist()) for i in range(k))


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
    """Number of (d, s) pairs the exhaustive method screens: per diagonal, the off-diagonal column
    sums q = s - d are the compositions of Q = n - trace into k parts."""
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


# --------------------------------------------------------------------------- integer program
def _highs(prob, time_limit):
    """Solve a PuLP model with SciPy's HiGHS in-process: 'infeasible', 'solution' or 'unknown'.

    Values are written into the PuLP variables.  HiGHS's verdict of infeasibility is not
    trusted (see :func:`sotalib.consistency.check_mos_kfold`): the caller confirms it with CBC.
    """
    from scipy.optimize import Bounds, LinearConstraint, milp

    variables = prob.variables()
    index = {v.name: i for i, v in enumerate(variables)}
    rows, lbs, ubs = [], [], []
    with warnings.catch_warnings():  # PuLP 3.x deprecates the dict view of constraints (our pinned version)
        warnings.simplefilter("ignore", DeprecationWarning)
        constraints = list(prob.constraints.values())
    for con in constraints:
        row = np.zeros(len(variables))
        for v, a in con.items():
            row[index[v.name]] = a
        rhs = -float(con.constant)
        rows.append(row)
        lbs.append(rhs if con.sense >= 0 else -np.inf)
        ubs.append(rhs if con.sense <= 0 else np.inf)
    lb = [-np.inf if v.lowBound is None else v.lowBound for v in variables]
    ub = [np.inf if v.upBound is None else v.upBound for v in variables]
    integrality = [1 if v.cat == "Integer" else 0 for v in variables]
    res = milp(
        c=np.zeros(len(variables)),
        constraints=LinearConstraint(np.array(rows), lbs, ubs) if rows else (),
        integrality=integrality,
        bounds=Bounds(lb, ub),
        options={"time_limit": time_limit},
    )
    if res.status == 2:
        return "infeasible"
    if res.status != 0 or res.x is None:
        return "unknown"
    for v, x in zip(variables, res.x):
        v.varValue = float(x)
    return "solution"


def _solve(units, weights, intervals, zero_division, shift, time_limit, solver="highs", means=None):
    import pulp

    prob = pulp.LpProblem("multiclass", pulp.LpMinimize)
    prob.setObjective(pulp.LpAffineExpression())
    nonlin = {(iv.base, iv.average) for iv in intervals if iv.base in ("ppv", "npv", "fbp") and iv.average != "micro"}
    if any(iv.base == "fbp_means" for iv in intervals):
        nonlin.add(("ppv", "macro"))  # P, the macro precision, of the F-beta of the means
    vars_ = []
    for u, (c, _) in enumerate(units):
        n, k = sum(c), len(c)
        d = [prob.add_variable(f"d{u}_{i}", 0, c[i], cat="Integer") for i in range(k)]
        s = [prob.add_variable(f"s{u}_{i}", 0, n, cat="Integer") for i in range(k)]
        T = pulp.lpSum(d)
        prob.addConstraint(pulp.lpSum(s) == n, f"sum{u}")
        for i in range(k):
            prob.addConstraint(s[i] - d[i] >= 0, f"sd{u}_{i}")
            prob.addConstraint((c[i] - d[i]) + (s[i] - d[i]) + T <= n, f"hall{u}_{i}")
        terms = {}
        if nonlin:
            nbits = max(1, n.bit_length())
            for i in range(k):
                z = [prob.add_variable(f"z{u}_{i}_{b}", 0, 1, cat="Binary") for b in range(nbits)]
                prob.addConstraint(pulp.lpSum((1 << b) * z[b] for b in range(nbits)) == s[i], f"bits{u}_{i}")
                for base, avg in nonlin:
                    key = (base, avg)
                    if key in terms and i < len(terms[key]):
                        continue
                    beta2 = next((float(iv.beta) ** 2 for iv in intervals if (iv.base, iv.average) == key), 1.0)
                    tag = f"{base}{avg[:2]}{u}_{i}"
                    t = prob.add_variable(f"t{tag}", 0, 1)
                    w = [prob.add_variable(f"w{tag}_{b}", 0, 1) for b in range(nbits)]
                    for b in range(nbits):
                        prob.addConstraint(w[b] - z[b] <= 0, f"wa{tag}_{b}")
                        prob.addConstraint(w[b] - t <= 0, f"wb{tag}_{b}")
                        prob.addConstraint(w[b] - t - z[b] >= -1, f"wc{tag}_{b}")
                    ts = pulp.lpSum((1 << b) * w[b] for b in range(nbits))  # = t * s_i
                    tn = n - c[i] - s[i] + d[i]
                    if base == "ppv":
                        prob.addConstraint(ts - d[i] == 0, f"eq{tag}")
                        g = prob.add_variable(f"g{tag}", 0, 1, cat="Binary")  # s_i >= 1
                        prob.addConstraint(s[i] - g >= 0, f"ga{tag}")
                        prob.addConstraint(s[i] - n * g <= 0, f"gb{tag}")
                    elif base == "npv":
                        prob.addConstraint(n * t - ts - tn == 0, f"eq{tag}")
                        g = prob.add_variable(f"g{tag}", 0, 1, cat="Binary")  # s_i <= n - 1
                        prob.addConstraint(n - s[i] - g >= 0, f"ga{tag}")
                        prob.addConstraint(n - s[i] - n * g <= 0, f"gb{tag}")
                    else:
                        prob.addConstraint(beta2 * c[i] * t + ts - (1 + beta2) * d[i] == 0, f"eq{tag}")
                        g = None
                    if g is not None:
                        if zero_division is None:
                            prob.addConstraint(g == 1, f"gz{tag}")
                        elif Fraction(zero_division) == 0:
                            prob.addConstraint(t - g <= 0, f"gz{tag}")
                        else:
                            prob.addConstraint(t + g >= 1, f"gz{tag}")
                    terms.setdefault(key, []).append(t)
        vars_.append((d, s, terms))

    for j, iv in enumerate(intervals):
        rows = []  # (coef, var) with Fraction coefs, plus a constant
        const = Fraction(0)
        cont = False
        for (c, _), w, (d, s, terms) in zip(units, weights, vars_):
            n, k = sum(c), len(c)
            if iv.base == "acc" or (iv.average == "micro" and iv.base in ("sens", "ppv", "fbp")):
                rows += [(w * Fraction(1, n), x) for x in d]
            elif iv.average == "micro" and iv.base in ("spec", "npv"):
                const += w * Fraction(k - 2, k - 1)
                rows += [(w * Fraction(1, (k - 1) * n), x) for x in d]
            elif iv.base == "bacc":
                rows += [(w * Fraction(1, k * c[i]), d[i]) for i in range(k)]
            else:
                a = [Fraction(1, k)] * k if iv.average == "macro" else [Fraction(ci, n) for ci in c]
                if iv.base == "sens":
                    rows += [(w * a[i] / c[i], d[i]) for i in range(k)]
                elif iv.base == "spec":
                    for i in range(k):
                        f = w * a[i] / (n - c[i])
                        const += f * (n - c[i])
                        rows += [(f, d[i]), (-f, s[i])]
                elif iv.base == "fbp_means":
                    rows = None
                    break
                else:
                    cont = True
                    rows += [(w * a[i], terms[(iv.base, iv.average)][i]) for i in range(k)]
        if rows is None:
            _means_rows(prob, j, iv, units[0][0], vars_[0], shift, means or {})
            continue
        L = math.lcm(*[q.denominator for q, _ in rows], const.denominator)
        lo, hi = iv.lo - const, iv.hi - const
        if not cont and L * sum(abs(q) for q, _ in rows) * 10**6 < 2**52:
            expr = pulp.lpSum(int(q * L) * x for q, x in rows)
            prob.addConstraint(expr >= math.ceil(lo * L), f"r{j}lo")
            prob.addConstraint(expr <= math.floor(hi * L), f"r{j}hi")
        else:
            expr = pulp.lpSum(float(q) * x for q, x in rows)
            prob.addConstraint(expr >= float(lo) - shift * max(1.0, abs(float(lo))), f"r{j}lo")
            prob.addConstraint(expr <= float(hi) + shift * max(1.0, abs(float(hi))), f"r{j}hi")
    allv = [x for d, s, _ in vars_ for x in d + s]
    name = "unknown"
    if solver == "highs":  # in-process, no solver start-up; its infeasibility is confirmed by CBC
        name = _highs(prob, time_limit)
    if name != "solution":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            status = prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))
        name = {"Infeasible": "infeasible", "Optimal": "solution"}.get(pulp.LpStatus[status], "unknown")
    if name == "infeasible":
        return "infeasible", None
    if name != "solution" or any(x.value() is None for x in allv):
        return "unknown", None
    sol = tuple((tuple(int(round(x.value())) for x in d), tuple(int(round(x.value())) for x in s)) for d, s, _ in vars_)
    return "solution", sol


def _means_rows(prob, j, iv, c, unit_vars, shift, means):
    """Rows of F = (1 + b^2) P R / (b^2 P + R) in [lo, hi] (P: macro precision, R: macro recall), a relaxation.

    F >= lo is the convex set phi(P, R) = (b^2 / R + 1 / P) / (1 + b^2) <= 1 / lo: tangent planes at the
    points ``means['cuts']`` are valid (phi lies above them), with P >= lo / (1 + b^2) and
    R >= lo b^2 / (1 + b^2).  F <= hi is P <= h(R) = hi R / ((1 + b^2) R - b^2 hi) where
    (1 + b^2) R > b^2 hi; h is convex, so on each interval of R between the breakpoints
    ``means['breaks']`` its secant lies above it: one binary per interval selects it.  A solution
    outside the true set refines the points (see :func:`_ilp`).
    """
    import pulp

    d, _, terms = unit_vars
    k = len(c)
    b2 = float(iv.beta) ** 2
    P = pulp.lpSum(terms[("ppv", "macro")]) * (1.0 / k)
    R = pulp.lpSum((1.0 / (k * c[i])) * d[i] for i in range(k))
    lo, hi = float(iv.lo) - shift, float(iv.hi) + shift
    if lo > 0:
        prob.addConstraint(P >= lo / (1 + b2), f"m{j}p")
        prob.addConstraint(R >= lo * b2 / (1 + b2), f"m{j}r")
        for n_cut, (p0, r0) in enumerate(means.get("cuts", [])):
            phi = (b2 / r0 + 1 / p0) / (1 + b2)
            gp, gr = -1 / ((1 + b2) * p0 * p0), -b2 / ((1 + b2) * r0 * r0)
            prob.addConstraint(gp * P + gr * R <= 1 / lo - phi + gp * p0 + gr * r0, f"m{j}c{n_cut}")
    if hi < 1:
        r_star = b2 * hi / (1 + b2)
        pts = sorted({r_star, 1.0, *[x for x in means.get("breaks", []) if r_star < x < 1]})

        def h(r):
            return hi * r / ((1 + b2) * r - b2 * hi)

        ys = []
        for m, (ra, rb) in enumerate(zip(pts[:-1], pts[1:])):
            y = prob.add_variable(f"m{j}y{m}", 0, 1, cat="Binary")
            ys.append((y, ra, rb))
            if m == 0 and b2 * hi > 0:
                continue  # h is unbounded at r_star: no constraint on the first interval
            slope = (h(rb) - h(ra)) / (rb - ra)
            icpt = h(ra) - slope * ra
            big = 1 + abs(slope) + abs(icpt)
            prob.addConstraint(P - slope * R - icpt <= big * (1 - y), f"m{j}s{m}")
        y0 = prob.add_variable(f"m{j}ylow", 0, 1, cat="Binary")  # R <= r_star: no constraint
        prob.addConstraint(pulp.lpSum(y for y, _, _ in ys) + y0 == 1, f"m{j}one")
        prob.addConstraint(R - pulp.lpSum(rb * y for y, _, rb in ys) - r_star * y0 <= 0, f"m{j}rhi")
        prob.addConstraint(R - pulp.lpSum(ra * y for y, ra, _ in ys) >= 0, f"m{j}rlo")


def _refine(means, units, sol, intervals, zero_division) -> bool:
    """Add the failing solution's (P, R) as a tangent point and its R as a breakpoint; False if nothing to add."""
    c = units[0][0]
    d, s = sol[0]
    P = multiclass_score("ppv", c, d, s, average="macro", zero_division=zero_division)
    R = multiclass_score("sens", c, d, s, average="macro")
    if P is None or P <= 0 or R <= 0:
        return False
    pt = (float(P), float(R))
    if pt in means.setdefault("cuts", []):
        return False
    means["cuts"].append(pt)
    # R becomes an end of the intervals on both sides: the secants there equal h(R) and cut the point off
    # (the second breakpoint lies farther below R than the solver's feasibility tolerance)
    means.setdefault("breaks", []).extend([float(R), float(R) * (1 - 1e-4)])
    return True


def _ilp(units, weights, intervals, zero_division, time_limit):
    if any(iv.base == "fbp_means" for iv in intervals):
        # outer approximation of the F-beta of the means, refined at each unverified solution
        grid = [0.05 * i for i in range(1, 20)]
        means = {"cuts": [(p, r) for p in (0.25, 0.5, 0.75, 0.95) for r in (0.25, 0.5, 0.75, 0.95)], "breaks": grid}
        for _ in range(30):
            state, sol = _solve(units, weights, intervals, zero_division, _DELTA, time_limit, means=means)
            if state == "infeasible":
                return "infeasible", None
            if sol is None:
                return "undecided", None
            if _verify(units, weights, sol, intervals, zero_division):
                return "feasible", sol
            if not _refine(means, units, sol, intervals, zero_division):
                return "undecided", None
        return "undecided", None
    state, sol = _solve(units, weights, intervals, zero_division, _DELTA, time_limit)
    if state == "infeasible":
        return "infeasible", None
    if sol is not None and _verify(units, weights, sol, intervals, zero_division):
        return "feasible", sol
    if state == "solution":
        state2, sol = _solve(units, weights, intervals, zero_division, -_DELTA, time_limit)
        if sol is not None and _verify(units, weights, sol, intervals, zero_division):
            return "feasible", sol
    return "undecided", None


# --------------------------------------------------------------------------- public
def check_multiclass_intervals(
    classes,
    intervals: tuple[MulticlassInterval, ...],
    *,
    folds=None,
    aggregation: str = "single",
    zero_division=0,
    engine: str = "auto",
    max_solutions: int = 100,
    time_limit: float = 60.0,
) -> MulticlassResult:
    """:func:`check_multiclass` for already resolved intervals (``engine`` checked here)."""
    aggregation = check_choice("aggregation", aggregation, AGGREGATIONS)
    method = check_choice("engine", engine, ENGINES)
    if zero_division is not None and Fraction(str(zero_division)) not in (0, 1):
        raise ValueError(f"zero_division must be 0, 1 or None, got {zero_division!r}")
    if folds is None:
        if aggregation == "mos":
            raise ValueError("aggregation 'mos' needs folds")
        units_c = [_check_classes(classes)]
    else:
        units_c = [_fold(f, i) for i, f in enumerate(folds)]
        if not units_c:
            raise ValueError("folds must contain at least one fold")
        kk = {len(f) for f in units_c}
        if len(kk) != 1:
            raise ValueError("folds must all list the same number of classes")
        if classes is not None:
            classes = _check_classes(classes)
            tot = tuple(sum(f[i] for f in units_c) for i in range(len(units_c[0])))
            if tot != classes:
                raise ValueError(f"folds must add up to classes={list(classes)}, got {list(tot)}")
        if aggregation == "single":
            raise ValueError("folds need aggregation 'som' or 'mos'")
        if aggregation == "som":
            units_c = [tuple(sum(f[i] for f in units_c) for i in range(len(units_c[0])))]
    per_class = [iv.label() for iv in intervals if iv.base != "acc" and iv.average != "micro" or iv.base == "bacc"]
    for i, c in enumerate(units_c):
        if min(c) == 0 and per_class:
            raise ValueError(
                f"fold {i + 1} has a class without items: its per-class scores ({', '.join(per_class)}) are undefined"
            )
    units = [(c, None) for c in units_c]
    weights = [Fraction(1, len(units))] * len(units)
    if any(iv.base == "fbp_means" for iv in intervals) and len(units) > 1:
        raise ValueError("f1_of_means is checked on one test set or by Score of Means (not Mean of Scores)")
    diagonals = None
    if method == "auto":
        method = "ilp"
        if len(units) == 1 and math.prod(x + 1 for x in units_c[0]) <= EXHAUSTIVE_LIMIT:
            c = units_c[0]
            diagonals = _diagonals(c, intervals, zero_division)
            if _n_candidates(c, diagonals[0]) <= EXHAUSTIVE_LIMIT:
                method = "exhaustive"
    if method == "exhaustive":
        if len(units) != 1:
            raise ValueError("engine 'exhaustive' checks one test set (or Score of Means)")
        c = units_c[0]
        too_big = f"the test set is too large to enumerate (classes {list(c)}); use engine='ilp'"
        if math.prod(x + 1 for x in c) > 10 * EXHAUSTIVE_LIMIT:
            raise ValueError(too_big)
        if diagonals is None:
            diagonals = _diagonals(c, intervals, zero_division)
        if _n_candidates(c, diagonals[0]) > 10 * EXHAUSTIVE_LIMIT:
            raise ValueError(too_big)
        count, sols = _exhaustive(c, intervals, zero_division, max_solutions, diagonals)
        mats = [build_matrix(c, d, s) for d, s in sols]
        note = f"{count:,} compatible (diagonal, column sums) of every confusion matrix"
        return MulticlassResult(
            count > 0,
            "feasible" if count else "infeasible",
            "exhaustive",
            aggregation,
            tuple(units_c),
            mats,
            count,
            intervals,
            note,
        )
    status, sol = _ilp(units, weights, intervals, zero_division, time_limit)
    mats = []
    if sol is not None:
        per = [build_matrix(c, d, s) for (c, _), (d, s) in zip(units, sol)]
        mats = [per] if aggregation == "mos" else per
    note = {
        "feasible": "integer program: a solution verified in exact arithmetic",
        "infeasible": "integer program: infeasible (no confusion matrix gives the reported values)",
        "undecided": "integer program undecided (time limit or unverifiable solution), counted as consistent",
    }[status]
    return MulticlassResult(
        status != "infeasible", status, "ilp", aggregation, tuple(units_c), mats, None, intervals, note
    )


def _fold(f, i):
    try:
        items = list(f)
    except TypeError:
        raise ValueError(f"folds[{i}] must be a sequence of class counts, got {f!r}") from None
    out = tuple(check_int(f"folds[{i}][{j}]", x, low=0) for j, x in enumerate(items))
    if len(out) < 2 or sum(out) == 0:
        raise ValueError(f"folds[{i}] must list at least 2 class counts and hold at least one item")
    return out


@renamed_arguments(method="engine")
def check_multiclass(
    classes: Sequence[int] | None,
    scores: Mapping[str, float | str],
    *,
    average: str = "macro",
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str = "round",
    beta: float | None = None,
    folds: Sequence[Sequence[int]] | None = None,
    k: int | None = None,
    stratified: bool = False,
    aggregation: str | None = None,
    zero_division: float | None = 0,
    engine: str = "auto",
    max_solutions: int = 100,
    time_limit: float = 60.0,
    typos: bool = True,
) -> MulticlassResult:
    """Can the reported multiclass scores come from a confusion matrix with these class sizes?

    Parameters
    ----------
    classes : sequence of int
        Class sizes c_1, ..., c_k of the test set (of the whole data set with folds or k).
    scores : mapping
        Score name -> reported value.  Names: ``acc``, ``bacc``, ``sens``/``recall``, ``spec``,
        ``ppv``/``precision``, ``npv``, ``f1``/``fbeta`` (the mean of the per-class scores under
        ``average='macro'``, as scikit-learn) and ``f1_of_means`` (the F1 of macro precision and
        macro recall); a prefix ``micro_``, ``macro_`` or ``weighted_`` overrides ``average``.
    average : {'micro', 'macro', 'weighted'}
        The average of the per-class scores (scikit-learn's meaning).
    eps, decimals, rounding, beta
        Numerical uncertainty and F-beta weight, as in :func:`sotalib.consistency.check_single`.
    folds : sequence of sequences, optional
        Class sizes of every test fold (all repetitions); or ``k`` with ``stratified=True``
        for scikit-learn's ``StratifiedKFold`` (:func:`stratified_class_folds`).
    aggregation : {'som', 'mos'}, optional
        Score of Means (scores of the summed confusion matrix, Eq. 7 of Fazekas & Kovacs)
        or Mean of Scores (mean of the fold scores, Eq. 8); required with folds.
    zero_division : 0, 1 or None
        Value of a per-class precision (NPV) whose denominator is zero (None: undefined, never a match).
    engine : {'auto', 'ilp', 'exhaustive'}
        How the verdict is computed (never what it means): 'auto' enumerates small test sets
        exhaustively (exact solution count) and otherwise solves the integer program.
    max_solutions : int
        At most this many matrices are returned as evidence by the exhaustive method.
    k : int, optional
        Number of folds of stratified k-fold (with ``stratified=True``).
    stratified : bool
        The folds of scikit-learn's ``StratifiedKFold`` (needs ``k``).
    time_limit : float
        Seconds for the integer program; if it does not decide, the status is 'undecided'.
    typos : bool
        Run the typo finder (:func:`diagnose_multiclass`) on an inconsistent report of one
        test set small enough to enumerate.

    Returns
    -------
    MulticlassResult
        The verdict, with confusion matrices as evidence and the typo finder's suggestions.

    Raises
    ------
    ValueError
        Bad class sizes or folds, an unknown score name, bad values, folds without an
        aggregation, or an engine that cannot decide the question.

    References
    ----------
    Fazekas & Kovacs, Section 6 (extension to multiclass problems); Eq. 7 (Score of Means)
    and Eq. 8 (Mean of Scores) carried to k classes.

    Examples
    --------
    >>> from sotalib.consistency import check_multiclass
    >>> r = check_multiclass([10, 12, 8], {"acc": "0.8000", "macro_f1": "0.7990"}, decimals=4)
    >>> r.consistent, r.details["method"]
    (True, 'exhaustive')
    """
    intervals = multiclass_intervals(scores, average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    if k is not None or stratified:
        if folds is not None:
            raise ValueError("give either folds or k, not both")
        if k is None or not stratified:
            raise ValueError("k needs stratified=True for multiclass reports (the fold class sizes must be known)")
        folds = stratified_class_folds(classes, k)
    if folds is not None and aggregation is None:
        raise ValueError("aggregation ('som' or 'mos') is required with folds")
    agg = "single" if folds is None else aggregation
    if folds is None and aggregation not in (None, "single"):
        raise ValueError("aggregation needs folds or k (a single test set has none)")
    result = check_multiclass_intervals(
        classes,
        intervals,
        folds=folds,
        aggregation=agg,
        zero_division=zero_division,
        engine=engine,
        max_solutions=max_solutions,
        time_limit=time_limit,
    )
    if typos and result.status == "infeasible" and result.aggregation != "mos":
        c = result.classes[0]
        if math.prod(x + 1 for x in c) <= EXHAUSTIVE_LIMIT:
            kw = dict(average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
            sug = _typos(c, intervals, list(scores), list(scores.values()), kw, zero_division, 200_000)
            result = dataclasses.replace(result, suggestions=sug)
    return result


def diagnose_multiclass(
    classes: Sequence[int],
    scores: Mapping[str, float | str],
    *,
    average: str = "macro",
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str = "round",
    beta: float | None = None,
    zero_division: float | None = 0,
    limit: int = 200_000,
) -> list[Suggestion]:
    """A typo finder for one multiclass test set: which single reported score, mistyped, explains the report?

    As :func:`sotalib.consistency.diagnose`: for each reported score, the values a
    mistyped report may have meant (:func:`sotalib.consistency.typo_candidates`: a few
    units of the last decimal, one mistyped digit, two swapped digits), nearest first,
    are tried against the values the *other* scores allow -- every (diagonal, column
    sums) they admit, enumerated -- and the first that fits is proposed after
    :func:`check_multiclass` has verified the corrected report.  Returns
    :class:`sotalib.consistency.Suggestion` objects (``example``: a confusion matrix of
    the corrected report), sorted by the size of the change; empty if the report is
    consistent or no plausible typo explains it.  A score is skipped when the others
    leave more than ``EXHAUSTIVE_LIMIT`` candidates to enumerate or admit more than
    ``limit`` solutions.

    Parameters
    ----------
    classes : sequence of int
        Class sizes of the test set.
    scores, average, eps, decimals, rounding, beta, zero_division
        As in :func:`check_multiclass`.
    limit : int
        Skip a score whose other scores admit more solutions than this.

    Returns
    -------
    list of Suggestion
        Sorted by the size of the change; empty when consistent or no plausible typo explains it.

    Raises
    ------
    ValueError
        Bad class sizes, score names or values.

    References
    ----------
    Fazekas & Kovacs, Section 5 (typos) and Section 6 (multiclass problems).

    Examples
    --------
    >>> from sotalib.consistency import diagnose_multiclass
    >>> s = diagnose_multiclass([10, 12, 8], {"acc": "0.8000", "macro_f1": "0.8502"}, decimals=4)
    >>> [(x.score, x.suggested, x.typo) for x in s]
    [('macro_f1', 0.8052, 'swapped digits')]
    """
    c = _check_classes(classes)
    kw = dict(average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    ivs = multiclass_intervals(scores, **kw)
    if _exhaustive(c, ivs, zero_division, 1)[0]:
        return []
    return _typos(c, ivs, list(scores), list(scores.values()), kw, zero_division, limit)


def _typos(c, ivs, names, written, kw, zero_division, limit) -> list[Suggestion]:
    """The typo finder on the intervals read once (only candidate values are read here)."""
    decimals = kw["decimals"]
    out = []
    for i, (name, iv) in enumerate(zip(names, ivs)):
        others = tuple(x for x in ivs if x is not iv)
        if not others:
            continue
        diagonals = _diagonals(c, others, zero_division)
        if _n_candidates(c, diagonals[0]) > EXHAUSTIVE_LIMIT:
            continue  # the other scores leave too much freedom to enumerate
        count, sols = _exhaustive(c, others, zero_division, limit, diagonals)
        if not count or count > limit:
            continue
        vals = sorted(
            float(v) for d, s_ in sols if (v := multiclass_score(iv, c, d, s_, zero_division=zero_division)) is not None
        )
        if not vals:
            continue
        rep = as_decimal(written[i])
        nd = report_decimals(rep, decimals, written[i])
        for cand, kind in typo_candidates(rep, nd, 0, 1):
            text = f"{float(cand):.{nd}f}"
            (civ,) = multiclass_intervals({name: text}, **kw)
            k = bisect.bisect_left(vals, float(civ.lo) - 1e-9)
            if k == len(vals) or vals[k] > float(civ.hi) + 1e-9:
                continue  # no value the other scores allow is near this one
            fixed = ivs[:i] + (civ,) + ivs[i + 1 :]
            r = check_multiclass_intervals(c, fixed, zero_division=zero_division, engine="exhaustive")
            if r.consistent:
                out.append(
                    Suggestion(
                        str(name),
                        float(rep),
                        float(cand),
                        float(cand - rep),
                        int(r.n_solutions),
                        r.solutions[0],
                        "single",
                        nd,
                        kind,
                    )
                )
                break
    return sorted(out, key=lambda x: abs(x.change))
