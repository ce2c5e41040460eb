"""Numba kernels of :mod:`sotalib.multiplicity._max_dependent` (imported lazily: importing ``_dependent`` does not import Numba).

* :func:`_max_kernel` and its helpers: the exact distribution of the maximum
  (see the docstring of ``_dependent`` for the model and the numerics); the
  pure-NumPy engine :mod:`sotalib.multiplicity._max_dependent_numpy` computes the
  same thing for small and moderate problems;
* :func:`_simulate_kernel`: the hierarchical Monte Carlo model.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._numba import njit


@njit(cache=True)
def _binom_window(k, p, eps, out):
    """Pmf of B(k, p) on the window where it exceeds ``eps`` times its mode.

    Writes the pmf to ``out[0:L]`` and returns ``(lo, L)``.
    """
    if k == 0 or p <= 0.0:
        out[0] = 1.0
        return 0, 1
    if p >= 1.0:
        out[0] = 1.0
        return k, 1
    q = 1.0 - p
    mode = int(math.floor((k + 1) * p))
    if mode > k:
        mode = k
    r = p / q
    # go up from the mode
    cap = out.size
    hi = mode
    v = 1.0
    while hi < k:
        v = v * (k - hi) / (hi + 1) * r
        if v < eps:
            break
        hi += 1
    lo = mode
    v = 1.0
    while lo > 0:
        v = v * lo / ((k - lo + 1) * r)
        if v < eps:
            break
        lo -= 1
    L = hi - lo + 1
    if L > cap:
        raise ValueError("binomial window longer than its buffer")
    # fill from the mode outwards
    out[mode - lo] = 1.0
    for a in range(mode, hi):
        out[a + 1 - lo] = out[a - lo] * (k - a) / (a + 1) * r
    for a in range(mode, lo, -1):
        out[a - 1 - lo] = out[a - lo] * a / ((k - a + 1) * r)
    s = 0.0
    for i in range(L):
        s += out[i]
    for i in range(L):
        out[i] /= s
    return lo, L


@njit(cache=True)
def _conv_cdf_sf(x, upper, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
    """Cdf and sf at ``x`` of A + B from the windows of A and B.

    Only the side named by ``upper`` is summed (the survival function
    ``P(A + B > x)`` if true, else the cdf), as a sum of positive terms that
    keeps its relative digits; the other is one minus it.  Callers pick the
    side that is below about one half.
    """
    ahi = alo + aL - 1
    bhi = blo + bL - 1
    # a with x - a > bhi: P(B <= x - a) = 1;  a with x - a < blo: P(B > x - a) = 1
    a_mid_lo = max(alo, x - bhi)
    a_mid_hi = min(ahi, x - blo)
    acc = 0.0
    if upper:
        if a_mid_hi < ahi:
            acc += suf_a[max(a_mid_hi + 1, alo) - alo]
        for a in range(a_mid_lo, a_mid_hi + 1):
            acc += pa[a - alo] * sf_b[x - a - blo]
        return 1.0 - acc, acc
    if a_mid_lo > alo:
        acc += pre_a[min(a_mid_lo, ahi + 1) - 1 - alo]
    for a in range(a_mid_lo, a_mid_hi + 1):
        acc += pa[a - alo] * cdf_b[x - a - blo]
    return acc, 1.0 - acc


@njit(cache=True)
def _log_factor(x, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
    """``m log G(x)`` (mixture, ``m_or_zero = m``) or ``sum_i w_i log P_i(x)`` (product, 0)."""
    if m_or_zero > 0:
        gc = 0.0
        gs = 0.0
        for i in range(nq):
            c, s = _conv_cdf_sf(
                x, x >= mu[i], alo[i], aL[i], pa[i], pre_a[i], suf_a[i], blo[i], bL[i], cdf_b[i], sf_b[i]
            )
            gc += w[i] * c
            gs += w[i] * s
        if gc < 0.5:
            if gc <= 0.0:
                return -np.inf
            return m_or_zero * math.log(gc)
        return m_or_zero * math.log1p(-min(max(gs, 0.0), 1.0))
    tot = 0.0
    for i in range(nq):
        up = x >= mu[i]
        c, s = _conv_cdf_sf(x, up, alo[i], aL[i], pa[i], pre_a[i], suf_a[i], blo[i], bL[i], cdf_b[i], sf_b[i])
        if up:
            tot += w[i] * math.log1p(-min(max(s, 0.0), 1.0))
        else:
            if c <= 0.0:
                return -np.inf
            tot += w[i] * math.log(c)
    return tot


@njit(cache=True)
def _prepare(n, k0, nq, p1, p0, eps, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
    """Windows, prefix/suffix sums for A ~ B(k0, p1_i), B ~ B(n-k0, p0_i); returns the joint support."""
    smin = n
    smax = 0
    for i in range(nq):
        mu[i] = k0 * p1[i] + (n - k0) * p0[i]
        lo, L = _binom_window(k0, p1[i], eps, pa[i])
        alo[i] = lo
        aL[i] = L
        acc = 0.0
        for t in range(L):
            acc += pa[i, t]
            pre_a[i, t] = acc
        acc = 0.0
        for t in range(L - 1, -1, -1):
            acc += pa[i, t]
            suf_a[i, t] = acc
        lo, L = _binom_window(n - k0, p0[i], eps, sf_b[i])  # pmf into sf_b temporarily
        blo[i] = lo
        bL[i] = L
        acc = 0.0
        for t in range(L):
            acc += sf_b[i, t]
            cdf_b[i, t] = acc
        acc = 0.0
        for t in range(L - 1, -1, -1):
            pm = sf_b[i, t]
            sf_b[i, t] = acc  # P(B > blo + t)
            acc += pm
        lo_s = alo[i] + blo[i]
        hi_s = alo[i] + aL[i] - 1 + blo[i] + bL[i] - 1
        if lo_s < smin:
            smin = lo_s
        if hi_s > smax:
            smax = hi_s
    return smin, smax


@njit(cache=True)
def _pred(kind, x, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
    lf = _log_factor(x, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b)
    if kind == 0:
        return lf > log_feps
    return -math.expm1(lf) <= math.exp(log_feps)


@njit(cache=True)
def _search(kind, hint, lo, hi, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
    """Smallest x in (lo, hi] with the monotone predicate true (true at hi, false at lo).

    Exponential search outwards from ``hint`` (the neighbouring k0's answer), then bisection.
    """
    h = min(max(hint, lo + 1), hi)
    if _pred(kind, h, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
        b_ = h
        step = 1
        a_ = max(h - step, lo)
        while a_ > lo and _pred(
            kind, a_, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b
        ):
            b_ = a_
            step *= 2
            a_ = max(b_ - step, lo)
    else:
        a_ = h
        step = 1
        b_ = min(h + step, hi)
        while b_ < hi and not _pred(
            kind, b_, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b
        ):
            a_ = b_
            step *= 2
            b_ = min(a_ + step, hi)
    while b_ - a_ > 1:
        mid = (a_ + b_) // 2
        if _pred(kind, mid, log_feps, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b):
            b_ = mid
        else:
            a_ = mid
    return b_


@njit(cache=True)
def _scratch(nq, maxlen):
    """Per-thread work arrays of :func:`_prepare` for ``nq`` quadrature nodes."""
    return (
        np.empty(nq, np.int64),
        np.empty(nq, np.int64),
        np.empty(nq, np.int64),
        np.empty(nq, np.int64),
        np.empty(nq),
        np.empty((nq, maxlen)),
        np.empty((nq, maxlen)),
        np.empty((nq, maxlen)),
        np.empty((nq, maxlen)),
        np.empty((nq, maxlen)),
    )


@njit(cache=True, parallel=True)
def _max_kernel(n, m_or_zero, k0s, pk0, p1s, p0s, w, eps, feps, maxlen, nblocks):
    """F(x) and 1 - F(x) of the maximum, summed over k0 (see the module docstring).

    Blocks of consecutive ``k0`` run in parallel.  For each ``k0`` the factor
    ``G(x | k0)^m`` is evaluated only on ``[lo_k, hi_k]``, where it lies in
    ``(e_k, 1 - e_k)`` with ``e_k = min(feps / P(k0), 1/4)`` (found by
    search); below it counts as 0, above as 1, so each ``k0`` errs by at most
    ``feps`` in ``F`` and in ``1 - F``.
    Returns ``(xlo, F, S)`` on ``[xlo, xhi]``.
    """
    nk = k0s.size
    nq = w.size
    lo_k = np.empty(nk, np.int64)
    hi_k = np.empty(nk, np.int64)
    log_feps = math.log(feps)
    bsize = (nk + nblocks - 1) // nblocks
    # pass 1: per-k0 windows
    for blk in numba.prange(nblocks):
        alo, aL, blo, bL, mu, pa, pre_a, suf_a, cdf_b, sf_b = _scratch(nq, maxlen)
        for t in range(blk * bsize, min(nk, (blk + 1) * bsize)):
            # the factor matters only where P(k0) * factor (or P(k0) * (1 - factor)) exceeds feps
            lfe = min(log_feps - math.log(max(pk0[t], 1e-300)), math.log(0.25))
            smin, smax = _prepare(n, k0s[t], nq, p1s, p0s, eps, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b)
            if t == blk * bsize:
                lo_k[t] = _search(
                    0,
                    smin - 1,
                    smin - 1,
                    smax,
                    lfe,
                    m_or_zero,
                    nq,
                    w,
                    mu,
                    alo,
                    aL,
                    pa,
                    pre_a,
                    suf_a,
                    blo,
                    bL,
                    cdf_b,
                    sf_b,
                )
                hi_k[t] = _search(
                    1,
                    lo_k[t],
                    lo_k[t] - 1,
                    smax,
                    lfe,
                    m_or_zero,
                    nq,
                    w,
                    mu,
                    alo,
                    aL,
                    pa,
                    pre_a,
                    suf_a,
                    blo,
                    bL,
                    cdf_b,
                    sf_b,
                )
            else:
                lo_k[t] = _search(
                    0,
                    lo_k[t - 1],
                    smin - 1,
                    smax,
                    lfe,
                    m_or_zero,
                    nq,
                    w,
                    mu,
                    alo,
                    aL,
                    pa,
                    pre_a,
                    suf_a,
                    blo,
                    bL,
                    cdf_b,
                    sf_b,
                )
                hi_k[t] = _search(
                    1,
                    max(hi_k[t - 1], lo_k[t]),
                    lo_k[t] - 1,
                    smax,
                    lfe,
                    m_or_zero,
                    nq,
                    w,
                    mu,
                    alo,
                    aL,
                    pa,
                    pre_a,
                    suf_a,
                    blo,
                    bL,
                    cdf_b,
                    sf_b,
                )
    # ragged storage of the factors on each k0's window
    off = np.empty(nk + 1, np.int64)
    off[0] = 0
    for t in range(nk):
        off[t + 1] = off[t] + hi_k[t] - lo_k[t] + 1
    lfac = np.empty(off[nk])
    for blk in numba.prange(nblocks):
        alo, aL, blo, bL, mu, pa, pre_a, suf_a, cdf_b, sf_b = _scratch(nq, maxlen)
        for t in range(blk * bsize, min(nk, (blk + 1) * bsize)):
            _prepare(n, k0s[t], nq, p1s, p0s, eps, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b)
            for x in range(lo_k[t], hi_k[t] + 1):
                lfac[off[t] + x - lo_k[t]] = _log_factor(
                    x, m_or_zero, nq, w, mu, alo, aL, pa, pre_a, suf_a, blo, bL, cdf_b, sf_b
                )
    xlo = lo_k.min()
    xhi = hi_k.max()
    W = xhi - xlo + 1
    F = np.zeros(W)
    S = np.zeros(W)
    for t in range(nk):
        pk = pk0[t]
        for x in range(xlo, xhi + 1):
            if x < lo_k[t]:
                S[x - xlo] += pk
            elif x > hi_k[t]:
                F[x - xlo] += pk
            else:
                lf = lfac[off[t] + x - lo_k[t]]
                F[x - xlo] += pk * math.exp(lf)
                S[x - xlo] += pk * -math.expm1(lf)
    return xlo, F, S


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _simulate_kernel(rng, n, m, reps, kind, a, b, values, cumw, rho, theta0, fixed_k0, out):
    """Hierarchical model: draw Theta, then K_0 (or fix it), then each X_j as two binomials."""
    c = 0.0
    if rho != 0.0:
        c = rho * math.sqrt(theta0 * (1.0 - theta0))
    for r in range(reps):
        if rho == 0.0:
            k0 = n
        elif fixed_k0 >= 0:
            k0 = fixed_k0
        else:
            k0 = rng.binomial(n, theta0)
        best = -1
        for j in range(m):
            if kind == 0:
                th = values[j]
            elif kind == 1:
                th = a + (b - a) * rng.random()
            else:
                u = rng.random()
                i = np.searchsorted(cumw, u, side="right")
                if i >= values.size:
                    i = values.size - 1
                th = values[i]
            if rho == 0.0:
                p1 = th
                p0 = th
            else:
                s = c * math.sqrt(max(th * (1.0 - th), 0.0))
                p1 = min(max((s + th * theta0) / theta0, 0.0), 1.0)
                p0 = min(max((-s + th * (1.0 - theta0)) / (1.0 - theta0), 0.0), 1.0)
            x = 0
            if k0 > 0:
                x += rng.binomial(k0, p1)
            if n - k0 > 0:
                x += rng.binomial(n - k0, p0)
            if x > best:
                best = x
        out[r] = best
