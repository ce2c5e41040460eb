"""Mean of Scores: the integer linear program of Fazekas & Kovacs (Section 4.3, Eqs. 8-10).

When scores are averaged over evaluation sets (folds, repetitions, datasets),
the report is consistent when integers 0 <= tp_i <= p_i, 0 <= tn_i <= n_i
exist whose mean scores fall in the reported intervals (Eq. 8).  For the
scores linear in tp and tn (acc, sens, spec, bacc) this is an integer linear
program (Eq. 9), optionally with the per-fold minimum and maximum (Eq. 10).

Certainty.  Two exact shortcuts decide many problems without a solver: a
score whose folds share one denominator d (accuracy with equal fold sizes,
sensitivity with equal p_i, ...) needs an *integer* total in an interval,
and an undefined fold score (p_i = 0 with sensitivity) rules the
configuration out.  Otherwise CBC (bundled with PuLP) solves Eq. 9 written
with *integer* coefficients: each row is multiplied by the common denominator
L of its fold scores, so its left-hand side is an integer and the bounds
become exactly ceil(N L lo) and floor(N L hi) -- no tolerance is involved and
CBC works on integer data (rows whose L would exceed exact float64 integers
keep rational coefficients with bounds widened by 1e-7, more than CBC's
feasibility tolerance).  Any solution CBC returns is verified in exact
rational arithmetic.  A solution failing that check triggers a second solve
with bounds narrowed by 1e-7; a time-out or a second failure gives the status
``"undecided"``, reported as consistent: an inconsistency is only ever
claimed when it is certain.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._json import json_safe
from .._result import Result
from .._validate import ParameterError
from ._folds import check_folds as _check_folds
from ._intervals import ScoreInterval, ToleranceOptions, score_intervals
from ._scores import LINEAR_SCORES

__all__ = ["MosResult", "MosSearch", "check_mos", "search_configurations"]

_DELTA = 1e-7


@dataclass(frozen=True, repr=False)
class MosResult(Result):
    """Verdict of the Mean-of-Scores test for one fold configuration.

    Attributes
    ----------
    consistent : bool
        ``status != "infeasible"`` (False is a proof: no per-fold counts give the reported means).
    evidence : list
        ``[((tp_1, tn_1), ...)]``, the verified per-fold solution, when one was found; else empty.
    configurations_tested : int
        Always 1: the known fold configuration.
    details : dict
        ``status``, ``engine`` and ``folds``.
    status : {'feasible', 'infeasible', 'undecided'}
        'feasible' comes with a verified solution; 'infeasible' is certain.
    folds : tuple of (p_i, n_i)
    engine : str
        How it was decided: 'undefined', 'integer-total', 'ilp'.
    """

    consistent: bool
    status: str
    folds: tuple
    evidence: list = field(default_factory=list)
    engine: str = "ilp"

    @property
    def configurations_tested(self) -> int:
        """One known fold configuration."""
        return 1

    @property
    def details(self) -> dict:
        """``status``, ``engine`` and the ``folds`` tested."""
        return {"status": self.status, "engine": self.engine, "folds": [list(f) for f in self.folds]}

    def to_dict(self) -> dict:
        """JSON-safe form: the four common keys, then ``status``, ``folds``, ``solution``, ``engine``.

        ``solution`` is the evidence's one solution, or None.
        """
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": 1,
                "details": self.details,
                "status": self.status,
                "folds": self.folds,
                "solution": self.evidence[0] if self.evidence else None,
                "engine": self.engine,
            }
        )


def _coef(base: str, p: int, n: int):
    """Coefficients (of tp, of tn) of a linear score of one fold."""
    if base == "acc":
        return Fraction(1, p + n), Fraction(1, p + n)
    if base == "sens":
        return Fraction(1, p), Fraction(0)
    if base == "spec":
        return Fraction(0), Fraction(1, n)
    if base == "bacc":
        return Fraction(1, 2 * p), Fraction(1, 2 * n)
    raise KeyError(base)


def _defined(base: str, p: int, n: int) -> bool:
    return {"acc": p + n > 0, "sens": p > 0, "spec": n > 0, "bacc": p > 0 and n > 0}[base]


def _verify(folds, sol, intervals, bounds) -> bool:
    N = len(folds)
    for iv in intervals:
        tot = Fraction(0)
        for (p, n), (tp, tn) in zip(folds, sol):
            a, b = _coef(iv.base, p, n)
            tot += a * tp + b * tn
        if not (iv.lo <= tot / N <= iv.hi):
            return False
    for iv_lo, iv_hi in bounds:
        for (p, n), (tp, tn) in zip(folds, sol):
            a, b = _coef(iv_lo.base, p, n)
            v = a * tp + b * tn
            if not (iv_lo.lo <= v <= iv_hi.hi):
                return False
    return all(0 <= tp <= p and 0 <= tn <= n for (p, n), (tp, tn) in zip(folds, sol))


def _integer_total_infeasible(folds, iv: ScoreInterval) -> bool:
    """Exact shortcut: all folds share one denominator d -> sum of numerators is an integer."""
    N = len(folds)
    if iv.base == "acc":
        dens, caps = [p + n for p, n in folds], [p + n for p, n in folds]
    elif iv.base == "sens":
        dens, caps = [p for p, _ in folds], [p for p, _ in folds]
    elif iv.base == "spec":
        dens, caps = [n for _, n in folds], [n for _, n in folds]
    else:
        ps, ns = {p for p, _ in folds}, {n for _, n in folds}
        if len(ps) != 1 or len(ns) != 1:
            return False
        p, n = folds[0]
        # mean bacc = (n * sum tp + p * sum tn) / (2 p n N): numerator integer in [0, 2 p n N]
        lo = math.ceil(iv.lo * 2 * p * n * N)
        hi = math.floor(iv.hi * 2 * p * n * N)
        lo, hi = max(lo, 0), min(hi, 2 * p * n * N)
        if lo > hi:
            return True
        g = math.gcd(n, p)
        # n*a + p*b with 0<=a<=N p, 0<=b<=N n reaches only multiples of gcd(n, p)
        return (hi // g) * g < lo
    if len(set(dens)) != 1:
        return False
    d = dens[0]
    lo = max(math.ceil(iv.lo * d * N), 0)
    hi = min(math.floor(iv.hi * d * N), sum(caps))
    return lo > hi


def _row(base, folds):
    """Integer coefficients (a_i of tp_i, b_i of tn_i) and scale L: fold score_i = (a_i tp_i + b_i tn_i) / L."""
    coefs = [_coef(base, p, n) for p, n in folds]
    L = math.lcm(*[c.denominator for pair in coefs for c in pair])
    return [(int(a * L), int(b * L)) for a, b in coefs], L


def _solve_highs(folds, intervals, bounds, time_limit: float):
    """The same integer program with SciPy's HiGHS (in-process; used for simulations)."""
    from scipy.optimize import Bounds, LinearConstraint, milp  # lazy: SciPy's optimize loads on the first solve

    N = len(folds)
    rows, lbs, ubs = [], [], []
    for iv in intervals:
        coefs, L = _row(iv.base, folds)
        rows.append([a for a, _ in coefs] + [b for _, b in coefs])
        lbs.append(math.ceil(iv.lo * N * L))
        ubs.append(math.floor(iv.hi * N * L))
        if L * sum(p + n for p, n in folds) * 4 >= 2**50:
            return "unknown", None
    for iv_lo, iv_hi in bounds:
        coefs, L = _row(iv_lo.base, folds)
        for i in range(N):
            row = [0] * (2 * N)
            row[i], row[N + i] = coefs[i]
            rows.append(row)
            lbs.append(math.ceil(iv_lo.lo * L))
            ubs.append(math.floor(iv_hi.hi * L))
    if any(lo > hi for lo, hi in zip(lbs, ubs)):
        return "infeasible", None
    caps = [p for p, _ in folds] + [n for _, n in folds]
    res = milp(
        c=np.zeros(2 * N),
        constraints=LinearConstraint(np.array(rows, float), lbs, ubs),
        integrality=np.ones(2 * N),
        bounds=Bounds(0, caps),
        options={"time_limit": time_limit, "presolve": False},
    )  # see sotalib.consistency._mos_kfold._highs
    if res.status == 2:
        return "infeasible", None
    if res.status != 0 or res.x is None:
        return "unknown", None
    x = [int(round(v)) for v in res.x]
    return "solution", tuple(zip(x[:N], x[N:]))


