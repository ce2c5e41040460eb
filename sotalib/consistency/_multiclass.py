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

Two exact engines (``engine=``), each in its own module:

* ``'exhaustive'`` (small test sets, :mod:`sotalib.consistency._multiclass_exhaustive`): every (d, s) is screened in float64 with
  a margin of 1e-9 and every value near an interval end is decided in rational
  arithmetic; the solution set (all compatible (d, s)) and its size are exact.
* ``'ilp'`` (:mod:`sotalib.consistency._multiclass_ilp`): an integer program in (d, s), solved in-process by SciPy's HiGHS (an
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

Before the solver, ``engine='auto'`` tries an exact search of the program of
linear scores with the classes of equal size merged
(:mod:`sotalib.consistency._multiclass_search`): a balanced test set leaves a
handful of integers, so no solver is set up; what it does not settle (Hall's
condition failing on its solution, many distinct class sizes) goes to the solver.

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
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._frame import as_counts, as_mapping
from .._json import json_safe
from .._result import Result
from .._validate import ParameterError, check_choice, check_int, check_real
from ._folds import read_folds
from ._intervals import as_decimal, report_decimals
from ._multiclass_exhaustive import EXHAUSTIVE_LIMIT, _diagonals, _exhaustive, _n_candidates
from ._multiclass_ilp import _ilp
from ._multiclass_scores import (
    MulticlassInterval,
    MulticlassOptions,
    _check_classes,
    build_matrix,
    multiclass_intervals,
    multiclass_score,
)
from ._multiclass_search import search_linear
from ._typos import Suggestion, typo_candidates

__all__ = ["MulticlassResult", "check_multiclass", "diagnose_multiclass", "stratified_class_folds"]

