"""Many candidates on many data sets: the Friedman test, Nemenyi's critical difference, Wilcoxon-Holm.

The procedure of {demsar2006statistical} for comparing ``k`` candidates
(classifiers, systems) on ``N`` judges (data sets, tasks, metrics): a score
matrix ``M`` of shape ``(k, N)``, candidates x judges, as ``sotalib rank``
reads it.

1. Rank the candidates on each judge (1 is best; tied candidates share the
   mean of the positions they occupy) and average over judges: ``R_j``.
2. The Friedman test of "all candidates are equivalent",
   ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]``
   (Demšar's Eq. (1)), divided by the usual correction for ties
   ``1 - sum (t^3 - t) / (N k (k^2 - 1))`` (as
   :func:`scipy.stats.friedmanchisquare`; ``tie_correction=False`` gives the
   paper's uncorrected statistic), and the Iman--Davenport variant
   ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)`` on ``(k - 1, (k - 1)(N - 1))``
   degrees of freedom (Eq. (2), {iman1980approximations}).
3. The Nemenyi critical difference ``CD = q_alpha sqrt(k (k + 1) / (6 N))``
   (Eq. (3)), with ``q_alpha`` the studentized range quantile for ``k`` means
   and infinite degrees of freedom divided by ``sqrt(2)``: two candidates
   whose average ranks differ by less than ``CD`` are not significantly
   different.  The *groups* are the maximal sets of candidates, consecutive
   in average rank, that are pairwise not significantly different -- the
   bars of the critical-difference diagram.
4. Pairwise Wilcoxon signed-rank tests with Holm's step-down correction
   {holm1979simple}, which Demšar recommends for comparing two candidates
   and which stays valid when the Nemenyi test's exchangeability is doubtful.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._frame import AXES, as_matrix, warn_names_as_candidates
from .._json import json_safe
from .._result import Result
from .._validate import check_alpha, check_int, check_memory
from ._ranking_functions import _close, _labels, _matrix
from ._wilcoxon import Pairwise, _pairwise_wilcoxon, _run_lengths

__all__ = ["Comparison", "FriedmanTest", "compare_candidates", "nemenyi_cd"]

#: Default bound on the pairwise Wilcoxon tests of :func:`compare_candidates` (every pair of 1,000 candidates).
MAX_PAIRS = 500_000


# ------------------------------------------------------------------ ranks and Friedman


def average_ranks(M, lower_is_better: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Rank the candidates on each judge and average: ``(R, ranks)``.

    Parameters
    ----------
    M : array_like, shape (k, N)
        Scores, candidates x judges (finite).
    lower_is_better : bool
        The scores are losses.

    Returns
    -------
    R : ndarray, shape (k,)
        Average rank of each candidate (1 is best).
    ranks : ndarray, shape (k, N)
        The rank on each judge; tied candidates share the mean of their
        positions (values within :data:`TIE_RTOL` tie, as in :func:`rank`),
        so every column sums to ``k (k + 1) / 2``.
    """
    return _average_ranks(_matrix(M), lower_is_better)


