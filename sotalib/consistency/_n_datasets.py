"""Two-level aggregation: several data sets, each evaluated by k-fold, averaged within and then across.

Data set j has ``p_j`` positives and ``n_j`` negatives and folds (explicit, or
scikit-learn's stratified k-fold, Table 6 of Fazekas & Kovacs).  Within a data
set the folds are aggregated by Score of Means (the score of the summed
confusion matrix, Eq. 7) or Mean of Scores (mean of fold scores, Eq. 5), each
data set its own way; across data sets the data-set scores are averaged (mean
of means, ``across='mos'``) or, when every data set is aggregated by SoM, the
summed matrices may be scored once (``across='som'``).

With ``across='mos'`` every reported value is a weighted mean of per-unit
scores -- a unit is a fold (weight ``1 / (D k_j)``) of a data set aggregated by
MoS, or the totals of a data set aggregated by SoM (weight ``1 / D``) -- linear
in the unknown (tp, tn) of every unit for acc, sens, spec and bacc.  The
integer program (Eq. 9 with these weights) is written with integer
coefficients and exactly rounded bounds.  A small program (a few units) is
searched exactly in integer arithmetic (:mod:`sotalib.consistency._integer_search`,
``engine='enumeration'``); a larger one is solved by SciPy's HiGHS (an
infeasibility it reports is confirmed by CBC).  Any solution is verified in
rational arithmetic; an infeasible program is a proof.
``across='som'`` is the single-test-set check on the grand totals (any score).
This covers ``mlscorecheck``'s ``check_n_datasets_mos_kfold_som``,
``check_n_datasets_mos_known_folds_mos`` and ``check_n_datasets_som_kfold_som``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._json import json_safe
from .._result import Result
from .._validate import check_choice, check_int
from ._folds import parse_folds, stratified_folds
from ._integer_search import search_box
from ._intervals import score_intervals
from ._mos import _coef, _defined
from ._scores import LINEAR_SCORES
from ._single import SingleResult, check_intervals

__all__ = ["TwoLevelResult", "check_n_datasets"]


@dataclass(frozen=True, repr=False)
class TwoLevelResult(Result):
    """Verdict on a report averaged over several data sets.

    Attributes
    ----------
    consistent : bool
        Some per-unit (tp, tn) reproduce every reported value (False is a proof).
    evidence : list
        One solution: per data set, the list of (tp, tn) of its units (folds for MoS,
        the totals for SoM); empty when inconsistent or undecided.
    configurations_tested : int
        1: the stated folds of every data set.
    details : dict
        ``status``, ``engine`` ('enumeration', 'ilp' or 'undefined'), ``across``, ``within`` and the units (``[p, n]`` per data set).
    """

    consistent: bool
    status: str
    across: str
    within: tuple
    units: tuple
    evidence: list = field(default_factory=list)
    engine: str = "ilp"

    @property
    def configurations_tested(self) -> int:
        return 1

    @property
    def details(self) -> dict:
        return {
            "status": self.status,
            "engine": self.engine,
            "across": self.across,
            "within": list(self.within),
            "units": [[list(u) for u in ds] for ds in self.units],
        }

    def to_dict(self) -> dict:
        """JSON-safe: the four common keys, then ``status`` and ``solutions`` (the evidence)."""
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": 1,
                "details": self.details,
                "status": self.status,
                "solutions": self.evidence,
            }
        )


def _dataset_folds(ds, i):
    if not isinstance(ds, Mapping):
        raise ValueError(f"datasets[{i}] must be a mapping with p, n and folds or k, got {ds!r}")
    folds, k = ds.get("folds"), ds.get("k")
    if folds is not None and k is not None:
        raise ValueError(f"datasets[{i}]: give either folds or k, not both")
    if folds is not None:
        if isinstance(folds, str):
            folds = parse_folds(folds)
        folds = tuple(
            (check_int(f"datasets[{i}] fold p", a, low=0), check_int(f"datasets[{i}] fold n", b, low=0))
            for a, b in folds
        )
        if "p" in ds and "n" in ds and (sum(a for a, _ in folds), sum(b for _, b in folds)) != (ds["p"], ds["n"]):
            raise ValueError(f"datasets[{i}]: folds must add up to p={ds['p']}, n={ds['n']}")
        return folds
    p = check_int(f"datasets[{i}] p", ds.get("p"), low=1)
    n = check_int(f"datasets[{i}] n", ds.get("n"), low=1)
    if k is None:
        return ((p, n),)
    return stratified_folds(p, n, check_int(f"datasets[{i}] k", k, low=2))


def check_n_datasets(  # noqa: C901 (validation, search and solvers in order; to be split)
    datasets: Sequence[Mapping],
    scores: Mapping[str, float | str],
    *,
    within: str | Sequence[str] = "mos",
    across: str = "mos",
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    time_limit: float = 60.0,
) -> TwoLevelResult | SingleResult:
    """Decide whether scores averaged over several k-fold evaluated data sets are consistent.

    Parameters
    ----------
    datasets : sequence of mappings
        Each with ``p`` and ``n`` and ``k`` (stratified k-fold, Table 6) or ``folds``
        (``[(p_1, n_1), ...]`` or ``"p1:n1,..."``); neither: one test set.
    scores : mapping
        Score name -> reported mean across data sets (acc, sens, spec, bacc for ``across='mos'``).
    within : {'som', 'mos'} or a sequence of them (one per data set)
        How each data set's folds are aggregated.
    across : {'mos', 'som'}
        Mean of the data-set scores, or (every data set by SoM) the score of the summed matrices.
    eps, decimals, rounding
        Numerical uncertainty, as in :func:`sotalib.consistency.check_single`.
    time_limit : float
        Seconds for the solver; if it does not decide, the status is 'undecided'.

    Returns
    -------
    TwoLevelResult or SingleResult
        The verdict; for ``across='som'`` the :class:`sotalib.consistency.SingleResult` on the totals.

    Raises
    ------
    ValueError
        A data set without its counts, bad ``within`` or ``across``, a score that is not
        linear in the counts under Mean of Scores, or bad values.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.2 (several data sets), Eqs. 7 and 9.

    Examples
    --------
    >>> from sotalib.consistency import check_n_datasets
    >>> datasets = [{"p": 40, "n": 60, "k": 5}, {"p": 30, "n": 70, "k": 5}]
    >>> scores = {"acc": "0.85", "sens": "0.70"}
    >>> check_n_datasets(datasets, scores, within=["som", "mos"], decimals=2).consistent
    True
    """
    if not datasets:
        raise ValueError("datasets must contain at least one data set")
    across = check_choice("across", across, ("som", "mos"))
    D = len(datasets)
    withins = (within,) * D if isinstance(within, str) else tuple(within)
    if len(withins) != D:
        raise ValueError(f"within must be one aggregation or one per data set ({D}), got {len(withins)}")
    withins = tuple(check_choice("within", w, ("som", "mos")) for w in withins)
    intervals = score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding)
    folds = [_dataset_folds(ds, i) for i, ds in enumerate(datasets)]
    if across == "som":
        if "mos" in withins:
            raise ValueError("across='som' scores the summed confusion matrices: every data set needs within='som'")
        P = sum(a for f in folds for a, _ in f)
        N = sum(b for f in folds for _, b in f)
        return check_intervals(P, N, intervals, max_solutions=100)
    nonlin = [iv.spec.name for iv in intervals if iv.base not in LINEAR_SCORES]
    if nonlin:
        raise ValueError(
            f"a mean across data sets supports {', '.join(LINEAR_SCORES)} (Eq. 9), got {', '.join(nonlin)}"
        )
    units, weights, owner = [], [], []
    for j, (f, w) in enumerate(zip(folds, withins)):
        us = list(f) if w == "mos" else [(sum(a for a, _ in f), sum(b for _, b in f))]
        for u in us:
            units.append(u)
            weights.append(Fraction(1, D * len(us)))
            owner.append(j)
    unit_groups = tuple(tuple(u for u, o in zip(units, owner) if o == j) for j in range(D))

    def result(status, sol=None, engine="ilp"):
        evidence = []
        if sol is not None:
            evidence = [[[list(s) for s, o in zip(sol, owner) if o == j] for j in range(D)]]
        return TwoLevelResult(status != "infeasible", status, across, withins, unit_groups, evidence, engine)

    for iv in intervals:
        if not all(_defined(iv.base, p, n) for p, n in units):
            return result("infeasible", engine="undefined")

    def value(iv, sol):
        return sum(
            w * (a * tp + b * tn) for w, (p, n), (tp, tn) in zip(weights, units, sol) for a, b in [_coef(iv.base, p, n)]
        )

    def verify(sol):
        return all(0 <= tp <= p and 0 <= tn <= n for (p, n), (tp, tn) in zip(units, sol)) and all(
            iv.lo <= value(iv, sol) <= iv.hi for iv in intervals
        )

    # integer rows: L * (weighted mean score) is an integer combination of the counts
    rows, lbs, ubs = [], [], []
    for iv in intervals:
        coefs = [(w * a, w * b) for w, (p, n) in zip(weights, units) for a, b in [_coef(iv.base, p, n)]]
        L = math.lcm(*[c.denominator for pair in coefs for c in pair])
        if L * sum(p + n for p, n in units) >= 2**50:
            raise ValueError("the data sets are too large for an exact integer program (common denominator)")
        rows.append([int(a * L) for a, _ in coefs] + [int(b * L) for _, b in coefs])
        lbs.append(math.ceil(iv.lo * L))
        ubs.append(math.floor(iv.hi * L))
    if any(lo > hi for lo, hi in zip(lbs, ubs)):
        return result("infeasible")
    # a few units: search the integer points exactly (no solver set-up); too many: the solvers
    state, sol = _search(units, weights, rows, lbs, ubs)
    if state == "infeasible":
        return result("infeasible", engine="enumeration")
    if state == "feasible" and verify(sol):
        return result("feasible", sol, engine="enumeration")
    sol = _solve_highs(units, rows, lbs, ubs, time_limit)  # in-process, no solver start-up
    if sol is not None and verify(sol):
        return result("feasible", sol)
    state, sol = _solve_cbc(units, rows, lbs, ubs, time_limit)  # HiGHS's infeasibility is not trusted alone
    if state == "infeasible":
        return result("infeasible")
    if sol is not None and verify(sol):
        return result("feasible", sol)
    return result("undecided")


def _search(units, weights, rows, lbs, ubs):
    """:func:`search_box` on the rows with the units of equal (p, n, weight) merged.

    Units alike have equal coefficients, and the sums of m integers in [0, p] are
    exactly the integers in [0, m p] (as for the fold types of
    :mod:`sotalib.consistency._mos_kfold`), so their summed tp (tn) is one variable:
    nothing is lost or added.  A solution is spread back greedily, unit by unit.
    """
    N = len(units)
    groups: dict = {}
    for i, key in enumerate(zip(units, weights)):
        groups.setdefault(key, []).append(i)
    members = list(groups.values())
    cols = [g[0] for g in members] + [N + g[0] for g in members]
    caps = [len(g) * units[g[0]][0] for g in members] + [len(g) * units[g[0]][1] for g in members]
    state, x = search_box([[row[c] for c in cols] for row in rows], lbs, ubs, caps)
    if state != "feasible":
        return state, None
    sol = [None] * N
    for gi, g in enumerate(members):
        tp, tn = x[gi], x[len(members) + gi]
        for i in g:
            p, n = units[i]
            sol[i] = (min(p, tp), min(n, tn))
            tp, tn = tp - sol[i][0], tn - sol[i][1]
    return state, tuple(sol)


def _solve_highs(units, rows, lbs, ubs, time_limit):
    """SciPy's HiGHS on the integer rows: a solution or None."""
    from scipy.optimize import Bounds, LinearConstraint, milp  # lazy: SciPy's optimize loads on the first solve

    N = len(units)
    caps = [p for p, _ in units] + [n for _, n in units]
    res = milp(
        c=np.zeros(2 * N),
        constraints=LinearConstraint(np.array(rows, dtype=float), lbs, ubs),
        integrality=np.ones(2 * N),
        bounds=Bounds(0, caps),
        options={"time_limit": time_limit},
    )
    if res.status != 0 or res.x is None:
        return None
    x = [int(round(v)) for v in res.x]
    return tuple(zip(x[:N], x[N:]))


