r"""Exact distribution of the sample maximum for a leaderboard-shaped ``P(theta)``.

The dependent, non-identical model of Section 4.3 with ``P(theta)`` the
discrete distribution of a leaderboard (values ``v_i`` with weights ``w_i``),
``m`` classifiers drawn iid from it, and a common reference classifier ``Y_0``
with ``P(Y_0 = 1) = theta0`` and ``corr(Y_0, Y_j) = rho`` (Eqs. 6-7).  Given
the number ``K`` of items that ``Y_0`` gets right, the classifiers are
independent and ``X_j | K = A + B`` with ``A ~ B(K, p1)``, ``B ~ B(n - K, p0)``,
so

.. math:: P(\max_j X_j \le x) = \sum_K P(K) \Big(1 - \sum_i w_i P(A_i + B_i > x \mid K)\Big)^m .

This module is the specialised fast path used by the SOTA estimators, which
evaluate the distribution dozens of times while solving for a shrinkage
weight; the general engine of the non-iid chapter computes the same numbers
(the tests cross-check the two).  Only the window of counts ``x`` where the
maximum lives is computed, and each classifier value only over the counts
its sum can reach, so the thousands of low-scoring teams of a Kaggle
leaderboard cost nothing.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from .._interrupt import interruptible
from .._numba import njit
from ._dependence_model import conditional_probs
from ._max_iid import TAIL, MaxDistribution

#: Standard deviations kept on each side of a binomial's mean (tail < 1e-15).
_WIDTH = 8.0


@njit(cache=True)
def _binom_logpmf(k, n, p):
    if p <= 0.0:
        return 0.0 if k == 0 else -np.inf
    if p >= 1.0:
        return 0.0 if k == n else -np.inf
    return (
        math.lgamma(n + 1.0)
        - math.lgamma(k + 1.0)
        - math.lgamma(n - k + 1.0)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


@njit(cache=True)
def _window(n, p):
    mu = n * p
    sd = math.sqrt(n * p * (1.0 - p))
    lo = max(0, int(math.floor(mu - _WIDTH * sd - 3.0)))
    hi = min(n, int(math.ceil(mu + _WIDTH * sd + 3.0)))
    return lo, hi


@njit(cache=True)
def _binom_pmf_window(n, p, lo, hi):
    out = np.empty(hi - lo + 1)
    for k in range(lo, hi + 1):
        out[k - lo] = math.exp(_binom_logpmf(k, n, p))
    return out


@njit(cache=True)
def _remove_bernoulli(f, p, g):
    """G such that f = g * (1 - p + p z): the pmf of S - Y with Y ~ Bernoulli(p) independent."""
    L = f.size
    q = 1.0 - p
    if p <= 0.0:
        g[:] = f
    elif p <= 0.5:  # forward recursion, errors shrink by p / q per step
        prev = 0.0
        for k in range(L):
            prev = max((f[k] - p * prev) / q, 0.0)
            g[k] = prev
    else:  # backward recursion, errors shrink by q / p per step
        nxt = 0.0
        g[L - 1] = 0.0
        for k in range(L - 1, 0, -1):
            nxt = max((f[k] - q * nxt) / p, 0.0)
            g[k - 1] = nxt


@njit(cache=True)
def _add_bernoulli(g, p, f):
    f[0] = (1.0 - p) * g[0]
    for k in range(1, g.size):
        f[k] = (1.0 - p) * g[k] + p * g[k - 1]


@njit(cache=True)
def _accumulate(sf, i, x0, top, n, ks, p1, p0, w):
    """Add w_i P(S_iK > x) to sf[K, x] for every K of ks and x of the window."""
    nk = ks.size
    k_first, k_last = ks[0], ks[nk - 1]
    a_lo, a_hi = _window(k_first, p1[i])
    b_lo, b_hi = _window(n - k_first, p0[i])
    a_lo2, a_hi2 = _window(k_last, p1[i])
    b_lo2, b_hi2 = _window(n - k_last, p0[i])
    s_lo = min(a_lo + b_lo, a_lo2 + b_lo2)
    s_hi = max(a_hi + b_hi, a_hi2 + b_hi2)
    if s_hi <= x0:
        return  # this value cannot reach the window
    L = s_hi - s_lo + 1
    down = p1[i] * (1.0 - p1[i]) <= p0[i] * (1.0 - p0[i])
    k_start = k_last if down else k_first
    al, ah = _window(k_start, p1[i])
    bl, bh = _window(n - k_start, p0[i])
    f = np.zeros(L)
    pa = _binom_pmf_window(k_start, p1[i], al, ah)
    pb = _binom_pmf_window(n - k_start, p0[i], bl, bh)
    for a in range(pa.size):
        for b in range(pb.size):
            f[al + bl + a + b - s_lo] += pa[a] * pb[b]
    g = np.empty(L)
    for step in range(nk):
        ik = nk - 1 - step if down else step
        if step > 0:
            if down:
                _remove_bernoulli(f, p1[i], g)
                _add_bernoulli(g, p0[i], f)
            else:
                _remove_bernoulli(f, p0[i], g)
                _add_bernoulli(g, p1[i], f)
        # upper tail P(S > x) for the window's x
        acc = 0.0
        for k in range(L - 1, -1, -1):
            acc += f[k]  # acc = P(S >= s_lo + k) = P(S > s_lo + k - 1)
            x = s_lo + k - 1
            if x0 <= x <= top:
                sf[ik, x - x0] += w[i] * acc
        for x in range(x0, min(s_lo - 1, top + 1)):
            sf[ik, x - x0] += w[i] * acc


@njit(cache=True, parallel=True)
def _max_log_cdf(x0, nx, n, m, ks, log_pk, p1, p0, w, nthreads=1):
    """Log P(max_j X_j <= x) for x = x0, ..., x0 + nx - 1 (see module docstring).

    For each value ``i`` the pmf of ``S_K = A + B`` is built once by direct
    convolution at one end of the range of ``K`` and then carried exactly
    from one ``K`` to the next by swapping one item: removing a
    ``Bernoulli(p1)`` and adding a ``Bernoulli(p0)`` (``K`` down) or the
    reverse (``K`` up).  Of the two directions we take the one whose
    swap does not amplify rounding errors at any frequency: ``|q + p e^{iw}|^2
    = 1 - 2pq(1 - cos w)``, so removing the Bernoulli with the smaller ``p q``
    is a contraction.  ``ks`` must be consecutive integers.
    """
    nk = ks.size
    top = x0 + nx - 1
    sf_t = np.zeros((nthreads, nk, nx))  # per-thread sums of w_i P(S_iK > x)
    for t_id in nb.prange(nthreads):
        for i in range(t_id, w.size, nthreads):
            _accumulate(sf_t[t_id], i, x0, top, n, ks, p1, p0, w)
    sf = sf_t.sum(axis=0)
    out = np.empty(nx)
    terms = np.empty(nk)
    for t in range(nx):
        mx = -np.inf
        for ik in range(nk):
            s = min(sf[ik, t], 1.0)
            terms[ik] = log_pk[ik] + (m * math.log1p(-s) if s < 1.0 else -np.inf)
            if terms[ik] > mx:
                mx = terms[ik]
        if mx == -np.inf:
            out[t] = -np.inf
            continue
        acc = 0.0
        for ik in range(nk):
            acc += math.exp(terms[ik] - mx)
        out[t] = mx + math.log(acc)
    return out


# ---------------------------------------------------------------------------
# The swap engine: one Bernoulli exchanged per step of K, memory bounded
# ---------------------------------------------------------------------------


@njit(cache=True)
def _window_w(n, p, width):
    """``[lo, hi]``: mean +- ``width`` standard deviations (+3) of ``B(n, p)``, clipped to ``[0, n]``."""
    mu = n * p
    sd = math.sqrt(n * p * (1.0 - p))
    lo = max(0, int(math.floor(mu - width * sd - 3.0)))
    hi = min(n, int(math.ceil(mu + width * sd + 3.0)))
    return lo, hi


@njit(cache=True)
def _swap_regions(x0, n, ks, p1, p0, width, c, top, closed, up):
    """Per value: the positions ``[c_i, top_i]`` whose pmf is carried from one ``K`` to the next.

    The first ``K`` is the largest; each step removes a ``Bernoulli(p1)`` and adds a
    ``Bernoulli(p0)``.  With ``p1 > 1/2`` the removal runs downwards from the top
    (errors shrink by ``q1/p1`` per position, relative digits kept in the upper
    tail) and needs nothing below the position it computes, so only the positions
    from ``x0`` up are carried (``closed``).  Otherwise the removal runs upwards
    and the whole support is carried.  A swap is stable only if the removed
    Bernoulli has the smaller ``p q`` (:func:`swap_stable`); values where
    ``p1 q1 > p0 q0`` walk upwards instead (``up``), from a fresh convolution at
    the lowest ``K`` of each block.  ``top = -1`` marks values whose support never
    reaches ``x0``.
    """
    nk = ks.size
    nv = p1.size
    for i in range(nv):
        a_lo, a_hi = _window_w(ks[0], p1[i], width)
        b_lo, b_hi = _window_w(n - ks[0], p0[i], width)
        a_lo2, a_hi2 = _window_w(ks[nk - 1], p1[i], width)
        b_lo2, b_hi2 = _window_w(n - ks[nk - 1], p0[i], width)
        s_lo = min(a_lo + b_lo, a_lo2 + b_lo2)
        s_hi = max(a_hi + b_hi, a_hi2 + b_hi2)
        top[i] = s_hi
        up[i] = p1[i] * (1.0 - p1[i]) > p0[i] * (1.0 - p0[i]) and nk > 1
        closed[i] = p1[i] > 0.5 and nk > 1 and not up[i]
        c[i] = max(s_lo, x0) if closed[i] else s_lo
        if s_hi <= x0:
            top[i] = -1  # never reaches the window


@njit(cache=True)
def _swap_init(n, k, p1, p0, width, c, f):
    """Pmf of ``B(k, p1) + B(n - k, p0)`` on positions ``c, c + 1, ...`` (``f.size`` of them)."""
    f[:] = 0.0
    al, ah = _window_w(k, p1, width)
    bl, bh = _window_w(n - k, p0, width)
    pa = _binom_pmf_window(k, p1, al, ah)
    pb = _binom_pmf_window(n - k, p0, bl, bh)
    pa /= pa.sum()  # normalised on the windows: lgamma's rounding is a common factor, removed here
    pb /= pb.sum()
    L = f.size
    for a in range(al, ah + 1):
        fa = pa[a - al]
        if fa == 0.0:
            continue
        b0 = max(bl, c - a)
        b1 = min(bh, c + L - 1 - a)
        for b in range(b0, b1 + 1):
            f[a + b - c] += fa * pb[b - bl]


@njit(cache=True)
def _swap_step(f, p1, p0, closed):
    """In place: pmf of ``S`` becomes the pmf of ``S - Bernoulli(p1) + Bernoulli(p0)``.

    ``f[k] = q1 g[k] + p1 g[k-1]`` defines ``g`` (the pmf of ``S - Bernoulli(p1)``);
    it is solved downwards (``closed``, ``p1 > 1/2``) or upwards, and
    ``q0 g[k] + p0 g[k-1]`` written back.
    """
    q1 = 1.0 - p1
    q0 = 1.0 - p0
    L = f.size
    if closed:
        inv = 1.0 / p1
        gk = 0.0  # nothing above the top
        for k in range(L - 1, -1, -1):
            gkm1 = (f[k] - q1 * gk) * inv
            if gkm1 < 0.0:
                gkm1 = 0.0
            f[k] = q0 * gk + p0 * gkm1
            gk = gkm1
    else:
        inv = 1.0 / q1
        gprev = 0.0  # nothing below the bottom of the support
        for k in range(L):
            gk = (f[k] - p1 * gprev) * inv
            if gk < 0.0:
                gk = 0.0
            f[k] = q0 * gk + p0 * gprev
            gprev = gk


@njit(cache=True)
def _closed_step_sf(f, p1, p0, c, x0, xe, wi, row):
    """:func:`_swap_step` (closed) and :func:`_add_sf` in one downward pass over ``f``."""
    q1 = 1.0 - p1
    q0 = 1.0 - p0
    inv = 1.0 / p1
    L = f.size
    k_hi = min(L - 1, xe - c + 1)  # positions whose x = c + k - 1 lies in [x0, xe]
    k_lo = max(0, x0 - c + 1)
    gk = 0.0
    s = 0.0
    for k in range(L - 1, k_hi, -1):
        gkm1 = (f[k] - q1 * gk) * inv
        if gkm1 < 0.0:
            gkm1 = 0.0
        v = q0 * gk + p0 * gkm1
        f[k] = v
        s += v
        gk = gkm1
    for k in range(min(k_hi, L - 1), k_lo - 1, -1):
        gkm1 = (f[k] - q1 * gk) * inv
        if gkm1 < 0.0:
            gkm1 = 0.0
        v = q0 * gk + p0 * gkm1
        f[k] = v
        s += v
        gk = gkm1
        row[c + k - 1 - x0] += wi * s
    for k in range(min(k_lo - 1, L - 1), -1, -1):
        gkm1 = (f[k] - q1 * gk) * inv
        if gkm1 < 0.0:
            gkm1 = 0.0
        v = q0 * gk + p0 * gkm1
        f[k] = v
        s += v
        gk = gkm1
    for x in range(x0, min(c - 1, xe + 1)):
        row[x - x0] += wi * s


@njit(cache=True)
def _closed_step2_sf(f, p1, p0, c, x0, xe, wi, row_a, row_b):
    """Two :func:`_closed_step_sf` in one downward pass: ``row_a`` after the first step, ``row_b`` after the second.

    The second step at position ``k`` needs only the first step's value at ``k``
    (the removal runs downwards), so both run in the same pass: the same
    operations in the same order, hence bitwise the same numbers, with two
    independent chains of dependent arithmetic interleaved and one pass over
    memory instead of two.
    """
    q1 = 1.0 - p1
    q0 = 1.0 - p0
    inv = 1.0 / p1
    L = f.size
    k_hi = min(L - 1, xe - c + 1)  # positions whose x = c + k - 1 lies in [x0, xe]
    k_lo = max(0, x0 - c + 1)
    g1 = 0.0
    g2 = 0.0
    s1 = 0.0
    s2 = 0.0
    for k in range(L - 1, -1, -1):
        g1m = (f[k] - q1 * g1) * inv
        if g1m < 0.0:
            g1m = 0.0
        v1 = q0 * g1 + p0 * g1m
        s1 += v1
        g1 = g1m
        g2m = (v1 - q1 * g2) * inv
        if g2m < 0.0:
            g2m = 0.0
        v2 = q0 * g2 + p0 * g2m
        f[k] = v2
        s2 += v2
        g2 = g2m
        if k_lo <= k <= k_hi:
            row_a[c + k - 1 - x0] += wi * s1
            row_b[c + k - 1 - x0] += wi * s2
    for x in range(x0, min(c - 1, xe + 1)):
        row_a[x - x0] += wi * s1
        row_b[x - x0] += wi * s2


@njit(cache=True)
def _closed_step4_sf(f, p1, p0, c, x0, xe, wi, row_a, row_b, row_c, row_d):
    """Four :func:`_closed_step_sf` in one downward pass (see :func:`_closed_step2_sf`), bitwise the same numbers."""
    q1 = 1.0 - p1
    q0 = 1.0 - p0
    inv = 1.0 / p1
    L = f.size
    k_hi = min(L - 1, xe - c + 1)
    k_lo = max(0, x0 - c + 1)
    g1 = 0.0
    g2 = 0.0
    g3 = 0.0
    g4 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    s4 = 0.0
    for k in range(L - 1, -1, -1):
        g1m = (f[k] - q1 * g1) * inv
        if g1m < 0.0:
            g1m = 0.0
        v1 = q0 * g1 + p0 * g1m
        s1 += v1
        g1 = g1m
        g2m = (v1 - q1 * g2) * inv
        if g2m < 0.0:
            g2m = 0.0
        v2 = q0 * g2 + p0 * g2m
        s2 += v2
        g2 = g2m
        g3m = (v2 - q1 * g3) * inv
        if g3m < 0.0:
            g3m = 0.0
        v3 = q0 * g3 + p0 * g3m
        s3 += v3
        g3 = g3m
        g4m = (v3 - q1 * g4) * inv
        if g4m < 0.0:
            g4m = 0.0
        v4 = q0 * g4 + p0 * g4m
        s4 += v4
        g4 = g4m
        f[k] = v4
        if k_lo <= k <= k_hi:
            r = c + k - 1 - x0
            row_a[r] += wi * s1
            row_b[r] += wi * s2
            row_c[r] += wi * s3
            row_d[r] += wi * s4
    for x in range(x0, min(c - 1, xe + 1)):
        row_a[x - x0] += wi * s1
        row_b[x - x0] += wi * s2
        row_c[x - x0] += wi * s3
        row_d[x - x0] += wi * s4


@njit(cache=True)
def _add_sf(f, c, x0, xe, wi, row):
    """``row[x - x0] += wi * P(S > x)`` for ``x = x0 .. xe``, from the pmf ``f`` on positions ``c, c + 1, ...``."""
    s = 0.0
    for k in range(f.size - 1, -1, -1):
        s += f[k]  # P(S >= c + k) = P(S > c + k - 1)
        x = c + k - 1
        if x <= xe and x >= x0:
            row[x - x0] += wi * s
    for x in range(x0, min(c - 1, xe + 1)):
        row[x - x0] += wi * s


def _swap_max(*args, **kwargs):
    """:func:`_swap_max_kernel`, interruptible by Ctrl-C (:func:`sotalib._interrupt.interruptible`)."""
    return interruptible(_swap_max_kernel, *args, **kwargs)


@njit(cache=True, parallel=True, nogil=True)
def _swap_max_kernel(x0, nx, n, m, ks, pk, p1, p0, w, width, block, nthreads, fused=4):
    """``F(x)`` and ``1 - F(x)`` of ``max_j X_j`` for ``x = x0, ..., x0 + nx - 1``.

    ``F(x) = sum_K P(K) (1 - sum_i w_i P(S_iK > x))^m`` with
    ``S_iK = B(K, p1_i) + B(n - K, p0_i)``.  The pmf of each ``S_iK`` is built once,
    at the largest ``K``, and carried down one ``K`` at a time (:func:`_swap_step`),
    so a value costs ``O(len(ks) * window)`` instead of a convolution per ``K``.
    ``ks`` are consecutive.  Memory: one window per value, plus per-thread sums
    over ``block`` values of ``K`` at a time.  Values carried from the window up
    take ``fused`` (4, 2 or 1) steps of ``K`` per pass (:func:`_closed_step4_sf`),
    with bitwise the same result for every ``fused``.
    """
    nk = ks.size
    nv = w.size
    c = np.empty(nv, np.int64)
    top = np.empty(nv, np.int64)
    closed = np.empty(nv, np.bool_)
    up = np.empty(nv, np.bool_)
    _swap_regions(x0, n, ks, p1, p0, width, c, top, closed, up)
    off = np.zeros(nv + 1, np.int64)
    for i in range(nv):
        off[i + 1] = off[i] + (top[i] - c[i] + 1 if top[i] >= 0 else 0)
    state = np.zeros(off[nv])
    for t_id in nb.prange(nthreads):
        for i in range(t_id, nv, nthreads):
            if top[i] >= 0 and not up[i]:
                _swap_init(n, ks[nk - 1], p1[i], p0[i], width, c[i], state[off[i] : off[i + 1]])
    xe = x0 + nx - 1
    F = np.zeros(nx)
    S = np.zeros(nx)
    acc = np.zeros((nthreads, block, nx))
    nblocks = (nk + block - 1) // block
    for blk in range(nblocks):
        hi_ik = nk - 1 - blk * block  # this block: ik = hi_ik, hi_ik - 1, ..., > hi_ik - block
        nb_k = min(block, hi_ik + 1)
        acc[:] = 0.0
        for t_id in nb.prange(nthreads):
            for i in range(t_id, nv, nthreads):
                if top[i] < 0:
                    continue
                f = state[off[i] : off[i + 1]]
                if up[i]:  # upwards through the block, from a fresh convolution at its lowest K
                    lo_ik = hi_ik - nb_k + 1
                    _swap_init(n, ks[lo_ik], p1[i], p0[i], width, c[i], f)
                    for ik in range(lo_ik, hi_ik + 1):
                        if ik > lo_ik:
                            _swap_step(f, p0[i], p1[i], False)
                        _add_sf(f, c[i], x0, xe, w[i], acc[t_id, hi_ik - ik])
                    continue
                j = 0
                while j < nb_k:
                    ik = hi_ik - j
                    if ik < nk - 1 and closed[i]:
                        if fused >= 4 and j + 3 < nb_k:  # four steps of K in one pass
                            a4 = acc[t_id]
                            _closed_step4_sf(
                                f, p1[i], p0[i], c[i], x0, xe, w[i], a4[j], a4[j + 1], a4[j + 2], a4[j + 3]
                            )
                            j += 4
                        elif fused >= 2 and j + 1 < nb_k:  # two steps of K in one pass
                            _closed_step2_sf(f, p1[i], p0[i], c[i], x0, xe, w[i], acc[t_id, j], acc[t_id, j + 1])
                            j += 2
                        else:
                            _closed_step_sf(f, p1[i], p0[i], c[i], x0, xe, w[i], acc[t_id, j])
                            j += 1
                        continue
                    if ik < nk - 1:
                        _swap_step(f, p1[i], p0[i], False)
                    _add_sf(f, c[i], x0, xe, w[i], acc[t_id, j])
                    j += 1
        for t_id in nb.prange(nthreads):  # fold the block into F and S, x split among threads
            for xi in range(t_id, nx, nthreads):
                fx = 0.0
                sx = 0.0
                for j in range(nb_k):
                    pkj = pk[hi_ik - j]
                    g = 0.0
                    for t in range(nthreads):
                        g += acc[t, j, xi]
                    if g <= 0.0:
                        fx += pkj
                        continue
                    if g >= 1.0:
                        sx += pkj
                        continue
                    lg = m * math.log1p(-g)
                    fx += pkj * math.exp(lg)
                    sx += pkj * -math.expm1(lg)
                F[xi] += fx
                S[xi] += sx
    return F, S


def dependent_max_distribution(
    n: int,
    m: int,
    values,
    weights=None,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    tail: float = TAIL,
    start: int | None = None,
    end: int | None = None,
) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` with ``theta_j`` drawn iid from a discrete ``P(theta)``.

    Values that violate Eq. 8 must have been removed by the caller (see
    :func:`sotalib.multiplicity.feasible`).  ``theta0`` defaults to ``max(values)``.
    ``start`` is a guess of the count where ``F`` first exceeds ``tail`` (for
    example from a fit of nearby values); it saves the first pass that finds it,
    and is used only if the result confirms it (``F(start) <= tail``).  ``end``
    (used only with ``start``) is a guess of a count where ``1 - F`` is already
    below ``tail``: the counts above it, which the result trims away, are not
    summed, and the guess is used only if the result confirms it; the sums
    keep the blocks of ``K`` of the whole window, so the distribution is
    bitwise the one computed without the guess.
    """
    v = np.asarray(values, dtype=float)
    wts = np.full(v.size, 1.0 / v.size) if weights is None else np.asarray(weights, dtype=float)
    wts = wts / wts.sum()
    # merge equal values: a leaderboard has many ties
    v, inv = np.unique(v, return_inverse=True)
    wts = np.bincount(inv, weights=wts)
    theta0 = float(v.max()) if theta0 is None else float(theta0)
    if rho == 0.0:
        ks, log_pk = np.array([0], dtype=np.int64), np.array([0.0])
        p1 = p0 = np.clip(v, 0.0, 1.0)
    else:
        p1, p0 = conditional_probs(v, theta0, rho)
        p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
        if y0 == "fixed":
            ks, log_pk = np.array([int(round(n * theta0))], dtype=np.int64), np.array([0.0])
        else:
            from scipy.stats import binom

            lo, hi = _window(n, theta0)
            ks = np.arange(lo, hi + 1, dtype=np.int64)
            log_pk = binom.logpmf(ks, n, theta0)
            keep = np.flatnonzero(log_pk > np.log(tail) - 5)
            ks, log_pk = ks[keep[0] : keep[-1] + 1], log_pk[keep[0] : keep[-1] + 1]
    pk = np.exp(log_pk - np.max(log_pk))
    pk = pk / math.fsum(pk)
    hi = _support_top(n, ks, p1, p0, _WIDTH)
    if start is not None and 0 <= start < hi:
        # the blocks of K are those of the whole window [start, hi] whatever the end, so that the
        # sums, hence the numbers, do not depend on the guess
        block = _block(ks.size, hi - start + 1)
        stop = hi if end is None or not start < end < hi else end
        F, S = _swap_max(start, stop - start + 1, n, m, ks, pk, p1, p0, wts, _WIDTH, block, _threads(), _FUSED)
        if stop < hi and F[0] <= tail and not S[-1] <= tail:  # the guessed end is too low: the whole window
            F, S = _swap_max(start, hi - start + 1, n, m, ks, pk, p1, p0, wts, _WIDTH, block, _threads(), _FUSED)
        if F[0] <= tail:  # confirmed: F is below the tail at the guessed start
            return _trimmed(n, start, F, S, tail)
    lo, hi = _max_window(n, m, v, wts, ks, pk, p1, p0, tail)
    F, S = _swap_max(
        lo, hi - lo + 1, n, m, ks, pk, p1, p0, wts, _WIDTH, _block(ks.size, hi - lo + 1), _threads(), _FUSED
    )
    return _trimmed(n, lo, F, S, tail)


