"""Rank aggregation, the front door: fuse a candidates x judges score matrix into one ranking (``sotalib rank``).

Section 4 of Pavão's *How to judge a competition* {pavao2024judge}.
:func:`rank_candidates` returns the aggregate values in the orientation
natural to each method (``lower_is_better`` says which): means and medians
keep the scores' orientation, average ranks and Kemeny positions are
lower-is-better, Copeland and relative-difference scores are higher-is-better.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._deprecate import REMOVED_IN_NEXT, warn_deprecated
from .._frame import AXES, as_matrix, warn_names_as_candidates
from .._json import json_safe
from .._result import Result
from .._rng import check_rng
from .._validate import check_choice
from ._kemeny import _kemeny
from ._ranking_functions import (
    _labels,
    average_rank,
    copeland,
    mean_score,
    median_score,
    random_dictator,
    rank,
    relative_difference,
    weighted_average_rank,
)

__all__ = ["Aggregation", "rank_candidates"]

#: The ranking functions of :func:`rank_candidates` (names as on the command line).
METHODS = (
    "random-dictator",
    "mean",
    "median",
    "average-rank",
    "weighted-average-rank",
    "copeland",
    "relative-difference",
    "kemeny",
)


# --------------------------------------------------------------------- aggregate


@dataclass(frozen=True, repr=False)
class Aggregation(Result):
    """The result of a ranking function (what ``sotalib rank --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    method : str
        The ranking function (one of the ``method`` names of :func:`rank_candidates`).
    scores : ndarray
        The aggregate value ``f(M)`` per candidate.
    lower_is_better : bool
        Orientation of ``scores`` (not of the input: average ranks and Kemeny
        positions are lower-is-better, Copeland scores higher-is-better).
        Formerly ``higher_is_better``, its negation (a deprecated property).
    ranks : ndarray
        ``rank(f(M))``: 1 is best, ties count one half.
    order : ndarray of int
        Candidate indices best first (ties in index order).
    note : str
        E.g. which judge the random dictator drew, or how Kemeny-Young was solved.
    judge : int or None
        The column the random dictator drew (0-based).
    candidates : tuple of str
        Candidate names (``C1``, ``C2``, ... unless given).
    judges : tuple of str or None
        Judge names, if given.
    candidates_axis : {"rows", "columns"}
        Which axis of the score matrix held the candidates.
    """

    method: str
    scores: np.ndarray
    lower_is_better: bool
    ranks: np.ndarray
    order: np.ndarray
    note: str = ""
    judge: int | None = None
    candidates: tuple = ()
    judges: tuple | None = None
    candidates_axis: str = "rows"

    @property
    def higher_is_better(self) -> bool:
        """Deprecated: ``not lower_is_better`` (the vocabulary's one orientation flag)."""
        warn_deprecated("Aggregation.higher_is_better", "not Aggregation.lower_is_better", removed_in=REMOVED_IN_NEXT)
        return not self.lower_is_better

    @property
    def ranking(self) -> list[str]:
        """Candidate names, best first."""
        return [self._name(i) for i in self.order]

    def _name(self, i: int) -> str:
        return self.candidates[i] if self.candidates else f"C{int(i) + 1}"

    def to_dict(self) -> dict:
        """JSON-safe form of the result: the output of ``sotalib rank --json``.

        Keys: ranking, scores and ranks by candidate (best first), method, lower_is_better (the orientation
        of the aggregate scores; formerly ``higher_is_better``, its negation), note,
        candidates_axis (the axis of the score matrix that held the candidates).
        """
        return json_safe(
            {
                "ranking": self.ranking,
                "scores": {self._name(i): float(self.scores[i]) for i in self.order},
                "ranks": {self._name(i): float(self.ranks[i]) for i in self.order},
                "method": self.method,
                "lower_is_better": bool(self.lower_is_better),
                "note": self.note,
                "candidates_axis": self.candidates_axis,
            }
        )

    def to_text(self) -> str:
        """The ranking, best first, with each candidate's rank and score: what ``sotalib rank`` prints."""
        n = len(self.scores)
        head = f"{self.method} ranking of {n:,} candidates"
        if self.judges is not None:
            head += f" by {len(self.judges):,} " + ("judge" if len(self.judges) == 1 else "judges")
        lines = [
            head
            + (f" ({self.note})" if self.note else "")
            + f"; score: {'lower' if self.lower_is_better else 'higher'} is better"
            + f"; candidates: the {self.candidates_axis}"
        ]
        w = max(len(self._name(i)) for i in range(n))
        for i in self.order:
            lines.append(f"  {self.ranks[i]:>4g}  {self._name(i).ljust(w)}  {self.scores[i]:.6g}")
        return "\n".join(lines)


def rank_candidates(
    scores: ArrayLike,
    method: str,
    *,
    lower_is_better: bool = False,
    weights: ArrayLike | None = None,
    rng: np.random.Generator | int | None = None,
    candidates: str | Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    progress: bool | None = None,
) -> Aggregation:
    """Rank the candidates (rows of ``scores``) with one of the chapter's ranking functions.

    The front door of ``sotalib rank``: ``rank_candidates(...).to_dict()`` is
    what the command prints with ``--json``.  The final ranking is
    ``rank(f(M))``, rank 1 the best and a tie counting one half.

    Parameters
    ----------
    scores : array_like, shape (n, m), mapping, pandas.DataFrame or ScoreFile
        The score matrix ``M``: candidates x judges, finite.  A DataFrame's
        index names the candidates and its columns name the judges (as do a
        mapping's keys, and the file :func:`read_scores` read).
    method : str
        The ranking function ``f``: ``"mean"``, ``"median"``,
        ``"average-rank"``, ``"weighted-average-rank"``, ``"copeland"``,
        ``"relative-difference"``, ``"kemeny"`` or ``"random-dictator"``.
    lower_is_better : bool
        The judges' scores are losses (smaller is better).
    weights : array_like, optional
        Judge weights for ``"weighted-average-rank"`` (non-negative, not all zero).
    rng : int, numpy.random.Generator or None
        For ``"random-dictator"``: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.
    candidates : {"rows", "columns"} or str, optional
        Which axis of ``scores`` holds the candidates: ``"rows"`` (the
        default layout) or ``"columns"`` (a table with judges or data sets
        as rows, read the other way; the result's ``candidates_axis`` says
        which); or the DataFrame column holding their names.  Candidates
        default to ``C1, C2, ...`` unless the data name them.  A sequence of
        names is deprecated (removed in 0.7.0; a
        :class:`DeprecationWarning`): name the candidates in the data.
    judges : sequence of str, optional
        Names of the judges (override a DataFrame's columns); with judge
        names, the random dictator's note names the judge drawn.
    progress : bool or None
        Progress bars for the pairwise methods on many candidates (None:
        when stderr is a terminal; the command line passes False with ``--json``).

    Returns
    -------
    Aggregation
        The aggregate values, the ranks, the order and a note.

    Raises
    ------
    ValueError
        ``scores`` not a finite non-empty 2-d matrix, an unknown ``method``,
        missing or bad ``weights``, names of the wrong number or not unique,
        a bad ``rng``.

    Notes
    -----
    Kemeny scores are positions (1 = best); up to eight candidates (and
    within each block of that size, see :func:`kemeny_young`) they are
    averaged over *all* optimal orderings, so candidates that trade places
    between co-optimal orderings tie.  The note says how Kemeny-Young was
    solved and whether the ordering is proved optimal.

    Cost: mean, median, average rank and the random dictator take
    ``O(n log n)`` per judge; Copeland, relative difference and Kemeny-Young
    compare every pair, ``O(n^2 m)`` time in bounded blocks, and Kemeny-Young
    keeps an ``n x n`` table (refused up front when it cannot fit in memory).

    References
    ----------
    Pavão, *How to judge a competition*, Section 4 (ranking functions, the
    rank with ties counting one half) and Section 4.1 (Kemeny-Young),
    Table 3 (the example below).

    Examples
    --------
    >>> from sotalib.judging import rank_candidates
    >>> M = [[0.8, 0.5, 0.7, 0.5], [0.6, 0.9, 0.4, 0.5], [0.4, 0.7, 0.8, 0.5]]
    >>> rank_candidates(M, "mean").ranking
    ['C1', 'C2', 'C3']
    >>> rank_candidates(M, "copeland").to_dict()["scores"]
    {'C1': 0.5, 'C2': 0.5, 'C3': 0.5}
    """
    warn_names_as_candidates("rank_candidates", candidates)
    axis = candidates if isinstance(candidates, str) and candidates in AXES else "rows"
    A, rows, cols = as_matrix(scores, "scores", candidates=candidates)
    candidates = rows if candidates is None or isinstance(candidates, str) else candidates
    judges = cols if judges is None else judges
    method = check_choice("method", method, METHODS)
    check_rng(rng)
    cand_names = _labels(candidates, (), A.shape[0], "candidates")
    judge_names = _labels(judges, None, A.shape[1], "judges")
    note, judge = "", None
    if method == "mean":
        s, hib = mean_score(A), not lower_is_better
    elif method == "median":
        s, hib = median_score(A), not lower_is_better
    elif method == "average-rank":
        s, hib = average_rank(A, lower_is_better), False
    elif method == "weighted-average-rank":
        if weights is None:
            raise ValueError("weights are required for weighted-average-rank")
        s, hib = weighted_average_rank(A, weights, lower_is_better), False
    elif method == "copeland":
        s, hib = copeland(A, lower_is_better, progress=progress), True
    elif method == "relative-difference":
        s, hib = relative_difference(A, lower_is_better, progress=progress), True
    elif method == "random-dictator":
        s, judge = random_dictator(A, rng)
        hib = not lower_is_better
        note = (
            f"judge {judge + 1} of {A.shape[1]} drawn" if judge_names is None else f"judge {judge_names[judge]!r} drawn"
        )
    else:
        res = _kemeny(A, lower_is_better, "auto", None, progress)
        s, hib = res.positions(), False
        if res.exact:
            note = f"Kemeny-Young by {res.engine}, proved optimal"
        elif res.engine == "heuristic":
            note = "Kemeny-Young by local search from the average-rank order (heuristic, not proved optimal)"
        else:
            note = f"Kemeny-Young by {res.engine} (heuristic, not proved optimal)"
        if res.optimal_orders is not None and len(res.optimal_orders) > 1:
            note += f"; {len(res.optimal_orders)} co-optimal orderings, positions averaged"
    r = rank(s, lower_is_better=not hib)
    order = np.lexsort((np.arange(len(r)), r))
    return Aggregation(
        method,
        np.asarray(s, dtype=float),
        not hib,
        r,
        order,
        note,
        judge,
        cand_names,
        judge_names,
        candidates_axis=axis,
    )
