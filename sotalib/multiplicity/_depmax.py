"""Exact distribution of the sample maximum for a leaderboard-shaped ``P(theta)``.

The dependent, non-identical model of Section 4.3 with ``P(theta)`` the
discrete distribution of a leaderboard (values ``v_i`` with weights ``w_i``),
``m`` classifiers drawn iid from it, and a common reference classifier ``Y_0``
with ``P(Y_0 = 1) = theta0`` and ``corr(Y_0, Y_j) = rho`` (Eqs. 6-7).  Given
the number ``K`` of items that ``Y_0`` gets right, the classifiers are
independent and ``X_j | K = A + B`` with ``A ~ B(K, p1)``, ``B ~ B(n - K, p0)``,
so

.. math:: P(\\max_j X_j \\le x) = \\sum_K P(K) \\Big(1 - \\sum_i w_i P(A_i + B_i > x \\mid K)\\Big)^m .

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

from .._numba import njit
from ._maxdist import TAIL, MaxDistribution
from ._noniid import conditional_probs

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
    """g such that f = g * (1 - p + p z): the pmf of S - Y with Y ~ Bernoulli(p) independent."""
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
def _accumulate(sf, i, x0, nx, top, n, ks, p1, p0, w):
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
    """log P(max_j X_j <= x) for x = x0, ..., x0 + nx - 1 (see module docstring).

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
            _accumulate(sf_t[t_id], i, x0, nx, top, n, ks, p1, p0, w)
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
) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` with ``theta_j`` drawn iid from a discrete ``P(theta)``.

    Values that violate Eq. 8 must have been removed by the caller (see
    :func:`sotalib.multiplicity._noniid.feasible`).  ``theta0`` defaults to ``max(values)``.
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
