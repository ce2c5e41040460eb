"""How sure is a ranking?  Paired bootstrap of the test items: score intervals, rank intervals, P(first).

From per-item results -- which test items each candidate got right, or a
per-item loss -- the paired bootstrap draws ``reps`` test sets of ``n`` items
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

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._progress import progress
from .._rng import as_generator, seed_record
from .._validate import check_int, check_memory, check_probability
from ._ranking import TIE_RTOL, _labels

__all__ = ["PerItemFile", "RankUncertainty", "bootstrap_scores", "rank_uncertainty", "read_per_item", "summarize_ranks"]

#: Bytes of the largest temporary array of one block (the resample counts or the pairwise comparisons).
BLOCK_BYTES = 2**25


def _per_item(X, name: str = "X") -> np.ndarray:
    A = np.asarray(X, dtype=float)
    if A.ndim != 2 or A.shape[0] < 1 or A.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty 2-d array (candidates x items), got shape {A.shape}")
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} must contain only finite per-item results")
    return A


def bootstrap_scores(X, reps: int = 1000, rng: np.random.Generator | int | None = None, *, show=None) -> np.ndarray:
    """Mean per-item result of every candidate on ``reps`` paired bootstrap resamples of the items.

    Parameters
    ----------
    X : array_like, shape (k, n)
        Per-item results: candidates x items (1/0 correct, or a per-item loss).
    reps : int >= 1
    rng : int, numpy.random.Generator or None
        Randomness (SPEC 7).  Resample ``r`` draws ``n`` item indices
        uniformly with replacement (``rng.integers(0, n, size=(block, n))``).
    show : bool or None
        Progress bar (default: only when stderr is a terminal).

    Returns
    -------
    ndarray, shape (reps, k)
        ``S[r, j]``: mean result of candidate ``j`` on resample ``r``.
    """
    A = _per_item(X)
    reps = check_int("reps", reps, low=1)
    gen = as_generator(rng)
    k, n = A.shape
    At = np.ascontiguousarray(A.T)
    block = max(1, min(reps, BLOCK_BYTES // (8 * n)))
    out = np.empty((reps, k))
    starts = range(0, reps, block)
    for lo in progress(starts, total=len(starts), desc="bootstrap", show=show if reps > block else False):
        b = min(block, reps - lo)
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


@dataclass(frozen=True)
class RankUncertainty:
    """Bootstrap uncertainty of a ranking (what ``sotalib rank-uncertainty --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    candidates : tuple of str
    score : ndarray, shape (k,)
        Mean per-item result on all items.
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
    reps : int
    alpha : float
    lower_is_better : bool
    n_items : int
        Test items (battles, for Bradley--Terry ratings).
    seed : int or None
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
    reps: int
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
        """``candidates`` (list of ``{name, score, ci_low, ci_high, rank_low, rank_high, p_first}``, best first),
        ``reps``, ``alpha``, ``lower_is_better``, ``n_items``, ``seed``, ``statistic``, ``note``."""
        return {
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
            "reps": self.reps,
            "alpha": self.alpha,
            "lower_is_better": self.lower_is_better,
            "n_items": self.n_items,
            "seed": self.seed,
            "statistic": self.statistic,
            "note": self.note,
        }


def rank_uncertainty(
    X,
    lower_is_better: bool = False,
    *,
    reps: int = 1000,
    alpha: float = 0.05,
    rng: np.random.Generator | int | None = None,
    candidates=None,
    show=None,
) -> RankUncertainty:
    """Score intervals, rank intervals and P(rank first) from one paired bootstrap of the test items.

    The front door of ``sotalib rank-uncertainty --per-item``.  Each of
    ``reps`` resamples draws ``n`` items with replacement, the same for every
    candidate; every candidate's score (the mean per-item result) and rank
    (1 + the number of candidates strictly better) is computed on it.  The
    score interval is the percentile interval, the rank interval the
    ``alpha/2`` and ``1 - alpha/2`` quantiles of the ranks, and ``p_first``
    the fraction of resamples in which the candidate is first -- all from the
    *same* resamples, as in {wiesenfarth2021methods}.

    Parameters
    ----------
    X : array_like, shape (k, n), or pandas.DataFrame
        Per-item results, candidates x items: 1/0 for correct/wrong, or a
        per-item loss.  A DataFrame's index names the candidates.
    lower_is_better : bool
        The results are losses.
    reps : int >= 1
        Bootstrap resamples.
    alpha : float in (0, 1)
        The intervals have level ``1 - alpha``.
    rng : int, numpy.random.Generator or None
        Randomness (SPEC 7).
    candidates : sequence of str, optional
        Names (default ``C1``, ``C2``, ...).

    Returns
    -------
    RankUncertainty
    """
    names = None
    if hasattr(X, "index") and hasattr(X, "to_numpy"):
        names = tuple(str(i) for i in X.index)
        X = X.to_numpy(dtype=float)
    A = _per_item(X)
    k, n = A.shape
    reps = check_int("reps", reps, low=1)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    names = _labels(candidates, names, k, "candidates") or tuple(f"C{j + 1}" for j in range(k))
    # the scores and the ranks of every resample: reps x k of float64 and of int64
    check_memory(16.0 * reps * k, f"reps={reps} resamples of {k} candidates", "use fewer resamples")
    S = bootstrap_scores(A, reps, rng, show=show)
    return summarize_ranks(
        A.mean(axis=1), S, names, alpha=alpha, lower_is_better=lower_is_better, n_items=n, seed=seed_record(rng)
    )


def summarize_ranks(
    score,
    S,
    candidates,
    *,
    alpha: float = 0.05,
    lower_is_better: bool = False,
    n_items: int = 0,
    seed: int | None = None,
    statistic: str = "mean",
    note: str = "",
) -> RankUncertainty:
    """Score intervals, rank intervals and P(first) from the scores ``S`` (shape ``(reps, k)``) of resamples.

    Shared by :func:`rank_uncertainty` and :func:`bradley_terry`: ``score`` is
    each candidate's score on all the data, ``S[r, j]`` its score on resample ``r``.
    """
    score = np.asarray(score, dtype=float)
    S = np.asarray(S, dtype=float)
    reps, k = S.shape
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
        reps=reps,
        alpha=alpha,
        lower_is_better=bool(lower_is_better),
        n_items=int(n_items),
        seed=seed,
        statistic=statistic,
        note=note,
    )


