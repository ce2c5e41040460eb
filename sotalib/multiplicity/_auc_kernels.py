"""Numba kernels of the AUC simulation (:mod:`sotalib.multiplicity._auc_simulate`).

The multinomial method of drawing the Mann-Whitney ``U`` of one classifier
exactly in distribution, with binomials drawn by inversion (common random
numbers), the Bernstein screening of the maximum over many classifiers, and
the maximum over classifiers correlated with a reference classifier.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from .._numba import njit

__all__ = []


@njit(cache=True)
def _binom_inv(u, n, p, logfact):
    """Smallest ``k`` with ``P(Bin(n, p) <= k) >= u``: the binomial quantile function.

    Inversion of the cdf, so the draw is exactly ``Bin(n, p)`` for uniform
    ``u`` and it is non-decreasing in both ``u`` and ``p`` (common random
    numbers give monotone couplings).  The cdf is accumulated from 10
    standard deviations below the mean (the mass below is under ``1e-20``),
    costing ``O(sd)`` steps; ``p > 1/2`` uses the mirror image.  ``logfact[k]``
    is ``log k!`` for ``k = 0, ..., n``.
    """
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - _binom_inv(1.0 - u, n, 1.0 - p, logfact)
    mean = n * p
    sd = math.sqrt(mean * (1.0 - p))
    k = int(mean - 10.0 * sd - 1.0)
    lq = math.log1p(-p)
    if k <= 0:
        k = 0
        pmf = math.exp(n * lq)
    else:
        pmf = math.exp(logfact[n] - logfact[k] - logfact[n - k] + k * math.log(p) + (n - k) * lq)
    cdf = pmf
    r = p / (1.0 - p)
    while cdf < u and k < n:
        pmf *= (n - k) / (k + 1.0) * r
        k += 1
        cdf += pmf
        if pmf < 1e-300 and k > mean:  # rounding: u above the accumulated total
            break
    return k


@njit(cache=True)
def _phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@njit(cache=True)
def _sorted_q(z, mu, sigma_pos, buf, qs):
    """Sort the positives' noise ``z`` into ``buf``; ``qs[i] = Phi(mu + sigma_pos buf[i])``.

    ``qs[i]`` is the probability that a negative ``N(0, 1)`` falls below the
    ``i``-th lowest positive.  Insertion sort: ``n_pos`` is small, and it
    needs no allocation.
    """
    n_pos = z.size
    if n_pos > 64:
        buf[:] = np.sort(z)
    else:
        for i in range(n_pos):
            v = z[i]
            j = i - 1
            while j >= 0 and buf[j] > v:
                buf[j + 1] = buf[j]
                j -= 1
            buf[j + 1] = v
    for i in range(n_pos):
        qs[i] = _phi(mu + sigma_pos * buf[i])


@njit(cache=True)
def _u_from_q(qs, uu, n_neg, logfact):
    """Mann-Whitney ``U`` given the sorted ``qs`` (exact in distribution).

    The negatives fall into the intervals between consecutive positives by a
    multinomial, drawn as conditional binomials by inversion from the
    uniforms ``uu``.  Interval ``i`` lies below positive ``i`` and above
    positive ``i - 1``; its ``M_i`` negatives are beaten by the ``n_pos - i``
    positives ``i, ..., n_pos - 1`` (the interval above all positives counts 0).
    """
    n_pos = qs.size
    u = 0
    rem = n_neg
    q_prev = 0.0
    for i in range(n_pos):
        if rem == 0:
            break
        q = qs[i]
        mass_left = 1.0 - q_prev
        pc = (q - q_prev) / mass_left if mass_left > 0.0 else 1.0
        if pc < 0.0:
            pc = 0.0
        mi = _binom_inv(uu[i], rem, pc, logfact)
        rem -= mi
        u += mi * (n_pos - i)
        q_prev = q
    return u


@njit(cache=True)
def _u_from_draws(z, uu, mu, sigma_pos, n_neg, logfact, buf, qs):
    """``U`` of one classifier from ``n_pos`` standard normals ``z`` and ``n_pos`` uniforms ``uu``.

    Positives score ``mu + sigma_pos z``, negatives ``N(0, 1)``; ``buf`` and
    ``qs`` are scratch arrays of length ``n_pos``.
    """
    _sorted_q(z, mu, sigma_pos, buf, qs)
    return _u_from_q(qs, uu, n_neg, logfact)


@njit(parallel=True, cache=True)
def _u_batch(z, uu, mus, sigma_pos, n_neg, logfact):
    """``U`` for a batch of classifiers: ``z``, ``uu`` (k, n_pos); ``mus`` (k,)."""
    k, n_pos = z.shape
    out = np.empty(k, dtype=np.int64)
    for r in nb.prange(k):
        buf = np.empty(n_pos)
        qs = np.empty(n_pos)
        out[r] = _u_from_draws(z[r], uu[r], mus[r], sigma_pos, n_neg, logfact, buf, qs)
    return out


@njit(cache=True)
def _bernstein_margin(n_neg, var, log_inv_tol):
    """``t`` with ``exp(-n t^2 / (2 (var + t / 3))) = tol``: Bernstein's bound for a mean of ``n`` [0, 1] terms."""
    a = 2.0 * log_inv_tol / 3.0
    return (a + math.sqrt(a * a + 8.0 * n_neg * log_inv_tol * var)) / (2.0 * n_neg)