def _bernoulli_walk(n, m, v, wts, ks, log_pk, p1, p0, tail) -> MaxDistribution:
    """The first engine (:func:`_max_log_cdf`): each value walks ``K`` in its own stable direction.

    Kept as an independent check of the swap engine (tests); it holds an array
    of ``len(ks)`` by the window per thread, so it is not used for large ``n``.
    """
    # highest values first: the inner loop then stops mattering early
    order = np.argsort(-v)
    p1, p0, wts = np.ascontiguousarray(p1[order]), np.ascontiguousarray(p0[order]), np.ascontiguousarray(wts[order])
    log_tail = np.log(tail)

    def log_f(a: int, b: int) -> np.ndarray:
        return _max_log_cdf(a, b - a + 1, n, m, ks, log_pk, p1, p0, wts, nb.get_num_threads())

    # a generous bracket around the top value, widened until it holds the window
    vmax = float(v.max())
    sd = math.sqrt(n * vmax * (1 - vmax)) + 1.0
    a = max(0, int(n * vmax - 12 * sd) - 5)
    b = min(n, int(n * vmax + (12 + 2 * math.log(m)) * sd) + 10)
    # First pass with the top values only: leaving the others out can only raise
    # the cdf, so the first count where it exceeds the tail is a safe window start,
    # and every value that cannot reach it is skipped in the full pass.
    top = np.flatnonzero(v[order] >= vmax - 4 * sd / n)
    if top.size < wts.size:
        lf_top = _max_log_cdf(a, b - a + 1, n, m, ks, log_pk, p1[top], p0[top], wts[top], nb.get_num_threads())
        if lf_top[0] <= log_tail:
            a = a + max(int(np.argmax(lf_top > log_tail)) - 1, 0)
    while True:
        lf = log_f(a, b)
        grow_lo = a > 0 and lf[0] > log_tail
        grow_hi = b < n and -math.expm1(lf[-1]) > tail
        if not (grow_lo or grow_hi):
            break
        if grow_lo:
            a = max(0, a - int(10 * sd) - 10)
        if grow_hi:
            b = min(n, b + int(10 * sd) + 10)
    i_lo = int(np.argmax(lf > log_tail)) if a > 0 else 0
    below = -np.expm1(lf) <= tail
    i_hi = int(np.argmax(below)) if below.any() else lf.size - 1
    return MaxDistribution.from_log_cdf(n, a + i_lo, lf[i_lo : i_hi + 1])


