"""Mean of Scores under unknown fold configurations: one integer program for all of them.

Section 4.4.3 of Fazekas & Kovacs tests a k-fold report with unknown folds
by enumerating every fold configuration (Algorithm 2) and solving Eq. 9 for
each.  That stops working for repeated k-fold, where every repetition has
its own configuration (918 configurations for TPEHG become 421,821 pairs for
two repetitions and 10^13 for five), and for large data sets (2,616,607
configurations for the oversampled TPEHG, p' = 244).

This module decides all of them with **one** integer linear program.  Call a
fold's pair (p_f, n_f) its *type*.  The mean of a linear score (acc, sens,
spec, bacc) over all folds is

    (1 / N_folds) * sum_f (a_f T_f + b_f U_f),

where T_f and U_f are the summed tp and tn of the m_f folds of type f, and
a_f, b_f the coefficients of the score on such a fold.  The sums of m_f
integers in [0, p_f] are exactly the integers in [0, m_f p_f], so the
per-fold counts can be replaced by T_f, U_f without losing or adding a
solution.  A repetition r of k-fold on (p, n) is a choice of integer counts
x_rf of fold types with

    sum over types of size c^a of x_rf = k^a,  sum over size c^b = k^b,
    sum_f p_f x_rf = p,  at least two folds with positives and with negatives,

which is Algorithm 2's set of configurations written as linear constraints
(with ``p_f >= 1`` or ``n_f >= 1`` for every type when sensitivity or
specificity must be defined in every fold).  Then m_f = sum_r x_rf,
0 <= T_f <= p_f m_f, 0 <= U_f <= n_f m_f and the rows of Eq. 9 on T and U
complete the program.  Several data sets add their own repetitions.

Before any solver.  Most true reports fit the configuration that spreads
the positives evenly over the folds; with every configuration fixed only
T_f and U_f remain, a few integer variables searched exactly
(:mod:`sotalib.consistency._integer_search`).  A solution found there is
verified like any other and proves consistency; otherwise the program below
decides.

Solvers.  HiGHS (SciPy's ``milp``, in process) finds solutions fast, and
every solution is verified exactly; but HiGHS 1.x as shipped with SciPy
1.17 declared some *feasible* instances of this program infeasible (true
reports from random repeated splits; the tests keep one), with and without
presolve.  So its "infeasible" is never used: CBC (PuLP's bundled solver,
which the single-configuration test of :mod:`sotalib.mos` uses as well)
must reach that verdict itself.  When neither solver decides within its
time limit, a single repetition falls back on testing its configurations
one by one; otherwise the status is ``undecided``, counted as consistent.

Certainty.  A solution is turned into explicit folds and per-fold (tp, tn)
and verified in exact rational arithmetic (with the same check as
:func:`sotalib.consistency.check_mos`).  Rows keep integer coefficients when the
common denominator allows (accuracy), with exactly rounded integer bounds;
otherwise (sensitivity over folds with many different p_f) their bounds are
widened by 1e-6 relative, more than the solver's feasibility tolerance, so an
infeasible verdict is never caused by rounding in the solver.  A solution
that fails the exact check triggers a second solve with the bounds narrowed
instead.  For one and two repetitions the tests compare the
verdict with the enumeration of all (pairs of) configurations.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._json import json_safe
from .._result import Result
from .._validate import check_int
from ._folds import _check as _check_pnk
from ._folds import kfold_configurations
from ._integer_search import search_box
from ._intervals import ScoreInterval, score_intervals
from ._mos import _coef, _defined, _verify, check_mos_intervals
from ._scores import LINEAR_SCORES

__all__ = ["KFoldMosResult", "check_mos_kfold"]

_SHIFT = 1e-6


@dataclass(frozen=True, repr=False)
class KFoldMosResult(Result):
    """Verdict of the Mean-of-Scores test over every fold configuration of (repeated) k-fold.

    Attributes
    ----------
    consistent : bool
        ``status != "infeasible"`` (False is a proof: no fold configurations and counts give the means).
    evidence : list
        ``[solution]`` when verified evidence was found (per repetition, the per-fold
        (tp_i, tn_i)), else empty.
    configurations_tested : int or None
        Joint fold configurations covered by the verdict: the product over data sets of the
        number of multisets of ``repeats`` configurations (None when too many to count).
    details : dict
        ``status`` and the evidence's fold ``configurations``.
    status : {'feasible', 'infeasible', 'undecided'}
        'feasible' comes with verified evidence; 'infeasible' is certain.
    configurations : tuple or None
        The folds of the evidence: one fold configuration ((p_i, n_i), ...) per repetition of
        every data set.
    """

    consistent: bool
    status: str
    configurations: tuple | None
    evidence: list
    configurations_tested: int | None

    @property
    def details(self) -> dict:
        """``status`` and the fold ``configurations`` of the evidence (None without evidence)."""
        return {
            "status": self.status,
            "configurations": None if self.configurations is None else json_safe(self.configurations),
        }

    def to_dict(self) -> dict:
        """JSON-safe form: the four common keys, then ``status``, ``configurations``, ``solution``."""
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": self.configurations_tested,
                "details": self.details,
                "status": self.status,
                "configurations": self.configurations,
                "solution": self.evidence[0] if self.evidence else None,
            }
        )


def _classes(p: int, n: int, k: int):
    """(count, size) of the two fold sizes of k-fold on p + n items (Algorithm 2)."""
    kdiv, kmod = divmod(p + n, k)
    return [(c, s) for c, s in ((kmod, kdiv + 1), (k - kmod, kdiv)) if c > 0]


def _types(p, n, s, pos_every, neg_every):
    """Fold types (p_f, n_f) of size s."""
    lo = max(1 if pos_every else 0, s - n)
    hi = min(s - 1 if neg_every else s, p)
    return [(v, s - v) for v in range(lo, hi + 1)]


def _multiset_table(K: int, c: int, qmax: int) -> np.ndarray:
    """M[j, r]: multisets of j values in [1, c - 1] with sum r, for j <= K, r <= qmax (exact ints)."""
    M = np.zeros((K + 1, qmax + 1), dtype=object)
    M[:] = 0
    M[0, 0] = 1
    for v in range(1, min(c, qmax + 1)):
        for j in range(1, K + 1):  # ascending j: M[j - 1] already allows more copies of v
            M[j, v:] += M[j - 1, : qmax + 1 - v]
    return M


def count_kfold_configurations(
    p: int,
    n: int,
    k: int,
    *,
    positives_in_every_fold: bool = False,
    negatives_in_every_fold: bool = False,
    max_work: int = 20_000_000,
) -> int | None:
    """Number of fold configurations of Algorithm 2, counted without enumerating them.

    Equals ``sotalib.consistency.count_configurations`` (the tests check it).  For each of the
    two fold sizes, one table counts the multisets of fold positives by their sum, number of
    folds without positives and number of folds without negatives; the two tables are joined on
    the sums.  The work grows like k * p * (p + n) / k; None is returned when it would exceed
    ``max_work``.
    """
    p, n, k = _check_pnk(p, n, k)
    return _count_configurations(p, n, k, bool(positives_in_every_fold), bool(negatives_in_every_fold), max_work)


@functools.lru_cache(maxsize=256)
def _count_configurations(p, n, k, positives_in_every_fold, negatives_in_every_fold, max_work):
    """Compute :func:`count_kfold_configurations` on checked arguments, remembered.

    A report's check and its verdict both count (a pure function of integers).
    """
    classes = _classes(p, n, k)
    if sum(K * min(s, p + 1) * (min(p, K * s) + 1) + K * K * (p + 1) for K, s in classes) > max_work:
        return None
    per = []
    for K, s in classes:
        qmax = min(p, K * s)
        M = _multiset_table(K, s, qmax)
        table: dict[int, dict[tuple[int, int], int]] = {}
        for z in range(K + 1):
            for f in range(K + 1 - z):
                # z folds without positives, f folds of positives only, the rest in [1, s - 1]
                row = M[K - z - f]
                for q in range(f * s, qmax + 1):
                    cnt = row[q - f * s]
                    if cnt:
                        key = (K - z, K - f)
                        by_q = table.setdefault(q, {})
                        by_q[key] = by_q.get(key, 0) + cnt
        per.append(table)
    if len(per) == 1:
        per.append({0: {(0, 0): 1}})
    total = 0
    for qa, ta in per[0].items():
        tb = per[1].get(p - qa)
        if not tb:
            continue
        for (pa, na), ca in ta.items():
            for (pb, nb), cb in tb.items():
                npos, nneg = pa + pb, na + nb
                if npos < 2 or nneg < 2:
                    continue
                if (positives_in_every_fold and npos < k) or (negatives_in_every_fold and nneg < k):
                    continue
                total += ca * cb
    return int(total)


def _model(blocks, intervals, shift):
    """The joint program as sparse rows: dict(A, lbs, ubs, ub, xs, types, T0, U0).

    ``shift`` moves the bounds of rational rows outward (> 0) or inward (< 0).
    """
    from scipy.sparse import coo_matrix  # lazy: SciPy loads on the first program, not with the package

    types = sorted({t for b in blocks for _, _, ts in b["classes"] for t in ts})
    ub, xs = [], []
    for b in blocks:
        x = {}
        for K, _s, ts in b["classes"]:
            for t in ts:
                x[t] = len(ub)
                ub.append(K)
        xs.append(x)
    Nf = sum(b["k"] for b in blocks)
    T0 = len(ub)
    ub += [t[0] * Nf for t in types]
    U0 = len(ub)
    ub += [t[1] * Nf for t in types]
    rows, cols, vals, lbs, ubs = [], [], [], [], []

    def add(coefs, lo, hi):
        r = len(lbs)
        for j, c in coefs:
            rows.append(r)
            cols.append(j)
            vals.append(c)
        lbs.append(lo)
        ubs.append(hi)

    for b, x in zip(blocks, xs):
        for K, _s, ts in b["classes"]:
            add([(x[t], 1) for t in ts], K, K)  # k^a folds of c^a, k^b of c^b
        add([(j, t[0]) for t, j in x.items()], b["p"], b["p"])  # all positives, once
        add([(j, 1) for t, j in x.items() if t[0] > 0], 2, np.inf)  # Algorithm 2: two folds with
        add([(j, 1) for t, j in x.items() if t[1] > 0], 2, np.inf)  # positives and with negatives
    for i, t in enumerate(types):
        js = [x[t] for x in xs if t in x]
        add([(T0 + i, 1)] + [(j, -t[0]) for j in js], -np.inf, 0)  # T_f <= p_f m_f
        add([(U0 + i, 1)] + [(j, -t[1]) for j in js], -np.inf, 0)  # U_f <= n_f m_f
    for iv in intervals:
        coefs = [_coef(iv.base, *t) for t in types]
        L = math.lcm(*[c.denominator for pair in coefs for c in pair])
        lo, hi = iv.lo * Nf, iv.hi * Nf
        if L * sum(a * t[0] + b * t[1] for (a, b), t in zip(coefs, types)) * Nf < 2**50:
            # integer row: its value is an integer, so ceil/floor of the bounds is exact
            add(
                [(T0 + i, int(a * L)) for i, (a, _) in enumerate(coefs)]
                + [(U0 + i, int(b * L)) for i, (_, b) in enumerate(coefs)],
                math.ceil(lo * L),
                math.floor(hi * L),
            )
        else:
            add(
                [(T0 + i, float(a)) for i, (a, _) in enumerate(coefs)]
                + [(U0 + i, float(b)) for i, (_, b) in enumerate(coefs)],
                float(lo) - shift * max(1.0, abs(float(lo))),
                float(hi) + shift * max(1.0, abs(float(hi))),
            )
    A = coo_matrix((vals, (rows, cols)), shape=(len(lbs), len(ub))).tocsr()
    return dict(A=A, lbs=lbs, ubs=ubs, ub=ub, xs=xs, types=types, T0=T0, U0=U0)


def _highs(model, time_limit):
    """('infeasible' | 'solution' | 'unknown', integer values) with HiGHS, presolve off.

    HiGHS's MIP presolve (SciPy 1.17) declared a feasible instance of this
    program infeasible (p = 23, n = 20, k = 2, two repetitions; found by the
    property test), so it is switched off; it is not needed for speed here.
    """
    from scipy.optimize import Bounds, LinearConstraint, milp  # lazy, as above

    nv = len(model["ub"])
    res = milp(
        c=np.zeros(nv),
        constraints=LinearConstraint(model["A"], model["lbs"], model["ubs"]),
        integrality=np.ones(nv),
        bounds=Bounds(0, model["ub"]),
        options={"time_limit": time_limit, "presolve": False},
    )
    if res.status == 2:
        return "infeasible", None
    if res.status != 0 or res.x is None:
        return "unknown", None
    return "solution", [int(round(z)) for z in res.x]


def _cbc(model, time_limit):
    """The same program with CBC (PuLP's bundled solver): the independent second opinion."""
    import pulp  # lazy: PuLP (and its CBC) load on the first solve, not with the package

    prob = pulp.LpProblem("mos_kfold", pulp.LpMinimize)
    v = [prob.add_variable(f"v{j}", 0, u, cat="Integer") for j, u in enumerate(model["ub"])]
    prob.setObjective(pulp.LpAffineExpression())
    A = model["A"]
    for r in range(A.shape[0]):
        sl = slice(A.indptr[r], A.indptr[r + 1])
        expr = pulp.lpSum(float(c) * v[j] for j, c in zip(A.indices[sl], A.data[sl]))
        lo, hi = model["lbs"][r], model["ubs"][r]
        if lo == hi:
            prob.addConstraint(expr == lo, f"r{r}")
            continue
        if lo > -np.inf:
            prob.addConstraint(expr >= lo, f"r{r}lo")
        if hi < np.inf:
            prob.addConstraint(expr <= hi, f"r{r}hi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        status = pulp.LpStatus[prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))]
    if status == "Infeasible":
        return "infeasible", None
    if status != "Optimal" or any(x.value() is None for x in v):
        return "unknown", None
    return "solution", [int(round(x.value())) for x in v]


def _decode(model, values):
    xval = [{t: values[j] for t, j in x.items()} for x in model["xs"]]
    tot = {t: (values[model["T0"] + i], values[model["U0"] + i]) for i, t in enumerate(model["types"])}
    return xval, tot


def _evidence(blocks, xval, tot):
    """Explicit folds per repetition and per-fold (tp, tn) distributing T_f, U_f greedily."""
    configs = []
    for b, x in zip(blocks, xval):
        folds = []
        for _K, _s, ts in b["classes"]:
            for t in ts:
                folds.extend([t] * x.get(t, 0))
        configs.append(tuple(sorted(folds)))
    remaining = {t: list(v) for t, v in tot.items()}
    sols = []
    for folds in configs:
        sol = []
        for pf, nf in folds:
            r = remaining[(pf, nf)]
            tp, tn = min(pf, r[0]), min(nf, r[1])
            r[0] -= tp
            r[1] -= tn
            sol.append((tp, tn))
        sols.append(tuple(sol))
    if any(r != [0, 0] for r in remaining.values()):
        return None, None
    return tuple(configs), tuple(sols)


def _even_configuration(p, n, classes):
    """Fold counts per type of the configuration spreading the positives most evenly, or None.

    Fold i of size s_i gets about p s_i / (p + n) positives (largest remainders); None when
    that is not one of Algorithm 2's configurations here (a type not allowed, fewer than two
    folds with positives or with negatives).
    """
    sizes = [(s, ts) for K, s, ts in classes for _ in range(K)]
    share = [p * s for s, _ in sizes]
    pos = [q // (p + n) for q in share]
    order = sorted(range(len(sizes)), key=lambda i: -(share[i] % (p + n)))
    for i in order[: p - sum(pos)]:
        pos[i] += 1
    x: dict = {}
    for (s, ts), a in zip(sizes, pos):
        t = (a, s - a)
        if t not in ts:
            return None
        x[t] = x.get(t, 0) + 1
    if sum(c for t, c in x.items() if t[0] > 0) < 2 or sum(c for t, c in x.items() if t[1] > 0) < 2:
        return None
    return x


def _even_search(blocks, intervals):
    """(per block fold counts, per type (T_f, U_f)) of a solution on the even configurations, or None.

    With the configuration of every repetition fixed, the program keeps only T_f and U_f
    (see the module docstring): a few variables, searched exactly by
    :func:`sotalib.consistency._integer_search.search_box` instead of a solver.
    """
    xval = []
    for b in blocks:
        x = _even_configuration(b["p"], b["n"], b["classes"])
        if x is None:
            return None
        xval.append(x)
    m: dict = {}
    for x in xval:
        for t, c in x.items():
            m[t] = m.get(t, 0) + c
    types = sorted(m)
    Nf = sum(b["k"] for b in blocks)
    rows, lbs, ubs = [], [], []
    for iv in intervals:
        coefs = [_coef(iv.base, *t) for t in types]
        L = math.lcm(*[c.denominator for pair in coefs for c in pair])
        rows.append([int(a * L) for a, _ in coefs] + [int(b * L) for _, b in coefs])
        lbs.append(math.ceil(iv.lo * Nf * L))
        ubs.append(math.floor(iv.hi * Nf * L))
    caps = [t[0] * m[t] for t in types] + [t[1] * m[t] for t in types]
    state, sol = search_box(rows, lbs, ubs, caps)
    if state != "feasible":
        return None
    tot = {t: (sol[i], sol[len(types) + i]) for i, t in enumerate(types)}
    return xval, tot


def check_mos_kfold_intervals(  # noqa: C901 (a carefully ordered search: even configuration, HiGHS, CBC, enumeration)
    datasets: Sequence[tuple[int, int, int, int]],
    intervals: tuple[ScoreInterval, ...],
    *,
    time_limit: float = 20.0,
    enumerate_limit: int = 20_000,
) -> KFoldMosResult:
    """:func:`check_mos_kfold` for resolved intervals and several data sets.

    ``datasets`` holds (p, n, k, repeats) per data set; the mean is over all
    folds of all repetitions of all data sets.  ``time_limit`` applies to each
    solver call; a single repetition with at most ``enumerate_limit``
    configurations that neither solver decides is tested configuration by
    configuration.
    """
    for iv in intervals:
        if iv.base not in LINEAR_SCORES:
            raise ValueError(
                f"the Mean-of-Scores test supports {', '.join(LINEAR_SCORES)} "
                f"(Eq. 9) and their synonyms, got {iv.spec.name!r}"
            )
    bases = {iv.base for iv in intervals}
    pos_every = bool(bases & {"sens", "bacc"})
    neg_every = bool(bases & {"spec", "bacc"})
    blocks: list[dict[str, Any]] = []
    tested: int | None = 1
    if not datasets:
        raise ValueError("datasets must hold at least one (p, n, k, repeats)")
    for d, item in enumerate(datasets):
        try:
            p, n, k, repeats = item
        except (TypeError, ValueError):
            raise ValueError(f"datasets[{d}] must be (p, n, k, repeats), got {item!r}") from None
        p, n, k = _check_pnk(p, n, k)
        repeats = check_int("repeats", repeats, low=1)
        classes = [(K, s, _types(p, n, s, pos_every, neg_every)) for K, s in _classes(p, n, k)]
        blocks.extend({"p": p, "n": n, "k": k, "classes": classes} for _ in range(repeats))
        count = count_kfold_configurations(
            p, n, k, positives_in_every_fold=pos_every, negatives_in_every_fold=neg_every
        )
        if count == 0:
            return KFoldMosResult(False, "infeasible", None, [], 0)
        tested = None if (tested is None or count is None) else tested * math.comb(count + repeats - 1, repeats)

    def verified(xval, tot):
        configs, sols = _evidence(blocks, xval, tot)
        if configs is None:
            return None
        flat_f = [f for c in configs for f in c]
        flat_s = [s for c in sols for s in c]
        if all(_defined(iv.base, *f) for iv in intervals for f in flat_f) and _verify(flat_f, flat_s, intervals, ()):
            return KFoldMosResult(True, "feasible", configs, [sols], tested)
        return None

    # most true reports fit the configuration that spreads the positives evenly: a few
    # integer variables, searched exactly; only a verified solution is used (it proves consistency)
    even = _even_search(blocks, intervals)
    if even is not None and (r := verified(*even)) is not None:
        return r
    model = _model(blocks, intervals, _SHIFT)
    state, values = _highs(model, time_limit)  # fast at finding solutions, which are verified
    if state == "solution":
        r = verified(*_decode(model, values))
        if r is not None:
            return r
        inner = _model(blocks, intervals, -_SHIFT)  # within tolerance of a bound: retry inside
        state, values = _highs(inner, time_limit)
        if state == "solution" and (r := verified(*_decode(inner, values))) is not None:
            return r
    # HiGHS's "infeasible" is not trusted (it was wrong on true reports); CBC decides
    state, values = _cbc(model, time_limit)
    if state == "infeasible":
        return KFoldMosResult(False, "infeasible", None, [], tested)
    if state == "solution" and (r := verified(*_decode(model, values))) is not None:
        return r
    if len(datasets) == 1 and datasets[0][3] == 1 and count is not None and count <= enumerate_limit:
        # one repetition: fall back on the configuration-by-configuration test
        p, n, k, _ = datasets[0]
        for folds in kfold_configurations(
            p, n, k, positives_in_every_fold=pos_every, negatives_in_every_fold=neg_every
        ):
            res = check_mos_intervals(folds, intervals, time_limit=time_limit)
            if res.status == "feasible":
                return KFoldMosResult(True, "feasible", (folds,), [(res.evidence[0],)], tested)
            if res.status == "undecided":
                break
        else:
            return KFoldMosResult(False, "infeasible", None, [], tested)
    return KFoldMosResult(True, "undecided", None, [], tested)


def check_mos_kfold(
    p: int,
    n: int,
    k: int,
    scores: Mapping[str, float | str],
    *,
    repeats: int = 1,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    time_limit: float = 20.0,
) -> KFoldMosResult:
    """Decide whether mean-over-folds scores are consistent with *some* (repeated) k-fold of (p, n).

    Every repetition may have any fold configuration of Algorithm 2 (Section
    4.4.3 of Fazekas & Kovacs); all of them, jointly over the repetitions, are
    decided by one integer program (see the module docstring).  For a single
    repetition this is equivalent to testing every configuration with
    :func:`sotalib.consistency.check_mos`, without enumerating them.

    Parameters
    ----------
    p, n : int
        Positives and negatives of the data set.
    k : int
        Number of folds (>= 2).
    scores : mapping
        acc, sens, spec, bacc (or synonyms, complements) -> reported mean over all folds.
    repeats : int
        Repetitions of the k-fold, each with its own (unknown) configuration.
    eps, decimals, rounding
        Numerical uncertainty, as in :func:`sotalib.consistency.check_single`.
    time_limit : float
        Seconds for each solver call; if no solver decides, the status is 'undecided'.

    Returns
    -------
    KFoldMosResult
        The verdict over every fold configuration, with per-fold evidence when consistent.

    Raises
    ------
    ValueError
        Bad counts, ``k`` or ``repeats``, a score that is not linear in the counts, or bad values.

    References
    ----------
    Fazekas & Kovacs, Section 4.4.3 (Algorithm 2) and Section 4.3, Eq. 9.

    Examples
    --------
    >>> from sotalib.consistency import check_mos_kfold
    >>> r = check_mos_kfold(38, 262, 5, {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, eps="1e-4")
    >>> r.consistent, r.status
    (False, 'infeasible')
    """
    intervals = score_intervals(scores, eps=eps, decimals=decimals, rounding=rounding)
    return check_mos_kfold_intervals([(p, n, k, repeats)], intervals, time_limit=time_limit)
