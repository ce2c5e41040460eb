"""One classifier on n test items: the binomial distribution of its successes.

A classifier with probability of success ``theta`` makes ``X ~ B(n, theta)``
correct predictions; its accuracy is ``theta_hat = X / n``.  The functions here
are the single-classifier building blocks of the book (Section 3 of
Møllersen & Holsbø): tail probabilities that keep their digits in both tails,
the exact (Clopper--Pearson) confidence interval, and the conversion between
accuracies and counts.

The binomial cdf and survival function are computed with NumPy alone (no
SciPy, so that the command line starts quickly): the pmf on a window around
the mode by the ratio recurrence ``f(k+1)/f(k) = (n-k)/(k+1) * theta/(1-theta)``
summed in log space, normalised by its sum, and accumulated from both ends,
so that ``P(X <= x)`` and ``P(X > x)`` each keep their relative precision
wherever they are small.  SciPy is imported only by :func:`clopper_pearson`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .._deprecate import keyword_only_since
from .._validate import check_int, check_memory, check_probability

__all__ = ["prob_at_least", "clopper_pearson"]

#: The pmf is tabulated where ``log f(k) - log f(mode)`` is above this; beyond
#: it ``f(k) < 1e-326``, below the smallest double.
_LOG_CUTOFF = -750.0


@lru_cache(maxsize=8)
def _table(n: int, theta: float) -> tuple[int, np.ndarray, np.ndarray]:
    """``(start, cdf, sf)``: ``P(X <= x)`` and ``P(X > x)`` for ``x = start, start + 1, ...``.

    Outside the window the probabilities are below the smallest double:
    ``P(X <= x) = 0`` left of it, ``P(X > x) = 0`` right of it.
    """
    if theta == 0.0 or theta == 1.0:
        start = 0 if theta == 0.0 else n
        return start, np.ones(1), np.zeros(1)
    mode = min(n, int(math.floor((n + 1) * theta)))
    c = math.log(theta) - math.log1p(-theta)  # log(theta / (1 - theta))
    w = int(math.ceil(40.0 * math.sqrt(n * theta * (1.0 - theta)))) + 64
    # a few arrays of 8-byte floats over the window of 2w counts (doubled at most once in practice)
    check_memory(
        64.0 * 2 * w,
        f"n={n} items",
        "the binomial distribution of a count needs about 80 sqrt(n theta (1 - theta)) probabilities; give a smaller n",
    )
    while True:
        lo, hi = max(0, mode - w), min(n, mode + w)
        # log f(k+1) - log f(k) for k = lo, ..., hi - 1
        k = np.arange(lo, hi, dtype=float)
        step = np.log((n - k) / (k + 1.0)) + c
        up = np.cumsum(step[mode - lo :])  # log f(mode + j) - log f(mode), j = 1, ..., hi - mode
        down = -np.cumsum(step[: mode - lo][::-1])  # log f(mode - j) - log f(mode), j = 1, ..., mode - lo
        done_lo = lo == 0 or down.size == 0 or down[-1] < _LOG_CUTOFF
        done_hi = hi == n or up.size == 0 or up[-1] < _LOG_CUTOFF
        if done_lo and done_hi:
            break
        w *= 2
    logf = np.concatenate([down[::-1], [0.0], up])
    f = np.exp(logf)
    total = math.fsum(f)
    cdf = np.cumsum(f) / total
    sf = np.empty_like(cdf)
    sf[-1] = 0.0
    sf[:-1] = np.cumsum(f[:0:-1])[::-1] / total  # P(X > x) = sum of f beyond x, summed from the right
    return lo, np.minimum(cdf, 1.0), np.minimum(sf, 1.0)


def _cdf_sf(x, n: int, theta: float) -> tuple[np.ndarray, np.ndarray]:
    """``P(X <= x)`` and ``P(X > x)`` for ``X ~ B(n, theta)`` at (floored) ``x``."""
    x = np.floor(np.asarray(x, dtype=float))
    start, cdf, sf = _table(int(n), float(theta))
    idx = np.clip(x - start, 0, cdf.size - 1).astype(np.int64)
    below, above = x < start, x >= start + cdf.size
    c = np.where(below, 0.0, np.where(above, 1.0, cdf[idx]))
    s = np.where(below, 1.0, np.where(above, 0.0, sf[idx]))
    return c, s


def log_cdf(x, n: int, theta: float) -> np.ndarray:
    """``log P(X <= x)`` for ``X ~ B(n, theta)``, accurate in both tails.

    Where ``P(X <= x)`` is close to one the value is computed as
    ``log1p(-P(X > x))`` so that, raised to a power ``m`` as in Eq. 2, the
    result keeps its digits (``P(X <= x)**m = exp(m * log_cdf)``).
    """
    cdf, sf = _cdf_sf(x, n, theta)
    with np.errstate(divide="ignore"):
        return np.where(cdf < 0.5, np.log(cdf), np.log1p(-sf))


def log_sf(x, n: int, theta: float) -> np.ndarray:
    """``log P(X > x)`` for ``X ~ B(n, theta)``, accurate in both tails."""
    cdf, sf = _cdf_sf(x, n, theta)
    with np.errstate(divide="ignore"):
        return np.where(sf < 0.5, np.log(sf), np.log1p(-cdf))


def count_at_least(t: float, n: int) -> int:
    """Smallest count ``k`` with ``k / n >= t``.

    Accuracies are usually given as decimals (0.75, 0.9173) whose product with
    ``n`` is an integer up to floating-point error; such products are rounded
    rather than pushed up to the next integer.  ``t`` must be a number (not
    NaN); thresholds beyond ``[0, 1]`` give ``k <= 0`` or ``k > n``.
    """
    if isinstance(t, bool) or not isinstance(t, (int, float, np.integer, np.floating)) or math.isnan(t):
        raise ValueError(f"t must be a number, got {t!r}")
    t = float(t)
    n = check_int("n", n, low=1)
    t = min(max(t, -1.0), 2.0)  # the same answer for every t outside [0, 1], and t * n stays finite
    k = t * n
    kr = round(k)
    if abs(k - kr) <= 1e-9 * max(1.0, abs(k)):
        return int(kr)
    return int(math.ceil(k))


def prob_at_least(t: float, n: int, theta: float) -> float:
    """``P(theta_hat >= t)`` for one classifier: ``P(X >= ceil(t n))`` with ``X ~ B(n, theta)``.

    This is also ``P(theta_hat_{m+1} >= t)`` of Section 3.4 for a new
    classifier with success probability ``theta``.  Accuracies given as
    decimals (0.75, 0.9173) whose product with ``n`` is an integer up to
    rounding are read as that integer.

    Parameters
    ----------
    t : float
        The accuracy to reach (any number; below 0 gives 1, above 1 gives 0).
    n : int
        Test-set size, ``n >= 1``.
    theta : float
        The classifier's probability of success, in ``[0, 1]``.

    Returns
    -------
    float
        The probability, accurate to its last digits in both tails.

    Raises
    ------
    ValueError
        If ``t`` is not a number, ``n`` not an integer ``>= 1`` or ``theta``
        not in ``[0, 1]``.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 3.2 (the coin-flip classifier) and
    Section 3.4 (a new classifier against the best of many).

    Examples
    --------
    The coin-flip classifier of Section 3.2: 15 or more correct of 20 fair flips.

    >>> from sotalib.multiplicity import prob_at_least
    >>> round(prob_at_least(0.75, 20, 0.5), 5)
    0.02069
    """
    n = check_int("n", n, low=1)
    theta = check_probability("theta", theta)
    k = count_at_least(t, n)
    return float(_cdf_sf(k - 1, n, theta)[1])


@keyword_only_since("alpha")
def clopper_pearson(x: int, n: int, *, alpha: float = 0.05) -> tuple[float, float]:
    """Exact two-sided ``1 - alpha`` confidence interval for ``theta`` from ``x`` successes of ``n``.

    The Clopper--Pearson interval: the ``alpha/2`` quantile of
    ``Beta(x, n - x + 1)`` and the ``1 - alpha/2`` quantile of
    ``Beta(x + 1, n - x)`` (0 and 1 at ``x = 0`` and ``x = n``); the interval
    the paper reports for a single accuracy.

    Parameters
    ----------
    x : int
        Number of successes (correct predictions), ``0 <= x <= n``.
    n : int
        Number of trials (test items), ``n >= 1``.
    alpha : float
        One minus the coverage, in ``(0, 1)``: 0.05 gives a 95% interval.

    Returns
    -------
    tuple of float
        The lower and upper ends.

    Raises
    ------
    ValueError
        If ``n`` is not an integer ``>= 1``, ``x`` not in ``[0, n]`` or
        ``alpha`` not in ``(0, 1)``.

    References
    ----------
    Clopper & Pearson (1934), *Biometrika* 26: 404-413.  Møllersen &
    Holsbø, Section 3.4 (``(0.8887, 0.9105)`` for 2,700 of 3,000).

    Examples
    --------
    >>> from sotalib.multiplicity import clopper_pearson
    >>> lo, hi = clopper_pearson(2700, 3000)
    >>> round(lo, 4), round(hi, 4)
    (0.8887, 0.9105)
    """
    n = check_int("n", n, low=1)
    x = check_int("x", x, low=0, high=n)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    from scipy import stats  # lazily: the rest of the module needs NumPy alone (a fast start of the command line)

    lo = 0.0 if x == 0 else float(stats.beta.ppf(alpha / 2, x, n - x + 1))
    hi = 1.0 if x == n else float(stats.beta.ppf(1 - alpha / 2, x + 1, n - x))
    return lo, hi