def _solve(folds, intervals, bounds, shift: float, time_limit: float, solver: str = "cbc"):
    if solver == "highs":
        return _solve_highs(folds, intervals, bounds, time_limit)
    return _solve_cbc(folds, intervals, bounds, shift, time_limit)


def _solve_cbc(folds, intervals, bounds, shift: float, time_limit: float):
    """Solve Eq. 9 (+ Eq. 10) with CBC: ('infeasible' | 'solution' | 'unknown', solution).

    Rows are written with integer coefficients (multiplied by the common
    denominator L) and integer right-hand sides ceil(N L lo), floor(N L hi):
    an exact reformulation, since the left-hand side is an integer.  When L
    is too large for exact float64 integers the rational row is used with its
    bounds moved outward by ``shift``.
    """
    import pulp  # lazy: PuLP (and its CBC) load on the first solve, not with the package

    N = len(folds)
    prob = pulp.LpProblem("mos", pulp.LpMinimize)
    tps = [prob.add_variable(f"tp{i}", 0, p, cat="Integer") for i, (p, _) in enumerate(folds)]
    tns = [prob.add_variable(f"tn{i}", 0, n, cat="Integer") for i, (_, n) in enumerate(folds)]
    prob.setObjective(pulp.LpAffineExpression())  # feasibility only: no optimality proof

    def add(name, coefs, L, lo, hi, idx):
        if L * max(sum(a * p + b * n for (a, b), (p, n) in zip(coefs, folds)), 1) < 2**50:
            expr = pulp.lpSum(coefs[i][0] * tps[i] + coefs[i][1] * tns[i] for i in idx)
            prob.addConstraint(expr >= math.ceil(lo * L), f"{name}lo")
            prob.addConstraint(expr <= math.floor(hi * L), f"{name}hi")
        else:
            expr = pulp.lpSum((coefs[i][0] / L) * tps[i] + (coefs[i][1] / L) * tns[i] for i in idx)
            prob.addConstraint(expr >= float(lo) - shift * max(1, abs(float(lo))), f"{name}lo")
            prob.addConstraint(expr <= float(hi) + shift * max(1, abs(float(hi))), f"{name}hi")

    for j, iv in enumerate(intervals):
        coefs, L = _row(iv.base, folds)
        add(f"s{j}", coefs, L, iv.lo * N, iv.hi * N, range(N))
    for j, (iv_lo, iv_hi) in enumerate(bounds):
        coefs, L = _row(iv_lo.base, folds)
        for i in range(N):
            add(f"b{j}_{i}", coefs, L, iv_lo.lo, iv_hi.hi, [i])
    with warnings.catch_warnings():
        # PuLP 3.x deprecates its bundled-CBC wrapper in favour of PuLP 4's; it is the solver we pin
        warnings.simplefilter("ignore", DeprecationWarning)
        status = prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))
    name = pulp.LpStatus[status]
    if name == "Infeasible":
        return "infeasible", None
    if name != "Optimal":
        return "unknown", None
    # A count that appears in no constraint (e.g. every tn when only sensitivity is reported) has
    # no value from CBC; any value in its bounds is feasible, and the caller verifies exactly.
    return "solution", tuple((_value(t), _value(u)) for t, u in zip(tps, tns))