ENGINES = ("auto", "ilp", "exhaustive")
AGGREGATIONS = ("single", "som", "mos")


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
        k x k matrices (at most ``max_solutions``), for Mean of Scores one list of per-fold
        matrices; empty when inconsistent or undecided.
    configurations_tested : int
        1: the stated test set or fold configuration.
    details : dict
        ``status``, ``engine`` ('exhaustive', 'search' or 'ilp'), ``aggregation``, ``classes`` (per fold for MoS), ``n_solutions``
        (exhaustive engine: the exact number of compatible (diagonal, column sums); None otherwise),
        ``scores`` (how each reported name was read) and ``note``.
    status : {'feasible', 'infeasible', 'undecided'}
    engine : {'exhaustive', 'search', 'ilp'}
        The exact solver that decided (see ``engine=`` in the vocabulary of :mod:`sotalib`).
    suggestions : list of Suggestion
        The typo finder's proposals for an inconsistent report (:func:`diagnose_multiclass`).
    reported : dict
        The reported scores as given (name to value), which ``to_text()`` repeats.
    class_sizes : tuple of int or None
        The class sizes as given (of the test set, or of the data set the folds split).
    """

    consistent: bool
    status: str
    engine: str
    aggregation: str
    classes: tuple
    evidence: list = field(default_factory=list)
    n_solutions: int | None = None
    intervals: tuple = field(repr=False, default=())
    note: str = ""
    suggestions: list = field(default_factory=list)
    reported: dict = field(default_factory=dict, repr=False, compare=False)
    class_sizes: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def configurations_tested(self) -> int:
        return 1

    @property
    def details(self) -> dict:
        return {
            "status": self.status,
            "engine": self.engine,
            "aggregation": self.aggregation,
            "classes": [list(c) for c in self.classes],
            "n_solutions": self.n_solutions,
            "scores": {iv.name: iv.label() for iv in self.intervals},
            "note": self.note,
        }

    def to_dict(self) -> dict:
        """JSON-safe form of the result.

        The four common keys, then ``status``, ``n_solutions``, ``solutions`` (the evidence's matrices again, the key
        the command line has always printed) and
        ``suggestions`` (the typo finder's).
        """
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": 1,
                "details": self.details,
                "status": self.status,
                "n_solutions": self.n_solutions,
                "solutions": self.evidence,
                "suggestions": [x.to_dict() for x in self.suggestions],
            }
        )

    def to_text(self) -> str:
        """The verdict, how the scores were read, the evidence and the typos found: what ``sotalib check`` prints."""
        state = {
            "feasible": "CONSISTENT",
            "infeasible": "INCONSISTENT",
            "undecided": "UNDECIDED (counted as consistent)",
        }
        details = self.details
        classes = None if self.class_sizes is None else list(self.class_sizes)
        lines = [f"{state[self.status]}: " + ", ".join(f"{k}={x}" for k, x in self.reported.items())]
        lines.append(
            f"  classes {classes}; {self.aggregation}"
            + (f" over {len(self.classes)} folds" if self.aggregation == "mos" else "")
            + f"; read as {', '.join(f'{k} = {x}' for k, x in details['scores'].items())}"
        )
        lines.append(f"  {details['note']}")
        if self.evidence:
            first = self.evidence[0]
            lines.append(
                "  evidence (confusion matrix, rows = true class):"
                if self.aggregation != "mos"
                else "  evidence (per-fold confusion matrices):"
            )
            for m in first if self.aggregation == "mos" else [first]:
                for row in m:
                    lines.append("    " + " ".join(f"{x:>5}" for x in row))
                if self.aggregation == "mos":
                    lines.append("")
        for sug in self.suggestions[:3]:
            lines.append(
                f"  typo? {sug.score} {sug.reported:.{sug.decimals}f} -> {sug.suggested:.{sug.decimals}f} "
                f"({sug.typo}, change {sug.change:+.{sug.decimals}f}) makes it consistent, e.g. confusion matrix "
                f"{sug.example}"
            )
        return "\n".join(lines).rstrip()


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


# --------------------------------------------------------------------------- public
def check_multiclass_intervals(  # noqa: C901 (the engines tried in order, each with its own fallback; being tuned for speed)
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
            raise ParameterError("aggregation 'mos' needs folds", "aggregation", "folds")
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
            raise ParameterError("folds need aggregation 'som' or 'mos'", "folds", "aggregation")
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
    auto = method == "auto"
    if auto:
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
        mats: list = [build_matrix(c, d, s) for d, s in sols]  # matrices; with 'mos', one list of fold matrices
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
    found = search_linear(units, weights, intervals, zero_division) if auto else None
    if found is not None:  # few distinct class sizes: decided exactly without the solver
        status, sol = found
        mats = [] if sol is None else [build_matrix(c, d, s) for (c, _), (d, s) in zip(units, sol)]
        note = {
            "feasible": "exact search over the classes merged by size: a solution verified in exact arithmetic",
            "infeasible": "exact search over the classes merged by size: infeasible even without Hall's condition",
        }[status]
        return MulticlassResult(
            status == "feasible",
            status,
            "search",
            aggregation,
            tuple(units_c),
            [mats] if aggregation == "mos" and mats else mats,
            None,
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


def _beta(beta: float | str | None) -> float | None:
    """The F-beta weight as a number > 0 (text such as ``"0.5"`` is read as written), or None."""
    if isinstance(beta, str):
        try:
            beta = float(beta)
        except ValueError:
            raise ValueError(f"beta must be a number > 0, got {beta!r}") from None
    return None if beta is None else check_real("beta", beta, low=0.0, low_open=True)


def check_multiclass(
    classes: Sequence[int] | None,
    scores: Mapping[str, float | str],
    *,
    average: str = "macro",
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | str | None = None,
    folds: Sequence[Sequence[int]] | os.PathLike[str] | None = None,
    k: int | None = None,
    stratified: bool = False,
    aggregation: str | None = None,
    zero_division: float | None = 0,
    engine: str = "auto",
    max_solutions: int = 100,
    time_limit: float = 60.0,
    diagnosis: bool = True,
) -> MulticlassResult:
    """Test whether the reported multiclass scores can come from a confusion matrix with these class sizes.

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
        Numerical uncertainty and F-beta weight, as in :func:`sotalib.consistency.check_single`;
        ``beta`` > 0 may be given as text (``"0.5"``), as the command line passes it.
    folds : sequence of sequences, or path-like, optional
        Class sizes of every test fold (all repetitions), or a CSV file of them (a
        :class:`pathlib.Path`, read by :func:`read_folds` with ``task='multiclass'``); or ``k`` with ``stratified=True``
        for scikit-learn's ``StratifiedKFold`` (:func:`stratified_class_folds`).
    aggregation : {'som', 'mos'}, optional
        Score of Means (scores of the summed confusion matrix, Eq. 7 of Fazekas & Kovacs)
        or Mean of Scores (mean of the fold scores, Eq. 8); required with folds.
    zero_division : 0, 1 or None
        Value of a per-class precision (NPV) whose denominator is zero (None: undefined, never a match).
    engine : {'auto', 'ilp', 'exhaustive'}
        How the verdict is computed (never what it means): 'auto' enumerates small test sets
        exhaustively (exact solution count) and otherwise solves the integer program, after an
        exact search with the classes of equal size merged when the scores are linear (method
        'search' in the details; it leaves to the solver what it does not settle).
    max_solutions : int
        At most this many matrices are returned as evidence by the exhaustive engine.
    k : int, optional
        Number of folds of stratified k-fold (with ``stratified=True``).
    stratified : bool
        The folds of scikit-learn's ``StratifiedKFold`` (needs ``k``).
    time_limit : float
        Seconds for the integer program; if it does not decide, the status is 'undecided'.
    diagnosis : bool
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
    >>> r.consistent, r.details["engine"]
    (True, 'exhaustive')
    """
    beta = _beta(beta)
    classes = as_counts(classes, "classes")
    scores = as_mapping(scores, "scores")
    if isinstance(folds, os.PathLike):
        folds = read_folds(folds, task="multiclass")
    elif isinstance(folds, str):
        raise ParameterError(
            "folds written 'p1:n1,...' are a binary report's; give a multiclass report's as the class sizes "
            "of each fold (a sequence per fold, or a CSV file read by read_folds)",
            "folds",
        )
    intervals = multiclass_intervals(scores, average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    if k is not None or stratified:
        if folds is not None:
            raise ParameterError("give either folds or k, not both", "folds", "k")
        if k is None or not stratified:
            raise ParameterError(
                "k needs stratified for multiclass reports (the fold class sizes must be known)", "k", "stratified"
            )
        if classes is None:  # the message stratified_class_folds gives for None
            raise ValueError("classes must be a sequence of class sizes, got None")
        folds = stratified_class_folds(classes, k)
    if folds is not None and aggregation is None:
        raise ParameterError("aggregation ('som' or 'mos') is required with folds", "aggregation", "folds")
    agg = "single" if folds is None else aggregation
    assert agg is not None  # folds come with an aggregation (checked above)
    if folds is None and aggregation not in (None, "single"):
        raise ParameterError("aggregation needs folds or k (a single test set has none)", "aggregation", "folds", "k")
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
    if diagnosis and result.status == "infeasible" and result.aggregation != "mos":
        c = result.classes[0]
        if math.prod(x + 1 for x in c) <= EXHAUSTIVE_LIMIT:
            kw: MulticlassOptions = dict(average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
            sug = _typos(c, intervals, list(scores), list(scores.values()), kw, zero_division, 200_000)
            result = dataclasses.replace(result, suggestions=sug)
    sizes = None if classes is None else tuple(int(c) for c in classes)
    return dataclasses.replace(result, reported=dict(scores), class_sizes=sizes)


def diagnose_multiclass(
    classes: Sequence[int],
    scores: Mapping[str, float | str],
    *,
    average: str = "macro",
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
    zero_division: float | None = 0,
    limit: int = 200_000,
) -> list[Suggestion]:
    """Find the single reported score of one multiclass test set that, mistyped, explains the report.

    As :func:`sotalib.consistency.diagnose`: for each reported score, the values a
    mistyped report may have meant (``_typos.typo_candidates``: a few
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
    kw: MulticlassOptions = dict(average=average, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
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
                assert r.n_solutions is not None  # the exhaustive engine counts its solutions
                out.append(
                    Suggestion(
                        str(name),
                        float(rep),
                        float(cand),
                        float(cand - rep),
                        int(r.n_solutions),
                        r.evidence[0],
                        "single",
                        nd,
                        kind,
                    )
                )
                break
    return sorted(out, key=lambda x: abs(x.change))
