r"""The distribution of the sample maximum at large ``n``: a normal (Edgeworth) approximation.

The model is the one of :mod:`sotalib.multiplicity._max_dependent_swap` (Section 4.3,
Eqs. 6-8): ``m`` classifiers drawn iid from a leaderboard-shaped ``P(theta)``
(values ``v_i`` with weights ``w_i``), a reference classifier that gets ``K``
items right, ``K ~ B(n, theta0)``, and given ``K`` independent counts
``X_j | K = A + B`` with ``A ~ B(K, p1)`` and ``B ~ B(n - K, p0)``, so that

.. math:: F(x) = \sum_K P(K) \Big(1 - \sum_i w_i P(A_i + B_i > x \mid K)\Big)^m .

The exact engine convolves every value's binomials for every ``K``; its work
grows like ``n^{3/2}`` per value, which is hours for thousands of teams at
``n = 10^7``.  Here three steps replace the exact sums, each with an error
far below what an estimate printed to four decimals can show at the sizes where
it is used (``n >= 10^5``):

1. **The tail of ``A + B`` given ``K``** by its Edgeworth expansion to second
   order (Hall 1992, Section 2.2) with continuity correction:
   ``P(S > x) = Q(t) + phi(t) [gamma_1 He_2(t) / 6 + gamma_2 He_3(t) / 24 +
   gamma_1^2 He_5(t) / 72]`` with ``t = (x + 1/2 - mu) / sigma``, the exact mean,
   variance and standardised third and fourth cumulants of the sum of two
   binomials.  Its relative error in the tails that decide the maximum
   (``|t| <= 6``) is of order ``n^{-3/2}``.
2. **The sum over ``K``** by a trapezoidal rule with stride ``r``: the
   summand is smooth (analytic) on the scale on which the conditional
   maximum moves with ``K``, and the stride keeps at least three nodes per
   that scale, so the rule's error is exponentially small.
3. **The window of counts** on a grid of step ``h`` (at least twelve points
   per standard deviation of the maximum: the conditional maximum's spread
   and its movement with ``K``, ``rho sigma``, together); between the grid
   points ``log(-log F)``, a smooth function for a maximum, is interpolated
   by a cubic spline.

The tests hold this engine to the exact one at ``n = 10^4`` to ``10^5``
(E max within a tenth of a count, quantiles to the count, the estimates of
:func:`sotalib.multiplicity.shrink` within ``0.1/n``; measured: ``0.006/n`` at
most) and to a Monte Carlo of
the model at ``n = 10^7``; :data:`ACCURACY` states it for the results.  At
small ``n`` it is slower than the exact engine, which ``"auto"`` keeps there.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import prange
from scipy.interpolate import CubicSpline
from scipy.stats import binom

from .._numba import njit
from .._validate import check_choice, check_memory, format_count
from ._dependence_model import conditional_probs
from ._max_iid import TAIL, MaxDistribution

#: What the results of this engine say about their accuracy (checked by the tests against the exact engine).
ACCURACY = (
    "normal (Edgeworth) approximation of the exact model, used at n >= 10^4 where that would take minutes; "
    "where both run (n = 10^4 to 10^5) E max and the estimates agree within 0.1/n and the interval to the count, "
    "and a Monte Carlo of the model agrees at n = 10^7; the error shrinks as n grows"
)

#: Nodes of the trapezoidal rule over K per scale of the conditional maximum's movement.
_K_NODES_PER_SCALE = 3.0
#: Grid points per standard deviation of the conditional maximum.
_X_POINTS_PER_SD = 12.0
#: Values closer than this many conditional standard deviations are merged (see :func:`_binned`).
_BIN_SD = 0.02
#: Points of the coarse passes that locate a window wider than this many coarse steps (``sd1 / 8``).
_LOCATOR_POINTS = 2048
#: Standard deviations of a single classifier below and above the top value covered by the first bracket.
_BRACKET_SD = 9.0


@njit(cache=True)
def _tail_pair(t, g1, g2):
    """``(P(S > x), P(S <= x))`` by the second-order Edgeworth expansion at standardised ``t``."""
    phi = math.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)
    t2 = t * t
    he2 = t2 - 1.0
    he3 = t * (t2 - 3.0)
    he5 = t * (t2 * t2 - 10.0 * t2 + 15.0)
    corr = phi * (g1 * he2 / 6.0 + g2 * he3 / 24.0 + g1 * g1 * he5 / 72.0)
    up = 0.5 * math.erfc(t / math.sqrt(2.0)) + corr
    low = 0.5 * math.erfc(-t / math.sqrt(2.0)) - corr
    return min(max(up, 0.0), 1.0), min(max(low, 0.0), 1.0)


@njit(cache=True)
def _moments(k, n, p1, p0):
    """Mean, variance, and standardised third and fourth cumulants of ``B(k, p1) + B(n - k, p0)``."""
    a = p1 * (1.0 - p1)
    b = p0 * (1.0 - p0)
    mu = k * p1 + (n - k) * p0
    var = k * a + (n - k) * b
    if var <= 0.0:
        return mu, 0.0, 0.0, 0.0
    k3 = k * a * (1.0 - 2.0 * p1) + (n - k) * b * (1.0 - 2.0 * p0)
    k4 = k * a * (1.0 - 6.0 * a) + (n - k) * b * (1.0 - 6.0 * b)
    return mu, var, k3 / var**1.5, k4 / (var * var)


@njit(cache=True, parallel=True)
def _max_on_grid(xs, n, m, ks, wk, p1, p0, w, nthreads):  # noqa: C901, PLR0917 (Numba kernel: one parallel loop, called positionally)
    """``F`` and ``1 - F`` of the maximum at the counts ``xs`` (increasing).

    Values must be sorted by decreasing ``theta`` (``p1``, ``p0`` and ``w``
    alike), so that further values have smaller upper tails: the sum over
    values for each ``x`` stops once a value's upper tail is below ``Q(14)``
    (``< 1e-44``) or, times the weight of the values left, below ``1e-20`` of
    the sum so far.  Above every value's mean plus 40 standard deviations the
    conditional cdf is one, and it is zero once it underflows.
    """
    nx = xs.size
    nk = ks.size
    nv = p1.size
    rest = np.empty(nv + 1)  # rest[i]: weight of the values i, i + 1, ...
    rest[nv] = 0.0
    for i in range(nv - 1, -1, -1):
        rest[i] = rest[i + 1] + w[i]
    accF = np.zeros((nthreads, nx))
    accS = np.zeros((nthreads, nx))
    log_small = -745.0
    for th in prange(nthreads):
        mu = np.empty(nv)
        sd = np.empty(nv)
        g1 = np.empty(nv)
        g2 = np.empty(nv)
        for ik in range(th, nk, nthreads):
            k = ks[ik]
            for i in range(nv):
                a, v, c3, c4 = _moments(k, n, p1[i], p0[i])
                mu[i] = a
                sd[i] = math.sqrt(v)
                g1[i] = c3
                g2[i] = c4
            x_one = -math.inf  # above it every value's upper tail is zero in double precision
            for i in range(nv):
                x_one = max(x_one, mu[i] + 40.0 * sd[i])
            stop = -1  # the count from which down the conditional cdf is zero
            for jx in range(nx - 1, -1, -1):
                x = xs[jx]
                if x + 0.5 > x_one:
                    accF[th, jx] += wk[ik]
                    continue
                G = 0.0
                for i in range(nv):
                    if sd[i] == 0.0:
                        up = 1.0 if mu[i] > x else 0.0
                        t = -1.0 if mu[i] > x else 1e9
                    else:
                        t = (x + 0.5 - mu[i]) / sd[i]
                        up = _tail_pair(t, g1[i], g2[i])[0] if t < 40.0 else 0.0
                    G += w[i] * up
                    if t > 14.0 or rest[i + 1] * up < 1e-20 * G:
                        break
                if G < 0.5:
                    logF = m * math.log1p(-G)
                elif m > 1100:
                    logF = -math.inf  # (1 - G)^m < 2^-1100
                else:
                    H = 0.0
                    for i in range(nv):
                        if sd[i] == 0.0:
                            H += w[i] * (0.0 if mu[i] > x else 1.0)
                        else:
                            t = (x + 0.5 - mu[i]) / sd[i]
                            H += w[i] * (_tail_pair(t, g1[i], g2[i])[1] if t > -40.0 else 0.0)
                    logF = m * math.log(H) if H > 0.0 else -math.inf
                if logF < log_small:
                    stop = jx
                    break  # the conditional cdf only falls below here
                accF[th, jx] += wk[ik] * math.exp(logF)
                accS[th, jx] += wk[ik] * -math.expm1(logF)
            for j2 in range(stop, -1, -1):
                accS[th, j2] += wk[ik]
    F = np.zeros(nx)
    S = np.zeros(nx)
    for th in range(nthreads):
        for j in range(nx):
            F[j] += accF[th, j]
            S[j] += accS[th, j]
    return F, S


def _k_nodes(n: int, m: int, theta0: float, rho: float, v: np.ndarray, p1, p0, tail: float):
    """Nodes and trapezoidal weights of the sum over ``K`` (one node when ``rho = 0``)."""
    if rho == 0.0:
        return np.array([0], dtype=np.int64), np.array([1.0])
    sd_k = math.sqrt(n * theta0 * (1 - theta0))
    lo = max(0, int(math.floor(n * theta0 - 9 * sd_k - 3)))
    hi = min(n, int(math.ceil(n * theta0 + 9 * sd_k + 3)))
    # how far the conditional maximum moves per unit of K, and its spread given K
    slope = float(np.max(np.abs(p1 - p0)))
    vmax = float(v.max())
    spread = math.sqrt(n * vmax * (1 - vmax) * max(1 - rho * rho, 0.0)) / math.sqrt(2 * math.log(m) + 1) + 1.0
    stride = max(1, int(spread / max(slope, 1e-300) / _K_NODES_PER_SCALE))
    centre = int(round(n * theta0))
    ks = np.concatenate([np.arange(centre, lo - 1, -stride)[::-1], np.arange(centre + stride, hi + 1, stride)])
    log_pk = binom.logpmf(ks, n, theta0)
    keep = log_pk > math.log(tail) - 12
    ks, log_pk = ks[keep], log_pk[keep]
    wk = np.exp(log_pk - log_pk.max())
    return ks.astype(np.int64), wk / math.fsum(wk)


@njit(cache=True)
def _bin_starts(v, n, rho, width):
    """Starts of runs of decreasing values within ``width`` conditional standard deviations of the run's first."""
    starts = np.empty(v.size, dtype=np.int64)
    c = math.sqrt(max(1.0 - rho * rho, 0.0))
    nb_ = 0
    first = 0
    for i in range(v.size):
        if i == 0 or (v[first] - v[i]) * n > width * c * math.sqrt(n * v[i] * (1.0 - v[i])):
            starts[nb_] = i
            nb_ += 1
            first = i
    return starts[:nb_]