def _value(v) -> int:
    """A solved PuLP variable's integer value; its lower bound when no constraint involves it."""
    x = v.value()
    return int(round(x)) if x is not None else int(v.lowBound or 0)


def check_mos_intervals(
    folds,
    intervals: tuple[ScoreInterval, ...],
    bounds: tuple[tuple[ScoreInterval, ScoreInterval], ...] = (),
    time_limit: float = 20.0,
    solver: str = "cbc",
) -> MosResult:
    """:func:`check_mos` for resolved intervals; ``bounds`` pairs (min, max) intervals of Eq. 10."""
    folds = tuple(_check_folds(folds))
    for iv in intervals:
        if iv.base not in LINEAR_SCORES:
            raise ValueError(
                f"the Mean-of-Scores test supports {', '.join(LINEAR_SCORES)} "
                f"(Eq. 9) and their synonyms, got {iv.spec.name!r}"
            )
    for iv in list(intervals) + [b for pair in bounds for b in pair]:
        if not all(_defined(iv.base, p, n) for p, n in folds):
            return MosResult(False, "infeasible", folds, [], "undefined")
    for iv in intervals:
        if _integer_total_infeasible(folds, iv):
            return MosResult(False, "infeasible", folds, [], "integer-total")
    state, sol = _solve(folds, intervals, bounds, _DELTA, time_limit, solver)
    if state == "infeasible" and solver == "highs":
        # HiGHS (SciPy 1.17) has called feasible programs infeasible (sotalib.consistency.check_mos_kfold):
        # only CBC's verdict of infeasibility is used
        state, sol = _solve(folds, intervals, bounds, _DELTA, time_limit, "cbc")
    if state == "infeasible":
        return MosResult(False, "infeasible", folds, [], "ilp")
    if sol is not None and _verify(folds, sol, intervals, bounds):
        return MosResult(True, "feasible", folds, [sol], "ilp")
    if state == "solution":  # within the solver's tolerance of a bound: try strictly inside
        state2, sol = _solve(folds, intervals, bounds, -_DELTA, time_limit, solver)
        if sol is not None and _verify(folds, sol, intervals, bounds):
            return MosResult(True, "feasible", folds, [sol], "ilp")
    return MosResult(True, "undecided", folds, [], "ilp")


