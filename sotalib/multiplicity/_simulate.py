"""Monte Carlo simulation of leaderboards: the independent cross-check.

The book computes distributions exactly wherever it can; simulation is kept as
an independent check of those computations (and to draw example
leaderboards).  Every function takes ``rng`` (SPEC 7): an int seed, a
:class:`numpy.random.Generator` or None, and reports its number of replications.
"""

from __future__ import annotations

import numpy as np

from .._rng import as_generator
from .._validate import check_int, check_probability
from ._summary import Summary

__all__ = ["simulate_iid_max_counts", "simulate_iid_max", "simulate_coin_flip_leaderboard"]


def simulate_iid_max_counts(n: int, m: int, theta: float, reps: int, rng=None, *, chunk: int = 2**22) -> np.ndarray:
    """Draw ``reps`` realisations of ``max_j X_j`` with ``X_j ~ B(n, theta)`` iid.

    Binomial counts are drawn directly (not ``n`` Bernoulli trials each), in
    chunks of at most ``chunk`` draws to bound memory.

    Parameters
    ----------
    n, m, theta, reps
        Test-set size, number of classifiers, their probability of success
        and the number of replications.
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``),
        a Generator (drawn from directly) or None (fresh entropy).

    Returns
    -------
    ndarray of int64, shape (reps,)
    """
    n = check_int("n", n, low=1)
    m = check_int("m", m, low=1)
    theta = check_probability("theta", theta)
    reps = check_int("reps", reps, low=1)
    rng = as_generator(rng)
    out = np.empty(reps, dtype=np.int64)
    rows = max(1, chunk // m)
    for start in range(0, reps, rows):
        stop = min(reps, start + rows)
        out[start:stop] = rng.binomial(n, theta, size=(stop - start, m)).max(axis=1)
    return out


def simulate_iid_max(n: int, m: int, theta: float, reps: int, rng=None, alpha: float = 0.05) -> Summary:
    """Monte Carlo summary of ``theta_hat_max`` for iid classifiers (mean, sd, interval, standard error).

    ``rng`` is an int seed, a :class:`numpy.random.Generator` or None, as in
    :func:`simulate_iid_max_counts`.
    """
    return Summary.from_samples(simulate_iid_max_counts(n, m, theta, reps, rng), alpha, scale=1.0 / n)


def simulate_coin_flip_leaderboard(n: int, m: int, rng=None) -> np.ndarray:
    """Accuracies of ``m`` coin-flip classifiers, each guessing ``n`` fair coin flips.

    The flips are shared by all classifiers (one test set); each classifier
    guesses every flip at random, so its true accuracy is exactly 1/2.
    ``rng`` is an int seed, a :class:`numpy.random.Generator` or None.

    Returns
    -------
    ndarray of float, shape (m,)
        The ``m`` accuracies on the shared test set.
    """
    n = check_int("n", n, low=1)
    m = check_int("m", m, low=1)
    rng = as_generator(rng)
    flips = rng.random(n) < 0.5
    guesses = rng.random((m, n)) < 0.5
    return (guesses == flips).mean(axis=1)
