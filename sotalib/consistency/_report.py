"""Checking a whole report: the experiment as described, the aggregation known or not.

:func:`check_report` is what ``sotalib check`` runs: a single test set; or
folds given explicitly, by stratified k-fold (Table 6) or as unknown k-fold
configurations (Algorithm 2); aggregated by Score of Means, Mean of Scores,
or -- when the paper does not say -- both (Section 4.4.4), reporting which
fits.  The reported scores are read once, here; the tests and the typo
finder work on the intervals.  Tables of reports are in
:mod:`sotalib.consistency._batch`.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from .._frame import _is_frame, _is_series, as_mapping
from .._json import json_safe
from .._progress import progress as _progress
from .._result import Result
from .._validate import ParameterError, check_choice, check_int, format_count
from ._datasets import dataset_experiment
from ._folds import Folds, kfold_configurations, parse_folds, read_folds, repeat_folds, stratified_folds
from ._intervals import ScoreInterval, ToleranceOptions, read_report
from ._mos import check_mos_intervals, fold_bounds
from ._mos_kfold import _classes, check_mos_kfold_intervals, count_kfold_configurations
from ._scores import LINEAR_SCORES
from ._single import MAX_COUNT, _too_many, check_intervals
from ._typos import Suggestion, mos_typos, single_typos

__all__ = ["ReportVerdict", "check_report"]

AGGREGATIONS = ("som", "mos")

#: Repetitions of a k-fold (or of explicit folds) a report may state.
MAX_REPEATS = 1_000

#: Fold types (p_i, n_i) one joint integer program over unknown k-fold configurations may hold.
MAX_FOLD_TYPES = 20_000

#: What the diagnosis says when the typo finder finds nothing.
NO_TYPO = (
    "no single typo explains the report: no score is a few units of its last decimal, one mistyped "
    "digit (of the last two) or two swapped digits away from a consistent value; the scores may come from another "
    "experiment (another test set or pixel mask, other folds, another aggregation)"
)
NO_SINGLE_CHANGE = (
    "no change of a single score makes the report consistent: at least two of the values disagree "
    "with the stated experiment; the scores may come from another experiment (another test set or "
    "pixel mask, other folds, another aggregation)"
)

#: What the diagnosis says for a Mean of Scores over unknown folds (the typo finder needs the folds).
NOT_SEARCHED_MOS = (
    "not searched: typos of a Mean of Scores over unknown folds are not searched (give the folds to search them, "
    "or leave out the aggregation to search under Score of Means)"
)


@dataclass(frozen=True, repr=False)
class ReportVerdict(Result):
    """The verdict on one report (what ``sotalib check --json`` prints).

    Attributes
    ----------
    consistent : bool
        Some tested aggregation fits (an inconsistency is certain).
    evidence : list
        Witnesses of consistency: up to 100 [tp, tn] pairs for a test set or Score of Means,
        per-fold [[tp_i, tn_i], ...] of feasible configurations for Mean of Scores; empty when
        inconsistent.
    configurations_tested : int or None
        Fold configurations covered (None: too many to count; the verdict still covers all).
    details : dict
        Per aggregation tested ('single', 'som', 'mos'): consistent, n_solutions, solutions,
        configurations_tested, note (and for MoS the folds of the evidence, ``solution_folds``).
    n_solutions : int
        Single test set / SoM: compatible (tp, tn) pairs; MoS: feasible fold configurations.
    aggregation : str
        'single', 'som', 'mos' or 'som+mos' (both tested).
    fits : list of str
        The aggregations under which the report is consistent.
    suggestions : list
        Plausible typos of an inconsistent report (:func:`sotalib.consistency.diagnose`): single
        test set / SoM, and MoS on one known fold configuration (each tagged with its ``aggregation``);
        for an accuracy on n items (aggregation 'accuracy'), per reported score (and subset score) the
        nearest candidate that makes the whole report consistent, its ``example`` (counts, of).
    diagnosis : str
        What the typo finder concluded: empty for a consistent report, a sentence when no plausible
        typo explains the report (or no single change fixes it), 'not run' when it was skipped.
    evidence_aggregation : str or None
        The aggregation the evidence belongs to ('single', 'som' or 'mos'; None when inconsistent).
    reported : dict
        The reported scores as given (name to value), which ``to_text()`` repeats.
    min_repeats : int or None
        An accuracy on n items (aggregation 'accuracy'): the smallest number of runs R (1 to 100)
        whose mean over every item can give the reported values (None: none up to 100, or
        samples per item were stated); 1 when one run can.
    example : dict or None
        With ``min_repeats``: ``{"repeats": R, "counts": ..., "of": ...}``, counts that give the
        values over R runs (one count of n R, or one per subset).
    """

    consistent: bool
    n_solutions: int
    evidence: list
    configurations_tested: int | None
    aggregation: str
    fits: list[str] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    suggestions: list[Suggestion] = field(default_factory=list)
    diagnosis: str = ""
    evidence_aggregation: str | None = None
    reported: dict = field(default_factory=dict, repr=False, compare=False)
    min_repeats: int | None = None
    example: dict | None = None

    def to_dict(self) -> dict:
        """JSON-safe form (no NaN): the keys of ``sotalib check --json``.

        The four common keys, then n_solutions, solutions (the evidence again, the key the
        command line has always printed), aggregation, fits, suggestions, diagnosis,
        evidence_aggregation; for an accuracy on n items also verdict ('consistent' or
        'inconsistent'), min_repeats and example.
        """
        extra = {}
        if self.aggregation == "accuracy":
            extra = {
                "verdict": "consistent" if self.consistent else "inconsistent",
                "min_repeats": self.min_repeats,
                "example": self.example,
            }
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.evidence,
                "configurations_tested": (
                    None if self.configurations_tested is None else int(self.configurations_tested)
                ),
                "details": self.details,
                "n_solutions": int(self.n_solutions),
                "solutions": self.evidence,
                "aggregation": self.aggregation,
                "fits": list(self.fits),
                "suggestions": [s.to_dict() for s in self.suggestions],
                "diagnosis": self.diagnosis,
                "evidence_aggregation": self.evidence_aggregation,
                **extra,
            }
        )

    def to_text(self) -> str:
        """The verdict, each aggregation tested, the evidence and the typos found: what ``sotalib check`` prints."""
        verdict = "CONSISTENT" if self.consistent else "INCONSISTENT"
        lines = [f"{verdict}: " + ", ".join(f"{k}={val}" for k, val in self.reported.items())]
        if self.aggregation == "accuracy":
            return "\n".join(lines + _accuracy_lines(self))
        for agg, d in self.details.items():
            state = {True: "consistent", False: "inconsistent", None: "not tested"}[d["consistent"]]
            tested = d["configurations_tested"]
            lines.append(
                f"  {agg}: {state}; {d['note']}; solutions {d['n_solutions']}"
                + ("" if d.get("n_solutions_counted", True) else " (at least)")
                + f", configurations tested {'too many to count' if tested is None else format_count(tested)}"
            )
        if self.evidence:
            agg = self.evidence_aggregation
            shown = self.evidence[:5]
            what = "per-fold (tp, tn)" if agg == "mos" else "(tp, tn)"
            lines.append(f"  evidence under {agg}, {what}: {shown}{' ...' if len(self.evidence) > 5 else ''}")
            folds = self.details.get(agg, {}).get("solution_folds")
            if folds:
                lines.append(f"  on folds (p_i, n_i): {folds[0]}")
        for s in self.suggestions[:3]:
            what = "(tp, tn)" if s.aggregation == "single" else "per-fold (tp, tn)"
            lines.append(
                f"  typo? {s.score} {s.reported:.{s.decimals}f} -> {s.suggested:.{s.decimals}f} "
                f"({s.typo}, change {s.change:+.{s.decimals}f}) makes it consistent"
                f"{' under mos' if s.aggregation == 'mos' else ''}, e.g. {what} = {s.example}"
            )
        if not self.consistent and not self.suggestions:
            lines.append(f"  diagnosis: {self.diagnosis}")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Report:
    """The reported scores, read once: intervals, the names and values as written, the tolerance."""

    intervals: tuple[ScoreInterval, ...]
    names: tuple[str, ...]
    written: tuple[object, ...]
    decimals: int | None
    tolerance: tuple[Fraction, Fraction]


def _som(p: int, n: int, report: _Report, diagnosis: bool) -> tuple[dict, tuple[list, bool]]:
    r = check_intervals(p, n, report.intervals, 100)
    d = {
        "consistent": r.consistent,
        "n_solutions": r.n_solutions,
        "solutions": r.evidence[:100].tolist(),
        "configurations_tested": 1,
        "note": f"totals p={p}, n={n}",
    }
    if diagnosis and not r.consistent:
        rep = report
        return d, single_typos(p, n, rep.intervals, rep.names, rep.written, rep.decimals, rep.tolerance)
    return d, ([], False)


@dataclass(frozen=True)
class _Enumeration:
    """Fold configurations tested one by one (a single repetition with few configurations)."""

    configurations: object
    total: int


def _mos(configs, intervals, progress, bounds=()) -> dict:
    if isinstance(configs, tuple):
        r = check_mos_intervals(configs, intervals, bounds)
        sols = [[list(x) for x in r.evidence[0]]] if r.evidence else []
        return {
            "consistent": r.consistent,
            "n_solutions": int(r.consistent),
            "solutions": sols,
            "solution_folds": [[list(f) for f in configs]] if r.evidence else [],
            "configurations_tested": 1,
            "note": f"{r.status} ({r.engine})",
        }
    configs, total = configs.configurations, configs.total
    tested, nfeas, sols, folds_of, undecided = 0, 0, [], [], 0
    for folds in _progress(configs, total=total, desc="fold configurations", show=progress):
        r = check_mos_intervals(folds, intervals, bounds)
        tested += 1
        if r.consistent:
            nfeas += 1
            undecided += r.status == "undecided"
            if r.evidence and len(sols) < 100:
                sols.append([list(x) for x in r.evidence[0]])
                folds_of.append([list(f) for f in folds])
    note = f"{nfeas} of {tested} fold configurations feasible"
    if undecided:
        note += f" ({undecided} undecided, counted as feasible)"
    return {
        "consistent": nfeas > 0,
        "n_solutions": nfeas,
        "solutions": sols,
        "solution_folds": folds_of,
        "configurations_tested": tested,
        "note": note,
    }


def _scores_third(func: Callable[..., ReportVerdict]) -> Callable[..., ReportVerdict]:
    """Refuse scores given first (a mapping or a Series where ``p`` goes) with a message, not Python's TypeError.

    ``check_report(scores, p=..., n=...)``, the order before 0.4, was removed in 0.6; without this the
    call fails with "got multiple values for argument 'p'", which does not say what to write.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> ReportVerdict:
        if (
            len(args) == 1
            and "scores" not in kwargs
            and (isinstance(args[0], Mapping) or _is_series(args[0]))
            and _accuracy_kind(kwargs)
        ):  # an accuracy on n items has no p and n: its scores come first
            return func(scores=args[0], **kwargs)
        if args and (isinstance(args[0], Mapping) or _is_series(args[0]) or _is_frame(args[0])):
            raise ValueError(
                f"check_report(p, n, scores, ...): the scores come third, after p and n; got a "
                f"{type(args[0]).__name__} of scores first, where p goes (write check_report(p, n, scores) "
                "or check_report(scores=..., folds=...))"
            )
        return func(*args, **kwargs)

    return wrapper


