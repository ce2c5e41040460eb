"""Monte Carlo simulation of leaderboards: the independent cross-check.

The book computes distributions exactly wherever it can; simulation is kept as
an independent check of those computations (and to draw example
leaderboards).  Every function takes ``rng`` (SPEC 7): an int seed, a
:class:`numpy.random.Generator` or None, and reports its number of replications.
"""

from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import ArrayLike

from .._deprecate import keyword_only_since
from .._rng import as_generator, spawn
from .._validate import check_choice, check_int, check_probability, check_real
from ._dependence_model import check_feasible
from ._max_distribution import Summary
from ._theta_dist import Empirical, PointMass, Uniform, _as_dist, default_theta0

__all__ = ["simulate_iid_max_counts", "simulate_iid_max", "simulate_coin_flip_leaderboard", "simulate_max"]


@keyword_only_since("n_resamples", "rng")
def simulate_iid_max_counts(
    n: int,
    m: int,
    theta: float,
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator | None = None,
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
        Number of simulated challenges, ``>= 1`` (default 10,000).
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
    >>> x = simulate_iid_max_counts(20, 1000, 0.5, n_resamples=5, rng=1)
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


@keyword_only_since("n_resamples", "rng", "alpha")
def simulate_iid_max(
    n: int,
    m: int,
    theta: float,
    *,
    n_resamples: int = 10_000,
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
        Number of simulated challenges, ``>= 2`` (default 10,000).
    rng : int, numpy.random.Generator or None
        An int seed, a Generator or None (fresh entropy).
    alpha : float
        The interval's level is ``1 - alpha``, ``alpha`` in ``(0, 1)``.

    Returns
    -------
    Summary
        ``engine="simulate"``, with ``n_resamples`` and ``se_mean``.

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
    >>> s = simulate_iid_max(3000, 1000, 0.9, n_resamples=2000, rng=1)
    >>> abs(s.mean - 0.9173) < 4 * s.se_mean
    True
    """
    return Summary.from_samples(
        simulate_iid_max_counts(n, m, theta, n_resamples=n_resamples, rng=rng), alpha, scale=1.0 / n
    )


@keyword_only_since("rng")
def simulate_coin_flip_leaderboard(n: int, m: int, *, rng: int | np.random.Generator | None = None) -> np.ndarray:
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


#: Monte Carlo replications are split into this many independently seeded chunks.
_MC_CHUNKS = 8
#: Binomial draws per call of the compiled simulation kernel (a few hundredths of a second): Ctrl-C is
#: checked between calls.
_DRAWS_PER_CALL = 500_000


def simulate_max_counts(
    n: int,
    m: int | None,
    theta_dist_or_thetas,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    n_resamples: int = 10_000,
    rng=None,
) -> np.ndarray:
    """``n_resamples`` Monte Carlo draws of ``max_j X_j`` from the hierarchical model (Figure 7).

    ``theta_dist_or_thetas`` is a ``P(theta)`` (then ``m`` classifiers draw
    fresh ``theta_j`` in every replication) or an array ``Theta`` (then ``m``
    must be None or ``len(Theta)``).  Binomial counts are drawn directly.
    The replications run in 8 chunks, each with its own stream, on Numba's
    threads (the result does not depend on the number of threads).

    ``rng`` is an int seed (the chunks' streams are
    ``np.random.SeedSequence(rng).spawn(8)``), a :class:`numpy.random.Generator`
    (the chunks use ``rng.spawn(8)``) or None (fresh entropy).
    """
    n = check_int("n", n, low=1)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    y0 = check_choice("y0", y0, ("random", "fixed"))
    reps = check_int("n_resamples", n_resamples, low=1)
    empty = np.zeros(1)
    if isinstance(theta_dist_or_thetas, (Uniform, PointMass, Empirical, float, int, np.floating)) and not isinstance(
        theta_dist_or_thetas, bool
    ):
        dist = _as_dist(theta_dist_or_thetas)
        m = check_int("m", m, low=1)
        if theta0 is None:
            theta0 = default_theta0(dist, m)
        if isinstance(dist, PointMass):
            kind, a, b, values, cumw = 1, dist.theta, dist.theta, empty, empty
        elif isinstance(dist, Uniform):
            kind, a, b, values, cumw = 1, dist.a, dist.b, empty, empty
        else:
            assert dist.weights is not None  # Empirical.__post_init__ sets it
            kind, a, b, values, cumw = 2, 0.0, 0.0, dist.values, np.cumsum(dist.weights)
        support = np.array(dist.support) if not isinstance(dist, Empirical) else dist.values
    else:
        values = np.asarray(theta_dist_or_thetas, dtype=float).ravel()
        if values.size == 0 or np.any((values < 0) | (values > 1)) or not np.all(np.isfinite(values)):
            raise ValueError("thetas must be a non-empty array of probabilities in [0, 1]")
        if m is not None and check_int("m", m, low=1) != values.size:
            raise ValueError(f"m must equal len(thetas) = {values.size}, got {m}")
        m = values.size
        if theta0 is None:
            theta0 = float(values.max())
        kind, a, b, cumw = 0, 0.0, 0.0, empty
        support = values
    theta0 = check_probability("theta0", theta0)
    if rho != 0.0:
        check_feasible(support, theta0, rho)
    fixed_k0 = int(math.floor(n * theta0 + 0.5)) if y0 == "fixed" else -1
    import numba  # lazily: importing this module does not import Numba

    from ._max_dependent_kernels import _simulate_kernel

    values = np.ascontiguousarray(values, dtype=float)
    cumw = np.ascontiguousarray(cumw, dtype=float)
    out = np.empty(reps, dtype=np.int64)
    # Fixed chunks, each with its own stream spawned from ``rng``: the result
    # depends on ``rng`` only, not on how many threads run the chunks.
    nchunks = min(_MC_CHUNKS, reps)
    bounds = np.linspace(0, reps, nchunks + 1).astype(np.int64)
    seeds = spawn(rng, nchunks)

    # Each chunk calls the compiled kernel on slices of at most _DRAWS_PER_CALL binomial draws, continuing
    # the chunk's stream (the result is the same as in one call): Python checks for Ctrl-C between calls, so
    # an interrupted simulation stops within a fraction of a second, and the worker threads with it.
    step = max(1, _DRAWS_PER_CALL // (m * (2 if rho != 0.0 else 1)))
    stop = threading.Event()

    def work(i):
        gen = np.random.default_rng(seeds[i])
        for start in range(int(bounds[i]), int(bounds[i + 1]), step):
            if stop.is_set():
                return
            end = min(start + step, int(bounds[i + 1]))
            _simulate_kernel(
                gen,
                n,
                m,
                end - start,
                kind,
                float(a),
                float(b),
                values,
                cumw,
                float(rho),
                float(theta0),
                fixed_k0,
                out[start:end],
            )

    _run_chunks(work, nchunks, numba.get_num_threads(), stop)
    return out


def _run_chunks(work, nchunks: int, threads: int, stop: threading.Event) -> None:
    """``work(i)`` for every chunk ``i``, on ``threads`` threads.

    On Ctrl-C (KeyboardInterrupt in the main thread, which waits) ``stop`` is
    set, so that every running chunk returns after its current slice, and the
    interrupt is raised once they have.
    """
    if nchunks == 1 or threads == 1:
        for i in range(nchunks):
            work(i)
        return
    pool = ThreadPoolExecutor(max_workers=threads)
    futures = [pool.submit(work, i) for i in range(nchunks)]
    try:
        for future in futures:
            future.result()
    except BaseException:  # Ctrl-C: the workers stop after their current slice
        stop.set()
        for future in futures:
            future.cancel()
        raise
    finally:
        pool.shutdown(wait=True)


def simulate_max(
    n: int,
    m: int | None,
    theta_dist_or_thetas: Uniform | PointMass | Empirical | float | ArrayLike,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    n_resamples: int = 10_000,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
) -> Summary:
    """Monte Carlo summary of ``theta_hat_max`` for non-identical and dependent classifiers.

    The independent check of :func:`max_distribution` and
    :func:`fixed_max_distribution`, by the hierarchical model of Figure 7:
    in each replication draw ``K_0`` (the reference classifier), the
    ``theta_j`` (from ``P(theta)``, or the given vector) and each
    classifier's count ``B(K_0, p1_j) + B(n - K_0, p0_j)`` directly.  The
    replications run in 8 chunks with streams spawned from ``rng``, on
    Numba's threads (the result does not depend on the number of threads).

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    m : int or None
        Number of classifiers with a ``P(theta)``; None (or ``len``) with a vector.
    theta_dist_or_thetas : Uniform, PointMass, Empirical, float or array_like
        ``P(theta)`` (fresh ``theta_j`` in every replication; a float means
        identical classifiers) or the vector ``Theta`` itself.
    rho : float
        Correlation with the reference classifier, in ``[-1, 1]``.
    theta0 : float, optional
        ``P(Y_0 = 1)``; default ``E max Theta`` (``max Theta`` for a vector).
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one.
    n_resamples : int
        Monte Carlo replications, ``>= 1`` (default 10,000).
    rng : int, numpy.random.Generator or None
        An int seed (reproducible), a Generator, or None (fresh entropy).
    alpha : float
        The interval's level is ``1 - alpha``, ``alpha`` in ``(0, 1)``.

    Returns
    -------
    Summary
        Mean, sd, ``1 - alpha`` interval (the book's quantile convention),
        replications and the standard error of the mean, as accuracies.

    Raises
    ------
    ValueError
        If an argument is out of range or the model is infeasible (Eq. 8).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4, Figure 7 and Table 1 (Monte Carlo).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_max
    >>> s = simulate_max(3000, 1000, 0.9, rho=0.6, n_resamples=2000, rng=1)
    >>> abs(s.mean - 0.9140) < 4 * s.se_mean
    True
    """
    counts = simulate_max_counts(
        n, m, theta_dist_or_thetas, rho=rho, theta0=theta0, y0=y0, n_resamples=n_resamples, rng=rng
    )
    return Summary.from_samples(counts, alpha, scale=1.0 / n)