def fold_bounds(
    fold_min: Mapping[str, float | str] | None,
    fold_max: Mapping[str, float | str] | None,
    tolerance: ToleranceOptions,
) -> tuple[tuple[ScoreInterval, ScoreInterval], ...]:
    """(min, max) interval pairs of Eq. 10 from the reported per-fold minimum and maximum.

    ``tolerance`` holds the report's ``eps``, ``decimals`` and ``rounding``.
    """
    fold_min, fold_max = dict(fold_min or {}), dict(fold_max or {})
    if set(fold_min) != set(fold_max):
        raise ParameterError("fold_min and fold_max must name the same scores", "fold_min", "fold_max")
    if not fold_min:
        return ()
    lows = score_intervals(fold_min, **tolerance, what="fold_min")  # messages name the option given
    highs = score_intervals({k: fold_max[k] for k in fold_min}, **tolerance, what="fold_max")
    bounds = []
    for name, a, b in zip(fold_min, lows, highs):
        if a.base not in LINEAR_SCORES:
            raise ValueError(f"fold_min and fold_max support {', '.join(LINEAR_SCORES)} (Eq. 10), got {name!r}")
        if a.spec.complement:
            a, b = b, a
        bounds.append((a, b))
    return tuple(bounds)


def check_mos(
    folds: Sequence[tuple[int, int]],
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    fold_min: Mapping[str, float | str] | None = None,
    fold_max: Mapping[str, float | str] | None = None,
) -> MosResult:
    """Test whether mean-of-folds scores are consistent with the folds.

    The report is consistent when integers ``0 <= tp_i <= p_i``,
    ``0 <= tn_i <= n_i`` exist whose mean scores fall in the reported
    intervals: an integer linear program for the scores linear in the counts
    (acc, sens, spec, bacc), optionally with the per-fold minimum and maximum.
    A solution is verified in rational arithmetic; "infeasible" is certain.

    Parameters
    ----------
    folds : sequence of (p_i, n_i)
        The evaluation sets (all folds of all repetitions and datasets).
    scores : mapping
        acc, sens, spec, bacc (or synonyms, complements) -> reported mean.
    eps, decimals, rounding
        Numerical uncertainty, as in :func:`sotalib.consistency.check_single`.
    fold_min, fold_max : mapping, optional
        Reported minimum and maximum over the folds of a score; give both, for the same names.

    Returns
    -------
    MosResult
        ``status`` 'feasible' (with a verified per-fold solution), 'infeasible' or 'undecided'
        (a solver time-out, counted as consistent).

    Raises
    ------
    ValueError
        Bad folds, a score that is not linear in the counts, bad values, or ``fold_min`` and
        ``fold_max`` naming different scores.

    References
    ----------
    Fazekas & Kovacs, Section 4.3, Eqs. 8-9 (the program) and Eq. 10 (minimum and maximum).

    Examples
    --------
    >>> from sotalib.consistency import check_mos
    >>> folds = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]
    >>> check_mos(folds, {"acc": "0.8280", "sens": "0.7391", "spec": "0.8741"}, eps="1e-4").consistent
    False
    >>> check_mos(folds, {"acc": "0.8290", "sens": "0.7391", "spec": "0.8741"}, eps="1e-4").status
    'feasible'
    """
    kw: ToleranceOptions = dict(eps=eps, decimals=decimals, rounding=rounding)
    intervals = score_intervals(scores, **kw)
    return check_mos_intervals(folds, intervals, fold_bounds(fold_min, fold_max, kw))