@_scores_third
def check_report(
    p: int | None = None,
    n: int | None = None,
    scores: Mapping[str, float | str] | None = None,
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    folds: Sequence[tuple[int, int]] | str | os.PathLike[str] | None = None,
    k: int | None = None,
    stratified: bool = False,
    repeats: int = 1,
    aggregation: str | None = None,
    max_configurations: int = 2_000,
    diagnosis: bool = True,
    progress: bool | None = None,
    fold_min: Mapping[str, float | str] | None = None,
    fold_max: Mapping[str, float | str] | None = None,
    dataset: str | None = None,
    n_items: int | None = None,
    samples: int | None = None,
    pass_at: int | None = None,
    average: str | None = None,
    subsets: Mapping[str, int] | None = None,
    subset_scores: Mapping[str, float | str] | None = None,
) -> ReportVerdict:
    """Test whether the reported scores can come from the experiment the report describes.

    The experiment is a single test set of ``p`` positives and ``n``
    negatives, a benchmark of ``n_items`` items scored by an accuracy (any share of
    the items: accuracy, pass@1, exact match, resolved rate), or cross-validation: explicit folds, stratified k-fold, or
    k-fold with unknown folds (every configuration is tested).  Over folds the
    scores may be a Score of Means or a Mean of Scores; when the paper does
    not say, both are tested and the verdict says which fits.  The answer is
    exact: "inconsistent" is a proof.  An inconsistent report is searched for a
    plausible typo (one score a few units of its last decimal, one digit or
    two swapped digits away from a consistent value).

    Parameters
    ----------
    p, n : int or None
        Positives and negatives of the dataset (of one repetition); None when ``folds`` or
        ``dataset`` gives the experiment.
    scores : mapping
        Score name (Table 2 abbreviation, synonym or complement) -> reported value, each score
        once; give values as strings ("0.9447") to have them read as the decimals written.
    eps : float or str, optional
        Numerical uncertainty: the true value lies in [v - eps, v + eps].
    decimals : int, optional
        Number of decimals reported (0-15), instead of ``eps``; a value written with more
        decimals is an error.
    rounding : {'round', 'floor', 'ceil', 'any'}, optional
        How the values were shortened to ``decimals`` (default 'round'); only with ``decimals``.
    folds : sequence of (p_i, n_i), str ``"p1:n1,..."`` or path-like, optional
        Explicit evaluation sets (all folds of all repetitions and datasets); a
        :class:`pathlib.Path` is a CSV file of them, read by :func:`read_folds`.
    k : int, optional
        k-fold cross-validation of (p, n): stratified (Table 6) or, without
        ``stratified``, every fold configuration of Algorithm 2.
    stratified : bool
        The folds of scikit-learn's ``StratifiedKFold`` (needs ``k``).
    repeats : int
        Repetitions of the k-fold (or of the explicit folds), 1 to 1,000.  Without
        ``stratified`` every repetition may have its own configuration: Mean of Scores is
        then decided by one joint integer program.
    aggregation : {'som', 'mos'} or None
        Score of Means or Mean of Scores; None with folds tests both and reports which fits.
    max_configurations : int
        A single repetition with at most this many fold configurations is tested
        configuration by configuration (counting the feasible ones); beyond it one joint
        integer program decides them all without counting.
    diagnosis : bool
        Run the typo finder on an inconsistent report (single test set, SoM, and MoS on one
        known fold configuration); False skips it.
    progress : bool or None
        Progress bar over a long enumeration of fold configurations (None: only when stderr
        is a terminal).
    fold_min, fold_max : mapping, optional
        Reported minimum and maximum over the folds of a score, both for the same names;
        they constrain the Mean-of-Scores test (``aggregation`` then defaults to 'mos').
    dataset : str, optional
        A named test set (:func:`sotalib.consistency.get_dataset`, e.g. ``"drive-test-fov"``):
        its ``p`` and ``n``, or its folds, instead of ``p``, ``n`` and ``folds``; or a named
        language-model benchmark: its ``n_items`` and ``subsets``.
    n_items : int, optional
        An accuracy on n items: the scores are shares of the items (``acc``, ``pass@1``,
        ``exact_match``, ``resolved``, ...; ``"64.93%"`` is read as 0.6493), each on the lattice
        k/n -- over ``repeats`` runs of every item k/(n R); no ``p`` and ``n``, and the scores may
        come first: ``check_report({"acc": "0.6493"}, n_items=164)``.  Scores of one name (and
        ``error_rate`` with ``acc``) share one count; other names are other quantities.  Without
        ``eps`` and ``decimals`` each value is read with the decimals written, and ``rounding``
        defaults to 'any' (round, floor or ceil: never inconsistent because of a convention).
        ``decimals`` counts the digits written (64.93%: 2).  The verdict has ``min_repeats``, the
        fewest runs (up to 100) whose mean can give the values, with an ``example``.
    samples, pass_at : int, optional
        K samples per item scored by the unbiased pass@k estimator of Chen et al. (2021)
        (``pass_at`` 1 to K, default 1), decided exactly by dynamic programming over the attainable
        sums up to C(K, k) n = 10^7 numerators; beyond, refused.
    average : {'micro', 'macro'}, optional
        How the whole's score averages the ``subsets``: over all items (micro, the default) or
        the mean of the subsets' accuracies (macro), decided exactly by dynamic programming over
        the attainable sums with the common denominator (up to 10^7 sums; beyond it a macro
        average is searched for counts that give it, and refused when none is found).
    subsets : mapping, optional
        Subset name -> its number of items (a named benchmark gives them).
    subset_scores : mapping, optional
        Subset name -> the reported score on that subset, checked jointly with the whole's
        score (the one quantity of ``scores``).

    Returns
    -------
    ReportVerdict
        ``consistent``, ``evidence``, ``configurations_tested``, ``details`` (per aggregation
        tested), the typos found and a diagnosis; ``to_dict()`` is what ``sotalib check
        --json`` prints.

    Raises
    ------
    ValueError
        Bad input: the message names the argument (``p``, ``k``, ``repeats``,
        ``aggregation``, a score name, ...) and its allowed range.
    TypeError
        No ``scores``.

    References
    ----------
    Fazekas & Kovacs: Section 3 (one test set, Eq. 1), Section 4.2 (Score of Means, Eq. 7),
    Section 4.3 (Mean of Scores, Eqs. 8-10), Section 4.4 (fold configurations, Table 6 and
    Algorithm 2; unknown aggregation, Section 4.4.4).

    Examples
    --------
    The paper's example (Section 3.3): 0.6801 printed for an accuracy of 0.6821.

    >>> from sotalib.consistency import check_report
    >>> v = check_report(1000, 6000, {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    >>> v.consistent, [(s.score, s.suggested) for s in v.suggestions]
    (False, [('npv', 0.9409), ('acc', 0.6821)])
    >>> check_report(38, 262, {"acc": "0.9447", "sens": "0.9139"}, k=5, stratified=True, eps="1e-4").fits
    []

    An accuracy on the 164 problems of HumanEval: 0.6493 is no count of 164, but the mean of two runs.

    >>> v = check_report({"pass@1": "0.6493"}, n_items=164)
    >>> v.consistent, v.min_repeats, v.example
    (False, 2, {'repeats': 2, 'counts': 213, 'of': 328})
    >>> check_report({"acc": "64.63%"}, n_items=164).evidence
    [106]

    GPT-4o's majority vote of 13.4 on AIME 2024's 30 problems, as DeepSeek-R1's README prints it:
    no count of 30, but one unit of the last decimal from 13.3 = 4/30.

    >>> v = check_report({"acc": "13.4%"}, n_items=30, decimals=1, rounding="round")
    >>> [(s.suggested, s.typo, s.example) for s in v.suggestions]
    [(13.3, 'last decimal', (4, 30))]
    """
    return _check_report(
        p,
        n,
        scores,
        eps=eps,
        decimals=decimals,
        rounding=rounding,
        folds=folds,
        k=k,
        stratified=stratified,
        repeats=repeats,
        aggregation=aggregation,
        max_configurations=max_configurations,
        diagnosis=diagnosis,
        progress=progress,
        fold_min=fold_min,
        fold_max=fold_max,
        dataset=dataset,
        n_items=n_items,
        samples=samples,
        pass_at=pass_at,
        average=average,
        subsets=subsets,
        subset_scores=subset_scores,
    )