@njit(cache=True)
def _conditional_var(qs):
    """Variance of ``K / n_pos`` for one negative, given the positives (sorted ``qs``).

    ``K``, the number of positives above a negative, is ``n_pos - i`` with
    probability ``q_i - q_{i-1}`` (and 0 above all positives).
    """
    n_pos = qs.size
    m1 = 0.0
    m2 = 0.0
    q_prev = 0.0
    for i in range(n_pos):
        w = (n_pos - i) / n_pos
        d = qs[i] - q_prev
        m1 += d * w
        m2 += d * w * w
        q_prev = qs[i]
    return max(m2 - m1 * m1, 0.0)


@njit(parallel=True, cache=True)
def _max_u_batch(z, uu, mus, sigma_pos, n_neg, logfact, log_inv_tol):
    """Per replication, the maximum ``U`` over classifiers: ``z``, ``uu`` (reps, m, n_pos).

    Given its positives, a classifier's AUC is the mean of ``n_neg`` iid
    terms in ``[0, 1]`` (the share of positives above each negative) with
    known mean and variance.  Classifiers are visited in decreasing order of
    that conditional mean; one is skipped when Bernstein's inequality bounds
    its chance of beating the best ``U`` so far by ``exp(-log_inv_tol)``
    (first with the variance bound ``mean (1 - mean)``, then with the exact
    conditional variance), and otherwise its negatives are drawn.  The
    maximum is exact in distribution up to ``m exp(-log_inv_tol)`` per
    replication, and equal to the unscreened maximum unless that rare event
    happens.
    """
    reps, m, n_pos = z.shape
    out = np.empty(reps, dtype=np.int64)
    denom = n_pos * n_neg
    for r in nb.prange(reps):
        cmean = np.empty(m)
        buf = np.empty(n_pos)
        qs = np.empty(n_pos)
        for j in range(m):
            acc = 0.0
            for i in range(n_pos):
                acc += _phi(mus[j] + sigma_pos * z[r, j, i])
            cmean[j] = acc / n_pos
        order = np.argsort(-cmean)
        best = -1
        for jj in range(m):
            j = order[jj]
            if best >= 0:
                t = _bernstein_margin(n_neg, cmean[j] * (1.0 - cmean[j]), log_inv_tol)
                if (cmean[j] + t) * denom < best:
                    continue
            _sorted_q(z[r, j], mus[j], sigma_pos, buf, qs)
            if best >= 0:
                t = _bernstein_margin(n_neg, _conditional_var(qs), log_inv_tol)
                if (cmean[j] + t) * denom < best:
                    continue
            uj = _u_from_q(qs, uu[r, j], n_neg, logfact)
            if uj > best:
                best = uj
        out[r] = best
    return out


@njit(parallel=True, cache=True)
def _max_u_correlated(z0, w0, e_pos, e_neg, mus, sigma_pos, rho):
    """Maximum ``U`` over classifiers correlated with a hidden reference (one replication).

    ``z0`` (n_pos,), ``w0`` (n_neg,): the reference classifier's standardized
    scores; ``e_pos`` (m, n_pos), ``e_neg`` (m, n_neg): each classifier's own
    noise.  Classifier ``j`` scores positive ``i`` as
    ``mus[j] + sigma_pos (rho z0_i + sqrt(1 - rho^2) e_ji)`` and negative ``k``
    as ``rho w0_k + sqrt(1 - rho^2) e_jk``.  ``U`` counts, for every negative,
    the positives above it (binary search in the sorted positives).
    """
    m, n_pos = e_pos.shape
    n_neg = e_neg.shape[1]
    c = math.sqrt(max(1.0 - rho * rho, 0.0))
    us = np.empty(m, dtype=np.int64)
    for j in nb.prange(m):
        pos = np.empty(n_pos)
        for i in range(n_pos):
            pos[i] = mus[j] + sigma_pos * (rho * z0[i] + c * e_pos[j, i])
        pos.sort()
        u = 0
        for k in range(n_neg):
            w = rho * w0[k] + c * e_neg[j, k]
            # number of positives <= w
            lo = 0
            hi = n_pos
            while lo < hi:
                mid = (lo + hi) // 2
                if pos[mid] <= w:
                    lo = mid + 1
                else:
                    hi = mid
            u += n_pos - lo
        us[j] = u
    return us.max()
