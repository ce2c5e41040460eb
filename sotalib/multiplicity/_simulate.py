"""Monte Carlo simulation of leaderboards: the independent cross-check.

The book computes distributions exactly wherever it can; simulation is kept as
an independent check of those computations (and to draw example
leaderboards).  Every function takes ``rng`` (SPEC 7): an int seed, a
:class:`numpy.random.Generator` or None, and reports its number of replications.
"""

from __future__ import annotations

import numpy as np

from .._deprecate import renamed_arguments
from .._rng import as_generator
from .._validate import check_int, check_probability
from ._summary import Summary

__all__ = ["simulate_iid_max_counts", "simulate_iid_max", "simulate_coin_flip_leaderboard"]


@renamed_arguments(reps="n_resamples")
def simulate_iid_max_counts(
    n: int,
    m: int,
    theta: float,
    n_resamples: int,
    rng: int | np.random.Generator | None = None,
    *,
    chunk: int = 2**22,
) -> np.ndarray:
    """Draw ``n_resamples`` realisations of ``max_j X_j`` with ``X_j ~ B(n, theta)`` iid.

    Binomial counts are drawn directly (not ``n`` Bernoulli trials each), in
    chunks of at most ``chunk`` draws to bound memory.

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    m : int
        Number of identical independent classifiers, ``>= 1``.
    theta : float
        Their probability of success, in ``[0, 1]``.
    n_resamples : int
        Number of simulated challenges, ``>= 1``.
    rng : int, numpy.random.Generator or None
        An int seed (``numpy.random.default_rng(rng)``), a Generator (drawn
        from directly) or None (fresh entropy).
    chunk : int
        Largest number of binomial draws held at once.

    Returns
    -------
    ndarray of int64, shape (n_resamples,)
        The winner's count of correct predictions in each challenge.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.3 (the simulated check of Eqs. 2-3).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_iid_max_counts
    >>> x = simulate_iid_max_counts(20, 1000, 0.5, 5, rng=1)
    >>> x.shape, bool(((x >= 10) & (x <= 20)).all())
    ((5,), True)
    """
    n = check_int("n", n, low=1)
    m = check_int("m", m, low=1)
    theta = check_probability("theta", theta)
    reps = check_int("n_resamples", n_resamples, low=1)
    rng = as_generator(rng)
    out = np.empty(reps, dtype=np.int64)
    rows = max(1, chunk // m)
    for start in range(0, reps, rows):
        stop = min(reps, start + rows)
        out[start:stop] = rng.binomial(n, theta, size=(stop - start, m)).max(axis=1)
    return out


@renamed_arguments(reps="n_resamples")
def simulate_iid_max(
    n: int,
    m: int,
    theta: float,
    n_resamples: int,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
) -> Summary:
    """Monte Carlo summary of ``theta_hat_max`` for identical independent classifiers.

    The mean, sd, equal-tailed ``1 - alpha`` interval (the book's quantile
    convention: the smallest value whose empirical cdf reaches the level)
    and the standard error of the mean of :func:`simulate_iid_max_counts`,
    as accuracies.

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    m : int
        Number of classifiers, ``>= 1``.
    theta : float
        Their probability of success, in ``[0, 1]``.
    n_resamples : int
        Number of simulated challenges, ``>= 2``.
    rng : int, numpy.random.Generator or None
        An int seed, a Generator or None (fresh entropy).
    alpha : float
        The interval's level is ``1 - alpha``, ``alpha`` in ``(0, 1)``.

    Returns
    -------
    Summary
        ``method="mc"``, with ``reps`` and ``se_mean``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.3 and Table 1, row 1.

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_iid_max
    >>> s = simulate_iid_max(3000, 1000, 0.9, 2000, rng=1)
    >>> abs(s.mean - 0.9173) < 4 * s.se_mean
    True
    """
    return Summary.from_samples(simulate_iid_max_counts(n, m, theta, n_resamples, rng), alpha, scale=1.0 / n)


def simulate_coin_flip_leaderboard(n: int, m: int, rng: int | np.random.Generator | None = None) -> np.ndarray:
    """Accuracies of ``m`` coin-flip classifiers, each guessing ``n`` fair coin flips.

    The flips are shared by all classifiers (one test set); each classifier
    guesses every flip at random, so its true accuracy is exactly 1/2.

    Parameters
    ----------
    n : int
        Number of flips (test items), ``>= 1``.
    m : int
        Number of classifiers, ``>= 1``.
    rng : int, numpy.random.Generator or None
        An int seed, a Generator or None (fresh entropy).

    Returns
    -------
    ndarray of float, shape (m,)
        The ``m`` accuracies on the shared test set.

    Raises
    ------
    ValueError
        If ``n`` or ``m`` is not a positive integer, or ``rng`` is invalid.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.2 (the coin-flip classifier).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_coin_flip_leaderboard
    >>> acc = simulate_coin_flip_leaderboard(20, 1000, rng=1)
    >>> acc.shape, float(acc.min()) >= 0.0, float(acc.max()) <= 1.0
    ((1000,), True, True)
    """
    n = check_int("n", n, low=1)
    m = check_int("m", m, low=1)
    rng = as_generator(rng)
    flips = rng.random(n) < 0.5
    guesses = rng.random((m, n)) < 0.5
    return (guesses == flips).mean(axis=1)