def _check_report(
    p: int | None,
    n: int | None,
    scores: Mapping[str, float | str] | None,
    *,
    eps: float | str | None,
    decimals: int | None,
    rounding: str | None,
    folds: Sequence[tuple[int, int]] | str | os.PathLike[str] | None,
    k: int | None,
    stratified: bool,
    repeats: int,
    aggregation: str | None,
    max_configurations: int,
    diagnosis: bool,
    progress: bool | None,
    fold_min: Mapping[str, float | str] | None,
    fold_max: Mapping[str, float | str] | None,
    dataset: str | None,
    n_items: int | None = None,
    samples: int | None = None,
    pass_at: int | None = None,
    average: str | None = None,
    subsets: Mapping[str, int] | None = None,
    subset_scores: Mapping[str, float | str] | None = None,
) -> ReportVerdict:
    """:func:`check_report` (also one row of a batch): reads the report once, then runs the tests."""
    accuracy: dict[str, Any] = dict(n_items=n_items, samples=samples, pass_at=pass_at, average=average)
    accuracy.update(subsets=subsets, subset_scores=subset_scores)
    if _accuracy_kind(dict(accuracy, dataset=dataset)):
        fold = dict(p=p, n=n, folds=folds, k=k, aggregation=aggregation, fold_min=fold_min, fold_max=fold_max)
        fold["stratified"] = stratified or None
        return _accuracy_report(
            scores,
            fold,
            dataset,
            accuracy,
            repeats=repeats,
            eps=eps,
            decimals=decimals,
            rounding=rounding,
            diagnosis=diagnosis,
        )
    scores = as_mapping(scores, "scores")
    fold_min = as_mapping(fold_min, "fold_min")
    fold_max = as_mapping(fold_max, "fold_max")
    if dataset is not None:
        p, n, folds = dataset_experiment(dataset, p, n, folds, k)
    if scores is None:
        raise TypeError("check_report() needs the reported scores: check_report(p, n, scores, ...)")
    if (
        p is None and n is None and folds is None and k is None
    ):  # no experiment: ask for it before the rounding of the scores
        raise ParameterError(
            "give the experiment: p and n (a test set), or n_items (an accuracy on a number of items), or dataset",
            "p",
            "n",
            "n_items",
            "dataset",
        )
    kw: ToleranceOptions = dict(eps=eps, decimals=decimals, rounding=rounding)
    intervals, tol = read_report(scores, **kw)  # the one reading of the reported scores
    report = _Report(intervals, tuple(scores), tuple(scores.values()), decimals, tol)
    bounds = fold_bounds(fold_min, fold_max, kw)
    folds, repeats, aggregation = _fold_options(
        folds, k, stratified=stratified, repeats=repeats, aggregation=aggregation, bounds=bounds
    )
    if folds is None and k is None:
        verdict = _single_report(p, n, report, diagnosis, bounds=bounds, aggregation=aggregation, repeats=repeats)
        return dataclasses.replace(verdict, reported=dict(scores))
    configs, joint, P, N = _configurations(
        p, n, folds, k, intervals, stratified=stratified, repeats=repeats, max_configurations=max_configurations
    )
    todo = [aggregation] if aggregation else list(AGGREGATIONS)
    details: dict[str, dict] = {}
    sug: list = []
    changeable = False
    for agg in todo:
        if agg == "som":
            details["som"], (sug, changeable) = _som(P, N, report, diagnosis)
            continue
        untestable = _untestable_mos(intervals, joint, aggregation)
        if untestable is not None:
            details["mos"] = untestable
            continue
        if bounds and joint is not None:
            raise ParameterError(
                "fold_min and fold_max need known folds (folds, or k with stratified, or a k-fold "
                f"with at most {max_configurations:,} possible fold configurations)",
                "fold_min",
                "fold_max",
                "folds",
                "k",
                "stratified",
            )
        if joint is not None:
            details["mos"] = _mos_joint(joint, intervals)
            continue
        details["mos"] = _mos(configs, intervals, progress, bounds)
        if diagnosis and isinstance(configs, tuple) and not details["mos"]["consistent"]:
            if _undefined_fold_score(configs, intervals):  # no value of any score helps: nothing to search
                continue
            more, ch = mos_typos(
                configs, intervals, report.names, report.written, decimals, tol
            )  # one known configuration
            sug, changeable = list(sug) + more, changeable or ch
    fits = [a for a in todo if details[a]["consistent"]]
    main = details[fits[0]] if fits else details[todo[0]]
    counts = [d["configurations_tested"] for d in details.values()]
    tested = None if None in counts else sum(counts)
    agg_name = aggregation or "som+mos"
    if aggregation is None:
        main = dict(main)
        main["configurations_tested"] = tested
    sug = sorted(sug, key=lambda x: abs(x.change)) if not fits else []
    text = _verdict_text(bool(fits), diagnosis, sug, changeable, details, configs, intervals, aggregation)
    return ReportVerdict(
        bool(fits),
        main["n_solutions"],
        main["solutions"],
        main["configurations_tested"],
        agg_name,
        fits,
        details,
        sug,
        text,
        fits[0] if fits else None,
        reported=dict(scores),
    )