def _binned(v, wts, n, rho):
    """Values (decreasing) merged into bins narrower than :data:`_BIN_SD` conditional standard deviations.

    Each bin is replaced by its weighted mean with its total weight.  Within a
    bin the values differ by at most ``_BIN_SD sigma'``, so the tail of the bin's
    mixture differs from the tail at its mean by a relative
    ``O(_BIN_SD^2 t^2)`` (second order: the means agree), below ``10^-2`` of a
    count at ``n = 10^7``.
    """
    starts = _bin_starts(v, n, rho, _BIN_SD)
    if starts.size == v.size:
        return v, wts
    w = np.add.reduceat(wts, starts)
    return np.add.reduceat(v * wts, starts) / w, w


def normal_max_distribution(
    n: int,
    m: int,
    values,
    weights=None,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    tail: float = TAIL,
) -> MaxDistribution:
    """The distribution of ``max_j X_j`` of :func:`~sotalib.multiplicity._max_dependent_swap.dependent_max_distribution`, approximated.

    Same model and arguments (values violating Eq. 8 removed by the caller;
    ``theta0`` defaults to ``max(values)``; the reference classifier's ``K`` is
    random); the result's ``method`` is ``"normal"``.  See the module
    docstring for the three approximations and their accuracy.
    """
    v = np.asarray(values, dtype=float)
    wts = np.full(v.size, 1.0 / v.size) if weights is None else np.asarray(weights, dtype=float)
    v, inv = np.unique(v, return_inverse=True)
    wts = np.bincount(inv, weights=wts / wts.sum())
    theta0 = float(v.max()) if theta0 is None else float(theta0)
    v, wts = _binned(v[::-1], wts[::-1], n, rho)
    if rho == 0.0:
        p1 = p0 = np.clip(v, 0.0, 1.0)
    else:
        p1, p0 = conditional_probs(v, theta0, rho)
        p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
    vmax = float(v[0])
    sd1 = math.sqrt(n * vmax * (1 - vmax)) + 1.0
    # the result holds every count of its window, which spans more than one sd1 (checked again once known)
    _check_window(n, sd1)
    # up front, the window is at least the counts from the lowest value that m draws can all stay at or below
    # with probability above the tail, to the top value: refuse now (naming n) what would not fit at the end
    below = np.cumsum(wts[::-1])[::-1]  # weight of the values at or below each (v decreasing)
    with np.errstate(divide="ignore"):
        reach = m * np.log(np.maximum(below, 1e-300)) > math.log(tail * 1e-3)
    _check_window(n, n * (vmax - float(v[reach][-1])) + 2 * _BRACKET_SD * sd1)
    ks, wk = _k_nodes(n, m, theta0, rho, v, p1, p0, tail)
    # F is the mixture over K of conditional cdfs that move by about rho sd1 with K: it is smooth on the
    # scale of both, however sharp each conditional cdf is (rho near 1)
    spread = math.sqrt(max(1 - rho * rho, 0.0)) * sd1 / math.sqrt(2 * math.log(m) + 1)
    h = max(1, int(math.hypot(spread, rho * sd1) / _X_POINTS_PER_SD))
    z_hi = math.sqrt(2 * (math.log(m) - math.log(tail * 1e-3))) + 2.0
    a = max(0, int(n * vmax - _BRACKET_SD * sd1) - 5)
    b = min(n, int(n * vmax + max(z_hi, _BRACKET_SD) * sd1) + 5)
    args = (np.ascontiguousarray(p1), np.ascontiguousarray(p0), np.ascontiguousarray(wts))
    threads = int(nb.get_num_threads())
    # a coarse pass finds the window (where F > tail and 1 - F > tail), the fine pass covers only it
    hc = max(h, int(sd1 / 8))
    step_lo = step_hi = 5 * sd1  # each growth doubles: a window of w counts takes log2(w / sd1) passes, not w / sd1
    while True:
        # a wide window (a board whose values span many sd1: every draw may come from the low ones) is
        # located on at most _LOCATOR_POINTS points, then computed on the fine grid below
        step = max(hc, (b - a) // _LOCATOR_POINTS)
        xs = np.arange(a, b + step, step, dtype=np.float64)
        F, S = _max_on_grid(xs, n, m, ks, wk, *args, threads)
        grow_lo = a > 0 and F[0] > tail * 1e-3
        grow_hi = xs[-1] < n and S[-1] > tail * 1e-3
        if not (grow_lo or grow_hi):
            break
        if grow_lo:
            a, step_lo = max(0, a - int(step_lo)), 2 * step_lo
        if grow_hi:
            b, step_hi = min(n, b + int(step_hi)), 2 * step_hi
    i0 = max(0, int(np.argmax(F > tail * 1e-3)) - 1)
    above = np.flatnonzero(S > tail * 1e-3)
    i1 = min(xs.size - 1, (int(above[-1]) if above.size else xs.size - 1) + 1)
    if step > h:
        xs = np.arange(xs[i0], xs[i1] + h, h, dtype=np.float64)
        F, S = _max_on_grid(xs, n, m, ks, wk, *args, threads)
    # the window on the grid, two points wider on each side, then every count by interpolation
    i0 = max(0, int(np.argmax(F > tail * 1e-3)) - 2)
    above = np.flatnonzero(S > tail * 1e-3)
    i1 = min(xs.size - 1, (int(above[-1]) if above.size else xs.size - 1) + 2)
    xs, F, S = xs[i0 : i1 + 1], F[i0 : i1 + 1], S[i0 : i1 + 1]
    if h == 1:
        return _trim(n, int(xs[0]), F, S, tail)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.where(F < 0.5, np.log(-np.log(np.maximum(F, 1e-320))), np.log(-np.log1p(-np.minimum(S, 0.5))))
    y = np.minimum(y, 7.0)  # F below exp(-e^7) ~ 1e-478 is zero in double precision
    y = np.maximum(y, math.log(1e-300))
    _check_window(n, xs[-1] - xs[0] + 1)
    x_all = np.arange(int(xs[0]), int(xs[-1]) + 1)
    yi = CubicSpline(xs, y)(x_all)
    yi = np.minimum.accumulate(yi)  # F is non-decreasing: log(-log F) non-increasing
    e = np.exp(yi)
    return _trim(n, int(xs[0]), np.exp(-e), -np.expm1(-e), tail)


#: Bytes per count of the window the interpolation fills: the counts, the spline's values and the
#: cdf and survival function with their copies, 8 bytes each.
_BYTES_PER_COUNT = 80.0


def _check_window(n: int, counts: float) -> None:
    """Refuse (naming ``n``) a window of ``counts`` counts whose arrays would not fit in memory."""
    check_memory(
        _BYTES_PER_COUNT * counts,
        f"n={n} items",
        f"the distribution of the maximum is held at each of about {format_count(int(counts))} counts; "
        "give a smaller n",
    )


def _trim(n, lo, F, S, tail) -> MaxDistribution:
    F = np.clip(F, 0.0, 1.0)
    S = np.clip(S, 0.0, 1.0)
    i_lo = int(np.argmax(F > tail)) if np.any(F > tail) else F.size - 1
    below = np.nonzero(S[i_lo:] <= tail)[0]
    i_hi = i_lo + int(below[0]) if below.size else F.size - 1
    return MaxDistribution(
        n=int(n), lo=int(lo + i_lo), cdf=F[i_lo : i_hi + 1].copy(), sf=S[i_lo : i_hi + 1].copy(), engine="normal"
    )


#: Engines of the accuracy estimators: the exact model, this approximation, or the first when it is cheap.
ENGINES = ("auto", "exact", "normal")

#: Work of the exact engine (K values times the counts its relevant values span) above which ``"auto"``
#: approximates: two to four seconds per fit on one core, so that a shrinkage solve would near a minute.
_EXACT_WORK = 1e9
#: Smallest n at which ``"auto"`` approximates (the tests check the approximation from here up).
_NORMAL_MIN_N = 10_000


def exact_work(n: int, values, rho: float) -> float:
    """A measure of the exact engine's work for one fit: ``#K x #relevant values x window``.

    ``#K`` spans 16 standard deviations of the reference classifier's count
    (1 when ``rho = 0``); a value is relevant within 12 standard deviations of the
    top; each spans 16 standard deviations of its count.
    """
    v = np.unique(np.asarray(values, dtype=float))
    vmax = float(v.max())
    sd1 = math.sqrt(n * vmax * (1 - vmax)) + 1.0
    relevant = int(np.sum(v >= vmax - 12 * sd1 / n))
    nk = 16 * sd1 if rho > 0 else 1.0
    return nk * relevant * 16 * sd1


#: Seconds per test item of one fit of the exact dependent model (rho > 0), measured on a 2-core machine
#: (40 teams, rho 0.6: 0.5 s at n = 10^5, 6 s at n = 10^6), and the fits a solve for a weight or a crop
#: point takes (about ten).
EXACT_SECONDS_PER_ITEM = 6e-6
FITS_PER_SOLVE = 10


def exact_seconds(n: int, rho: float, fits: int = FITS_PER_SOLVE) -> float:
    """Expected seconds of ``fits`` fits of the exact engine at ``n`` (0 without dependence: the iid form is fast)."""
    return EXACT_SECONDS_PER_ITEM * n * fits if rho > 0 else 0.0


def choose_engine(engine: str, n: int, values, rho: float) -> str:
    """``"exact"`` or ``"normal"``: ``engine`` itself, or for ``"auto"`` the exact one unless its work is large.

    Raises ValueError naming ``engine`` unless it is one of :data:`ENGINES`.
    """
    engine = check_choice("engine", engine, ENGINES)
    if engine != "auto":
        return engine
    return "normal" if n >= _NORMAL_MIN_N and exact_work(n, values, rho) > _EXACT_WORK else "exact"
