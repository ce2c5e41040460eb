"""How stable is a ranking?  Variance decomposition, Kendall's W over bootstrap test sets, rank spread.

Pavão, *How to judge a competition* {pavao2024judge}, Sections 3.1 and 3.3:

* :func:`variance_decomposition` -- within- and between-group variance, the
  law of total variance ``Var X = E[Var(X|Y)] + Var(E[X|Y])``;
* :func:`kendall_w`, :func:`ranking_stability` -- Kendall's W of the rankings
  over bootstrap test sets against the number of test items (Figure 8);
* :func:`rank_sd_by_granularity` -- how much the ranks move when the items,
  or the tasks, are resampled (Figure 7).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._per_item import PerItem, as_per_item
from .._result import Result
from .._rng import as_generator, seed_record
from .._validate import check_int
from ._ranking_functions import rank

__all__ = [
    "GranularityRanks",
    "RankingStability",
    "VarianceDecomposition",
    "kendall_w",
    "rank_sd_by_granularity",
    "ranking_stability",
    "variance_decomposition",
]


# --------------------------------------------------------- variance decomposition


@dataclass(frozen=True, repr=False)
class VarianceDecomposition(Result):
    """Law of total variance: ``total = within + between``.

    All variances divide by the number of values (population variances), so
    the identity is exact.

    Attributes
    ----------
    total : float
        ``Var X``.
    within : float
        ``E[Var(X | Y)]``: the mean of the groups' variances, weighted by group size.
    between : float
        ``Var(E[X | Y])``: the variance of the group means, weighted likewise.
    groups : int
        Number of groups.
    """

    total: float
    within: float
    between: float
    groups: int


def variance_decomposition(values: ArrayLike, groups: ArrayLike) -> VarianceDecomposition:
    """Within- and between-group variance of ``values`` grouped by ``groups``.

    Parameters
    ----------
    values : array_like, shape (N,)
        E.g. bootstrap scores of one candidate on several tasks (finite).
    groups : array_like, shape (N,)
        The group (task) of each value.

    Returns
    -------
    VarianceDecomposition
        ``total = within + between`` exactly (population variances).

    Raises
    ------
    ValueError
        If the arrays differ in length, are empty, or ``values`` are not finite.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.1 (the law of total variance).

    Examples
    --------
    >>> from sotalib.judging import variance_decomposition
    >>> v = variance_decomposition([1.0, 3.0, 5.0, 7.0], ["a", "a", "b", "b"])
    >>> v.total, v.within, v.between
    (5.0, 1.0, 4.0)
    """
    x = np.asarray(values, dtype=float).ravel()
    g = np.asarray(groups).ravel()
    if x.size < 1 or x.shape != g.shape or not np.all(np.isfinite(x)):
        raise ValueError("values and groups must be finite arrays of the same, non-zero length")
    labels, inv, counts = np.unique(g, return_inverse=True, return_counts=True)
    w = counts / x.size
    means = np.bincount(inv, weights=x) / counts
    var_in = np.bincount(inv, weights=(x - means[inv]) ** 2) / counts
    within = float(np.sum(w * var_in))
    between = float(np.sum(w * (means - x.mean()) ** 2))
    return VarianceDecomposition(float(x.var()), within, between, int(labels.size))


# ------------------------------------------------------------- ranking stability


def _bootstrap_counts(rng: np.random.Generator, N: int, size: int, n_resamples: int) -> np.ndarray:
    """``counts[b, i]``: how often item ``i`` is drawn in bootstrap test set ``b`` of ``size`` items."""
    idx = rng.integers(N, size=(n_resamples, size)) + N * np.arange(n_resamples)[:, None]
    return np.bincount(idx.ravel(), minlength=N * n_resamples).reshape(n_resamples, N).astype(float)


def kendall_w(scores: ArrayLike, *, lower_is_better: bool = False) -> float:
    """Kendall's coefficient of concordance W of ``m`` rankings of ``n`` candidates.

    ``scores[i, r]`` is the score of candidate ``i`` in trial (rater, judge)
    ``r`` -- candidates as rows, as in :func:`~sotalib.rank_candidates`;
    each column is ranked (mid-ranks for ties) and
    ``W = 12 S / (m^2 (n^3 - n) - m sum_r T_r)``, ``S = sum_i (R_i - m (n + 1) / 2)^2``,
    with ``R_i`` the rank sums and ``T_r = sum (t^3 - t)`` over the tie groups
    of trial ``r`` (the tie correction).

    Parameters
    ----------
    scores : array_like, shape (n, m)
        Scores, candidates x trials (finite, ``n >= 2`` candidates).  Before
        0.6.0 this function took trials x candidates: pass ``scores.T``.
    lower_is_better : bool
        The scores are losses (W does not depend on it).

    Returns
    -------
    float
        W in [0, 1]: 1 when every trial ranks the candidates alike (also
        when all trials are all-tied: no information, no disagreement).

    Raises
    ------
    ValueError
        If ``scores`` is not a finite 2-d array with at least 2 rows (candidates).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3 (Figure 8: Kendall's W).

    Examples
    --------
    >>> from sotalib.judging import kendall_w
    >>> kendall_w([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])  # 3 candidates, 2 judges agreeing
    1.0
    >>> kendall_w([[1.0, 2.0], [2.0, 1.0]])
    0.0
    """
    return _kendall_w(_scores(scores).T, lower_is_better)


def _scores(scores: ArrayLike) -> np.ndarray:
    A = np.asarray(scores, dtype=float)
    if A.ndim != 2 or A.shape[0] < 2 or A.shape[1] < 1 or not np.all(np.isfinite(A)):
        raise ValueError(
            f"scores must be a finite (candidates x trials) array with >= 2 candidates (rows), got shape {A.shape}"
        )
    return A


def _kendall_w(A: np.ndarray, lower_is_better: bool = False) -> float:
    if lower_is_better:
        A = -A
    m, n = A.shape
    R = stats.rankdata(A, axis=1)
    S = float(np.sum((R.sum(axis=0) - m * (n + 1) / 2) ** 2))
    srt = np.sort(A, axis=1)
    T = 0.0
    # tie groups per row: run lengths of equal sorted values
    for row in srt:
        _, c = np.unique(row, return_counts=True)
        T += float(np.sum(c**3 - c))
    denom = m**2 * (n**3 - n) - m * T
    if denom <= 0:
        return 1.0
    return 12.0 * S / denom


@dataclass(frozen=True, repr=False)
class RankingStability(Result):
    """Kendall's W of the rankings over bootstrap test sets of each size (what :func:`ranking_stability` returns).

    Attributes
    ----------
    sizes : ndarray of int
        Test-set sizes.
    w : ndarray
        Kendall's W at each size.
    candidates : tuple of str
        The candidates ranked (the models of the per-item table).
    n_items : int
        Items the test sets are drawn from.
    n_resamples : int
        Bootstrap test sets per size.
    seed : int or None
        The int seed given as ``rng``, if any.
    """

    sizes: np.ndarray
    w: np.ndarray
    candidates: tuple
    n_items: int
    n_resamples: int
    seed: int | None = None


def ranking_stability(
    correct: PerItem | Any,
    sizes: Iterable[int],
    *,
    n_resamples: int = 500,
    rng: np.random.Generator | int | None = None,
) -> RankingStability:
    """Kendall's W of the rankings of candidates over bootstrap test sets of each size.

    For every size ``s`` in ``sizes``, ``n_resamples`` test sets of ``s``
    items are drawn with replacement from the available items; the
    candidates are ranked by their accuracy on each; W measures the
    agreement of these rankings.

    Parameters
    ----------
    correct : PerItem or pandas.DataFrame
        Per-item results, items as rows and candidates (models) as columns,
        every cell given (at least 2 candidates).  A bare array is refused:
        before 0.6.0 this function took candidates x items; wrap such an
        array as ``sotalib.PerItem(array.T)``.
    sizes : sequence of int
        Test-set sizes, each >= 1.
    n_resamples : int
        Bootstrap test sets per size, >= 2.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.

    Returns
    -------
    RankingStability
        Kendall's W at each size (``.w``), with the sizes and the candidates.

    Raises
    ------
    ValueError
        A bad array, size, count or ``rng`` (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3, Figure 8.

    Examples
    --------
    >>> import numpy as np
    >>> import sotalib
    >>> from sotalib.judging import ranking_stability
    >>> correct = np.random.default_rng(0).random((500, 3)) < [0.6, 0.7, 0.8]  # 500 items x 3 models
    >>> st = ranking_stability(sotalib.PerItem(correct), [10, 400], n_resamples=50, rng=1)
    >>> bool(st.w[1] > st.w[0])
    True
    """
    table = as_per_item(correct, "correct", function="ranking_stability", was="candidates x items")
    table._require_complete("correct", "ranking_stability")
    if table.m < 2:
        raise ValueError(f"correct must have at least 2 candidates (columns), got {table.m}")
    n_resamples = check_int("n_resamples", n_resamples, low=2)
    seed = seed_record(rng)
    gen = as_generator(rng)
    Y = table.outcomes
    N = table.n
    checked = [check_int("size", s, low=1) for s in sizes]
    out = [_kendall_w(_bootstrap_counts(gen, N, s, n_resamples) @ Y) for s in checked]
    return RankingStability(
        sizes=np.array(checked, dtype=np.int64),
        w=np.array(out),
        candidates=table.models,
        n_items=N,
        n_resamples=n_resamples,
        seed=seed,
    )


@dataclass(frozen=True, eq=False, repr=False)
class GranularityRanks(Result):
    """Mean and standard deviation of each candidate's rank under two bootstraps (Figure 7 of the paper).

    Attributes
    ----------
    mean_items, sd_items : ndarray, shape (candidates,)
        Resampling the test items of every task (high granularity).
    mean_tasks, sd_tasks : ndarray, shape (candidates,)
        Resampling the tasks (low granularity).
    n_resamples : int
        Bootstrap replications of each kind.
    """

    mean_items: np.ndarray
    sd_items: np.ndarray
    mean_tasks: np.ndarray
    sd_tasks: np.ndarray
    n_resamples: int


def rank_sd_by_granularity(
    correct: ArrayLike, *, n_resamples: int = 200, rng: np.random.Generator | int | None = None
) -> GranularityRanks:
    """How much the candidates' ranks move when items, or tasks, are bootstrapped.

    Candidates are ranked by their mean accuracy over tasks (the chapter's
    rank, ties one half).  Resampling the items of every task measures the
    within-task (data) variability of the ranking; resampling the tasks
    measures the between-task variability.

    Parameters
    ----------
    correct : array_like of bool, shape (tasks, candidates, items)
        ``correct[t, j, i]``: candidate ``j`` right on item ``i`` of task ``t``
        (at least 2 tasks and 2 candidates).
    n_resamples : int
        Bootstrap replications of each kind, >= 2.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.

    Returns
    -------
    GranularityRanks
        Mean and sd of each candidate's rank under both bootstraps.

    Raises
    ------
    ValueError
        A bad array, count or ``rng``.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3, Figure 7.

    Examples
    --------
    >>> import numpy as np
    >>> from sotalib.judging import rank_sd_by_granularity
    >>> correct = np.random.default_rng(0).random((4, 3, 200)) < 0.7
    >>> g = rank_sd_by_granularity(correct, n_resamples=20, rng=1)
    >>> g.sd_items.shape
    (3,)
    """
    C = np.asarray(correct, dtype=float)
    if C.ndim != 3 or C.shape[0] < 2 or C.shape[1] < 2:
        raise ValueError("correct must be a (tasks x candidates x items) array with >= 2 tasks and candidates")
    n_resamples = check_int("n_resamples", n_resamples, low=2)
    rng = as_generator(rng)
    T, J, N = C.shape
    acc_items = np.zeros((n_resamples, J))
    for t in range(T):
        acc_items += _bootstrap_counts(rng, N, N, n_resamples) @ C[t].T / N
    acc_items /= T
    full = C.mean(axis=2)  # (T, J)
    pick = rng.integers(T, size=(n_resamples, T))
    acc_tasks = full[pick].mean(axis=1)
    r_items = np.array([rank(a) for a in acc_items])
    r_tasks = np.array([rank(a) for a in acc_tasks])
    return GranularityRanks(
        r_items.mean(axis=0),
        r_items.std(axis=0, ddof=1),
        r_tasks.mean(axis=0),
        r_tasks.std(axis=0, ddof=1),
        n_resamples,
    )