def _fold_options(folds, k, *, stratified: bool, repeats: int, aggregation, bounds):
    """The fold options checked: ``(folds, repeats, aggregation)``, folds parsed, bounds implying Mean of Scores."""
    if bounds and aggregation is None:
        aggregation = "mos"
    repeats = check_int("repeats", repeats, low=1, high=MAX_REPEATS)
    if aggregation is not None:
        aggregation = check_choice("aggregation", aggregation, AGGREGATIONS)
    if bounds and aggregation == "som":  # never dropped silently: a Score of Means has no per-fold scores
        raise ParameterError(
            "fold_min and fold_max bound each fold's score, which a Score of Means never computes: "
            "give aggregation 'mos' (or none)",
            "fold_min",
            "fold_max",
            "aggregation",
        )
    if isinstance(folds, os.PathLike):
        folds = read_folds(folds)
    elif isinstance(folds, str):
        folds = parse_folds(folds)
    if folds is not None and k is not None:
        raise ParameterError("give either folds or k, not both", "folds", "k")
    if stratified and k is None:
        raise ParameterError("stratified needs k", "stratified", "k")
    return folds, repeats, aggregation


def _untestable_mos(intervals, joint, aggregation) -> dict | None:
    """The Mean-of-Scores details when the test cannot run here (a score not linear, too many fold types), else None.

    Raises when Mean of Scores was asked for explicitly.
    """
    nonlin = [iv.spec.name for iv in intervals if iv.base not in LINEAR_SCORES]
    too_many = joint is not None and _fold_types(joint, intervals) > MAX_FOLD_TYPES
    if nonlin or too_many:
        why = (
            f"{', '.join(nonlin)} not linear"
            if nonlin
            else f"{_fold_types(joint, intervals):,} fold types are more than one integer program "
            f"over unknown folds can hold (at most {MAX_FOLD_TYPES:,})"
        )
        if aggregation == "mos":
            if nonlin:
                raise ValueError(
                    f"the Mean-of-Scores test supports {', '.join(LINEAR_SCORES)} (Eq. 9), got {', '.join(nonlin)}"
                )
            raise ValueError(f"k: Mean of Scores over unknown folds cannot be decided: {why}; give the folds")
        return {
            "consistent": None,
            "n_solutions": 0,
            "solutions": [],
            "configurations_tested": 0,
            "note": f"not testable: {why}",
        }
    return None