def _average_ranks(A: np.ndarray, lower_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """:func:`average_ranks` of a checked matrix."""
    r = _column_ranks(-A if lower_is_better else A)
    return r.mean(axis=1), r


def _column_ranks(A: np.ndarray) -> np.ndarray:
    """:func:`rank` of every column (higher is better, ties share the mean position), by one sort per column.

    Values within :data:`TIE_RTOL` of the next one in sorted order tie, as in :func:`rank`.
    """
    k = A.shape[0]
    order = np.argsort(-A, axis=0, kind="stable")
    v = np.take_along_axis(A, order, axis=0).T  # judges x candidates, best first
    new = np.ones(v.shape, dtype=bool)
    new[:, 1:] = ~_close(v[:, 1:], v[:, :-1])
    last = np.ones(v.shape, dtype=bool)
    last[:, :-1] = new[:, 1:]
    pos = np.arange(k)
    start = np.maximum.accumulate(np.where(new, pos, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, pos, k - 1)[:, ::-1], axis=1)[:, ::-1]
    r = np.empty_like(A)
    np.put_along_axis(r, order, ((start + end) / 2.0 + 1.0).T, axis=0)
    return r


@dataclass(frozen=True, repr=False)
class FriedmanTest(Result):
    """The Friedman test and its Iman--Davenport variant (Demšar's Eqs. (1) and (2)).

    Attributes
    ----------
    statistic : float
        ``chi2_F`` (corrected for ties unless ``tie_correction=False``).
    p_value : float
        Upper tail of the chi-square distribution with ``m - 1`` degrees of freedom.
    iman_davenport_F : float
        ``F_F = (N - 1) chi2_F / (N (m - 1) - chi2_F)`` (infinite when every judge ranks alike).
    iman_davenport_p : float
        Upper tail of the F distribution with ``(m - 1, (m - 1)(N - 1))`` degrees of freedom.
    m, N : int
        Candidates and judges (Demšar writes ``k`` for the candidates).
    tie_correction : float
        The divisor ``1 - sum (t^3 - t) / (N m (m^2 - 1))`` applied (1 if none).
    """

    statistic: float
    p_value: float
    iman_davenport_F: float
    iman_davenport_p: float
    m: int
    N: int
    tie_correction: float

    def to_dict(self) -> dict:
        """JSON-safe form of the result (the JSON of ``sotalib compare``).

        Keys: ``statistic``, ``p_value``, ``iman_davenport_F`` (None when infinite), ``iman_davenport_p``.
        """
        return json_safe(
            {
                "statistic": self.statistic,
                "p_value": self.p_value,
                "iman_davenport_F": self.iman_davenport_F,
                "iman_davenport_p": self.iman_davenport_p,
            }
        )


def friedman_test(M, lower_is_better: bool = False, *, tie_correction: bool = True) -> FriedmanTest:
    """The Friedman test of "all ``k`` candidates are equivalent" over ``N`` judges.

    ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` (Demšar's
    Eq. (1)) with ``R_j`` the average ranks; with ``tie_correction`` (the
    default, as :func:`scipy.stats.friedmanchisquare`) it is divided by
    ``1 - sum (t^3 - t) / (N k (k^2 - 1))``, the sum over groups of ``t`` tied
    candidates on a judge.  Demšar's worked example prints the uncorrected
    statistic (``tie_correction=False``).  The Iman--Davenport statistic
    ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)`` (Eq. (2)) is referred to
    the F distribution with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom.

    Raises
    ------
    ValueError
        If there are fewer than 2 candidates or 2 judges, or scores are not finite.
    """
    A = _matrix(M)
    k, N = A.shape
    if k < 2 or N < 2:
        raise ValueError(f"M must have at least 2 candidates and 2 judges, got shape {A.shape}")
    R, r = _average_ranks(A, lower_is_better)
    return _friedman(R, r, tie_correction)


def _friedman(R: np.ndarray, r: np.ndarray, tie_correction: bool) -> FriedmanTest:
    k, N = r.shape
    chi2 = 12.0 * N / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4.0)
    c = 1.0
    if tie_correction:
        s = np.sort(r.T, axis=1)
        start, end = _run_lengths(s)
        t = (end - start + 1).astype(float)
        ties = float(np.sum(t**2 - 1.0))  # sum over entries of t^2 - 1 = sum over groups of t^3 - t
        c = 1.0 - ties / (N * k * (k * k - 1.0))
        if c <= 0:  # every judge ties every candidate: no evidence at all
            return FriedmanTest(0.0, 1.0, 0.0, 1.0, k, N, 0.0)
        chi2 /= c
    chi2 = max(float(chi2), 0.0)
    p = float(stats.chi2.sf(chi2, k - 1))
    den = N * (k - 1) - chi2
    F = (N - 1) * chi2 / den if den > 0 else np.inf
    pF = float(stats.f.sf(F, k - 1, (k - 1) * (N - 1))) if np.isfinite(F) else 0.0
    return FriedmanTest(chi2, p, float(F), pF, k, N, float(c))


# ------------------------------------------------------------------------- Nemenyi


@lru_cache(maxsize=256)
def _q_alpha(k: int, alpha: float) -> float:
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def q_alpha(k: int, alpha: float = 0.05) -> float:
    """Critical value of the Nemenyi test: the studentized range quantile over ``sqrt(2)``.

    ``q_alpha = Q^{-1}(1 - alpha; k, inf) / sqrt(2)`` with ``Q`` the studentized
    range distribution of ``k`` means on infinite degrees of freedom (the
    values of Demšar's Table 5(a): 1.960, 2.343, 2.569, ... at ``alpha = 0.05``).
    """
    if isinstance(k, bool) or int(k) != k or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k}")
    alpha = check_alpha("alpha", alpha)
    return _q_alpha(int(k), alpha)


