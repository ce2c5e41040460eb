"""Bradley--Terry ratings from pairwise battles, with bootstrap intervals (arena-style leaderboards).

When candidates are judged by pairwise comparisons ("battles": which of two
answers a person preferred) rather than scored on fixed items, the
Bradley--Terry model {bradley1952rank} gives every candidate a strength
``theta_j`` with

``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``.

The ratings are the maximum-likelihood ``theta`` (centred: mean 0), reported
on the Elo scale ``1000 + 400 theta / ln 10`` (a 400-point gap is 10:1
odds).  A tie counts as half a win for each side.  The maximum exists if and
only if the candidates cannot be split into two groups one of which never
beats the other (the "who beat whom" graph, a tie counting both ways, is
strongly connected); otherwise :func:`bradley_terry` raises ``ValueError``.
The uncertainty is a bootstrap over battles (resampled with replacement);
resamples in which the maximum does not exist are drawn again, and the number
redrawn is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse.csgraph import connected_components

from .._json import json_safe
from .._progress import progress as _bar
from .._result import Result
from .._rng import as_generator, check_rng
from .._validate import NoSolutionError, check_int, check_memory, check_probability
from ._uncertainty import _summarize_ranks

__all__ = ["BradleyTerry", "bradley_terry"]

#: Values of ``winner`` that mean a tie (case-insensitive; an empty cell too).
TIE_WORDS = ("tie", "draw", "")

#: Elo points per unit of the natural-log strength: 400 / ln 10.
ELO = 400.0 / np.log(10.0)


def _connected(W: np.ndarray) -> bool:
    n, _ = connected_components((W > 0).astype(np.int8), directed=True, connection="strong")
    return n == 1


def bradley_terry_mle(W: ArrayLike, *, tol: float = 1e-12, max_iter: int = 200, start=None) -> np.ndarray:
    """The maximum-likelihood Bradley--Terry strengths (mean 0) from a wins matrix.

    ``W[i, j]`` is the number of battles ``i`` won against ``j`` (a tie adds
    1/2 to both).  Newton's method on the concave log-likelihood
    ``sum_{i != j} W_ij log sigma(theta_i - theta_j)`` with step halving;
    the Hessian's null direction (adding a constant) is removed by solving
    ``(L + 1 1^T) delta = g``, ``L`` the weighted Laplacian.  ``start``: initial strengths.

    Raises
    ------
    ValueError
        If the maximum does not exist (the wins graph is not strongly connected).
    """
    W = np.asarray(W, dtype=float)
    k = W.shape[0]
    if k < 2 or W.shape != (k, k):
        raise ValueError(f"W must be a square wins matrix of at least 2 candidates, got shape {W.shape}")
    if not _connected(W):
        raise NoSolutionError(
            "the Bradley-Terry ratings do not exist: some group of candidates never beats the others "
            "(every candidate needs a path of wins to every other)"
        )
    N = W + W.T
    wins = W.sum(axis=1)
    J = np.ones((k, k))

    def loglik(t):
        d = t[:, None] - t[None, :]
        return float(np.sum(W * -np.logaddexp(0.0, -d)))

    theta = np.zeros(k) if start is None else np.asarray(start, dtype=float) - np.mean(start)
    ll = loglik(theta)
    for _ in range(max_iter):
        P = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        g = wins - np.sum(N * P, axis=1)
        V = N * P * P.T
        L = np.diag(V.sum(axis=1)) - V
        delta = np.linalg.solve(L + J, g)
        step = 1.0
        while True:
            new = theta + step * delta
            new -= new.mean()
            ll_new = loglik(new)
            if ll_new >= ll - 1e-12 * abs(ll) or step < 1e-8:
                break
            step /= 2
        theta, ll = new, ll_new
        if np.max(np.abs(step * delta)) < tol:
            break
    return theta


def _wins(ia: np.ndarray, ib: np.ndarray, outcome: np.ndarray, weights: np.ndarray, k: int) -> np.ndarray:
    """Wins matrix from battles: ``outcome`` 1 (a won), 0 (b won), 0.5 (tie); ``weights`` counts each battle."""
    flat = np.bincount(ia * k + ib, weights * outcome, minlength=k * k)
    flat += np.bincount(ib * k + ia, weights * (1.0 - outcome), minlength=k * k)
    return flat.reshape(k, k)


@dataclass(frozen=True, repr=False)
class BradleyTerry(Result):
    """Bradley--Terry ratings of the candidates of pairwise battles, with bootstrap intervals.

    What :func:`bradley_terry` returns (``sotalib rank-uncertainty --battles --json`` prints
    :meth:`to_dict`).

    Attributes
    ----------
    candidates : tuple of str
        Candidate names, sorted.
    rating : ndarray, shape (m,)
        The maximum-likelihood rating of each candidate on the Elo scale (mean 1000).
    ci_low, ci_high : ndarray
        Bootstrap percentile interval of each rating (level ``1 - alpha``).
    rank : ndarray of int
        Rank by rating (1 is best; ties share the best rank).
    rank_low, rank_high : ndarray of int
        Rank interval: the ``alpha/2`` and ``1 - alpha/2`` quantiles of the
        candidate's rank over the resamples.
    p_first : ndarray
        Share of the resamples in which the candidate ranks first.
    rank_counts : ndarray of int, shape (m, m)
        ``rank_counts[j, r - 1]``: resamples in which candidate ``j`` has rank ``r``.
    n_resamples : int
        Bootstrap resamples of the battles.
    alpha : float
        The intervals' level is ``1 - alpha``.
    n_battles : int
        Battles read.
    seed : int or None
        The int ``rng`` the resamples were drawn with (None otherwise).
    note : str
        Resamples drawn again (those without a maximum), if any.
    """

    candidates: tuple
    rating: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    p_first: np.ndarray
    rank_counts: np.ndarray
    n_resamples: int
    alpha: float
    n_battles: int
    seed: int | None
    note: str = ""

    @property
    def order(self) -> np.ndarray:
        """Candidate indices, best rating first."""
        return np.argsort(-self.rating, kind="stable")

    def to_text(self) -> str:
        """One line per candidate, best rating first: what ``sotalib rank-uncertainty --battles`` prints."""
        from ._uncertainty import rank_table_text

        return rank_table_text(self.to_dict(), f"Bradley-Terry ratings (Elo scale) from {self.n_battles:,} battles")

    def to_dict(self) -> dict:
        """JSON-safe form (the output of ``sotalib rank-uncertainty --battles --json``).

        The keys of :meth:`RankUncertainty.to_dict <sotalib.judging.RankUncertainty.to_dict>`, which
        the command has always printed: ``candidates`` (``{name, score, ci_low, ci_high, rank_low,
        rank_high, p_first}``, best first; ``score`` is the rating), ``reps``, ``n_resamples``, ``alpha``,
        ``lower_is_better`` (False), ``n_items`` (the battles), ``seed``, ``statistic``
        (``"bradley-terry"``), ``note``.
        """
        return json_safe(
            {
                "candidates": [
                    {
                        "name": self.candidates[j],
                        "score": float(self.rating[j]),
                        "ci_low": float(self.ci_low[j]),
                        "ci_high": float(self.ci_high[j]),
                        "rank_low": self.rank_low[j],  # numpy integers: json_safe makes them ints
                        "rank_high": self.rank_high[j],
                        "p_first": float(self.p_first[j]),
                    }
                    for j in self.order
                ],
                "reps": self.n_resamples,
                "n_resamples": self.n_resamples,
                "alpha": self.alpha,
                "lower_is_better": False,
                "n_items": self.n_battles,
                "seed": self.seed,
                "statistic": "bradley-terry",
                "note": self.note,
            }
        )


def bradley_terry(
    a: Sequence[str],
    b: Sequence[str],
    winner: Sequence[str],
    *,
    n_resamples: int = 1_000,
    alpha: float = 0.05,
    rng: np.random.Generator | int | None = None,
    max_redraws: int | None = None,
    progress: bool | None = None,
) -> BradleyTerry:
    """Bradley--Terry ratings of the candidates of pairwise battles, with bootstrap intervals.

    The front door of ``sotalib rank-uncertainty --battles``.

    Parameters
    ----------
    a, b : sequence of str, length B
        The two candidates of each battle (different).
    winner : sequence of str, length B
        ``a``'s name, ``b``'s name, or a tie (``tie``, ``draw`` or empty).
    n_resamples : int
        Bootstrap resamples of the battles, >= 1.
    alpha : float
        Level ``1 - alpha`` of the rating and rank intervals; in (0, 1).
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)`` (and is recorded); None draws fresh entropy.
    max_redraws : int, optional
        Give up (ValueError) after this many resamples without a maximum
        (default ``10 * n_resamples``).
    progress : bool or None
        Progress bar over the resamples (default: only when stderr is a terminal).

    Returns
    -------
    BradleyTerry
        ``rating`` on the Elo scale with its bootstrap interval; rank
        intervals and ``p_first`` come from the same resamples.

    Raises
    ------
    ValueError
        Lists of different lengths, a self-battle, an unknown winner, fewer
        than 2 candidates, battles without a maximum-likelihood rating (the
        who-beat-whom graph is not strongly connected), too many redraws, a
        bad count, level or ``rng``.

    References
    ----------
    Bradley & Terry (1952), *Rank analysis of incomplete block designs*;
    Pavão, *How to judge a competition*, Section 3 (bootstrap intervals of
    scores and ranks).

    Examples
    --------
    >>> from sotalib.judging import bradley_terry
    >>> a = ["x", "x", "y", "y", "z", "z"] * 5
    >>> b = ["y", "z", "z", "x", "x", "y"] * 5
    >>> w = ["x", "x", "y", "x", "z", "y"] * 5
    >>> bt = bradley_terry(a, b, w, n_resamples=50, rng=1)
    >>> bt.candidates[bt.order[0]], bt.n_battles
    ('x', 30)
    """
    a = [str(x) for x in a]
    b = [str(x) for x in b]
    winner = [str(x) for x in winner]
    if not (len(a) == len(b) == len(winner)) or not a:
        raise ValueError(
            f"a, b and winner must be non-empty and of the same length, got {len(a)}, {len(b)}, {len(winner)}"
        )
    n_resamples = check_int("n_resamples", n_resamples, low=1)
    check_rng(rng)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    names = sorted(set(a) | set(b))
    index = {n: i for i, n in enumerate(names)}
    ia = np.array([index[x] for x in a])
    ib = np.array([index[x] for x in b])
    outcome = np.empty(len(a))
    for t, (x, y, w) in enumerate(zip(a, b, winner, strict=True)):
        if x == y:
            raise ValueError(f"battle {t + 1}: a candidate cannot battle itself ({x!r})")
        if w == x:
            outcome[t] = 1.0
        elif w == y:
            outcome[t] = 0.0
        elif w.strip().lower() in TIE_WORDS:
            outcome[t] = 0.5
        else:
            raise ValueError(f"battle {t + 1}: winner must be {x!r}, {y!r} or a tie ('tie', 'draw', empty), got {w!r}")
    k = len(names)
    if k < 2:
        raise ValueError("the battles must involve at least 2 candidates")
    # aggregate identical battles: resampling battles = multinomial counts over the distinct ones
    keys = np.stack([ia, ib, (2 * outcome).astype(int)], axis=1)
    uniq, counts = np.unique(keys, axis=0, return_counts=True)
    ua, ub, uo = uniq[:, 0], uniq[:, 1], uniq[:, 2] / 2.0
    theta = bradley_terry_mle(_wins(ua, ub, uo, counts.astype(float), k))
    gen = as_generator(rng)
    limit = 10 * n_resamples if max_redraws is None else check_int("max_redraws", max_redraws, low=0)
    n = len(a)
    p = counts / n
    # the ratings of every resample and its multinomial counts over the distinct battles
    check_memory(
        8.0 * n_resamples * (k + len(uniq)),
        f"n_resamples={n_resamples} resamples of {len(uniq):,} distinct battles",
        "use fewer resamples",
    )
    S = np.empty((n_resamples, k))
    done = redrawn = 0
    while done < n_resamples:
        draws = gen.multinomial(n, p, size=n_resamples - done)
        for c in _bar(draws, total=len(draws), desc="Bradley-Terry bootstrap", show=progress):
            W = _wins(ua, ub, uo, c.astype(float), k)
            if not _connected(W):
                redrawn += 1
                if redrawn > limit:
                    raise ValueError(
                        f"more than {limit} bootstrap resamples had no Bradley-Terry maximum: "
                        "too few battles for intervals"
                    )
                continue
            S[done] = bradley_terry_mle(W, start=theta)
            done += 1
    note = f"{redrawn} resamples without a maximum were drawn again" if redrawn else ""
    ranks = _summarize_ranks(  # the rank intervals of the bootstrap, shared with estimate_rank_uncertainty
        1000.0 + ELO * theta,
        1000.0 + ELO * S,
        names,
        alpha=alpha,
        n_items=n,
        rng=rng,
        statistic="bradley-terry",
        note=note,
    )
    return BradleyTerry(
        candidates=ranks.candidates,
        rating=ranks.score,
        ci_low=ranks.ci_low,
        ci_high=ranks.ci_high,
        rank=ranks.rank,
        rank_low=ranks.rank_low,
        rank_high=ranks.rank_high,
        p_first=ranks.p_first,
        rank_counts=ranks.rank_counts,
        n_resamples=ranks.n_resamples,
        alpha=ranks.alpha,
        n_battles=n,
        seed=ranks.seed,
        note=ranks.note,
    )
