r"""The best public score against the best private score: :func:`summarize_max_difference`.

A Kaggle competition scores every team twice, on two disjoint parts of one
test set: the public board, seen during the competition, and the private
board, which decides it.  If the teams' true accuracies are the same on both
parts, the two boards' maxima are two draws of the best of the same
classifiers on ``n_public`` and ``n_private`` items, independent given the
accuracies (disjoint items; under the dependent model of Section 4.2 each
part has its own reference classifier count ``K_0``).  The difference

.. math:: D = \max_j \hat\theta_j^{\mathrm{pub}} - \max_j \hat\theta_j^{\mathrm{priv}}

then has a known distribution.  Its mean is not zero: the smaller part has
the wider scores and so the higher maximum.  A real difference far above it
(the public maximum too high) is what adaptive overfitting to the public
board would leave (Roelofs et al., 2019).

The distribution is exact for small problems: the two maxima come from
:func:`fixed_max_distribution`, and ``P(D <= t) = sum_x f_pub(x) P(X_priv >=
n_priv (x / n_pub - t))`` is a sum over the public window, so neither the
support of ``D`` nor its pmf is stored.  For a Kaggle board of thousands of
teams the exact engine for given accuracies would take hours, and Monte
Carlo (``engine="simulate"``, replications and seed recorded) draws the two
boards from the model; each engine checks the other in the tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._distribution import DistributionSummary
from .._rng import as_generator, check_rng, seed_record
from .._validate import check_alpha, check_choice, check_int, check_probability, check_real
from ._dependence_model import conditional_probs, feasible
from ._max_dependent import fixed_max_distribution
from ._sota_model import RHO0

__all__ = ["MaxDifference", "summarize_max_difference"]

#: Probability below which a count of either maximum is left out of the sums (far below any printed digit).
_NEGLIGIBLE = 1e-300
#: Scores closer than this count as equal when the observed difference is placed in the distribution.
_TIE = 1e-9
#: Classifier draws held in memory at once by the Monte Carlo engine.
_CHUNK = 2_000_000
#: ``engine="auto"`` computes exactly up to this many classifier-items, ``m (n_public + n_private)``
#: (about ten seconds), and simulates beyond: the exact engine for given accuracies costs
#: ``O(m n)`` binomial convolutions per count of the reference classifier.
EXACT_WORK = 200_000
#: The Monte Carlo engine leaves out classifiers whose chance of beating the best one, summed over
#: all of them and all replications, is below this (Hoeffding's bound, see :func:`_screen`).
_SCREEN = 0.01


@dataclass(frozen=True, repr=False)
class MaxDifference(DistributionSummary):
    """Distribution of ``max(public) - max(private)`` under the same true accuracies.

    What :func:`summarize_max_difference` returns: the fields of every
    distribution summary (``sotalib._distribution.DistributionSummary``),
    then the model's and the observed difference's.

    Attributes
    ----------
    mean, sd : float
        Mean and standard deviation of the difference ``D``.
    ci_low, ci_high : float
        The ``alpha/2`` and ``1 - alpha/2`` quantiles of ``D`` (the smallest
        value whose cdf reaches each level).
    alpha : float
        The interval's level is ``1 - alpha``.
    engine : str
        ``"exact"`` or ``"simulate"`` (Monte Carlo).
    n_resamples : int or None
        Monte Carlo replications (None when exact).
    se_mean : float or None
        Monte Carlo standard error of ``mean`` (None when exact).
    seed : int or None
        The int seed of a Monte Carlo run (None when exact or not seeded).
    n_public, n_private : int
        Items behind the public and the private board.
    m : int
        Classifiers in the model (after the exclusions of Eq. 8).
    excluded : int
        Classifiers left out because their accuracy violates Eq. 8.
    rho : float
        Correlation with the reference classifier.
    public_mean, private_mean : float
        ``E max`` of each board.
    observed : float or None
        The observed difference, if given.
    position : float or None
        Where it falls: ``P(D < observed) + P(D = observed) / 2`` (near 1:
        the public maximum is higher than the model allows).
    p_value : float or None
        Two-sided: ``2 min(P(D <= observed), P(D >= observed))``, at most 1.
    """

    n_public: int
    n_private: int
    m: int
    excluded: int
    rho: float
    public_mean: float
    private_mean: float
    observed: float | None = None
    position: float | None = None
    p_value: float | None = None


class _ExactDifference:
    """``P(D <= t)``, ``P(D < t)`` and ``P(D >= t)`` from the two maxima's pmfs, each a sum over the public window.

    Two values of ``D = x / n1 - y / n2`` differ by at least ``1 / (n1 n2)``;
    values within ``tie`` of each other (a quarter of that, at most
    :data:`_TIE`) count as equal.
    """

    def __init__(self, pub, priv):
        f = pub.pmf
        keep = f > _NEGLIGIBLE
        self.x = pub.x[keep].astype(float)
        self.f = f[keep] / f.sum()
        self.n1, self.n2 = pub.n, priv.n
        self.tie = min(_TIE, 0.25 / (float(pub.n) * priv.n))
        g = priv.pmf
        g = g / g.sum()
        self.lo2 = priv.lo
        # sums from both ends keep the digits of either tail
        self.cdf2 = np.cumsum(g)  # P(X2 <= lo2 + i)
        self.sf2 = np.cumsum(g[::-1])[::-1]  # P(X2 >= lo2 + i)

    def _edge(self, t: float) -> np.ndarray:
        """``n2 (x / n1 - t)``: ``D <= t`` exactly when the private count is at least this."""
        return self.n2 * (self.x / self.n1 - t)

    def _at_least(self, k: np.ndarray) -> float:
        """``sum_x f(x) P(X2 >= k_x)``."""
        i = k - self.lo2
        p = np.where(i <= 0, 1.0, 0.0)
        inside = (i > 0) & (i < self.sf2.size)
        p[inside] = self.sf2[i[inside]]
        return float(np.dot(self.f, p))

    def _at_most(self, k: np.ndarray) -> float:
        """``sum_x f(x) P(X2 <= k_x)``."""
        i = k - self.lo2
        p = np.where(i >= self.cdf2.size - 1, 1.0, 0.0)
        inside = (i >= 0) & (i < self.cdf2.size - 1)
        p[inside] = self.cdf2[i[inside]]
        return float(np.dot(self.f, p))

    def cdf(self, t: float) -> float:
        """``P(D <= t)``: ``X2 >= n2 (x / n1 - t)``."""
        tie = self.tie * self.n2
        return self._at_least(np.ceil(self._edge(t) - tie).astype(np.int64))

    def below(self, t: float) -> float:
        """``P(D < t)``: ``X2 > n2 (x / n1 - t)``."""
        tie = self.tie * self.n2
        return self._at_least(np.floor(self._edge(t) + tie).astype(np.int64) + 1)

    def sf(self, t: float) -> float:
        """``P(D >= t)``: ``X2 <= n2 (x / n1 - t)``."""
        tie = self.tie * self.n2
        return self._at_most(np.floor(self._edge(t) + tie).astype(np.int64))

    def quantile(self, q: float, lo: float, hi: float) -> float:
        """The smallest value ``d`` of ``D`` with ``P(D <= d) >= q``; ``P(D <= lo) < q <= P(D <= hi)``.

        Bisection until ``(lo, hi]`` is narrower than the spacing of the
        values of ``D``, so that it holds one value, the answer.
        """
        width = 0.5 / (float(self.n1) * self.n2)
        while hi - lo > width:
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):  # the doubles are exhausted
                break
            if self.cdf(mid) >= q:
                hi = mid
            else:
                lo = mid
        # the largest value of D at or below hi, over the public counts
        y = np.ceil(self._edge(hi) - self.tie * self.n2)
        d = self.x / self.n1 - y / self.n2
        return float(d[d <= hi + self.tie].max())


def _screen(v: np.ndarray, n: int, reps: int) -> np.ndarray:
    """The accuracies that can be the maximum in ``reps`` draws on ``n`` items, all but negligibly.

    Item by item, ``Y_j - Y_best`` are independent in ``[-1, 1]`` with mean
    ``-delta = theta_j - theta_best``, so ``P(X_j >= X_best) <= exp(-n
    delta^2 / 2)`` (Hoeffding).  A classifier is left out when ``m reps``
    times this bound is below :data:`_SCREEN`: summed over every left-out
    classifier and every replication, the chance that any draw's maximum
    changes is below it.
    """
    delta = v.max() - v
    return v[v.size * reps * np.exp(-n * delta**2 / 2) >= _SCREEN]


def _simulate(n1, n2, v, rho, theta0, reps, gen):
    """``reps`` draws of the two boards' maxima from the dependent model (Eqs. 6-7): public, private."""
    if rho == 0.0:
        p1 = p0 = np.clip(v, 0.0, 1.0)
    else:
        p1, p0 = conditional_probs(v, theta0, rho)
        p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
    out = np.empty((2, reps))
    for board, n in enumerate((n1, n2)):
        keep = np.isin(v, _screen(v, n, reps))
        a, b = p1[keep], p0[keep]
        step = max(1, _CHUNK // a.size)
        for start in range(0, reps, step):
            r = min(step, reps - start)
            k0 = gen.binomial(n, theta0, size=(r, 1)) if rho != 0.0 else np.full((r, 1), n)
            x = gen.binomial(k0, a) + gen.binomial(n - k0, b)
            out[board, start : start + r] = x.max(axis=1) / n
    return out


def summarize_max_difference(
    n_public: int,
    n_private: int,
    thetas: ArrayLike,
    *,
    observed: float | None = None,
    rho: float = RHO0,
    theta0: float | None = None,
    alpha: float = 0.05,
    engine: str = "auto",
    n_resamples: int = 10_000,
    rng: int | np.random.Generator | None = None,
) -> MaxDifference:
    """Distribution of the best public score minus the best private score, same true accuracies.

    The classifiers have true accuracies ``thetas`` on both boards; the
    public board scores them on ``n_public`` items, the private board on
    ``n_private`` other items, each under the dependent model of Section 4.2
    (correlation ``rho`` with a random reference classifier of accuracy
    ``theta0``; ``rho=0``: independent classifiers).  The two maxima are then
    independent, and the difference ``D = max(public) - max(private)`` has a
    distribution this function summarises and, given the ``observed``
    difference, places it in.  The boards' files need not be paired team by
    team: this compares boards, not teams.

    Parameters
    ----------
    n_public, n_private : int
        Items behind each board, ``>= 1``.
    thetas : array_like of float
        The classifiers' true accuracies in ``[0, 1]``: for a real board, the
        fitted ones (the shrinkage fit of :func:`estimate_sota`,
        ``w * scores + (1 - w) / classes`` for the scores above chance).
        Values that violate Eq. 8 for ``rho`` and ``theta0`` are left out,
        as in the estimators, and counted in ``excluded``.
    observed : float, optional
        The observed ``max(public) - max(private)``, in ``[-1, 1]``.
    rho : float
        Correlation with the reference classifier, in ``[0, 1]``; default
        0.6, the paper's and the estimators'.
    theta0 : float, optional
        Accuracy of the reference classifier; default ``max(thetas)``.
    alpha : float
        The interval is the central ``1 - alpha`` one; in ``(0, 1)``.
    engine : {"auto", "exact", "simulate"}
        ``"exact"``, ``"simulate"`` (Monte Carlo) or ``"auto"`` (the
        default): exact while ``m (n_public + n_private)`` is at most
        :data:`EXACT_WORK` (about ten seconds), Monte Carlo beyond (a
        Kaggle board of thousands of teams: the exact engine for given
        accuracies would take hours).
    n_resamples : int
        Monte Carlo replications, ``>= 2`` (used only when simulating).
        The standard error of ``position`` is at most ``0.5 /
        sqrt(n_resamples)``.
    rng : int, numpy.random.Generator or None
        Randomness of the Monte Carlo engine (an int seed is recorded).
        The simulation leaves out the classifiers that cannot be the
        maximum but with a total chance, over all draws, below 0.01
        (Hoeffding's bound on each one's chance to beat the best).

    Returns
    -------
    MaxDifference
        Mean, sd and interval of ``D``, the two boards' expected maxima and,
        with ``observed``, its position and two-sided p-value.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), or if every
        value of ``thetas`` violates Eq. 8.

    Notes
    -----
    Printed scores are rounded; an observed difference is compared with the
    model's lattice of ``x / n_public - y / n_private`` up to ``1e-9``, so a
    rounding of the printed scores shifts the position by at most the
    probability of the values it straddles.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2 (Eqs. 6-8).  R. Roelofs, V. Shankar,
    B. Recht, S. Fridovich-Keil, M. Hardt, J. Miller and L. Schmidt, "A
    meta-analysis of overfitting in machine learning", *Advances in Neural
    Information Processing Systems 32* (2019).

    Examples
    --------
    Fifty teams between 0.80 and 0.85 in truth, a public board of 1,000
    items and a private board of 3,000:

    >>> import numpy as np
    >>> from sotalib.multiplicity import summarize_max_difference
    >>> thetas = np.linspace(0.80, 0.85, 50)
    >>> d = summarize_max_difference(1000, 3000, thetas, observed=0.02)
    >>> d.engine, round(d.mean, 4), round(d.sd, 4)
    ('exact', 0.0057, 0.0099)
    >>> round(d.position, 3)
    0.926
    """
    n1 = check_int("n_public", n_public, low=1)
    n2 = check_int("n_private", n_private, low=1)
    th = np.asarray(thetas, dtype=float).ravel()
    if th.size == 0 or not np.all(np.isfinite(th)) or np.any((th < 0) | (th > 1)):
        raise ValueError("thetas must be a non-empty array of accuracies in [0, 1]")
    rho = check_probability("rho", rho)
    theta0 = float(th.max()) if theta0 is None else check_probability("theta0", theta0)
    alpha = check_alpha("alpha", alpha)
    engine = check_choice("engine", engine, ("auto", "exact", "simulate"))
    if observed is not None:
        observed = check_real("observed", observed, low=-1.0, high=1.0)
    ok = feasible(th, theta0, rho) if rho != 0.0 else np.ones(th.size, bool)
    if not ok.any():
        raise ValueError(f"thetas: every value violates Eq. 8 for rho={rho:g} and theta0={theta0:g}")
    v = th[ok]
    reps = check_int("n_resamples", n_resamples, low=2)
    check_rng(rng)
    if engine == "auto":
        work = np.unique(v).size * (n1 + n2)
        engine = "exact" if work <= EXACT_WORK else "simulate"
    common: dict[str, Any] = dict(
        n_public=n1, n_private=n2, m=int(v.size), excluded=int((~ok).sum()), rho=rho, alpha=alpha
    )
    if engine == "simulate":
        best = _simulate(n1, n2, v, rho, theta0, reps, as_generator(rng))
        draws = best[0] - best[1]
        sd = float(np.std(draws, ddof=1))
        lo, hi = np.quantile(draws, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
        where: dict[str, Any] = {}
        if observed is not None:
            tie = min(_TIE, 0.25 / (float(n1) * n2))
            below = float(np.mean(draws < observed - tie))
            at = float(np.mean(np.abs(draws - observed) <= tie))
            above = 1.0 - below - at
            where = dict(
                observed=observed,
                position=below + at / 2,
                p_value=min(1.0, 2 * min(below + at, above + at)),
            )
        return MaxDifference(
            **common,
            mean=float(draws.mean()),
            sd=sd,
            ci_low=float(lo),
            ci_high=float(hi),
            public_mean=float(best[0].mean()),
            private_mean=float(best[1].mean()),
            engine="simulate",
            n_resamples=reps,
            se_mean=sd / math.sqrt(reps),
            seed=seed_record(rng),
            **where,
        )
    pub = fixed_max_distribution(n1, v, rho=rho, theta0=theta0)
    priv = fixed_max_distribution(n2, v, rho=rho, theta0=theta0)
    exact = _ExactDifference(pub, priv)
    mean1, mean2 = pub.mean(), priv.mean()
    sd = math.hypot(pub.sd(), priv.sd())
    span = (pub.lo / n1 - priv.hi / n2 - 1.0 / n2, pub.hi / n1 - priv.lo / n2)
    lo = exact.quantile(alpha / 2, *span)
    hi = exact.quantile(1 - alpha / 2, *span)
    where = {}
    if observed is not None:
        below = exact.below(observed)
        at_most = exact.cdf(observed)
        at_least = exact.sf(observed)
        where = dict(
            observed=observed,
            position=0.5 * (below + at_most),
            p_value=min(1.0, 2 * min(at_most, at_least)),
        )
    return MaxDifference(
        **common,
        engine="exact",
        mean=mean1 - mean2,
        sd=sd,
        ci_low=lo,
        ci_high=hi,
        public_mean=mean1,
        private_mean=mean2,
        **where,
    )
