r"""The sample maximum of m classifiers: exact distribution (Section 3.3, Eqs. 2-3).

With ``m`` independent classifiers, each correct with probability ``theta`` on
each of ``n`` test items, the counts ``X_j ~ B(n, theta)`` are iid and

.. math:: F(x) = P(\max_j X_j \le x) = P_x^m, \qquad P_x = P(X \le x)   \qquad (2)

with pmf ``f(x) = F(x) - F(x-1)`` (Eq. 3).  Everything is computed in log
space, ``F(x) = exp(m log P_x)`` and ``1 - F(x) = -expm1(m log P_x)``, so that
neither the body near one nor the tails underflow or lose their digits for
``m, n`` up to ``10**7`` and ``theta`` within ``10**-6`` of 0 or 1.

:class:`MaxDistribution` holds any distribution of a maximum count on a window
``[lo, hi]`` outside of which the probability is below a tolerance ``tail``;
the non-identical and dependent models of later chapters produce the same
object, so every chapter summarises maxima the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._deprecate import warn_deprecated
from .._result import Result
from .._validate import check_alpha, check_int, check_probability, check_real
from ._binomial import count_at_least, log_cdf
from ._max_distribution import Summary

__all__ = ["MaxDistribution", "iid_max_distribution", "prob_any_at_least", "iid_bias_sd"]

#: Probability left outside a distribution's window, below and above.  Far
#: below what any printed digit can see, far above the smallest double.
TAIL = 1e-20


def _check_nm_theta(n, m, theta) -> tuple[int, int, float]:
    return check_int("n", n, low=1), check_int("m", m, low=1), check_probability("theta", theta)


def max_log_cdf(x, n: int, m: int, theta: float) -> np.ndarray:
    """``log F(x) = m log P(X <= x)``: the log-cdf of ``max_j X_j`` (Eq. 2)."""
    n, m, theta = _check_nm_theta(n, m, theta)
    return m * log_cdf(x, n, theta)


def max_cdf(x, n: int, m: int, theta: float) -> np.ndarray:
    """``F(x) = P(max_j X_j <= x) = P_x^m`` (Eq. 2)."""
    return np.exp(max_log_cdf(x, n, m, theta))


def max_sf(x, n: int, m: int, theta: float) -> np.ndarray:
    """``1 - F(x) = 1 - P_x^m = P(at least one X_j > x)``, without cancellation."""
    return -np.expm1(max_log_cdf(x, n, m, theta))


def max_pmf(x, n: int, m: int, theta: float) -> np.ndarray:
    """``f(x) = P_x^m - P_{x-1}^m`` (Eq. 3), differenced on the accurate side."""
    x = np.asarray(x, dtype=float)
    lf, lf1 = max_log_cdf(x, n, m, theta), max_log_cdf(x - 1, n, m, theta)
    lower = np.exp(lf) - np.exp(lf1)
    upper = np.expm1(lf) - np.expm1(lf1)
    return np.where(lf1 > np.log(0.5), upper, lower)


def prob_any_at_least(t: float, n: int, m: int, theta: float) -> float:
    """``P(theta_hat_max >= t)``: at least one of ``m`` classifiers reaches accuracy ``t``.

    ``1 - P_{k-1}^m`` with ``k = ceil(t n)`` and ``P_x = P(X <= x)``,
    ``X ~ B(n, theta)``, computed without cancellation.

    Parameters
    ----------
    t : float
        The accuracy to reach (a number; below 0 gives 1, above 1 gives 0).
    n : int
        Test-set size, ``n >= 1``.
    m : int
        Number of identical independent classifiers, ``m >= 1``.
    theta : float
        Their probability of success, in ``[0, 1]``.

    Returns
    -------
    float
        The probability that the best of ``m`` has accuracy ``>= t``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.2 and Eq. 2.

    Examples
    --------
    A thousand coin-flip classifiers on 20 items: one of them reaches 90%.

    >>> from sotalib.multiplicity import prob_any_at_least
    >>> round(prob_any_at_least(0.9, 20, 1000, 0.5), 4)
    0.1823
    """
    n, m, theta = _check_nm_theta(n, m, theta)
    return float(max_sf(count_at_least(float(t), n) - 1, n, m, theta))


def _first_true(pred, a: int, b: int) -> int:
    """Smallest integer ``x`` in ``[a, b]`` with ``pred(x)``; ``pred`` monotone, ``pred(b)`` true."""
    if pred(a):
        return a
    while b - a > 1:
        mid = (a + b) // 2
        if pred(mid):
            b = mid
        else:
            a = mid
    return b


@dataclass(frozen=True, eq=False, repr=False)
class MaxDistribution(Result):
    """Distribution of a maximum count ``max_j X_j`` on ``{0, ..., n}``.

    Returned by :func:`iid_max_distribution`, :func:`max_distribution`,
    :func:`fixed_max_distribution` and :meth:`AUCDistribution.max_distribution`;
    its methods give the pmf (Eq. 3), mean, sd, quantiles, the interval of
    Section 3.4 and :meth:`summary`.

    The distribution is stored on the window ``x = lo, ..., hi`` that carries
    all but ``tail`` of the probability at each end: ``F(lo - 1) <= tail`` and
    ``1 - F(hi) <= tail``.  Both the cdf and its complement are stored so that
    probabilities near one keep their digits.

    Attributes
    ----------
    n : int
        Test-set size; accuracies are counts divided by ``n``.
    lo : int
        First count of the window.
    cdf, sf : ndarray
        ``F(x)`` and ``1 - F(x)`` for ``x = lo, ..., hi``.
    engine : str
        How it was computed: ``"exact"``, ``"normal"`` (the normal
        approximation of the dependent model) or ``"simulate"`` (from a
        simulated distribution of the AUC).
    """

    n: int
    lo: int
    cdf: np.ndarray
    sf: np.ndarray
    engine: str = "exact"

    @property
    def method(self) -> str:
        """Deprecated name of :attr:`engine`, with ``"mc"`` for ``"simulate"`` (removed in 0.7.0)."""
        warn_deprecated("MaxDistribution.method", "MaxDistribution.engine ('mc' is now 'simulate')")
        return "mc" if self.engine == "simulate" else self.engine

    @classmethod
    def from_log_cdf(cls, n: int, lo: int, log_cdf_values, engine: str = "exact") -> MaxDistribution:
        """Build from ``log F(x)`` on the window starting at ``lo``."""
        lf = np.asarray(log_cdf_values, dtype=float)
        return cls(n=n, lo=lo, cdf=np.exp(lf), sf=-np.expm1(lf), engine=engine)

    @property
    def hi(self) -> int:
        """Last count of the window."""
        return self.lo + self.cdf.size - 1

    @property
    def x(self) -> np.ndarray:
        """Counts of the window, ``lo, ..., hi``."""
        return np.arange(self.lo, self.hi + 1)

    @property
    def theta_hat(self) -> np.ndarray:
        """The window as accuracies, ``x / n``."""
        return self.x / self.n

    @property
    def pmf(self) -> np.ndarray:
        """``f(x) = F(x) - F(x-1)`` on the window (Eq. 3); the first entry holds ``F(lo)``."""
        f = np.empty_like(self.cdf)
        f[0] = self.cdf[0]
        f[1:] = np.where(self.cdf[:-1] <= 0.5, np.diff(self.cdf), -np.diff(self.sf))
        return np.clip(f, 0.0, None)

    def mean(self) -> float:
        """``E theta_hat_max``: the expected maximum accuracy."""
        f = self.pmf
        return float(np.dot(self.x, f) / f.sum() / self.n)

    def sd(self) -> float:
        """Standard deviation of ``theta_hat_max``."""
        f = self.pmf
        f = f / f.sum()
        mu = np.dot(self.x, f)
        return float(np.sqrt(np.dot((self.x - mu) ** 2, f)) / self.n)

    def quantile(self, q):
        """Smallest accuracy ``x / n`` with ``F(x) >= q`` (the book's quantile convention)."""
        q_arr = np.asarray(q, dtype=float)
        if np.any((q_arr <= 0) | (q_arr >= 1)) or np.any(np.isnan(q_arr)):
            raise ValueError(f"q must be in (0, 1), got {q}")
        # F(x) >= q is tested as 1 - F(x) <= 1 - q in the upper half, where sf is accurate.
        lower = np.searchsorted(self.cdf, q_arr, side="left")
        upper = np.searchsorted(-self.sf, -(1.0 - q_arr), side="left")
        idx = np.minimum(np.where(q_arr <= 0.5, lower, upper), self.cdf.size - 1)
        out = (self.lo + idx) / self.n
        return float(out) if np.ndim(out) == 0 else out

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """Equal-tailed ``1 - alpha`` interval: the ``alpha/2`` and ``1 - alpha/2`` quantiles.

        For the iid maximum this is the multiplicity-adjusted interval
        ``(theta^m_{alpha/2}, theta^m_{1-alpha/2})`` of Section 3.4.
        """
        alpha = check_alpha("alpha", alpha)
        return self.quantile(alpha / 2), self.quantile(1 - alpha / 2)

    def cdf_at(self, x) -> np.ndarray:
        """``F(x)`` for any counts (0 below the window, 1 above, up to ``tail``)."""
        x = np.floor(np.asarray(x, dtype=float))
        idx = np.clip(x - self.lo, 0, self.cdf.size - 1).astype(int)
        return np.where(x < self.lo, 0.0, np.where(x > self.hi, 1.0, self.cdf[idx]))

    def prob_at_least(self, t: float) -> float:
        """``P(theta_hat_max >= t)``."""
        k = count_at_least(float(t), self.n)
        if k <= self.lo:
            return 1.0
        if k > self.hi:
            return 0.0
        return float(self.sf[k - 1 - self.lo])

    def summary(self, alpha: float = 0.05) -> Summary:
        """Mean, standard deviation and ``1 - alpha`` interval as accuracies."""
        lo, hi = self.interval(alpha)
        return Summary(mean=self.mean(), sd=self.sd(), ci_low=lo, ci_high=hi, engine=self.engine, alpha=alpha)


def iid_max_distribution(n: int, m: int, theta: float, *, tail: float = TAIL) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` for ``m`` identical independent classifiers (Eqs. 2-3).

    ``F(x) = P(X <= x)^m`` with ``X ~ B(n, theta)``, computed in log space
    (``exp(m log P_x)`` and ``-expm1(m log P_x)``) so that neither tail
    loses its digits, for ``m, n`` up to ``10^7``.

    Parameters
    ----------
    n : int
        Test-set size (``n >= 1``).
    m : int
        Number of classifiers (``m >= 1``).
    theta : float
        Probability of success of every classifier, in ``[0, 1]``.
    tail : float
        Probability allowed outside the stored window at each end, in
        ``(0, 1e-6]``.

    Returns
    -------
    MaxDistribution
        The distribution on the window of counts that carries all but
        ``tail`` of it at each end.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.3, Eqs. 2-3; Table 1, row 1.

    Examples
    --------
    The simulated public challenge of Section 3.4 (Table 1, row 1):

    >>> from sotalib.multiplicity import iid_max_distribution
    >>> s = iid_max_distribution(3000, 1000, 0.9).summary()
    >>> round(s.mean, 4), round(s.sd, 6), round(s.ci_high, 4)
    (0.9173, 0.001817, 0.9213)
    """
    n, m, theta = _check_nm_theta(n, m, theta)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    log_tail = np.log(tail)

    def log_f(x):
        return m * log_cdf(x, n, theta)

    lo = _first_true(lambda x: float(log_f(x)) > log_tail, 0, n)
    hi = _first_true(lambda x: float(-np.expm1(log_f(x))) <= tail, lo, n)
    x = np.arange(lo, hi + 1)
    return MaxDistribution.from_log_cdf(n, lo, log_f(x))


#: ``n theta (1 - theta)`` (the variance of one classifier's count) above which :func:`iid_max_summary`
#: sums the distribution of the maximum by quadrature instead of tabulating its window: a standard
#: deviation above 10^4 counts, a window of more than about 2 * 10^5 counts.
_QUADRATURE_VAR = 1e8
#: Gauss--Legendre panels and nodes per panel of that quadrature (the window is a few standard
#: deviations of the maximum wide; each panel is a small fraction of one).
_PANELS, _NODES = 256, 16


def iid_max_summary(n: int, m: int, theta: float, alpha: float = 0.05, *, tail: float = TAIL) -> Summary:
    """Mean, sd and ``1 - alpha`` interval of ``theta_hat_max`` for ``m`` iid classifiers, at any ``n``.

    Equal to ``iid_max_distribution(n, m, theta).summary(alpha)``.  When one
    classifier's count has a standard deviation above ``10^4``
    (``n theta (1 - theta) > 10^8``) the window of counts is too long to
    tabulate (``10^7`` counts at ``n = 10^12``), and the sums over it are
    computed instead from ``F(x) = P(X <= x)^m`` evaluated at a few thousand
    points: ``P(X <= x) = I_{1 - theta}(n - x, x + 1)`` (the regularized
    incomplete beta function, SciPy's ``betainc``), a smooth function of
    ``x``; ``E X = lo + sum_x (1 - F(x))`` and
    ``E (X - lo)^2 = sum_x (2 (x - lo) + 1) (1 - F(x))`` are summed by the
    Euler--Maclaurin formula (the integral by composite Gauss--Legendre,
    with the end corrections; the remainder is exponentially small in the
    width of the distribution, thousands of counts), and the quantiles are
    found by bisection over the integer counts, exactly as on the
    tabulated window.  The cost does not depend on ``n`` or ``m``.

    Parameters
    ----------
    n, m : int
        Test-set size and number of classifiers, each ``>= 1``.
    theta : float
        Probability of success of every classifier, in ``[0, 1]``.
    alpha : float
        The interval's level is ``1 - alpha``.
    tail : float
        Probability left out at each end, in ``(0, 1e-6]``.

    Returns
    -------
    Summary
        As accuracies (counts over ``n``).
    """
    n, m, theta = _check_nm_theta(n, m, theta)
    alpha = check_alpha("alpha", alpha)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    if n * theta * (1.0 - theta) <= _QUADRATURE_VAR:
        return iid_max_distribution(n, m, theta, tail=tail).summary(alpha)
    from scipy import special  # lazily: SciPy only for the largest n

    def log_f(x):
        """``log F(x) = m log P(X <= x)`` at real ``x``, from the accurate side."""
        x = np.asarray(x, dtype=float)
        cdf = special.betainc(n - x, x + 1.0, 1.0 - theta)
        sf = special.betainc(x + 1.0, n - x, theta)
        with np.errstate(divide="ignore"):
            return float(m) * np.where(cdf < 0.5, np.log(cdf), np.log1p(-sf))

    def first(pred, a: int, b: int) -> int:  # smallest integer count in [a, b] with pred; pred(b) true
        return _first_true(lambda x: bool(pred(float(log_f(float(x))))), a, b)

    log_tail = math.log(tail)
    sd = math.sqrt(n * theta * (1.0 - theta))
    # every maximum of up to 2^63 counts lies within 12 sd above the mean (and the lowest within 10 sd below)
    a, b = max(0, math.floor(n * theta - 15 * sd)), min(n - 1, math.ceil(n * theta + 15 * sd))
    lo = first(lambda lf: lf > log_tail, a, b)
    hi = first(lambda lf: -math.expm1(lf) <= tail, lo, b)
    # Gauss--Legendre on [lo, hi]: sum over x = lo, ..., hi - 1 of g(x) = integral + (g(lo) - g(hi)) / 2
    # + (g'(hi) - g'(lo)) / 12 + ... (Euler--Maclaurin)
    t, w = np.polynomial.legendre.leggauss(_NODES)
    edges = np.linspace(0.0, float(hi - lo), _PANELS + 1)
    half = np.diff(edges) / 2
    u = ((edges[:-1] + half)[:, None] + half[:, None] * t[None, :]).ravel()  # x - lo
    wu = (half[:, None] * w[None, :]).ravel()
    g0 = -np.expm1(log_f(lo + u))  # 1 - F(x)
    g0_lo, g0_hi = (float(-np.expm1(v)) for v in log_f([float(lo), float(hi)]))
    width = float(hi - lo)
    first_moment = float(np.dot(wu, g0)) + (g0_lo - g0_hi) / 2
    # g1 = (2 u + 1) g0: g1(lo) = g0(lo), g1'(lo) = 2 g0(lo) (F is flat there), g1(hi) = (2 W + 1) g0(hi)
    second_moment = float(np.dot(wu, (2 * u + 1) * g0)) + (g0_lo - (2 * width + 1) * g0_hi) / 2 - 2 * g0_lo / 12
    mass = 1.0 - g0_hi  # the window's share, F(hi) (a tail's worth short of one)
    mean_u = first_moment / mass
    var = max(second_moment / mass - mean_u**2, 0.0)

    def quantile(q: float) -> float:
        if q <= 0.5:
            x = first(lambda lf: math.exp(lf) >= q, lo, hi)
        else:
            x = first(lambda lf: -math.expm1(lf) <= 1.0 - q, lo, hi)
        return x / n

    return Summary(
        mean=(lo + mean_u) / n,
        sd=math.sqrt(var) / n,
        ci_low=quantile(alpha / 2),
        ci_high=quantile(1 - alpha / 2),
        engine="exact",
        alpha=alpha,
    )


def iid_bias_sd(n: ArrayLike, m: ArrayLike, theta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Bias ``E theta_hat_max - theta`` and standard deviation of ``theta_hat_max`` over a grid.

    Broadcasts over array arguments (as in Figure 4, where one of ``n``,
    ``m``, ``theta`` varies and the others are fixed); each entry is the
    exact distribution of :func:`iid_max_distribution`.

    Parameters
    ----------
    n : int or array_like of int
        Test-set sizes, each ``>= 1``.
    m : int or array_like of int
        Numbers of classifiers, each ``>= 1``.
    theta : float or array_like of float
        Probabilities of success, each in ``[0, 1]``.

    Returns
    -------
    bias, sd : ndarray
        Arrays of the broadcast shape of the arguments.

    Raises
    ------
    ValueError
        If an entry is out of range, or the shapes do not broadcast.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.3, Figure 4.

    Examples
    --------
    >>> from sotalib.multiplicity import iid_bias_sd
    >>> bias, sd = iid_bias_sd(3000, [10, 1000], 0.9)
    >>> [round(float(b), 4) for b in bias], [round(float(s), 4) for s in sd]
    ([0.0083, 0.0173], [0.0031, 0.0018])
    """
    nb, mb, tb = np.broadcast_arrays(np.asarray(n), np.asarray(m), np.asarray(theta, dtype=float))
    bias = np.empty(nb.shape)
    sd = np.empty(nb.shape)
    for idx in np.ndindex(nb.shape):
        d = iid_max_distribution(int(nb[idx]), int(mb[idx]), float(tb[idx]))
        bias[idx] = d.mean() - tb[idx]
        sd[idx] = d.sd()
    return bias, sd
