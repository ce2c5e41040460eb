"""The Bayesian signed-rank test with a region of practical equivalence (Benavoli et al. 2017).

Instead of a p-value for "the two candidates are equivalent", the Bayesian
signed-rank test of {benavoli2017time} (Section 5) gives the posterior
probability of each of three statements about two candidates ``a`` and ``b``
scored on the same ``N`` judges (data sets):

* ``a`` is practically better (the difference exceeds ``rope``),
* they are practically equivalent (the difference is within ``[-rope, rope]``),
* ``b`` is practically better.

The differences ``z_i = score_a_i - score_b_i`` are modelled by a Dirichlet
process with prior strength ``s`` (default 0.5) centred on a pseudo-observation
``z_0 = 0``; its posterior, given the data, is the random distribution
``sum_{i=0}^{N} w_i delta_{z_i}`` with ``w ~ Dirichlet(s, 1, ..., 1)``.  For
each posterior sample, the signed-rank statistic becomes

``theta_a = sum_{i, j} w_i w_j H(z_i + z_j - 2 rope)``,
``theta_b = sum_{i, j} w_i w_j H(-z_i - z_j - 2 rope)``,
``theta_e = 1 - theta_a - theta_b``,

``H`` the Heaviside step with ``H(0) = 1/2`` (all ``i, j = 0..N``, including
``i = j``).  The reported probabilities are the fractions of posterior samples
in which each of the three is the largest.  The samples are Monte Carlo:
``n_resamples`` and the seed (``rng``) are part of the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .._result import Result
from .._rng import as_generator, seed_record
from .._validate import check_int, check_real

__all__ = ["BayesianSignedRank", "bayesian_signed_rank"]


@dataclass(frozen=True, repr=False)
class BayesianSignedRank(Result):
    """Posterior probabilities of the Bayesian signed-rank test.

    Attributes
    ----------
    p_a_better, p_equivalent, p_b_better : float
        Fractions of posterior samples in which "a better", "equivalent" or
        "b better" has the largest posterior mass (they sum to 1).
    rope : float
        Half-width of the region of practical equivalence.
    prior : float
        Strength ``s`` of the Dirichlet-process prior (pseudo-observation at 0).
    n_resamples : int
        Posterior samples drawn.
    seed : int or None
        The int seed, if one was given.
    theta : ndarray, shape (n_resamples, 3)
        The posterior samples of ``(theta_a, theta_e, theta_b)`` (not in ``to_dict()``).
    """

    p_a_better: float
    p_equivalent: float
    p_b_better: float
    rope: float
    prior: float
    n_resamples: int
    seed: int | None
    theta: np.ndarray = field(repr=False)


def _heaviside(x: np.ndarray) -> np.ndarray:
    return (x > 0).astype(float) + 0.5 * (x == 0)


def bayesian_signed_rank(
    a: ArrayLike,
    b: ArrayLike,
    *,
    rope: float = 0.0,
    lower_is_better: bool = False,
    prior: float = 0.5,
    n_resamples: int = 10_000,
    rng: np.random.Generator | int | None = None,
) -> BayesianSignedRank:
    """The Bayesian signed-rank test of candidates ``a`` and ``b`` over ``N`` judges {benavoli2017time}.

    Parameters
    ----------
    a, b : array_like, shape (N,)
        Scores of the two candidates on the same judges (data sets).
    rope : float
        Half-width (>= 0) of the region of practical equivalence, in score
        units (e.g. 0.01 for one point of accuracy).
    lower_is_better : bool
        The scores are losses.
    prior : float
        Strength (> 0) of the Dirichlet-process prior, placed at a difference of 0.
    n_resamples : int
        Posterior samples (Monte Carlo), >= 1; the probabilities have
        standard error at most ``0.5 / sqrt(n_resamples)``.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)`` (and is recorded); None draws fresh entropy.

    Returns
    -------
    BayesianSignedRank
        P(a better), P(equivalent), P(b better).

    Raises
    ------
    ValueError
        Arrays empty, of different lengths or not finite; ``rope``,
        ``prior``, ``n_resamples`` or ``rng`` out of range.

    References
    ----------
    Benavoli, Corani, Demšar & Zaffalon (2017), *Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis*,
    JMLR 18, Section 5 (the Bayesian signed-rank test); the book's chapter 8.

    Examples
    --------
    >>> from sotalib.judging import bayesian_signed_rank
    >>> a = [0.81, 0.92, 0.77, 0.88, 0.95, 0.70]
    >>> b = [0.80, 0.90, 0.78, 0.85, 0.93, 0.69]
    >>> res = bayesian_signed_rank(a, b, rope=0.005, n_resamples=2000, rng=1)
    >>> round(res.p_a_better + res.p_equivalent + res.p_b_better, 6)
    1.0
    """
    x = np.asarray(a, dtype=float).ravel()
    y = np.asarray(b, dtype=float).ravel()
    if x.size < 1 or x.shape != y.shape:
        raise ValueError(f"a and b must be non-empty and of the same length, got {x.size} and {y.size}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("a and b must contain only finite scores")
    rope = check_real("rope", rope, low=0.0)
    prior = check_real("prior", prior, low=0.0, low_open=True)
    samples = check_int("n_resamples", n_resamples, low=1)
    gen = as_generator(rng)
    z = np.concatenate(([0.0], (y - x) if lower_is_better else (x - y)))
    s = z[:, None] + z[None, :]
    H_a = _heaviside(s - 2 * rope)
    H_b = _heaviside(-s - 2 * rope)
    alpha = np.ones(z.size)
    alpha[0] = prior
    theta = np.empty((samples, 3))
    block = max(1, min(samples, 2**22 // z.size))
    for lo in range(0, samples, block):
        W = gen.dirichlet(alpha, min(block, samples - lo))
        ta = np.sum((W @ H_a) * W, axis=1)
        tb = np.sum((W @ H_b) * W, axis=1)
        theta[lo : lo + len(W)] = np.column_stack((ta, 1.0 - ta - tb, tb))
    wins = np.bincount(np.argmax(theta, axis=1), minlength=3) / samples
    return BayesianSignedRank(
        float(wins[0]), float(wins[1]), float(wins[2]), rope, prior, samples, seed_record(rng), theta
    )