def _verdict_text(
    fits: bool, diagnosis: bool, sug, changeable: bool, details: dict, configs, intervals, aggregation
) -> str:
    """The diagnosis text of the verdict; notes a fold score the folds leave undefined in ``details["mos"]``."""
    text = _diagnosis(fits, diagnosis, sug, changeable)
    undefined = _undefined_fold_score(configs, intervals) if "mos" in details and not fits else ""
    if undefined:
        details["mos"]["note"] += f"; {undefined}"
        text = undefined if aggregation == "mos" or not text or text == "not run" else f"{text}; under mos: {undefined}"
    if text and text != "not run" and "mos" in details and not isinstance(configs, tuple) and not undefined:
        if "som" not in details:  # nothing was searched: say so rather than "no single change" or "no typo"
            text = NOT_SEARCHED_MOS
        else:
            text += (
                " (searched under Score of Means only: typos of a Mean of Scores over unknown folds are not searched)"
            )
    return text


def _single_report(p, n, report: _Report, diagnosis: bool, *, bounds, aggregation, repeats: int) -> ReportVerdict:
    """The verdict on a single test set (no folds, no k): the options that need folds are rejected."""
    if bounds:
        raise ParameterError(
            "fold_min and fold_max need folds or k (a single test set has none)", "fold_min", "fold_max", "folds", "k"
        )
    if aggregation is not None:
        raise ParameterError("aggregation needs folds or k (a single test set has none)", "aggregation", "folds", "k")
    if repeats != 1:
        raise ParameterError("repeats needs folds or k (a single test set is evaluated once)", "repeats", "folds", "k")
    if p is None or n is None:
        raise ParameterError(
            "p and n are required for a single test set (or n_items, for an accuracy on a number of items)",
            "p",
            "n",
            "n_items",
        )
    d, (sug, changeable) = _som(p, n, report, diagnosis)
    return ReportVerdict(
        d["consistent"],
        d["n_solutions"],
        d["solutions"],
        1,
        "single",
        ["single"] if d["consistent"] else [],
        {"single": d},
        sug,
        _diagnosis(d["consistent"], diagnosis, sug, changeable),
        "single" if d["consistent"] else None,
    )


