"""Checking a whole report: experiment description, aggregation (known or not), many reports at once.

:func:`check_report` is what ``sotalib check`` runs: a single test set; or
folds given explicitly, by stratified k-fold (Table 6) or as unknown k-fold
configurations (Algorithm 2); aggregated by Score of Means, Mean of Scores,
or -- when the paper does not say -- both (Section 4.4.4), reporting which
fits.  :func:`check_batch` runs it on every row of a table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from .._json import json_safe
from .._validate import check_choice, check_int
from ._datasets import dataset_experiment
from ._folds import kfold_configurations, parse_folds, repeat_folds, stratified_folds
from ._mos import check_mos_intervals, diagnose_mos
from ._mos_kfold import check_mos_kfold_intervals, count_kfold_configurations
from ._scores import LINEAR_SCORES, resolve_score
from ._single import check_single, diagnose, score_intervals

__all__ = ["ReportVerdict", "BatchVerdict", "check_report", "check_batch", "BATCH_COLUMNS"]

AGGREGATIONS = ("som", "mos")


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
        Typo finder output for an inconsistent report: single test set / SoM, and MoS on
        one known fold configuration (each tagged with its ``aggregation``).
    """

    consistent: bool
    n_solutions: int
    solutions: list
    configurations_tested: int
    aggregation: str
    fits: list = field(default_factory=list)
    details: dict = field(default_factory=dict)
    suggestions: list = field(default_factory=list)

    @property
    def evidence(self) -> list:
        """Witnesses of consistency: the list ``solutions``."""
        return self.solutions

    def to_dict(self) -> dict:
        """JSON-safe form (no NaN): the four common keys, then n_solutions, solutions, aggregation,
        fits, suggestions -- the keys of ``sotalib check --json``."""
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
            }
        )


@dataclass(frozen=True)
class BatchVerdict:
    """The verdicts on every row of a table of reports (what ``sotalib check --batch`` prints).

    Attributes
    ----------
    reports : tuple of dict
        One row per report: id, verdict ('consistent', 'INCONSISTENT' or 'error'), fits,
        n_solutions, configurations_tested, typo, error.
    """

    reports: tuple

    @property
    def consistent(self) -> list:
        """Per report: True, False, or None when the row could not be checked."""
        return [{"consistent": True, "INCONSISTENT": False}.get(r["verdict"]) for r in self.reports]

    def to_dict(self) -> dict:
        """``{"reports": [row, ...]}``, JSON-safe (the output of ``sotalib check --batch --json``)."""
        return json_safe({"reports": [dict(r) for r in self.reports]})

    def to_frame(self) -> pandas.DataFrame:  # noqa: F821
        """One row per report as a pandas DataFrame (columns as in :attr:`reports`)."""
        import pandas as pd

        return pd.DataFrame([dict(r) for r in self.reports], columns=list(BATCH_RESULT_COLUMNS))

    def __len__(self) -> int:
        return len(self.reports)


def _som(p, n, scores, kw, typos):
    r = check_single(p, n, scores, **kw, max_solutions=100)
    sug = diagnose(p, n, scores, **kw) if (typos and not r.consistent) else []
    return {
        "consistent": r.consistent,
        "n_solutions": r.n_solutions,
        "solutions": r.solutions[:100].tolist(),
        "configurations_tested": 1,
        "note": f"totals p={p}, n={n}",
    }, sug


