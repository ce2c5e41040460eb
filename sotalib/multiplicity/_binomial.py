"""One classifier on n test items: the binomial distribution of its successes.

A classifier with probability of success ``theta`` makes ``X ~ B(n, theta)``
correct predictions; its accuracy is ``theta_hat = X / n``.  The functions here
are the single-classifier building blocks of the book (Section 3 of
Møllersen & Holsbø): tail probabilities that keep their digits in both tails,
the exact (Clopper--Pearson) confidence interval, and the conversion between
accuracies and counts.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .._validate import check_int, check_probability

__all__ = [
    "log_cdf",
    "log_sf",
    "count_at_least",
    "prob_at_least",
    "clopper_pearson",
]


def log_cdf(x, n: int, theta: float) -> np.ndarray:
    """``log P(X <= x)`` for ``X ~ B(n, theta)``, accurate in both tails.

    Where ``P(X <= x)`` is close to one the value is computed as
    ``log1p(-P(X > x))`` so that, raised to a power ``m`` as in Eq. 2, the
    result keeps its digits (``P(X <= x)**m = exp(m * log_cdf)``).
    """
    x = np.asarray(x, dtype=float)
    cdf = stats.binom.cdf(x, n, theta)
    sf = stats.binom.sf(x, n, theta)
    with np.errstate(divide="ignore"):
        return np.where(cdf < 0.5, np.log(cdf), np.log1p(-sf))


def log_sf(x, n: int, theta: float) -> np.ndarray:
    """``log P(X > x)`` for ``X ~ B(n, theta)``, accurate in both tails."""
    x = np.asarray(x, dtype=float)
    cdf = stats.binom.cdf(x, n, theta)
    sf = stats.binom.sf(x, n, theta)
    with np.errstate(divide="ignore"):
        return np.where(sf < 0.5, np.log(sf), np.log1p(-cdf))


def count_at_least(t: float, n: int) -> int:
    """Smallest count ``k`` with ``k / n >= t``.

    Accuracies are usually given as decimals (0.75, 0.9173) whose product with
    ``n`` is an integer up to floating-point error; such products are rounded
    rather than pushed up to the next integer.
    """
    k = t * n
    kr = round(k)
    if abs(k - kr) <= 1e-9 * max(1.0, abs(k)):
        return int(kr)
    return int(math.ceil(k))


def prob_at_least(t: float, n: int, theta: float) -> float:
    """``P(theta_hat >= t)`` for one classifier: ``P(X >= ceil(t n))``.

    This is also ``P(theta_hat_{m+1} >= t)`` of Section 3.4 for a new
    classifier with success probability ``theta``.

    Examples
    --------
    The coin-flip classifier of Section 3.2: 15 or more correct of 20 fair flips.

    >>> round(prob_at_least(0.75, 20, 0.5), 5)
    0.02069
    """
    n = check_int("n", n, low=1)
    theta = check_probability("theta", theta)
    k = count_at_least(float(t), n)
    return float(stats.binom.sf(k - 1, n, theta))


def clopper_pearson(x: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact two-sided ``1 - alpha`` confidence interval for ``theta`` from ``x`` successes.

    The Clopper--Pearson interval: the interval the paper reports for a single
    accuracy, e.g. ``(0.8887, 0.9105)`` for 2,700 of 3,000.

    >>> lo, hi = clopper_pearson(2700, 3000)
    >>> round(lo, 4), round(hi, 4)
    (0.8887, 0.9105)
    """
    n = check_int("n", n, low=1)
    x = check_int("x", x, low=0, high=n)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    lo = 0.0 if x == 0 else float(stats.beta.ppf(alpha / 2, x, n - x + 1))
    hi = 1.0 if x == n else float(stats.beta.ppf(1 - alpha / 2, x + 1, n - x))
    return lo, hi