def _configurations(p, n, folds, k, intervals, *, stratified: bool, repeats: int, max_configurations: int):
    """The fold configurations to test: ``(configs, joint, P, N)``.

    ``configs`` holds known folds, unknown folds tested one by one, or None when
    ``joint`` = ``(p, n, k, repeats)`` asks for the joint program; ``P`` and ``N``
    are the total positives and negatives over all folds.
    """
    joint = None  # (p, n, k, repeats) when MoS needs the joint program over unknown folds
    configs: Folds | _Enumeration | None  # known folds, unknown folds tested one by one, or the joint program
    if folds is not None:
        folds = repeat_folds(folds, repeats)
        tp_tot, tn_tot = sum(f[0] for f in folds), sum(f[1] for f in folds)
        if (
            p is not None
            and n is not None
            and (p * repeats, n * repeats) != (tp_tot, tn_tot)
            and (p, n) != (tp_tot, tn_tot)
        ):
            raise ValueError(f"folds must add up to p={p}, n={n}, got {tp_tot}, {tn_tot}")
        configs = cast(Folds, tuple(tuple(f) for f in folds))  # pairs, as repeat_folds returned them
        P, N = tp_tot, tn_tot
        if P + N > MAX_COUNT:
            raise ValueError(f"folds must hold at most {MAX_COUNT} items in all, got {P + N}")
    else:
        if p is None or n is None:
            raise ParameterError("p and n are required with k", "p", "n", "k")
        k = check_int("k", k, low=2)
        p = check_int("p", p, low=1)
        n = check_int("n", n, low=1)
        P, N = p * repeats, n * repeats
        if P + N > MAX_COUNT:
            raise ValueError(_too_many(p, n, repeats))
        if stratified:
            configs = repeat_folds(stratified_folds(p, n, k), repeats)
        else:
            bases = {iv.base for iv in intervals}
            every = dict(
                positives_in_every_fold=bool(bases & {"sens", "bacc"}),
                negatives_in_every_fold=bool(bases & {"spec", "bacc"}),
            )
            count = count_kfold_configurations(p, n, k, **every)
            if repeats == 1 and count is not None and count <= max_configurations:
                configs = _Enumeration(kfold_configurations(p, n, k, **every), count)
            else:  # every repetition has its own configuration: one joint integer program
                configs, joint = None, (p, n, k, repeats)
    return configs, joint, P, N


