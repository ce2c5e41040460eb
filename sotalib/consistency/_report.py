"""Checking a whole report: experiment description, aggregation (known or not), many reports at once.

:func:`check_report` is what ``sotalib check`` runs: a single test set; or
folds given explicitly, by stratified k-fold (Table 6) or as unknown k-fold
configurations (Algorithm 2); aggregated by Score of Means, Mean of Scores,
or -- when the paper does not say -- both (Section 4.4.4), reporting which
fits.  :func:`check_batch` runs it on every row of a table: every row gets a
verdict or an error naming its column, and one bad row never costs another
row its verdict.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from .._json import json_safe
from .._progress import progress as _progress
from .._validate import check_choice, check_int, format_count
from ._datasets import dataset_experiment
from ._folds import kfold_configurations, parse_folds, read_folds, repeat_folds, stratified_folds
from ._mos import _mos_finder, check_mos_intervals
from ._mos_kfold import _classes, check_mos_kfold_intervals, count_kfold_configurations
from ._scores import LINEAR_SCORES, SCORES, resolve_score
from ._single import MAX_COUNT, _finder, _too_many, as_decimal, check_single, score_intervals

__all__ = ["ReportVerdict", "BatchVerdict", "check_report", "check_batch", "BATCH_COLUMNS"]

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


@dataclass(frozen=True)
class ReportVerdict:
    """The verdict on one report (what ``sotalib check --json`` prints).

    Attributes
    ----------
    consistent : bool
        Some tested aggregation fits (an inconsistency is certain).
    evidence : list
        Witnesses of consistency (the same list as ``solutions``): [tp, tn] pairs for a test set
        or Score of Means, per-fold [[tp_i, tn_i], ...] for Mean of Scores; empty when inconsistent.
    configurations_tested : int or None
        Fold configurations covered (None: too many to count; the verdict still covers all).
    details : dict
        Per aggregation tested ('single', 'som', 'mos'): consistent, n_solutions, solutions,
        configurations_tested, note (and for MoS the folds of the evidence, ``solution_folds``).
    n_solutions : int
        Single test set / SoM: compatible (tp, tn) pairs; MoS: feasible fold configurations.
    solutions : list
        Up to 100 [tp, tn] pairs, or for MoS per-fold [[tp_i, tn_i], ...] of feasible configurations.
    aggregation : str
        'single', 'som', 'mos' or 'som+mos' (both tested).
    fits : list of str
        The aggregations under which the report is consistent.
    suggestions : list
        Plausible typos of an inconsistent report (:func:`sotalib.consistency.diagnose`): single
        test set / SoM, and MoS on one known fold configuration (each tagged with its ``aggregation``).
    diagnosis : str
        What the typo finder concluded: empty for a consistent report, a sentence when no plausible
        typo explains the report (or no single change fixes it), 'not run' when it was skipped.
    evidence_aggregation : str or None
        The aggregation the evidence belongs to ('single', 'som' or 'mos'; None when inconsistent).
    """

    consistent: bool
    n_solutions: int
    solutions: list
    configurations_tested: int
    aggregation: str
    fits: list = field(default_factory=list)
    details: dict = field(default_factory=dict)
    suggestions: list = field(default_factory=list)
    diagnosis: str = ""
    evidence_aggregation: str | None = None

    @property
    def evidence(self) -> list:
        """Witnesses of consistency: the list ``solutions``."""
        return self.solutions

    def to_dict(self) -> dict:
        """JSON-safe form (no NaN): the four common keys, then n_solutions, solutions, aggregation,
        fits, suggestions, diagnosis, evidence_aggregation -- the keys of ``sotalib check --json``."""
        return json_safe(
            {
                "consistent": bool(self.consistent),
                "evidence": self.solutions,
                "configurations_tested": (
                    None if self.configurations_tested is None else int(self.configurations_tested)
                ),
                "details": self.details,
                "n_solutions": int(self.n_solutions),
                "solutions": self.solutions,
                "aggregation": self.aggregation,
                "fits": list(self.fits),
                "suggestions": [dict(s.__dict__) for s in self.suggestions],
                "diagnosis": self.diagnosis,
                "evidence_aggregation": self.evidence_aggregation,
            }
        )


#: Columns of a :class:`BatchVerdict` row.
BATCH_RESULT_COLUMNS = ("id", "verdict", "fits", "n_solutions", "configurations_tested", "typo", "error")


@dataclass(frozen=True)
class BatchVerdict:
    """The verdicts on every row of a table of reports (what ``sotalib check --batch`` prints).

    Attributes
    ----------
    reports : tuple of dict
        One row per report: id, verdict ('consistent', 'INCONSISTENT' or 'error'), fits,
        n_solutions, configurations_tested (None: too many to count, see note), typo, error, note.
    """

    reports: tuple

    @property
    def consistent(self) -> list:
        """Per report: True, False, or None when the row could not be checked."""
        return [{"consistent": True, "INCONSISTENT": False}.get(r["verdict"]) for r in self.reports]

    @property
    def errors(self) -> list:
        """The rows that could not be checked (verdict 'error')."""
        return [r for r in self.reports if r["verdict"] == "error"]

    def to_dict(self) -> dict:
        """``{"reports": [row, ...]}``, JSON-safe (the output of ``sotalib check --batch --json``)."""
        return json_safe({"reports": [dict(r) for r in self.reports]})

    def to_frame(self) -> pandas.DataFrame:  # noqa: F821
        """One row per report as a pandas DataFrame (columns as in :data:`BATCH_RESULT_COLUMNS`);
        ``configurations_tested`` keeps None (too many to count), never NaN."""
        import pandas as pd

        return pd.DataFrame([dict(r) for r in self.reports], columns=list(BATCH_RESULT_COLUMNS), dtype=object)

    def to_text(self) -> str:
        """The table ``sotalib check --batch`` prints: one line per report, then every error in full."""
        head = ("id", "verdict", "fits", "solutions", "configurations", "typo")
        lines = []
        for r in self.reports:
            tested = r["configurations_tested"]
            lines.append(
                (
                    str(r["id"]),
                    r["verdict"],
                    r["fits"],
                    "-" if r["verdict"] == "error" else f"{r['n_solutions']:,}",
                    "-" if r["verdict"] == "error" else ("too many to count" if tested is None else f"{tested:,}"),
                    r["typo"] or "-",
                )
            )
        widths = [max(len(h), *(len(row[j]) for row in lines)) for j, h in enumerate(head)]
        out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in lines]
        errors = self.errors
        n_ok = len(self.reports) - len(errors)
        n_bad = sum(r["verdict"] == "INCONSISTENT" for r in self.reports)
        out.append(
            f"{len(self.reports)} reports: {n_ok - n_bad} consistent, {n_bad} INCONSISTENT, "
            f"{len(errors)} could not be checked"
        )
        for r in errors:
            out.append(f"  error in row {r['row']} (id {r['id']}): {r['error']}")
        return "\n".join(out)

    def __len__(self) -> int:
        return len(self.reports)


def _som(p, n, intervals, kw, diagnosis, scores):
    r = check_single(p, n, scores, **kw, max_solutions=100)
    d = {
        "consistent": r.consistent,
        "n_solutions": r.n_solutions,
        "solutions": r.solutions[:100].tolist(),
        "configurations_tested": 1,
        "note": f"totals p={p}, n={n}",
    }
    if diagnosis and not r.consistent:
        return d, _finder(p, n, scores, kw)
    return d, ([], False)


@dataclass(frozen=True)
class _Enumeration:
    """Fold configurations tested one by one (a single repetition with few configurations)."""

    configurations: object
    total: int


def _mos(configs, intervals, show, bounds=()):
    if isinstance(configs, tuple):
        r = check_mos_intervals(configs, intervals, bounds)
        sols = [[list(x) for x in r.solution]] if r.solution else []
        return {
            "consistent": r.consistent,
            "n_solutions": int(r.consistent),
            "solutions": sols,
            "solution_folds": [[list(f) for f in configs]] if r.solution else [],
            "configurations_tested": 1,
            "note": f"{r.status} ({r.method})",
        }
    configs, total = configs.configurations, configs.total
    tested, nfeas, sols, folds_of, undecided = 0, 0, [], [], 0
    for folds in _progress(configs, total=total, desc="fold configurations", show=show):
        r = check_mos_intervals(folds, intervals, bounds)
        tested += 1
        if r.consistent:
            nfeas += 1
            undecided += r.status == "undecided"
            if r.solution and len(sols) < 100:
                sols.append([list(x) for x in r.solution])
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


def check_report(
    scores: Mapping[str, object],
    *,
    p: int | None = None,
    n: int | None = None,
    eps=None,
    decimals=None,
    rounding: str = "round",
    folds=None,
    k: int | None = None,
    stratified: bool = False,
    repeats: int = 1,
    aggregation: str | None = None,
    max_configurations: int = 2_000,
    diagnosis: bool = True,
    progress: bool | None = None,
    fold_min: Mapping[str, object] | None = None,
    fold_max: Mapping[str, object] | None = None,
    dataset: str | None = None,
) -> ReportVerdict:
    """Check a report against its stated experiment.

    Parameters
    ----------
    scores : mapping
        Score name -> reported value (each score once: synonyms of one score are an error).
    p, n : int, optional
        Positives and negatives of the dataset (required unless ``folds`` is given).
    eps, decimals, rounding
        Numerical uncertainty (see :func:`sotalib.consistency.score_intervals`); with
        ``decimals``, a value written with more decimals is an error.
    folds : sequence of (p_i, n_i) or str ``"p1:n1,..."``, optional
        Explicit evaluation sets (all folds of all repetitions and datasets).
    k : int, optional
        k-fold cross-validation of (p, n): stratified (Table 6) or, without
        ``stratified``, every configuration of Algorithm 2 for MoS.
    repeats : int
        Repetitions of the k-fold (or of the explicit folds), 1 to 1,000.  Without
        ``stratified`` every repetition may have its own configuration: MoS
        is then decided by one joint integer program
        (:func:`sotalib.consistency.check_mos_kfold`).
    aggregation : {'som', 'mos'} or None
        None with folds: test both and report which fits (Section 4.4.4).
    max_configurations : int
        A single repetition with at most this many configurations is tested
        configuration by configuration (counting the feasible ones); beyond
        it -- where enumerating would take long -- one joint integer program
        decides them all without counting, with the same exact verification
        of the solution it finds.
    diagnosis : bool
        Run the typo finder on an inconsistent report (single test set, SoM, and MoS
        with one known fold configuration); False skips it (``--no-diagnosis``).
    progress : bool or None
        Progress bar for a long enumeration of fold configurations (None: only when
        stderr is a terminal; the command line passes False with ``--json``).
    fold_min, fold_max : mapping, optional
        Reported minimum and maximum over the folds of a score (Eq. 10), both for the
        same names; they constrain the Mean-of-Scores test (``aggregation`` defaults to
        'mos'), on known folds or on fold configurations tested one by one.
    dataset : str, optional
        A named test set (:data:`sotalib.consistency.DATASETS`, e.g. ``"drive-test-fov"``):
        its ``p`` and ``n``, or its folds, instead of ``p``, ``n``, ``folds`` and ``k``.

    Returns
    -------
    ReportVerdict
        Frozen; ``to_dict()`` is what ``sotalib check --json`` prints.

    Raises
    ------
    ValueError
        Bad input: the message names the parameter (``p``, ``k``, ``repeats``,
        ``aggregation``, a score name, ...) and its allowed range.
    """
    if dataset is not None:
        p, n, folds = dataset_experiment(dataset, p, n, folds, k)
    kw = dict(eps=eps, decimals=decimals, rounding=rounding)
    intervals = score_intervals(scores, **kw)
    bounds = _fold_bounds(fold_min, fold_max, kw)
    if bounds and aggregation is None:
        aggregation = "mos"
    repeats = check_int("repeats", repeats, low=1, high=MAX_REPEATS)
    if aggregation is not None:
        aggregation = check_choice("aggregation", aggregation, AGGREGATIONS)
    if isinstance(folds, str):
        folds = parse_folds(folds)
    if folds is not None and k is not None:
        raise ValueError("give either folds or k, not both")
    if stratified and k is None:
        raise ValueError("stratified needs k")
    if folds is None and k is None:
        if bounds:
            raise ValueError("fold_min and fold_max need folds or k (a single test set has no folds)")
        if aggregation is not None:
            raise ValueError("aggregation needs folds or k (a single test set has none)")
        if repeats != 1:
            raise ValueError("repeats needs folds or k (a single test set is evaluated once)")
        if p is None or n is None:
            raise ValueError("p and n are required for a single test set")
        d, (sug, changeable) = _som(p, n, intervals, kw, diagnosis, scores)
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
    joint = None  # (p, n, k, repeats) when MoS needs the joint program over unknown folds
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
        configs = tuple(tuple(f) for f in folds)
        P, N = tp_tot, tn_tot
        if P + N > MAX_COUNT:
            raise ValueError(f"folds must hold at most {MAX_COUNT} items in all, got {P + N}")
    else:
        if p is None or n is None:
            raise ValueError("p and n are required with k")
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
    todo = [aggregation] if aggregation else list(AGGREGATIONS)
    details, sug, changeable = {}, [], False
    for agg in todo:
        if agg == "som":
            details["som"], (sug, changeable) = _som(P, N, intervals, kw, diagnosis, scores)
            continue
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
            details["mos"] = {
                "consistent": None,
                "n_solutions": 0,
                "solutions": [],
                "configurations_tested": 0,
                "note": f"not testable: {why}",
            }
            continue
        if bounds and joint is not None:
            raise ValueError(
                "fold_min and fold_max need known folds (folds, or k with stratified, or a single k-fold "
                f"with at most max_configurations={max_configurations} configurations)"
            )
        if joint is not None:
            details["mos"] = _mos_joint(joint, intervals)
            continue
        details["mos"] = _mos(configs, intervals, progress, bounds)
        if diagnosis and isinstance(configs, tuple) and not details["mos"]["consistent"]:
            if _undefined_fold_score(configs, intervals):  # no value of any score helps: nothing to search
                continue
            more, ch = _mos_finder(configs, scores, kw)  # one known configuration
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
    text = _diagnosis(bool(fits), diagnosis, sug, changeable)
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
    )


def _fold_bounds(fold_min, fold_max, kw) -> tuple:
    """(min, max) interval pairs of Eq. 10 from the reported per-fold minimum and maximum."""
    fold_min, fold_max = dict(fold_min or {}), dict(fold_max or {})
    if set(fold_min) != set(fold_max):
        raise ValueError("fold_min and fold_max must name the same scores")
    bounds = []
    for name in fold_min:
        (a,) = score_intervals({name: fold_min[name]}, **kw)
        (b,) = score_intervals({name: fold_max[name]}, **kw)
        if a.base not in LINEAR_SCORES:
            raise ValueError(f"fold_min and fold_max support {', '.join(LINEAR_SCORES)} (Eq. 10), got {name!r}")
        if a.spec.complement:
            a, b = b, a
        bounds.append((a, b))
    return tuple(bounds)


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
    sols = [[list(x) for rep in r.solution for x in rep]] if r.solution else []
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


# --------------------------------------------------------------------------- batch
#: Columns of a batch file that are not scores (matched case-insensitively).
BATCH_COLUMNS = (
    "id",
    "p",
    "n",
    "k",
    "folds",
    "folds_file",
    "stratified",
    "repeats",
    "aggregation",
    "decimals",
    "eps",
    "rounding",
)
BATCH_COLUMNS += ("dataset",)  # a named test set (sotalib.consistency.DATASETS) instead of p and n

_TRUE = ("true", "yes", "1", "1.0", "y", "t")
_FALSE = ("false", "no", "0", "0.0", "n", "f")


def _column_key(name: str) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def _cell_text(v) -> str:
    """A DataFrame cell as the text a CSV file would hold ('' for a missing value)."""
    if v is None:
        return ""
    if isinstance(v, float):  # also numpy's float64
        if math.isnan(v):
            return ""
        return repr(float(v))
    try:  # pandas' NA, NaT
        import pandas as pd

        if v is pd.NA or v is pd.NaT:
            return ""
    except ImportError:  # pragma: no cover
        pass
    if hasattr(v, "item") and callable(v.item):  # numpy scalars
        return _cell_text(v.item())
    return str(v)


def _int_cell(column: str, text: str, low: int, high: int | None = None) -> int:
    """An integer cell: ``100`` or ``100.0`` (pandas writes integers of a column with a gap as
    floats) or ``1e3``; ``100.5`` or text is an error naming the column."""
    rng = f">= {low}" if high is None else f"in [{low}, {high}]"
    try:
        v = as_decimal(text, f"column {column}")
    except ValueError:
        raise ValueError(f"column {column} must be an integer {rng}, got {text!r}") from None
    if v.denominator != 1 or v < low or (high is not None and v > high):
        raise ValueError(f"column {column} must be an integer {rng}, got {text!r}")
    return int(v)


def _bool_cell(column: str, text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError(f"column {column} must be true or false (also yes/no, 1/0), got {text!r}")


def _read_table(table) -> tuple[list[str], list[tuple[int, list[str]]], str, str]:
    """(header, [(row number, cells)], base directory for folds_file, name of the table)."""
    try:
        import pandas as pd

        is_frame = isinstance(table, pd.DataFrame)
    except ImportError:  # pragma: no cover
        is_frame = False
    if is_frame:
        header = [str(c) for c in table.columns]
        rows = [(i + 1, [_cell_text(v) for v in rec]) for i, rec in enumerate(table.itertuples(index=False))]
        if not header:
            raise ValueError("table has no columns: it needs p, n, decimals or eps, and score names")
        return header, rows, os.getcwd(), "table"
    if hasattr(table, "read"):
        raw, name, base = table.read(), getattr(table, "name", "batch file"), os.getcwd()
    else:
        name = os.fspath(table)
        base = os.path.dirname(os.path.abspath(name))
        try:
            with open(name, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ValueError(f"batch file {name}: cannot be read ({exc.strerror or exc})") from None
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"batch file {name} is not UTF-8 text (byte {exc.start}): save it as UTF-8 (CSV UTF-8)"
            ) from None
    try:
        lines = [(i, cells) for i, cells in enumerate(csv.reader(io.StringIO(raw)), start=1)]
    except csv.Error as exc:
        raise ValueError(f"batch file {name} is not a CSV file: {exc}") from None
    lines = [(i, c) for i, c in lines if any(x.strip() for x in c)]
    if not lines:
        raise ValueError(
            f"batch file {name} is empty: it needs a header line (p, n, decimals or eps, score names) "
            "and one line per report"
        )
    (_, header), rows = lines[0], lines[1:]
    sep = next((c for c in ";\t|" if len(header) == 1 and c in header[0]), None)
    if sep is not None:  # a spreadsheet's export in a locale whose list separator is not the comma
        raise ValueError(
            f"batch file {name} is separated by {sep!r}, not by commas (header {header[0]!r}): save it as "
            "comma-separated CSV with decimal points"
        )
    if not rows:
        raise ValueError(f"batch file {name} has a header but no reports: add one line per report")
    # rows numbered as data rows (1 = the first report), as in a DataFrame
    return header, [(j + 1, cells) for j, (_, cells) in enumerate(rows)], base, f"batch file {name}"


def _columns(header, where) -> tuple[dict[str, int], dict[str, int]]:
    """({batch column: index}, {score name as written: index}); unknown or repeated columns are errors."""
    known, scores, seen, unknown = {}, {}, {}, []
    for j, raw in enumerate(header):
        key = _column_key(raw)
        if not key:
            raise ValueError(f"{where}: column {j + 1} has no name")
        if key in BATCH_COLUMNS:
            what = key
        else:
            try:
                spec = resolve_score(raw)
            except ValueError:
                unknown.append(str(raw).strip())
                continue
            what = ("score", spec.base, spec.complement, spec.beta)
        if what in seen:
            raise ValueError(f"{where}: columns {seen[what]!r} and {str(raw).strip()!r} name the same thing: keep one")
        seen[what] = str(raw).strip()
        if key in BATCH_COLUMNS:
            known[key] = j
        else:
            scores[str(raw).strip()] = j
    if unknown:
        raise ValueError(
            f"{where}: unknown column(s) {', '.join(map(repr, unknown))}; the accepted columns are "
            f"{', '.join(BATCH_COLUMNS)} (any case) and score names: {', '.join(SCORES)} or their "
            "synonyms and complements (accuracy, recall, precision, f1, error_rate, ...)"
        )
    if not scores:
        raise ValueError(f"{where}: no score column (acc, sens, spec, f1, ...)")
    if not ({"p", "n"} <= set(known) or "folds" in known or "folds_file" in known or "dataset" in known):
        raise ValueError(f"{where}: needs columns p and n (or folds, or folds_file, or dataset)")
    return known, scores


def _check_row(cells, known, score_cols, base, diagnosis) -> dict:
    get = {c: (cells[j].strip() if j < len(cells) else "") for c, j in known.items()}
    opt = lambda c: get.get(c) or None  # noqa: E731
    scores = {name: cells[j].strip() for name, j in score_cols.items() if j < len(cells) and cells[j].strip()}
    if not scores:
        raise ValueError("no score given (every score column is empty)")
    folds = opt("folds")
    if opt("folds_file"):
        if folds:
            raise ValueError("give either column folds or column folds_file, not both")
        path = opt("folds_file")
        folds = read_folds(path if os.path.isabs(path) else os.path.join(base, path))
    if opt("decimals") and opt("eps"):
        raise ValueError("give either column decimals or column eps, not both")
    v = check_report(
        scores,
        p=_int_cell("p", opt("p"), 1) if opt("p") else None,
        n=_int_cell("n", opt("n"), 1) if opt("n") else None,
        eps=opt("eps"),
        decimals=_int_cell("decimals", opt("decimals"), 0, 15) if opt("decimals") else None,
        rounding=(opt("rounding") or "round").lower(),
        folds=folds,
        k=_int_cell("k", opt("k"), 2) if opt("k") else None,
        stratified=_bool_cell("stratified", opt("stratified")) if opt("stratified") else False,
        repeats=_int_cell("repeats", opt("repeats"), 1, MAX_REPEATS) if opt("repeats") else 1,
        aggregation=opt("aggregation").lower() if opt("aggregation") else None,
        diagnosis=diagnosis,
        progress=False,
        dataset=opt("dataset"),
    )
    sug = v.suggestions[0] if v.suggestions else None
    main = v.details[v.evidence_aggregation or next(iter(v.details))]
    typo = ""
    if sug is not None:
        typo = f"{sug.score} {sug.reported:.{sug.decimals}f} -> {sug.suggested:.{sug.decimals}f}"
    elif not v.consistent and diagnosis:
        typo = "none plausible"
    return {
        "verdict": "consistent" if v.consistent else "INCONSISTENT",
        "fits": ",".join(v.fits) or "-",
        "n_solutions": v.n_solutions,
        "configurations_tested": v.configurations_tested,
        "typo": typo,
        "error": "",
        "note": main.get("note", "") if v.configurations_tested is not None else _uncounted(v),
    }


def _uncounted(v) -> str:
    notes = [f"{a}: {d['note']}" for a, d in v.details.items() if d.get("configurations_tested") is None]
    return "configurations_tested is null: too many fold configurations to count (the verdict covers them all); " + (
        "; ".join(notes)
    )


def check_batch(table, *, diagnosis: bool = True, progress: bool | None = None) -> BatchVerdict:
    """Check every row of a table of reports (a pandas DataFrame, a CSV path or an open file).

    Columns (names matched case-insensitively): ``p``, ``n`` and ``decimals`` or ``eps`` (per
    row), optionally ``id``, ``rounding``, ``k``, ``folds`` (``"p1:n1,..."``), ``folds_file`` (a
    CSV file with columns p and n, its path relative to the batch file), ``stratified``
    (true/false, yes/no, 1/0), ``repeats``, ``aggregation``, ``dataset`` (a named test set
    instead of p and n); every other column must be a
    score name (Table 2 abbreviation, synonym or complement).  Empty cells mean "not
    reported".  Values are read as the decimals written in the file; integer columns also
    accept the ``100.0`` pandas writes for a column with gaps.

    Every row gets a verdict or an error naming its column: a bad row never costs another
    row its verdict.

    Parameters
    ----------
    table : DataFrame, path or file
        The reports.
    diagnosis : bool
        Run the typo finder on inconsistent reports (the command line's ``--no-diagnosis``
        passes False).
    progress : bool or None
        Progress bar over the rows (None: only when stderr is a terminal).

    Returns
    -------
    BatchVerdict
        One row per report (``row`` numbers the reports from 1); ``to_dict()`` is what
        ``sotalib check --batch --json`` prints and ``to_text()`` the table it prints
        without ``--json``.

    Raises
    ------
    ValueError
        The table itself is unusable: unreadable, not UTF-8 (the message names the file),
        empty, without a score column, with an unknown column (the message lists the
        accepted names) or two columns naming the same score.
    """
    header, rows, base, where = _read_table(table)
    known, score_cols = _columns(header, where)
    out = []
    for number, cells in _progress(rows, total=len(rows), desc="reports", show=progress):
        id_j = known.get("id")
        label = (cells[id_j].strip() if id_j is not None and id_j < len(cells) else "") or str(number)
        row = {"id": label, "row": number}
        try:
            if len(cells) > len(header):
                raise ValueError(f"row has {len(cells)} cells but the header names {len(header)} columns")
            row.update(_check_row(cells, known, score_cols, base, diagnosis))
        except Exception as exc:  # noqa: BLE001 - one bad row never costs another row its verdict
            msg = " ".join(str(exc).split()) or type(exc).__name__
            if not isinstance(exc, ValueError):
                msg = f"{type(exc).__name__}: {msg}"
            row.update(
                {
                    "verdict": "error",
                    "fits": "-",
                    "n_solutions": 0,
                    "configurations_tested": 0,
                    "typo": "",
                    "error": msg,
                    "note": "",
                }
            )
        out.append(row)
    return BatchVerdict(tuple(out))
