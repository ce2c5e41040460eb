"""High-precision references computed with mpmath (independent of scipy)."""

from __future__ import annotations

import mpmath as mp

mp.mp.dps = 40


def binom_pmf(k: int, n: int, theta) -> mp.mpf:
    theta = mp.mpf(theta)
    if theta == 0:
        return mp.mpf(1) if k == 0 else mp.mpf(0)
    if theta == 1:
        return mp.mpf(1) if k == n else mp.mpf(0)
    return mp.exp(
        mp.loggamma(n + 1)
        - mp.loggamma(k + 1)
        - mp.loggamma(n - k + 1)
        + k * mp.log(theta)
        + (n - k) * mp.log1p(-theta)
    )


def binom_sf(x: int, n: int, theta) -> mp.mpf:
    """P(X > x) by summing the upper tail term by term until negligible at 40 digits."""
    if x >= n:
        return mp.mpf(0)
    if x < 0:
        return mp.mpf(1)
    theta = mp.mpf(theta)
    mode = int((n + 1) * theta)
    if x + 1 <= mode:  # sum the lower side instead: sf = 1 - cdf
        return 1 - binom_cdf(x, n, theta)
    k = x + 1
    term = binom_pmf(k, n, theta)
    total = mp.mpf(0)
    ratio = theta / (1 - theta) if theta < 1 else mp.inf
    while k <= n:
        total += term
        if term < total * mp.mpf(10) ** (-42):
            break
        term = term * (n - k) / (k + 1) * ratio
        k += 1
    return total


def binom_cdf(x: int, n: int, theta) -> mp.mpf:
    """P(X <= x) by summing the lower tail downwards until negligible."""
    if x >= n:
        return mp.mpf(1)
    if x < 0:
        return mp.mpf(0)
    theta = mp.mpf(theta)
    mode = int((n + 1) * theta)
    if x >= mode:
        return 1 - binom_sf(x, n, theta)
    k = x
    term = binom_pmf(k, n, theta)
    total = mp.mpf(0)
    ratio = (1 - theta) / theta if theta > 0 else mp.inf
    while k >= 0:
        total += term
        if term < total * mp.mpf(10) ** (-42):
            break
        term = term * k / (n - k + 1) * ratio
        k -= 1
    return total


def max_cdf(x: int, n: int, m: int, theta) -> mp.mpf:
    """P(max of m iid B(n, theta) <= x) = P_x^m."""
    return binom_cdf(x, n, theta) ** m


def max_sf(x: int, n: int, m: int, theta) -> mp.mpf:
    """1 - P_x^m, computed at 40 digits (no cancellation at this precision for our cases)."""
    return -mp.expm1(m * mp.log1p(-binom_sf(x, n, theta)))