def _undefined_fold_score(configs, intervals) -> str:
    """Why no Mean of Scores can give these scores: a fold score the folds leave undefined, or ""."""
    bases = {iv.base for iv in intervals}
    need = [(0, "positive", "sens"), (1, "negative", "spec")]
    if isinstance(configs, _Enumeration) and configs.total == 0:  # unknown k-fold: no split qualifies
        names = [sc for i, what, sc in need if bases & {sc, "bacc"}]
        return (
            f"no split into k folds puts a {' and a '.join(w for _, w, sc in need if sc in names)} in every fold "
            f"(fewer items of a class than folds), and {', '.join(sorted(bases & {'sens', 'spec', 'bacc'}))} "
            "of a fold without them is undefined: no Mean of Scores over these folds has this value"
        )
    if isinstance(configs, tuple):
        for i, what, sc in need:
            if bases & {sc, "bacc"} and any(f[i] == 0 for f in configs):
                return (
                    f"a fold holds no {what} item, and {', '.join(sorted(bases & {sc, 'bacc'}))} of such a fold is "
                    "undefined: no Mean of Scores over these folds has this value (fewer items of a class than folds?)"
                )
    return ""


def _diagnosis(consistent, ran, sug, changeable) -> str:
    if consistent:
        return ""
    if not ran:
        return "not run"
    if sug:
        return "a typo is plausible: " + "; ".join(
            f"{s.score} {s.reported:.{s.decimals}f} -> {s.suggested:.{s.decimals}f} ({s.typo}"
            f"{', under mos' if s.aggregation == 'mos' else ''})"
            for s in sug
        )
    return NO_TYPO if changeable else NO_SINGLE_CHANGE


def _fold_types(dataset, intervals) -> int:
    p, n, k, _ = dataset
    bases = {iv.base for iv in intervals}
    pos, neg = bool(bases & {"sens", "bacc"}), bool(bases & {"spec", "bacc"})
    # as many as sotalib.consistency._mos_kfold._types lists, without listing them
    return sum(max(0, min(s - 1 if neg else s, p) - max(1 if pos else 0, s - n) + 1) for _, s in _classes(p, n, k))


def _mos_joint(dataset, intervals):
    """Every fold configuration of every repetition at once (sotalib.consistency.check_mos_kfold)."""
    p, n, k, repeats = dataset
    r = check_mos_kfold_intervals([(p, n, k, repeats)], intervals)
    tested = r.configurations_tested
    space = (
        f"{format_count(tested)} {'joint ' if repeats > 1 else ''}fold configurations"
        if tested is not None
        else "the fold configurations (too many to count)"
    )
    if r.status == "feasible":
        note = f"feasible: one integer program over all {space} (feasible ones not counted)"
    elif r.status == "infeasible":
        note = f"infeasible: one integer program over all {space}"
    else:
        note = f"undecided (solver time limit) over all {space}, counted as consistent"
    sols = [[list(x) for rep in r.evidence[0] for x in rep]] if r.evidence else []
    folds = [[list(f) for rep in r.configurations for f in rep]] if r.configurations else []
    return {
        "consistent": r.consistent,
        "n_solutions": int(r.consistent),
        "solutions": sols,
        "solution_folds": folds,
        "configurations_tested": tested,
        "n_solutions_counted": False,
        "note": note,
    }


# --------------------------------------------------------------------------- an accuracy on n items
#: The parameters that make a report an accuracy on n items (sotalib.consistency._accuracy).
ACCURACY_OPTIONS = ("n_items", "samples", "pass_at", "average", "subsets", "subset_scores")


