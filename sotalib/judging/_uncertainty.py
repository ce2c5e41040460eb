"""How sure is a ranking?  Paired bootstrap of the test items: score intervals, rank intervals, P(first).

From per-item results -- which test items each candidate got right, or a
per-item loss -- the paired bootstrap draws ``n_resamples`` test sets of ``n`` items
with replacement, *the same items for every candidate* (so the correlation
between the candidates' errors is kept, as in the challengeR package of
{wiesenfarth2021methods}), scores every candidate on each, and ranks them.
From the same resamples it reports each candidate's score interval, its rank
interval and the probability that it ranks first.

Every resample is a vector of counts ``c`` (how often each item is drawn), so
the resampled scores of all candidates are one matrix product ``C X^T / n``;
resamples are processed in blocks of bounded memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._frame import AXES, _is_frame, warn_names_as_candidates
from .._json import json_safe
from .._per_item import PerItem, as_per_item
from .._progress import progress as _bar
from .._result import Result
from .._rng import as_generator, check_rng, seed_record
from .._validate import check_choice, check_int, check_memory, check_probability
from ._ranking_functions import TIE_RTOL, _labels

__all__ = ["RankUncertainty", "estimate_rank_uncertainty"]

#: Bytes of the largest temporary array of one block (the resample counts or the pairwise comparisons).
BLOCK_BYTES = 2**25


def _bootstrap_scores(
    A: np.ndarray, n_resamples: int, rng: np.random.Generator | int | None, show: bool | None = None
) -> np.ndarray:
    """Mean per-item result of every candidate on ``n_resamples`` paired bootstrap resamples of the items.

    ``A`` is a checked ``(k, n)`` array of per-item results.  Resample ``r``
    draws ``n`` item indices uniformly with replacement
    (``rng.integers(0, n, size=(block, n))``); returns ``S`` of shape
    ``(n_resamples, k)``, ``S[r, j]`` the mean result of candidate ``j`` on
    resample ``r``.  ``show``: progress bar (None: when stderr is a terminal).
    """
    gen = as_generator(rng)
    k, n = A.shape
    At = np.ascontiguousarray(A.T)
    block = max(1, min(n_resamples, BLOCK_BYTES // (8 * n)))
    out = np.empty((n_resamples, k))
    starts = range(0, n_resamples, block)
    for lo in _bar(starts, total=len(starts), desc="bootstrap", show=show if n_resamples > block else False):
        b = min(block, n_resamples - lo)
        idx = gen.integers(0, n, size=(b, n))
        idx += (np.arange(b) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=b * n).reshape(b, n).astype(float)
        out[lo : lo + b] = counts @ At
    out /= n
    return out


def _ranks_min(S: np.ndarray) -> np.ndarray:
    """Competition ranks of each row (higher is better): 1 + the number of strictly better values.

    Each row is sorted once; a value within :data:`TIE_RTOL` (relative) of the
    one before it in the sorted row ties with it and shares its rank.
    """
    reps, k = S.shape
    R = np.empty((reps, k), dtype=np.int64)
    pos = np.arange(k)
    block = max(1, BLOCK_BYTES // (8 * k))
    for lo in range(0, reps, block):
        s = S[lo : lo + block]
        order = np.argsort(-s, axis=1, kind="stable")
        v = np.take_along_axis(s, order, axis=1)
        new = np.ones(v.shape, dtype=bool)
        new[:, 1:] = v[:, :-1] - v[:, 1:] > TIE_RTOL * np.maximum(1.0, np.maximum(np.abs(v[:, 1:]), np.abs(v[:, :-1])))
        first = np.maximum.accumulate(np.where(new, pos, 0), axis=1)
        np.put_along_axis(R[lo : lo + block], order, first + 1, axis=1)
    return R


@dataclass(frozen=True, repr=False)
class RankUncertainty(Result):
    """Bootstrap uncertainty of a ranking (what ``sotalib rank-uncertainty --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    candidates : tuple of str
        Candidate names.
    score : ndarray, shape (k,)
        Mean per-item result on all items (or the Bradley--Terry rating).
    ci_low, ci_high : ndarray
        Percentile bootstrap interval of the score at level ``1 - alpha``.
    rank : ndarray of int
        Rank on all items (1 is best; ties share the best position).
    rank_low, rank_high : ndarray of int
        Rank interval: the ``alpha/2`` and ``1 - alpha/2`` quantiles of the
        bootstrap ranks (lower and upper order statistics, so integers).
    p_first : ndarray
        Fraction of resamples in which the candidate ranks first (a tie for
        first shares the resample equally, so the values sum to 1).
    rank_counts : ndarray of int, shape (k, k)
        ``rank_counts[j, r - 1]``: resamples in which candidate ``j`` has rank ``r``.
    n_resamples : int
        Bootstrap resamples.
    alpha : float
        The intervals' level is ``1 - alpha``.
    lower_is_better : bool
        The per-item results are losses.
    n_items : int
        Test items (battles, for Bradley--Terry ratings).
    seed : int or None
        The int seed given as ``rng``, if any.
    statistic : str
        What ``score`` is: ``"mean"`` (the mean per-item result) or ``"bradley-terry"``
        (the Bradley--Terry rating on the Elo scale).
    note : str
        Anything the reader should know (e.g. redrawn resamples).
    """

    candidates: tuple
    score: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    p_first: np.ndarray
    rank_counts: np.ndarray
    n_resamples: int
    alpha: float
    lower_is_better: bool
    n_items: int
    seed: int | None
    statistic: str = "mean"
    note: str = ""

    @property
    def order(self) -> np.ndarray:
        """Candidate indices, best score first."""
        key = self.score if self.lower_is_better else -self.score
        return np.argsort(key, kind="stable")

    def to_dict(self) -> dict:
        """JSON-safe form of the result (the output of ``sotalib rank-uncertainty --json``).

        Keys: ``candidates`` (list of ``{name, score, ci_low, ci_high, rank_low, rank_high, p_first}``, best first),
        ``reps`` (as ``n_resamples``, the command line's former key), ``n_resamples``, ``alpha``,
        ``lower_is_better``, ``n_items``, ``seed``, ``statistic``, ``note``.
        """
        return json_safe(
            {
                "candidates": [
                    {
                        "name": self.candidates[j],
                        "score": float(self.score[j]),
                        "ci_low": float(self.ci_low[j]),
                        "ci_high": float(self.ci_high[j]),
                        "rank_low": int(self.rank_low[j]),
                        "rank_high": int(self.rank_high[j]),
                        "p_first": float(self.p_first[j]),
                    }
                    for j in self.order
                ],
                "reps": self.n_resamples,
                "n_resamples": self.n_resamples,
                "alpha": self.alpha,
                "lower_is_better": self.lower_is_better,
                "n_items": self.n_items,
                "seed": self.seed,
                "statistic": self.statistic,
                "note": self.note,
            }
        )

    def to_text(self) -> str:
        """One line per candidate, best first: score, interval, rank interval, P(first).

        What ``sotalib rank-uncertainty`` prints.
        """
        better = "lower" if self.lower_is_better else "higher"
        what = f"{self.statistic} per-item result on {self.n_items:,} items ({better} is better)"
        return rank_table_text(self.to_dict(), what)


def rank_table_text(d: dict, what: str) -> str:
    """The table ``sotalib rank-uncertainty`` prints from a result's ``to_dict()``: one line per candidate."""
    w = max([len("candidate")] + [len(c["name"]) for c in d["candidates"]])
    level = f"{100 * (1 - d['alpha']):g}%"
    lines = [
        f"{len(d['candidates'])} candidates: {what}; {d['n_resamples']:,} bootstrap resamples"
        + (f", seed {d['seed']}" if d["seed"] is not None else ""),
        f"  {'candidate'.ljust(w)}  {'score':>10}  {level + ' interval':^24}  {'rank ' + level:>11}  P(first)",
    ]
    for c in d["candidates"]:
        ranks = f"{c['rank_low']}-{c['rank_high']}" if c["rank_low"] != c["rank_high"] else f"{c['rank_low']}"
        lines.append(
            f"  {c['name'].ljust(w)}  {c['score']:10.4f}  [{c['ci_low']:10.4f}, {c['ci_high']:10.4f}]"
            f"  {ranks:>11}  {c['p_first']:8.3f}"
        )
    if d["note"]:
        lines.append(f"note: {d['note']}")
    return "\n".join(lines)


def _per_item_along(scores: Any, candidates: Any) -> PerItem:
    """The per-item table of ``scores``, its candidates on the axis ``candidates`` names (None: the columns)."""
    function = "estimate_rank_uncertainty"
    if not isinstance(candidates, str):
        return as_per_item(scores, "scores", function=function, was="candidates x items")
    axis = check_choice("candidates", candidates, AXES)
    if isinstance(scores, PerItem):
        if axis == "rows":
            raise ValueError(
                "candidates='rows' does not apply to a PerItem, whose models are its columns; leave candidates out"
            )
        return scores
    if _is_frame(scores):
        return as_per_item(scores.T if axis == "rows" else scores, "scores", function=function)
    try:
        A = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("scores must be per-item results: a PerItem, a DataFrame or a 2-d array of numbers") from None
    if A.ndim != 2:
        raise ValueError(f"scores must be a 2-d array of per-item results, got shape {A.shape}")
    return PerItem(A.T if axis == "rows" else A)


def estimate_rank_uncertainty(
    scores: PerItem | Any,
    *,
    lower_is_better: bool = False,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    rng: np.random.Generator | int | None = None,
    candidates: str | Sequence[str] | None = None,
    progress: bool | None = None,
) -> RankUncertainty:
    """Score intervals, rank intervals and P(rank first) from one paired bootstrap of the test items.

    The front door of ``sotalib rank-uncertainty --per-item``.  Each of
    ``n_resamples`` resamples draws ``n`` items with replacement, the same
    for every candidate (so the correlation between the candidates' errors
    is kept); every candidate's score (the mean per-item result) and rank
    (1 + the number of candidates strictly better) is computed on it.  The
    score interval is the percentile interval, the rank interval the
    ``alpha/2`` and ``1 - alpha/2`` quantiles of the ranks, and ``p_first``
    the fraction of resamples in which the candidate is first -- all from the
    *same* resamples, as in the challengeR package {wiesenfarth2021methods}.

    Parameters
    ----------
    scores : PerItem or pandas.DataFrame
        Per-item results, **items as rows and candidates (models) as
        columns**: 1/0 for correct/wrong, a graded result, or a per-item loss
        (finite, every cell given).  A :class:`~sotalib.PerItem` (what
        :func:`~sotalib.read_per_item` returns) or a DataFrame laid out so,
        as pandas reads a per-item file (its columns are the candidates).  A
        bare array is refused: before 0.6.0 this function took candidates x
        items; wrap such an array as ``sotalib.PerItem(array.T)``.
    lower_is_better : bool
        The results are losses.
    n_resamples : int
        Bootstrap resamples, >= 1.
    alpha : float
        The intervals have level ``1 - alpha``; in (0, 1).
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)`` (and is recorded); None draws fresh entropy.
    candidates : {"columns", "rows"}, optional
        Which axis of ``scores`` holds the candidates, as for
        :func:`rank_candidates`: ``"columns"`` (the per-item layout, the
        default; a bare array is then read so) or ``"rows"`` (a table of
        candidates x items, a DataFrame or an array, read the other way).
        The names come with the data (a PerItem's models, a DataFrame's
        columns, or its index with ``"rows"``).  A sequence of names, which
        replaced the table's model names, is deprecated (removed in 0.7.0;
        a :class:`DeprecationWarning`).
    progress : bool or None
        Progress bar over blocks of resamples (None: when stderr is a terminal).

    Returns
    -------
    RankUncertainty
        Scores with intervals, rank intervals, P(first) and the rank counts.

    Raises
    ------
    ValueError
        ``scores`` not per-item results (a bare array: wrap it as
        ``PerItem``), a missing or infinite cell (named by its place), a bad
        count, level, names or ``rng``, or resamples that cannot fit in memory.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3 (bootstrap of the test
    items; the paired comparison of candidates on the same items);
    Wiesenfarth et al. (2021), *Methods and open-source toolkit for analyzing
    and visualizing challenge results* (rank intervals from bootstrap ranks).

    Examples
    --------
    >>> import numpy as np
    >>> import sotalib
    >>> correct = np.random.default_rng(0).random((200, 3)) < [0.6, 0.7, 0.9]  # 200 items x 3 models
    >>> table = sotalib.PerItem(correct, models=["a", "b", "c"])
    >>> ru = sotalib.estimate_rank_uncertainty(table, n_resamples=200, rng=1)
    >>> ru.to_dict()["candidates"][0]["name"], int(ru.rank_high[2])
    ('c', 1)
    """
    warn_names_as_candidates("estimate_rank_uncertainty", candidates)
    table = _per_item_along(scores, candidates)
    table._require_complete("scores", "estimate_rank_uncertainty")
    A = table.outcomes.T  # candidates x items, as the bootstrap draws them
    k, n = A.shape
    n_resamples = check_int("n_resamples", n_resamples, low=1)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    names = _labels(None if isinstance(candidates, str) else candidates, table.models, k, "candidates")
    check_rng(rng)
    # the scores and the ranks of every resample: n_resamples x k of float64 and of int64
    check_memory(
        16.0 * n_resamples * k, f"n_resamples={n_resamples} resamples of {k} candidates", "use fewer resamples"
    )
    S = _bootstrap_scores(A, n_resamples, rng, progress)
    return _summarize_ranks(A.mean(axis=1), S, names, alpha=alpha, lower_is_better=lower_is_better, n_items=n, rng=rng)


def _summarize_ranks(
    score: ArrayLike,
    S: ArrayLike,
    candidates: Sequence[str],
    *,
    alpha: float = 0.05,
    lower_is_better: bool = False,
    n_items: int = 0,
    rng: np.random.Generator | int | None = None,
    statistic: str = "mean",
    note: str = "",
) -> RankUncertainty:
    """Score intervals, rank intervals and P(first) from the scores ``S`` (shape ``(n_resamples, k)``) of resamples.

    Shared by :func:`estimate_rank_uncertainty` and :func:`bradley_terry`:
    ``score`` is each candidate's score on all the data, ``S[r, j]`` its
    score on resample ``r``; ``rng`` is the randomness the resamples were
    drawn with (its int seed, if any, is recorded).
    """
    seed = seed_record(rng)
    score = np.asarray(score, dtype=float)
    S = np.asarray(S, dtype=float)
    n_resamples, k = S.shape
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    lo, hi = np.quantile(S, [alpha / 2, 1 - alpha / 2], axis=0)
    sign = -1.0 if lower_is_better else 1.0
    R = _ranks_min(sign * S)
    r0 = _ranks_min(sign * score[None, :])[0]
    rank_low = np.quantile(R, alpha / 2, axis=0, method="lower").astype(int)
    rank_high = np.quantile(R, 1 - alpha / 2, axis=0, method="higher").astype(int)
    first = R == 1
    p_first = (first / first.sum(axis=1, keepdims=True)).mean(axis=0)
    counts = np.zeros((k, k), dtype=np.int64)
    for j in range(k):
        counts[j] = np.bincount(R[:, j] - 1, minlength=k)
    return RankUncertainty(
        candidates=tuple(candidates),
        score=score,
        ci_low=lo,
        ci_high=hi,
        rank=r0,
        rank_low=rank_low,
        rank_high=rank_high,
        p_first=p_first,
        rank_counts=counts,
        n_resamples=n_resamples,
        alpha=alpha,
        lower_is_better=bool(lower_is_better),
        n_items=int(n_items),
        seed=seed,
        statistic=statistic,
        note=note,
    )