#: Elements of the per-thread sums of :func:`_swap_max` (blocks of K are sized to stay below it).
_ACC_ELEMENTS = 1 << 21


#: Fraction of the window from 12 standard deviations below the top values to the top of the support
#: skipped by the first try of :func:`_max_window` (redone from the bottom if ``F`` exceeds the tail there).
_RAISE = 0.15


#: Steps of K fused into one pass of the swap engine (4; 1 is the single-step path, kept for the benchmark's
#: reference run: both give bitwise the same distribution).
_FUSED = 4


def _threads() -> int:
    return int(nb.get_num_threads())


def _block(nk: int, nx: int) -> int:
    return max(1, min(nk, _ACC_ELEMENTS // max(1, _threads() * nx)))


def _support_top(n: int, ks: np.ndarray, p1: np.ndarray, p0: np.ndarray, width: float) -> int:
    """The highest count any value can reach (its window's top, as in :func:`_window_w`)."""

    def hi(k, p):
        return np.minimum(k, np.ceil(k * p + width * np.sqrt(k * p * (1.0 - p)) + 3.0))

    tops = [hi(int(k), p1) + hi(n - int(k), p0) for k in (ks[0], ks[-1])]
    return int(min(n, np.max(np.maximum(*tops))))


def swap_stable(p1, p0) -> bool:
    """Whether every value can walk ``K`` downwards: ``p1 q1 <= p0 q0`` for every value.

    Removing a ``Bernoulli(p)`` divides the characteristic function by
    ``q + p e^{iw}``, whose modulus squared is ``1 - 2 p q (1 - cos w)``; adding
    one multiplies by the same with ``p0``.  The swap amplifies no frequency (so
    no rounding error) exactly when the removed Bernoulli has the smaller ``p q``;
    :func:`_swap_max` walks the other values upwards, block by block.
    """
    p1 = np.asarray(p1, dtype=float)
    p0 = np.asarray(p0, dtype=float)
    return bool(np.all(p1 * (1.0 - p1) <= p0 * (1.0 - p0) + 1e-15))


def swap_max(n, m, ks, pk, values, p1, p0, w, tail, width):
    """``(xlo, F, S)`` of the mixture model by the swap engine (the third engine of ``_dependent``).

    ``F(x) = sum_K pk_K (1 - sum_i w_i P(S_iK > x))^m`` on the window where
    ``F > tail`` up to the top of every value's support (binomials cut at
    ``width`` standard deviations); ``ks`` consecutive, ``m >= 1``.
    """
    ks = np.ascontiguousarray(ks, dtype=np.int64)
    args = [np.ascontiguousarray(a, dtype=float) for a in (pk, values, p1, p0, w)]
    pk, values, p1, p0, w = args
    lo, hi = _max_window(n, m, values, w, ks, pk, p1, p0, tail, width)
    F, S = _swap_max(
        lo, hi - lo + 1, n, m, ks, pk, p1, p0, w, float(width), _block(ks.size, hi - lo + 1), _threads(), _FUSED
    )
    return lo, F, S


def _max_window(n, m, v, wts, ks, pk, p1, p0, tail, width=_WIDTH):
    """``[lo, hi]``: from the first count where ``F > tail`` to the top of every value's support.

    Above the top ``F = 1`` exactly (the model's binomials are cut at ``width``
    standard deviations); below, a first pass with the top values only bounds
    ``F`` from above (leaving values out can only raise it), so where that pass is
    below ``tail`` so is ``F``.  The window start also decides which values and
    which part of each value's pmf the full pass carries, so it is worth a pass.
    """
    vmax = float(v.max())
    sd = math.sqrt(n * vmax * (1 - vmax)) + 1.0
    hi = _support_top(n, ks, p1, p0, width)
    # the top values: those within 4 sd of the best, and enough of the others that the weight
    # left out cannot keep F above the tail on its own ((1 - W_top)^m <= tail / 1000)
    order = np.argsort(-v, kind="stable")
    need = -math.expm1(math.log(tail * 1e-3) / m)
    count = max(int(np.searchsorted(np.cumsum(wts[order]), need)) + 1, int(np.sum(v >= vmax - 4 * sd / n)))
    top = np.sort(order[: min(count, v.size)])
    # 12 standard deviations below the top value's mean at the smallest K
    k = int(ks[0])
    mu = k * p1[top] + (n - k) * p0[top]
    sd_k = np.sqrt(k * p1[top] * (1 - p1[top]) + (n - k) * p0[top] * (1 - p0[top])) + 1.0
    a = max(0, min(hi, int(np.max(mu - 12 * sd_k)) - 5))
    if top.size == wts.size:
        return a, hi
    # The first try starts _RAISE of the way up: on leaderboards F first exceeds the tail a third of
    # the way up (12 standard deviations are generous), and the counts below the start are neither
    # carried nor summed.  The blocks of K are those of the window from ``a``, so F at each count,
    # hence the window found, does not depend on where the pass starts; if F is above the tail at
    # the raised start, the pass is redone from ``a``.
    block = _block(ks.size, hi - a + 1)
    x0 = a + int(_RAISE * (hi - a))
    while True:
        F, _ = _swap_max(x0, hi - x0 + 1, n, m, ks, pk, p1[top], p0[top], wts[top], width, block, _threads(), _FUSED)
        if F[0] <= tail or x0 == 0:
            return x0 + max(int(np.argmax(F > tail)) - 1, 0), hi
        if x0 > a:
            x0 = a  # the raised start was too high: the usual start
            continue
        a = max(0, a - int(10 * float(sd_k.max())) - 10)  # not low enough yet
        block = _block(ks.size, hi - a + 1)
        x0 = a


def _trimmed(n, lo, F, S, tail):
    """The window carrying all but ``tail`` at each end (as :func:`iid_max_distribution`)."""
    F = np.minimum(F, 1.0)
    S = np.clip(S, 0.0, 1.0)
    i_lo = int(np.argmax(F > tail)) if np.any(F > tail) else F.size - 1
    below = np.nonzero(S[i_lo:] <= tail)[0]
    i_hi = i_lo + int(below[0]) if below.size else F.size - 1
    return MaxDistribution(n=int(n), lo=int(lo + i_lo), cdf=F[i_lo : i_hi + 1].copy(), sf=S[i_lo : i_hi + 1].copy())