class PerItemFile(NamedTuple):
    """Per-item results read by :func:`read_per_item`: ``X`` is candidates x items."""

    candidates: list
    items: list | None
    X: np.ndarray


def read_per_item(path) -> PerItemFile:
    """Read per-item results from a CSV file: one column per candidate, one row per test item.

    The first row names the candidates.  A first column headed ``item`` or
    ``id`` (any case) or with an empty header holds item labels and is not a
    candidate.  Every other cell is a finite number (1/0 for correct/wrong,
    or a loss).  Blank lines are skipped.

    Raises
    ------
    ValueError
        On malformed input (the message names the file and the line).
    OSError
        If the file cannot be read.
    """
    import csv
    import math

    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one item row")
    header = [c.strip() for c in rows[0]]
    labelled = header[0].lower() in ("", "item", "id")
    names = header[1:] if labelled else header
    if not names:
        raise ValueError(f"{path}: need at least one candidate column")
    if len(set(names)) != len(names) or any(not n for n in names):
        raise ValueError(f"{path}: candidate names in the header must be non-empty and unique")
    items, values = ([] if labelled else None), []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        if labelled:
            items.append(r[0].strip())
            r = r[1:]
        try:
            vals = [float(c) for c in r]
        except ValueError:
            raise ValueError(f"{path}: line {i}: per-item results must be numbers") from None
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"{path}: line {i}: per-item results must be finite")
        values.append(vals)
    return PerItemFile(names, items, np.array(values, dtype=float).T)
