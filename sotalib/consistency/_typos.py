"""The typo finder: the single reported value that, mistyped, explains an inconsistent report.

Fazekas & Kovacs, Section 5 discusses the power of the tests against typos;
the paper's own example, 0.6801 printed for 0.6821, is a mistyped digit.  A
typo is *plausible* when one score differs from a value that makes the report
consistent by a few units of its last decimal, by one mistyped digit among
the last two, or by two swapped adjacent digits (:func:`typo_candidates`).
Every suggestion is verified by re-running the test on the corrected report.

The workers here take the intervals the public checker read once
(:func:`sotalib.consistency._intervals.score_intervals`) and build only the
interval of each candidate value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._result import Result
from ._folds import check_folds as _check_folds
from ._intervals import ScoreInterval, as_decimal, interval, read_report, report_decimals
from ._mos import _nearest_mean, check_mos_intervals
from ._scores import score_float, score_range
from ._single import check_intervals

__all__ = ["Suggestion", "diagnose", "diagnose_mos"]

#: A typo is plausible when one score moved by at most this many units of its last reported
#: decimal, or one of its last :data:`TYPO_DIGITS` digits was mistyped, or two adjacent digits
#: among them (or the one before) were swapped.  The paper's own example, 0.6801 printed for
#: 0.6821, is a mistyped second-to-last digit.
TYPO_UNITS = 3
TYPO_DIGITS = 2


@dataclass(frozen=True, repr=False)
class Suggestion(Result):
    """One plausible typo: changing one reported score makes the report consistent.

    Attributes
    ----------
    score : str
        The score to change (as reported).
    reported, suggested : float
        Its reported value and the corrected value, both at the report's decimals (an accuracy on
        n items written as a percent, ``13.4%``: in percent).
    change : float
        ``suggested - reported``, at the report's decimals.
    n_solutions : int
        Number of (tp, tn) pairs compatible with the corrected report (1 for Mean of Scores; for
        an accuracy on n items, the number of counts).
    example : tuple
        One compatible (tp, tn); for Mean of Scores the per-fold (tp_i, tn_i); for an accuracy on
        n items (counts, of): a count k of n (or n R), one count per subset, or (a pass@k
        histogram, None).
    aggregation : str
        The test the corrected report passes: 'single' (test set or Score of Means), 'mos' or
        'accuracy' (an accuracy on n items).
    decimals : int
        Decimals of the reported value (the suggestion is written with as many).
    typo : str
        The kind of typo: 'last decimal' (a few units of the last decimal), 'one digit'
        (one mistyped digit) or 'swapped digits' (two adjacent digits exchanged).
    """

    score: str
    reported: float
    suggested: float
    change: float
    n_solutions: int
    example: tuple
    aggregation: str = "single"
    decimals: int = 4
    typo: str = "last decimal"


def typo_candidates(value: Fraction, decimals: int, low: float = -math.inf, high: float = math.inf) -> list:
    """Values a mistyped report ``value`` (written with ``decimals`` decimals) may have meant.

    ``(candidate, kind)`` pairs, nearest first: ``value`` moved by 1 to :data:`TYPO_UNITS` units
    of its last decimal ('last decimal'), one of its last :data:`TYPO_DIGITS` digits replaced by
    another ('one digit'), two adjacent digits among the last ``TYPO_DIGITS + 1`` swapped
    ('swapped digits'); only candidates in ``[low, high]``.
    """
    d = min(int(decimals), 15)
    u = Fraction(1, 10**d)
    scaled = value / u
    if scaled.denominator != 1 or abs(scaled) >= 10**18:
        return []
    # in integers (units of the last decimal): the batch of check --batch calls this for every
    # inconsistent row, and Fraction arithmetic per candidate dominated its time
    m0 = int(scaled)
    lo_m = -math.inf if low == -math.inf else math.ceil(Fraction(low) / u)
    hi_m = math.inf if high == math.inf else math.floor(Fraction(high) / u)
    sign = -1 if m0 < 0 else 1
    digits = str(abs(m0)).rjust(d + 1, "0")
    found: dict[int, str] = {}

    def add(m: int, kind: str) -> None:
        if m != m0 and lo_m <= m <= hi_m and m not in found:
            found[m] = kind

    for j in range(1, TYPO_UNITS + 1):
        add(m0 + j, "last decimal")
        add(m0 - j, "last decimal")
    for i in range(max(0, len(digits) - TYPO_DIGITS), len(digits)):
        for new in "0123456789":
            if new != digits[i]:
                add(sign * int(digits[:i] + new + digits[i + 1 :]), "one digit")
    for i in range(max(0, len(digits) - TYPO_DIGITS - 1), len(digits) - 1):
        if digits[i] != digits[i + 1]:
            add(sign * int(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]), "swapped digits")
    return [(Fraction(m, 10**d), kind) for m, kind in sorted(found.items(), key=lambda kv: (abs(kv[0] - m0), kv[0]))]


def _candidate(iv: ScoreInterval, c: Fraction, d: int, tol: tuple[Fraction, Fraction]) -> ScoreInterval:
    """The interval of candidate value ``c`` of a score, read as written with ``d`` decimals."""
    return interval(iv.spec, as_decimal(f"{float(c):.{d}f}"), *tol)


def _replace(intervals: tuple, i: int, iv: ScoreInterval) -> tuple:
    return intervals[:i] + (iv,) + intervals[i + 1 :]


def single_typos(
    p: int,
    n: int,
    intervals: tuple[ScoreInterval, ...],
    names: Sequence[str],
    written: Sequence[object],
    decimals: int | None,
    tol: tuple[Fraction, Fraction],
    screen: int = 200_000,
) -> tuple[list[Suggestion], bool]:
    """(plausible typos, whether any change of one score at all could restore consistency).

    ``intervals`` are those of the report (``names`` and ``written`` values in the same order),
    ``tol`` its (below, above) half widths: only candidate values are read here.
    """
    out, changeable = [], False
    for i, (name, iv) in enumerate(zip(names, intervals)):
        others = intervals[:i] + intervals[i + 1 :]
        if not others:
            continue
        res = check_intervals(p, n, others, screen)
        if not res.consistent:
            continue
        spec = iv.spec
        vals, ok = score_float(spec.base, res.evidence[:, 0], res.evidence[:, 1], p, n, float(spec.beta))
        if spec.complement:
            vals = 1 - vals
        vals = np.sort(vals[ok])
        complete = res.n_solutions <= screen
        if complete and not len(vals):
            continue  # the score is undefined wherever the others hold
        changeable = True
        rep = iv.reported
        d = report_decimals(rep, decimals, written[i])
        lo_r, hi_r = (0.0, 1.0) if spec.complement else score_range(spec.base)
        width_lo = float(rep - (1 - iv.hi if spec.complement else iv.lo))
        width_hi = float((1 - iv.lo if spec.complement else iv.hi) - rep)
        for c, kind in typo_candidates(rep, d, lo_r, hi_r):
            if complete:  # screen in float64 with a wide margin; the exact check below decides
                a = float(c) - width_lo - 1e-9 * max(1.0, abs(float(c)))
                b = float(c) + width_hi + 1e-9 * max(1.0, abs(float(c)))
                j = np.searchsorted(vals, a)
                if j >= len(vals) or vals[j] > b:
                    continue
            chk = check_intervals(p, n, _replace(intervals, i, _candidate(iv, c, d, tol)), 1)
            if chk.consistent:
                out.append(
                    Suggestion(
                        name,
                        round(float(rep), d),
                        round(float(c), d),
                        round(float(c - rep), d),
                        chk.n_solutions,
                        tuple(int(x) for x in chk.evidence[0]),
                        "single",
                        d,
                        kind,
                    )
                )
                break
    return sorted(out, key=lambda s: (abs(s.change), s.score)), changeable


def mos_typos(
    folds: tuple[tuple[int, int], ...],
    intervals: tuple[ScoreInterval, ...],
    names: Sequence[str],
    written: Sequence[object],
    decimals: int | None,
    tol: tuple[Fraction, Fraction],
    max_checks: int = 8,
) -> tuple[list[Suggestion], bool]:
    """:func:`single_typos` for a Mean of Scores over known folds (Eq. 9).

    For each reported score, two integer programs find the nearest achievable mean below and
    above the reported value given the other scores; candidates in the gap between them are
    impossible, the others are verified on the corrected report, nearest first.
    """
    out, changeable = [], False
    for i, (name, iv) in enumerate(zip(names, intervals)):
        other_ivs = intervals[:i] + intervals[i + 1 :]
        if not other_ivs or not check_mos_intervals(folds, other_ivs).consistent:
            continue
        rep = iv.reported
        rep_base = 1 - rep if iv.spec.complement else rep
        nearest = [_nearest_mean(folds, other_ivs, iv.base, rep_base, up) for up in (False, True)]
        if nearest == [None, None]:
            continue
        changeable = True
        # no achievable mean lies strictly between the nearest ones below and above the report
        gap_lo = -math.inf if nearest[0] is None else nearest[0]
        gap_hi = math.inf if nearest[1] is None else nearest[1]
        d = report_decimals(rep, decimals, written[i])
        checks = 0
        for c, kind in typo_candidates(rep, d, 0, 1):
            civ = _candidate(iv, c, d, tol)
            if gap_lo < civ.lo and civ.hi < gap_hi:
                continue
            checks += 1
            r = check_mos_intervals(folds, _replace(intervals, i, civ))
            if r.status == "feasible":
                assert r.evidence  # a feasible result carries its verified solution
                out.append(
                    Suggestion(
                        name,
                        round(float(rep), d),
                        round(float(c), d),
                        round(float(c - rep), d),
                        1,
                        r.evidence[0],
                        "mos",
                        d,
                        kind,
                    )
                )
                break
            if checks >= max_checks:
                break
    return sorted(out, key=lambda s: (abs(s.change), s.score)), changeable


def diagnose(
    p: int,
    n: int,
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
    beta: float | None = None,
) -> list[Suggestion]:
    """The typo finder: the single reported score that, mistyped, explains the inconsistency.

    A typo is *plausible* when one score differs from a value that makes the
    report consistent by a few units (at most :data:`TYPO_UNITS`) of its last
    reported decimal, by one mistyped digit among the last two, or by two swapped
    adjacent digits.  For each reported score, the candidates are screened
    against every (tp, tn) the other scores admit and the nearest one that
    passes is verified on the corrected report, so every suggestion is certain
    to be consistent.

    Parameters
    ----------
    p, n : int
        Numbers of positives and negatives of the test set.
    scores : mapping
        Score name -> reported value (as in :func:`sotalib.consistency.check_single`).
    eps, decimals, rounding, beta
        The numerical uncertainty and the F-score weight, as in
        :func:`sotalib.consistency.check_single`.

    Returns
    -------
    list of Suggestion
        Sorted by the size of the change; empty when the report is consistent or no plausible
        typo explains it (then the scores may come from another test set, for example another
        pixel mask: see :func:`sotalib.consistency.check_report`).

    Raises
    ------
    ValueError
        Bad counts or scores, as in :func:`sotalib.consistency.check_single`.

    References
    ----------
    Fazekas & Kovacs, Section 3.3 (the example 0.6801 printed for 0.6821) and Section 5.

    Examples
    --------
    >>> from sotalib.consistency import diagnose
    >>> s = diagnose(1000, 6000, {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    >>> [(x.score, x.suggested, x.typo) for x in s]
    [('npv', 0.9409, 'one digit'), ('acc', 0.6821, 'one digit')]
    """
    intervals, tol = read_report(scores, eps=eps, decimals=decimals, rounding=rounding, beta=beta)
    if check_intervals(p, n, intervals, 1_000_000).consistent:
        return []
    return single_typos(p, n, intervals, list(scores), list(scores.values()), decimals, tol)[0]


def diagnose_mos(
    folds: Sequence[tuple[int, int]],
    scores: Mapping[str, float | str],
    *,
    eps: float | str | None = None,
    decimals: int | None = None,
    rounding: str | None = None,
) -> list[Suggestion]:
    """The typo finder for a Mean of Scores.

    It finds the single reported mean that, mistyped, explains why the report is inconsistent
    with the folds.

    A typo is plausible as in :func:`diagnose`.  For each reported score, two
    integer programs find the nearest achievable mean below and above the
    reported value given the other scores; candidates falling in the gap
    between them are impossible, the others are verified by the Mean-of-Scores
    test on the corrected report, nearest first.

    Parameters
    ----------
    folds : sequence of (p_i, n_i)
        The evaluation sets.
    scores : mapping
        acc, sens, spec, bacc (or synonyms, complements) -> reported mean.
    eps, decimals, rounding
        The numerical uncertainty, as in :func:`sotalib.consistency.check_single`.

    Returns
    -------
    list of Suggestion
        ``example`` holds the per-fold (tp_i, tn_i) and ``n_solutions`` is 1; sorted by the
        size of the change; empty when the report is consistent or no plausible typo explains it.

    Raises
    ------
    ValueError
        Bad folds, a score that is not linear in the counts, or bad scores.

    References
    ----------
    Fazekas & Kovacs, Section 4.3, Eq. 9 (the test), Section 5 (typos).

    Examples
    --------
    >>> from sotalib.consistency import diagnose_mos
    >>> folds = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]
    >>> s = diagnose_mos(folds, {"acc": "0.8280", "sens": "0.7391", "spec": "0.8741"}, eps="1e-4")
    >>> s[0].score, s[0].suggested
    ('acc', 0.8287)
    """
    folds = tuple(_check_folds(folds))
    intervals, tol = read_report(scores, eps=eps, decimals=decimals, rounding=rounding)
    if check_mos_intervals(folds, intervals).consistent:
        return []
    return mos_typos(folds, intervals, list(scores), list(scores.values()), decimals, tol)[0]