def _solve_cbc(units, rows, lbs, ubs, time_limit):
    """CBC (bundled with PuLP) on the integer rows: ('infeasible' | 'solution' | 'unknown', solution)."""
    import pulp  # lazy: PuLP (and its CBC) load on the first solve, not with the package

    N = len(units)
    prob = pulp.LpProblem("twolevel", pulp.LpMinimize)
    prob.setObjective(pulp.LpAffineExpression())
    tps = [prob.add_variable(f"tp{i}", 0, p, cat="Integer") for i, (p, _) in enumerate(units)]
    tns = [prob.add_variable(f"tn{i}", 0, n, cat="Integer") for i, (_, n) in enumerate(units)]
    xs = tps + tns
    for j, (row, lo, hi) in enumerate(zip(rows, lbs, ubs)):
        expr = pulp.lpSum(a * x for a, x in zip(row, xs) if a)
        prob.addConstraint(expr >= lo, f"s{j}lo")
        prob.addConstraint(expr <= hi, f"s{j}hi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        status = pulp.LpStatus[prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))]
    if status == "Infeasible":
        return "infeasible", None
    if status != "Optimal":
        return "unknown", None
    vals = [0 if x.value() is None else int(round(x.value())) for x in xs]  # a variable in no row: any value
    return "solution", tuple(zip(vals[:N], vals[N:]))