def nemenyi_cd(m: int, N: int, *, alpha: float = 0.05) -> float:
    """The Nemenyi critical difference ``CD = q_alpha sqrt(m (m + 1) / (6 N))``.

    Two of ``m`` candidates ranked over ``N`` judges whose average ranks
    differ by ``CD`` or more are significantly different at level ``alpha``;
    ``q_alpha`` is the studentized range quantile for ``m`` means on
    infinite degrees of freedom over ``sqrt(2)`` (Demšar writes ``k`` for ``m``).

    Parameters
    ----------
    m : int
        Candidates, >= 2.
    N : int
        Judges (data sets), >= 1.
    alpha : float
        Significance level, in (0, 1).

    Returns
    -------
    float
        The critical difference in average rank.

    Raises
    ------
    ValueError
        ``m`` or ``N`` not an integer in range, ``alpha`` out of (0, 1).

    References
    ----------
    Demšar (2006), *Statistical comparisons of classifiers over multiple data
    sets*, JMLR 7, Eq. (3) and Table 5(a).

    Examples
    --------
    >>> from sotalib.judging import nemenyi_cd
    >>> round(nemenyi_cd(4, 14), 3)          # Demšar's worked example: CD = 1.25
    1.254
    """
    m = check_int("m", m, low=2)
    N = check_int("N", N, low=1)
    return q_alpha(m, alpha) * float(np.sqrt(m * (m + 1) / (6.0 * N)))


def nemenyi_groups(R, cd: float) -> list[list[int]]:
    """The maximal groups of candidates whose average ranks all lie within less than ``cd``.

    Candidates are taken in order of average rank; each group is a maximal run
    ``i..j`` with ``R[j] - R[i] < cd`` (a maximal clique of the "not
    significantly different" graph, which is an interval graph).  A candidate
    significantly different from every other forms a group of its own, so
    every candidate belongs to at least one group.  Returns lists of indices
    into ``R``, best group first.
    """
    R = np.asarray(R, dtype=float)
    order = np.argsort(R, kind="stable")
    s = R[order]
    k = len(s)
    ends = np.searchsorted(s, s + cd, side="left") - 1  # last j with s[j] < s[i] + cd, up to rounding of s[i] + cd
    idx = np.arange(k)
    while True:  # decide by the differences themselves, as the definition does: s[j] - s[i] < cd
        nxt = np.minimum(ends + 1, k - 1)
        grow = (ends + 1 < k) & (s[nxt] - s < cd)
        shrink = (ends > idx) & (s[np.maximum(ends, 0)] - s >= cd)
        if not (grow.any() or shrink.any()):
            break
        ends = ends + grow - shrink
    groups, last_end = [], -1
    for i in range(k):
        j = max(int(ends[i]), i)
        if j > last_end:
            groups.append([int(c) for c in order[i : j + 1]])
            last_end = j
    return groups


# -------------------------------------------------------------------------- compare