@dataclass(frozen=True, repr=False)
class MosSearch(Result):
    """Mean-of-Scores test over many fold configurations (Section 4.4.3).

    Attributes
    ----------
    consistent : bool
        At least one configuration is not infeasible.
    n_feasible : int
        Configurations with a verified solution (plus undecided ones).
    configurations_tested : int
        Configurations tested.
    feasible : list of MosResult
        The consistent configurations found (at most ``keep``).
    engines : dict
        How many configurations each engine decided ('undefined', 'integer-total', 'ilp').
    """

    consistent: bool
    n_feasible: int
    configurations_tested: int
    feasible: list = field(default_factory=list)
    engines: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-safe form of the result.

        Keys: consistent, n_feasible, configurations_tested, feasible (each a
        :class:`MosResult` dict), engines.
        """
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "n_feasible": int(self.n_feasible),
                "configurations_tested": int(self.configurations_tested),
                "feasible": [r.to_dict() for r in self.feasible],
                "engines": dict(self.engines),
            }
        )


def search_configurations(
    configurations: Iterable[Sequence[tuple[int, int]]],
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    stop_at_first: bool = False,
    keep: int = 100,
) -> MosSearch:
    """The Mean-of-Scores test on every fold configuration of an iterable.

    When a paper does not say how its folds were drawn, every configuration
    k-fold cross-validation can produce is tested (they come from
    :func:`sotalib.consistency.kfold_configurations`); the report is
    consistent if one of them is.

    Parameters
    ----------
    configurations : iterable of sequences of (p_i, n_i)
        The fold configurations to test.
    scores : mapping
        acc, sens, spec, bacc (or synonyms, complements) -> reported mean.
    eps, decimals, rounding
        Numerical uncertainty, as in :func:`sotalib.consistency.check_single`.
    stop_at_first : bool
        Stop at the first consistent configuration.
    keep : int
        Keep at most this many consistent configurations' results.

    Returns
    -------
    MosSearch
        How many configurations were tested and how many are feasible.

    Raises
    ------
    ValueError
        Bad scores or folds, as in :func:`check_mos`.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.3 and Algorithm 2.

    Examples
    --------
    >>> from sotalib.consistency import kfold_configurations, search_configurations
    >>> configs = kfold_configurations(10, 20, 3)
    >>> r = search_configurations(configs, {"acc": "0.9", "sens": "0.8"}, decimals=2)
    >>> r.consistent, r.n_feasible, r.configurations_tested
    (True, 2, 13)
    """
    intervals = score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding)
    tested, nfeas = 0, 0
    found: list[MosResult] = []
    engines: dict[str, int] = {}
    for folds in configurations:
        r = check_mos_intervals(folds, intervals)
        tested += 1
        engines[r.engine] = engines.get(r.engine, 0) + 1
        if r.consistent:
            nfeas += 1
            if len(found) < keep:
                found.append(r)
            if stop_at_first:
                break
    return MosSearch(nfeas > 0, nfeas, tested, found, engines)


def _nearest_mean(folds, others, base, target: Fraction, up: bool, time_limit: float = 20.0):
    """Nearest achievable mean of ``base`` at or above (``up``) / below ``target``.

    Given the other reported scores (Eq. 9 rows); None if none or undecided.  Integer rows only.
    """
    import pulp  # lazy: PuLP (and its CBC) load on the first solve, not with the package

    N = len(folds)
    coefs, L = _row(base, folds)
    if L * sum(p + n for p, n in folds) * N >= 2**50:
        return None
    prob = pulp.LpProblem("nearest", pulp.LpMinimize if up else pulp.LpMaximize)
    tps = [prob.add_variable(f"tp{i}", 0, p, cat="Integer") for i, (p, _) in enumerate(folds)]
    tns = [prob.add_variable(f"tn{i}", 0, n, cat="Integer") for i, (_, n) in enumerate(folds)]
    obj = pulp.lpSum(a * tps[i] + b * tns[i] for i, (a, b) in enumerate(coefs))
    prob.setObjective(obj)
    if up:
        prob.addConstraint(obj >= math.ceil(target * N * L), "target")
    else:
        prob.addConstraint(obj <= math.floor(target * N * L), "target")
    for j, iv in enumerate(others):
        c2, L2 = _row(iv.base, folds)
        if L2 * sum(p + n for p, n in folds) * N >= 2**50:
            return None
        e = pulp.lpSum(a * tps[i] + b * tns[i] for i, (a, b) in enumerate(c2))
        prob.addConstraint(e >= math.ceil(iv.lo * N * L2), f"s{j}lo")
        prob.addConstraint(e <= math.floor(iv.hi * N * L2), f"s{j}hi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        status = pulp.LpStatus[prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))]
    if status != "Optimal" or any(v.value() is None for v in tps + tns):
        return None
    value = sum(a * int(round(tps[i].value())) + b * int(round(tns[i].value())) for i, (a, b) in enumerate(coefs))
    return Fraction(value, N * L)