def _benchmark(name: object):
    """The named language-model benchmark ``name`` (a :class:`Benchmark`), or None when it is a named test set.

    A name that is neither is refused with the closest names of both registries.
    """
    from ._datasets import DATASETS

    key = str(name).strip().lower()
    if key in DATASETS:
        return None
    try:
        from . import _benchmarks  # the registry of language-model benchmarks (branch benchmarks)
    except ImportError:  # no registry of benchmarks: the named test sets say what is there
        return None
    try:
        return _benchmarks.benchmark(str(name))
    except ValueError:
        import difflib

        names = list(_benchmarks.BENCHMARKS) + list(DATASETS)
        close = difflib.get_close_matches(key, names, n=4, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise ValueError(
            f"dataset must be a named test set, got {str(name)!r}, which is no named benchmark either; "
            f"{hint}(sotalib datasets lists both)"
        ) from None


def _accuracy_kind(kwargs: Mapping[str, Any]) -> bool:
    """Whether the keywords describe an accuracy on n items (rather than a report of positives and negatives)."""
    if any(kwargs.get(name) is not None for name in ACCURACY_OPTIONS):
        return True
    return kwargs.get("dataset") is not None and _benchmark(kwargs["dataset"]) is not None


def _accuracy_report(
    scores, fold: dict, dataset, accuracy: dict, *, repeats, eps, decimals, rounding, diagnosis: bool = True
) -> ReportVerdict:
    """The verdict on an accuracy on n items (sotalib.consistency._accuracy), the options of folds refused."""
    from ._accuracy import check_accuracy

    given = [name for name, value in fold.items() if value is not None]
    if given:
        why = [name for name, value in accuracy.items() if value is not None] + (["dataset"] if dataset else [])
        raise ParameterError(
            f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to an accuracy on a number of items "
            f"(given by {', '.join(why)})",
            *given,
            *why,
        )
    if dataset is not None:
        bench = _benchmark(dataset)
        if bench is None:
            raise ParameterError(
                f"dataset {dataset!r} is a test set of positives and negatives, not a benchmark of n items: "
                "give p and n (or n_items without the dataset)",
                "dataset",
                "n_items",
            )
        clash = [name for name in ("n_items", "subsets") if accuracy.get(name) is not None]
        if clash:
            raise ParameterError(
                f"dataset {bench.name!r} fixes the benchmark: drop {', '.join(clash)}", "dataset", *clash
            )
        accuracy = dict(accuracy, n_items=bench.n_items, subsets=dict(bench.subsets) if bench.subsets else None)
    scores = as_mapping(scores, "scores")
    if scores is None:
        scores = {}
    ans = check_accuracy(
        scores, repeats=repeats, eps=eps, decimals=decimals, rounding=rounding, typos=diagnosis, **accuracy
    )
    detail = {
        "consistent": ans.consistent,
        "n_solutions": ans.n_solutions,
        "solutions": ans.evidence,
        "configurations_tested": 1,
        "note": ans.note,
        "average": ans.average,
        "n_solutions_counted": ans.counted,
        "witness": ans.witness,
        "roundings": None if ans.roundings is None else list(ans.roundings),
    }
    reported = dict(scores)
    reported.update({f"{k} (subset)": v for k, v in (accuracy.get("subset_scores") or {}).items()})
    return ReportVerdict(
        ans.consistent,
        ans.n_solutions,
        ans.evidence,
        1,
        "accuracy",
        ["accuracy"] if ans.consistent else [],
        {"accuracy": detail},
        list(ans.suggestions),
        ans.diagnosis,
        "accuracy" if ans.consistent else None,
        reported=reported,
        min_repeats=ans.min_repeats,
        example=ans.example,
    )


def _accuracy_lines(v: ReportVerdict) -> list[str]:
    """The lines of ``to_text()`` after the verdict, for an accuracy on n items."""
    d = v.details["accuracy"]
    state = "consistent" if d["consistent"] else "inconsistent"
    more = "" if d.get("n_solutions_counted", True) else " (at least)"
    lines = [f"  {d['note']}: {state}; solutions {d['n_solutions']:,}{more}"]
    if v.evidence:
        shown = v.evidence[:5]
        lines.append(f"  evidence ({d['witness']}): {shown}{' ...' if len(v.evidence) > 5 else ''}")
    fits = d.get("roundings")
    if v.consistent and fits is not None and len(fits) < 3:
        how = " or ".join(fits) if fits else "none of round, floor and ceil alone (each value its own way)"
        lines.append(f"  fits only if the values were shortened by {how}")
    for s in v.suggestions[:3]:
        counts, of = s.example
        eg = f"{counts} of {of}" if of is not None else f"items with 0, 1, ... correct samples {counts}"
        lines.append(
            f"  typo? {s.score} {s.reported:.{s.decimals}f} -> {s.suggested:.{s.decimals}f} "
            f"({s.typo}, change {s.change:+.{s.decimals}f}) makes it consistent, e.g. {eg}"
        )
    if not v.consistent:
        lines.append(f"  diagnosis: {v.diagnosis}")
    elif v.min_repeats is not None and v.min_repeats > 1 and v.example:
        lines.append(f"  fewest runs that give it: {v.min_repeats}")
    return lines