@dataclass(frozen=True, repr=False)
class Comparison(Result):
    """Demšar's procedure on one score matrix (what ``sotalib compare --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    candidates : tuple of str
        Candidate names.
    average_ranks : ndarray, shape (k,)
        1 is best.
    ranks : ndarray, shape (k, N)
        Rank of each candidate on each judge.
    friedman : FriedmanTest
        The Friedman and Iman--Davenport tests.
    critical_difference : float
        Nemenyi's ``CD`` at ``alpha``.
    q_alpha : float
        The Nemenyi critical value.
    groups : list of list of int
        Maximal groups not significantly different by the Nemenyi test (indices, best first).
    pairwise : Pairwise
        Wilcoxon-Holm tests of every pair.
    alpha : float
        The significance level.
    lower_is_better : bool
        The scores are losses.
    note : str
        Empty, or what was bounded: with more than ``max_pairs`` pairs the
        pairwise tests cover only the best candidates by average rank.
    candidates_axis : {"rows", "columns"}
        Which axis of the score matrix held the candidates.
    """

    candidates: tuple
    average_ranks: np.ndarray
    ranks: np.ndarray
    friedman: FriedmanTest
    critical_difference: float
    q_alpha: float
    groups: list
    pairwise: Pairwise
    alpha: float
    lower_is_better: bool
    note: str = ""
    candidates_axis: str = "rows"

    @property
    def order(self) -> np.ndarray:
        """Candidate indices by average rank, best first."""
        return np.argsort(self.average_ranks, kind="stable")

    def to_dict(self) -> dict:
        """JSON-safe form of the result, with exactly the keys below.

        ``average_ranks`` (candidate -> rank, best first), ``friedman``,
        ``critical_difference``, ``groups`` (lists of names), ``pairwise`` (list of
        ``{a, b, p_value, p_holm, significant}``), and ``note`` when the pairwise
        tests were bounded (``max_pairs``), and ``candidates_axis`` (the axis of the
        score matrix that held the candidates).
        """
        c = self.candidates
        pw = self.pairwise
        extra = {"note": self.note} if self.note else {}
        return json_safe(
            extra
            | {
                "average_ranks": {c[i]: float(self.average_ranks[i]) for i in self.order},
                "friedman": self.friedman.to_dict(),
                "critical_difference": float(self.critical_difference),
                "groups": [[c[i] for i in g] for g in self.groups],
                "pairwise": [
                    {
                        "a": c[i],
                        "b": c[j],
                        "p_value": float(p),
                        "p_holm": float(q),
                        "significant": bool(s),
                    }
                    for i, j, p, q, s in zip(pw.a, pw.b, pw.p, pw.p_holm, pw.significant, strict=True)
                ],
                "candidates_axis": self.candidates_axis,
            }
        )

    def to_text(self) -> str:
        """Average ranks, the Friedman test, the critical difference, the groups, the pairs that differ.

        What ``sotalib compare`` prints.
        """
        d = self.to_dict()
        fr = self.friedman
        k, N = self.ranks.shape
        w = max(len(c) for c in self.candidates)
        lines = [
            f"{k} candidates on {N} judges; score: {'lower' if self.lower_is_better else 'higher'} is better; "
            f"candidates: the {self.candidates_axis}",
            "average ranks (1 is best):",
        ]
        lines += [f"  {r:7.3f}  {name}" for name, r in d["average_ranks"].items()]
        lines.append(
            f"Friedman chi-square = {fr.statistic:.4g}, p = {fr.p_value:.3g}; "
            f"Iman-Davenport F = {fr.iman_davenport_F:.4g}, p = {fr.iman_davenport_p:.3g}"
        )
        lines.append(f"Nemenyi critical difference (alpha = {self.alpha:g}): {self.critical_difference:.4f}")
        lines.append("groups not significantly different:")
        lines += ["  " + ", ".join(g) for g in d["groups"]]
        sig = [p for p in d["pairwise"] if p["significant"]]
        lines.append(f"Wilcoxon signed-rank, Holm-corrected: {len(sig)} of {len(d['pairwise'])} pairs differ")
        lines += [
            f"  {p['a'].ljust(w)}  {p['b'].ljust(w)}  p = {p['p_value']:.3g}, Holm {p['p_holm']:.3g}" for p in sig
        ]
        return "\n".join(lines)