def _mos(configs, intervals):
    if isinstance(configs, tuple):
        r = check_mos_intervals(configs, intervals)
        sols = [[list(x) for x in r.solution]] if r.solution else []
        return {
            "consistent": r.consistent,
            "n_solutions": int(r.consistent),
            "solutions": sols,
            "solution_folds": [[list(f) for f in configs]] if r.solution else [],
            "configurations_tested": 1,
            "note": f"{r.status} ({r.method})",
        }
    tested, nfeas, sols, folds_of, undecided = 0, 0, [], [], 0
    for folds in configs:
        r = check_mos_intervals(folds, intervals)
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
    max_configurations: int = 200_000,
    typos: bool = True,
    dataset: str | None = None,
) -> ReportVerdict:
    """Check a report against its stated experiment.

    Parameters
    ----------
    scores : mapping
        Score name -> reported value.
    p, n : int, optional
        Positives and negatives of the dataset (required unless ``folds`` is given).
    eps, decimals, rounding
        Numerical uncertainty (see :func:`sotalib.consistency.score_intervals`).
    folds : sequence of (p_i, n_i) or str ``"p1:n1,..."``, optional
        Explicit evaluation sets (all folds of all repetitions and datasets).
    k : int, optional
        k-fold cross-validation of (p, n): stratified (Table 6) or, without
        ``stratified``, every configuration of Algorithm 2 for MoS.
    repeats : int
        Repetitions of the k-fold (or of the explicit folds).  Without
        ``stratified`` every repetition may have its own configuration: MoS
        is then decided by one joint integer program
        (:func:`sotalib.consistency.check_mos_kfold`).
    aggregation : {'som', 'mos'} or None
        None with folds: test both and report which fits (Section 4.4.4).
    max_configurations : int
        A single repetition with at most this many configurations is tested
        configuration by configuration (counting the feasible ones); beyond
        it, one joint integer program decides them all without counting.
    typos : bool
        Run the typo finder on an inconsistent report (single test set, SoM, and MoS
        with one known fold configuration).
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
    repeats = check_int("repeats", repeats, low=1)
    if aggregation is not None:
        aggregation = check_choice("aggregation", aggregation, AGGREGATIONS)
    if isinstance(folds, str):
        folds = parse_folds(folds)
    if folds is not None and k is not None:
        raise ValueError("give either folds or k, not both")
    if stratified and k is None:
        raise ValueError("stratified needs k")
    if folds is None and k is None:
        if aggregation is not None:
            raise ValueError("aggregation needs folds or k (a single test set has none)")
        if repeats != 1:
            raise ValueError("repeats needs folds or k (a single test set is evaluated once)")
        if p is None or n is None:
            raise ValueError("p and n are required for a single test set")
        d, sug = _som(p, n, scores, kw, typos)
        return ReportVerdict(
            d["consistent"],
            d["n_solutions"],
            d["solutions"],
            1,
            "single",
            ["single"] if d["consistent"] else [],
            {"single": d},
            sug,
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
    else:
        if p is None or n is None:
            raise ValueError("p and n are required with k")
        k = check_int("k", k, low=2)
        P, N = p * repeats, n * repeats
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
                configs = kfold_configurations(p, n, k, **every)
            else:  # every repetition has its own configuration: one joint integer program
                configs, joint = None, (p, n, k, repeats)
    todo = [aggregation] if aggregation else list(AGGREGATIONS)
    details, sug = {}, []
    for agg in todo:
        if agg == "som":
            details["som"], sug = _som(P, N, scores, kw, typos)
            continue
        nonlin = [iv.spec.name for iv in intervals if iv.base not in LINEAR_SCORES]
        if nonlin:
            if aggregation == "mos":
                raise ValueError(
                    f"the Mean-of-Scores test supports {', '.join(LINEAR_SCORES)} (Eq. 9), got {', '.join(nonlin)}"
                )
            details["mos"] = {
                "consistent": None,
                "n_solutions": 0,
                "solutions": [],
                "configurations_tested": 0,
                "note": f"not testable: {', '.join(nonlin)} not linear",
            }
            continue
        if joint is not None:
            details["mos"] = _mos_joint(joint, intervals)
            continue
        if not isinstance(configs, tuple):
            configs = list(configs)
        details["mos"] = _mos(configs, intervals)
        if typos and isinstance(configs, tuple) and not details["mos"]["consistent"]:
            sug = list(sug) + diagnose_mos(configs, scores, **kw)  # one known configuration
    fits = [a for a in todo if details[a]["consistent"]]
    main = details[fits[0]] if fits else details[todo[0]]
    counts = [d["configurations_tested"] for d in details.values()]
    tested = None if None in counts else sum(counts)
    agg_name = aggregation or "som+mos"
    if aggregation is None:
        main = dict(main)
        main["configurations_tested"] = tested
    return ReportVerdict(
        bool(fits),
        main["n_solutions"],
        main["solutions"],
        main["configurations_tested"],
        agg_name,
        fits,
        details,
        sorted(sug, key=lambda x: abs(x.change)) if not fits else [],
    )


def _mos_joint(dataset, intervals):
    """Every fold configuration of every repetition at once (sotalib.consistency.check_mos_kfold)."""
    p, n, k, repeats = dataset
    r = check_mos_kfold_intervals([(p, n, k, repeats)], intervals)
    tested = r.configurations_tested
    space = (
        f"{tested:,} {'joint ' if repeats > 1 else ''}fold configurations"
        if tested is not None
        else "every fold configuration (too many to count)"
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
#: Columns of a batch file that are not scores.
BATCH_COLUMNS = ("id", "p", "n", "k", "folds", "stratified", "repeats", "aggregation", "decimals", "eps", "rounding")
BATCH_COLUMNS += ("dataset",)  # a named test set (sotalib.consistency.DATASETS) instead of p and n


def _cell(v):
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, str) and not v.strip():
        return None
    return v


#: Columns of a :class:`BatchVerdict` row.
BATCH_RESULT_COLUMNS = ("id", "verdict", "fits", "n_solutions", "configurations_tested", "typo", "error")


def check_batch(table) -> BatchVerdict:
    """Check every row of a table (a pandas DataFrame or a CSV path).

    Columns: ``p``, ``n`` and ``decimals`` or ``eps`` (per row), optionally
    ``id``, ``rounding``, ``k``, ``folds``, ``stratified``, ``repeats``,
    ``aggregation``, ``dataset`` (a named test set instead of ``p`` and ``n``); every
    other column must be a score name (Table 2 abbreviation, synonym or complement) --
    unknown column names are an error, never silently ignored.  Empty cells mean "not reported".  Values are read
    as the decimals written in the file.

    Returns
    -------
    BatchVerdict
        One row per report; ``to_dict()`` is what ``sotalib check --batch --json`` prints and
        ``to_frame()`` the table it prints without ``--json``.
    """
    import pandas as pd

    df = (
        pd.read_csv(table, dtype=str, keep_default_na=False)
        if not isinstance(table, pd.DataFrame)
        else table.astype(str).replace({"nan": "", "None": ""})
    )
    cols = [c.strip() for c in df.columns]
    df.columns = cols
    score_cols = [c for c in cols if c.lower() not in BATCH_COLUMNS]
    unknown = []
    for c in score_cols:
        try:
            resolve_score(c)
        except ValueError:
            unknown.append(c)
    if unknown:
        raise ValueError(
            f"batch file: unknown column(s) {', '.join(map(repr, unknown))}; columns must be "
            f"{', '.join(BATCH_COLUMNS)} or score names"
        )
    if "p" not in cols and "folds" not in cols and "dataset" not in cols:
        raise ValueError("batch file: needs columns p and n (or folds, or dataset)")
    rows = []
    for i, row in df.iterrows():
        get = lambda c: _cell(row[c]) if c in cols else None  # noqa: E731
        label = get("id") or str(i + 1)
        scores = {c: row[c].strip() for c in score_cols if _cell(row[c]) is not None}
        try:
            v = check_report(
                scores,
                p=int(get("p")) if get("p") else None,
                n=int(get("n")) if get("n") else None,
                eps=get("eps"),
                decimals=int(get("decimals")) if get("decimals") else None,
                rounding=get("rounding") or "round",
                folds=get("folds"),
                k=int(get("k")) if get("k") else None,
                stratified=str(get("stratified") or "").lower() in ("1", "true", "yes"),
                repeats=int(get("repeats") or 1),
                aggregation=get("aggregation"),
                dataset=get("dataset"),
            )
            sug = v.suggestions[0] if v.suggestions else None
            rows.append(
                {
                    "id": label,
                    "verdict": "consistent" if v.consistent else "INCONSISTENT",
                    "fits": ",".join(v.fits) or "-",
                    "n_solutions": v.n_solutions,
                    "configurations_tested": v.configurations_tested,
                    "typo": (f"{sug.score} {sug.reported:g} -> {sug.suggested:g}" if sug else ""),
                    "error": "",
                }
            )
        except ValueError as exc:
            rows.append(
                {
                    "id": label,
                    "verdict": "error",
                    "fits": "-",
                    "n_solutions": 0,
                    "configurations_tested": 0,
                    "typo": "",
                    "error": str(exc),
                }
            )
    return BatchVerdict(tuple(rows))