def compare_candidates(
    scores: ArrayLike,
    *,
    alpha: float = 0.05,
    lower_is_better: bool = False,
    candidates: str | Sequence[str] | None = None,
    tie_correction: bool = True,
    max_pairs: int | None = MAX_PAIRS,
) -> Comparison:
    """Compare ``k`` candidates over ``N`` judges as Demšar (2006) recommends.

    The front door of ``sotalib compare``: ``compare_candidates(...).to_dict()``
    is what the command prints with ``--json``.  Average ranks, the Friedman
    test and its Iman--Davenport variant, the Nemenyi critical difference and
    the groups it does not tell apart, and pairwise Wilcoxon signed-rank tests
    with Holm's correction.

    Parameters
    ----------
    scores : array_like, shape (k, N), mapping, pandas.DataFrame or ScoreFile
        Scores, candidates x judges (data sets, tasks), finite; at least 2 of
        each.  A DataFrame's index, a mapping's keys (candidate -> scores) or
        the file :func:`read_scores` read names the candidates.  With
        ``candidates="columns"`` the matrix is read the other way: its
        columns are the candidates (a table with data sets as rows).
    alpha : float
        Significance level of the Nemenyi critical difference and of the
        Holm-corrected pairwise tests, in (0, 1).
    lower_is_better : bool
        The scores are losses.
    candidates : {"rows", "columns"} or str, optional
        Which axis holds the candidates (``"rows"``, the default layout, or
        ``"columns"``; the result's ``candidates_axis`` says which), or the
        DataFrame column holding their names (default ``C1``, ``C2``, ...
        unless the data name them).  A sequence of names is deprecated
        (removed in 0.7.0; a :class:`DeprecationWarning`): name the
        candidates in the data.
    tie_correction : bool
        Correct the Friedman statistic for ties (as SciPy; Demšar prints it uncorrected).
    max_pairs : int or None
        At most this many pairwise Wilcoxon tests (default ``MAX_PAIRS``,
        500,000: every pair of up to 1,000 candidates).  With more candidates
        the pairwise tests (and Holm's correction) cover the ``t`` best by
        average rank, ``t (t - 1) / 2 <= max_pairs``, and ``note`` says so;
        ranks, the Friedman test, the critical difference and the groups
        always cover every candidate.  None tests every pair (refused up
        front if the tests cannot fit in memory).

    Returns
    -------
    Comparison
        Average ranks, the Friedman test, the critical difference, the groups
        and the pairwise tests.

    Raises
    ------
    ValueError
        Fewer than 2 candidates or judges, scores not finite, ``alpha`` out
        of (0, 1), names of the wrong number or not unique.

    References
    ----------
    Demšar (2006), *Statistical comparisons of classifiers over multiple data
    sets*, JMLR 7, Section 3.2.2, Eqs. (1)-(3) and Table 5; Holm (1979);
    Pavão, *How to judge a competition*, Section 4 (many judges, one ranking).

    Examples
    --------
    >>> import numpy as np
    >>> from sotalib.judging import compare_candidates
    >>> M = {"a": [0.90, 0.80, 0.85, 0.70], "b": [0.80, 0.75, 0.80, 0.60], "c": [0.70, 0.70, 0.75, 0.65]}
    >>> cmp = compare_candidates(M)
    >>> cmp.to_dict()["average_ranks"]
    {'a': 1.0, 'b': 2.25, 'c': 2.75}
    >>> round(cmp.critical_difference, 3)
    1.657
    """
    warn_names_as_candidates("compare_candidates", candidates)
    axis = candidates if isinstance(candidates, str) and candidates in AXES else "rows"
    A, names, _ = as_matrix(scores, "scores", candidates=candidates)
    if isinstance(candidates, str):  # the DataFrame column that named the rows, or the axis of the candidates
        candidates = None
    alpha = check_alpha("alpha", alpha)
    k, N = A.shape
    names = _labels(candidates, names, k, "candidates") or tuple(f"C{i + 1}" for i in range(k))
    if k < 2 or N < 2:
        raise ValueError(f"scores must have at least 2 candidates and 2 judges, got shape {A.shape}")
    pairs = k * (k - 1) // 2
    if max_pairs is not None:
        max_pairs = check_int("max_pairs", max_pairs, low=1)
    R, r = _average_ranks(A, lower_is_better)
    fr = _friedman(R, r, tie_correction)
    q = _q_alpha(k, alpha)
    cd = q * float(np.sqrt(k * (k + 1) / (6.0 * N)))
    note = ""
    if max_pairs is None or pairs <= max_pairs:
        # the p-values, Holm's values, the pair indices and the flags: about 40 bytes a pair
        check_memory(40.0 * pairs, f"max_pairs=None with {k:,} candidates ({pairs:,} pairwise tests)", "give max_pairs")
        pairwise = _pairwise_wilcoxon(A, alpha)
    else:
        t = int((1 + np.sqrt(1 + 8 * max_pairs)) // 2)
        while t * (t - 1) // 2 > max_pairs:
            t -= 1
        top = np.sort(np.argsort(R, kind="stable")[: max(t, 2)])
        sub = _pairwise_wilcoxon(A[top], alpha)
        pairwise = Pairwise(top[sub.a], top[sub.b], sub.p, sub.p_holm, sub.significant, alpha)
        note = (
            f"pairwise Wilcoxon-Holm tests of the {top.size:,} best candidates by average rank only "
            f"({sub.p.size:,} of {pairs:,} pairs, Holm's correction over those; max_pairs={max_pairs:,}); "
            "ranks, the Friedman test, the critical difference and the groups cover all candidates"
        )
    return Comparison(
        candidates=tuple(names),
        average_ranks=R,
        ranks=r,
        friedman=fr,
        critical_difference=cd,
        q_alpha=q,
        groups=nemenyi_groups(R, cd),
        pairwise=pairwise,
        alpha=alpha,
        lower_is_better=bool(lower_is_better),
        note=note,
        candidates_axis=axis,
    )
