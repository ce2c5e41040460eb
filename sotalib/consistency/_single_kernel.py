"""Numba kernel of the single-test-set consistency test (Algorithm 1 of Fazekas & Kovacs).

For every value ``t`` of the count iterated over (tp if p <= n, else tn), each
reported score confines the other count ``x`` to an integer window.  Every
score of Table 2 is monotone in tn for fixed tp and in tp for fixed tn (see
the chapter), so the window of one score is an interval whose ends are the
solutions of ``f = lo`` and ``f = hi``.  Those ends are *estimated* in float
from the level-set polynomial ``G`` of the score (degree <= 2 in x, the
closed forms of Tables 3-4), widened by a slack, and then *certified*: the
point just outside each end must fail the score by more than a safe margin,
which by monotonicity excludes everything beyond it.  A window that cannot be
certified falls back to the whole column, so no compatible pair is ever lost.
Candidates inside the windows are screened in float with the same margin;
those too close to an interval end to be decided in float are returned as
*ambiguous* and decided exactly (rational arithmetic) by the caller.

Three shortcuts, each certified the same way, make a DRIVE-sized problem
(half a million columns) take milliseconds: a bisection on the column
extremes (monotone in t) cuts off the columns no score can reach; the values
of a score at the two ends of the current window often empty a column, or
show that the score needs no narrowing, before any root is computed; and in
the scan, once a point from each end of a window is surely inside every
interval, every point between them is a solution without evaluation.

Sizes.  Up to p + n = 2**26 every product of two counts is an exact float64
integer.  Above (the wide path, up to 2**31, chosen by p + n inside the
kernel) products are rounded once and the differences of products that could
cancel or tie are taken in int64 (see ``WIDE``), so the float screen keeps its
error bound and the caller's exact decisions stay the same.  The columns are
windowed and scanned in blocks (:data:`BLOCK_COLUMNS`) by the caller.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from .._numba import njit

# score ids follow sotalib.consistency._scores.SCORES
ACC, SENS, SPEC, PPV, NPV, FBP, FBN, UPM, GM, FM, MK, BM, MCC, LRP, LRN, PT, DOR, JI, BACC, KAPPA = range(20)

#: relative safety margin of the float screen.  Every formula is a few exactly rounded
#: operations on counts below 2**26 (products below 2**53 are exact), so its relative error is
#: a few ulps (~1e-15); 1e-11 leaves four orders of magnitude and keeps the points sent to the
#: exact check few (about one per 10^4 columns at four decimals; 1e-9 sent ~100 per DRIVE check)
MARGIN = 1e-11

#: Above this p + n (the wide path) a product of two counts may exceed 2**53 and is rounded.
#: Counts and their sums stay exact float64 integers (p + n <= 2**31), every product is rounded
#: once (relative 2**-53), and the two places where rounded products could cancel or tie are
#: computed in int64 instead (products of two counts are below 2**62): pt's tie tpr == fpr
#: (``tp n == fp p``) and the numerator ``tp tn - fp fn`` of mcc and kappa.  Each score's
#: float value is then within a few ulps of max(1, |value|) of the exact one -- far inside
#: ``MARGIN`` -- so the screen stays sound and everything within the margin is decided exactly
#: by the caller, as on the fast path.  Below this size both paths compute the same numbers
#: (float products of counts below 2**26 are exact), and the fast one is used.
WIDE = 2**26


@njit(cache=True, error_model="numpy", inline="always")
def _cross(a, b, c, d, wide):
    """``a b - c d`` of four counts: exact int64 arithmetic on the wide path, float64 below it."""
    if wide:
        return float(np.int64(a) * np.int64(b) - np.int64(c) * np.int64(d))
    return a * b - c * d


@njit(cache=True, error_model="numpy")
def _fval(sid, tp, tn, p, n, b2, ext):
    """Float value of score ``sid`` (NaN if undefined); ``ext``: continuous extension of pt."""
    fp = n - tn
    fn = p - tp
    wide = p + n > WIDE
    if sid == ACC:
        return (tp + tn) / (p + n)
    if sid == SENS:
        return tp / p
    if sid == SPEC:
        return tn / n
    if sid == PPV:
        d = tp + fp
        return tp / d if d != 0 else np.nan
    if sid == NPV:
        d = tn + fn
        return tn / d if d != 0 else np.nan
    if sid == FBP:
        return (1 + b2) * tp / (b2 * p + fp + tp)
    if sid == FBN:
        return (1 + b2) * tn / (b2 * n + fn + tn)
    if sid == UPM:
        d = tn * (n + p - tn + tp) + tp * (n + p + tn - tp)
        return 4 * tp * tn / d if d != 0 else np.nan
    if sid == GM:
        return math.sqrt(tp * tn) / math.sqrt(p * n)
    if sid == FM:
        d = tp + fp
        return tp / math.sqrt(p * d) if d != 0 else np.nan
    if sid == MK:
        d1 = tn + fn
        d2 = tp + fp
        if d1 == 0 or d2 == 0:
            return np.nan
        return tn / d1 + tp / d2 - 1.0
    if sid == BM:
        return tp / p + tn / n - 1.0
    if sid == MCC:
        d = (tp + fp) * (tn + fn)
        if d == 0:
            return np.nan
        return _cross(tp, tn, fp, fn, wide) / (math.sqrt(p * n) * math.sqrt(d))
    if sid == LRP:
        return n * tp / (p * fp) if fp != 0 else np.nan
    if sid == LRN:
        return n * fn / (p * tn) if tn != 0 else np.nan
    if sid == PT:
        # a == b  <=>  tp * n == fp * p (exact in float for counts < 2**26, else in int64)
        if _cross(tp, n, fp, p, wide) == 0:
            if ext and tp != 0:
                return 0.5
            return np.nan
        a = tp / p
        b = fp / n
        return math.sqrt(b) / (math.sqrt(a) + math.sqrt(b))
    if sid == DOR:
        d = fp * fn
        return tp * tn / d if d != 0 else np.nan
    if sid == JI:
        return tp / (tp + fp + fn)
    if sid == BACC:
        return 0.5 * (tp / p + tn / n)
    if sid == KAPPA:
        return 2 * _cross(tp, tn, fn, fp, wide) / ((tp + fp) * n + p * (fn + tn))
    return np.nan


@njit(cache=True, error_model="numpy")
def _gval(sid, tp, tn, p, n, b2, c):
    """Level-set polynomial G (zero where f = c, degree <= 2 in tp and in tn)."""
    fp = n - tn
    fn = p - tp
    if sid == ACC:
        return tp + tn - c * (p + n)
    if sid == SENS:
        return tp - c * p
    if sid == SPEC:
        return tn - c * n
    if sid == PPV:
        return tp - c * (tp + fp)
    if sid == NPV:
        return tn - c * (tn + fn)
    if sid == FBP:
        return (1 + b2) * tp - c * (b2 * p + fp + tp)
    if sid == FBN:
        return (1 + b2) * tn - c * (b2 * n + fn + tn)
    if sid == UPM:
        return 4 * tp * tn - c * (tn * (n + p - tn + tp) + tp * (n + p + tn - tp))
    if sid == GM:
        if c < 0:
            return np.nan
        return tp * tn - c * c * p * n
    if sid == FM:
        if c < 0:
            return np.nan
        return tp * tp - c * c * p * (tp + fp)
    if sid == MK:
        d1 = tn + fn
        d2 = tp + fp
        return tn * d2 + tp * d1 - (1 + c) * d1 * d2
    if sid == BM:
        return tp * n + tn * p - (1 + c) * p * n
    if sid == MCC:
        num = _cross(tp, tn, fp, fn, p + n > WIDE)
        return num * num - c * c * p * n * (tp + fp) * (tn + fn)
    if sid == LRP:
        return n * tp - c * p * fp
    if sid == LRN:
        return n * fn - c * p * tn
    if sid == PT:
        if c <= 0 or c > 1:
            return np.nan
        rc = (1.0 / c - 1.0) ** 2
        return tp * n - rc * p * fp
    if sid == DOR:
        return tp * tn - c * fp * fn
    if sid == JI:
        return tp - c * (tp + fp + fn)
    if sid == BACC:
        return tp * n + tn * p - 2 * c * p * n
    if sid == KAPPA:
        return 2 * _cross(tp, tn, fn, fp, p + n > WIDE) - c * ((tp + fp) * n + p * (fn + tn))
    return np.nan


@njit(cache=True, error_model="numpy", inline="always")
def _pair(axis, t, x):
    if axis == 0:
        return t, x
    return x, t


@njit(cache=True, error_model="numpy")
def _root(sid, axis, t, X, p, n, b2, c, direction):
    """Estimated real x with f(t, x) = c from the quadratic through G(0), G(X/2), G(X); NaN if none."""
    h = 0.5 * X
    a0, b0 = _pair(axis, t, 0.0)
    q0 = _gval(sid, a0, b0, p, n, b2, c)
    a2, b2_ = _pair(axis, t, X)
    q2 = _gval(sid, a2, b2_, p, n, b2, c)
    if not (sid == UPM or sid == MK or sid == MCC or (sid == FM and axis == 1)):
        # G is linear in x for every other score
        if not (math.isfinite(q0) and math.isfinite(q2)) or q2 == q0:
            return np.nan
        return -q0 * X / (q2 - q0)
    a1, b1 = _pair(axis, t, h)
    q1 = _gval(sid, a1, b1, p, n, b2, c)
    if not (math.isfinite(q0) and math.isfinite(q1) and math.isfinite(q2)):
        return np.nan
    A = (q2 - 2.0 * q1 + q0) / (2.0 * h * h)
    B = (q1 - q0) / h - A * h
    C = q0
    scale = abs(B) * X + abs(C) + abs(A) * X * X
    if scale == 0:
        return np.nan
    if abs(A) * X * X <= 1e-12 * scale:
        if B == 0:
            return np.nan
        return -C / B
    disc = B * B - 4 * A * C
    if disc < 0:
        if disc > -1e-12 * B * B:
            disc = 0.0
        else:
            return np.nan
    sq = math.sqrt(disc)
    qq = -0.5 * (B + (sq if B >= 0 else -sq))
    r1 = qq / A
    r2 = C / qq if qq != 0 else r1
    if r1 > r2:
        r1, r2 = r2, r1
    if sid == MCC or (sid == FM and axis == 1):
        # the squared level set also holds f = -c: keep the root of f = +c
        if sid == FM:
            return r2
        if (c >= 0) == (direction > 0):
            return r2
        return r1
    in1 = 0.0 <= r1 <= X
    in2 = 0.0 <= r2 <= X
    if in1 and not in2:
        return r1
    if in2 and not in1:
        return r2
    if -1.0 <= r1 <= X + 1.0:
        return r1
    if -1.0 <= r2 <= X + 1.0:
        return r2
    # neither inside: the nearer one
    if abs(r1 - 0.5 * X) < abs(r2 - 0.5 * X):
        return r1
    return r2


@njit(cache=True, error_model="numpy", inline="always")
def _status(v, lo, hi):
    """+1 surely inside [lo, hi], -1 surely outside (or undefined), 0 too close to decide."""
    if not math.isfinite(v):
        return -1
    m = MARGIN * max(1.0, abs(v))
    if v < lo - m or v > hi + m:
        return -1
    if v >= lo + m and v <= hi - m:
        return 1
    return 0


@njit(cache=True, error_model="numpy")
def _clearly_outside(sid, axis, tf, t, p, n, b2, lo, hi, below):
    """Certify that the score at count ``t`` of the column fails by more than the margin.

    It fails below ``lo`` if ``below``, else above ``hi``.  Not finite (undefined) is not certified.
    """
    a, b = _pair(axis, tf, float(t))
    v = _fval(sid, a, b, p, n, b2, True)
    if not math.isfinite(v):
        return False
    m = MARGIN * max(1.0, abs(v))
    return v < lo - m if below else v > hi + m


@njit(cache=True, error_model="numpy")
def _ends(sid, axis, tf, a, b, p, n, b2, lo, hi, d):
    """Score ``sid`` on the window [a, b] of a column, from its values at the ends.

    -1: certainly outside [lo, hi] on the whole window; +1: certainly inside on the
    whole window (no narrowing needed); 0: undecided (compute the roots).  Undefined
    values certify nothing.
    """
    x0, y0 = _pair(axis, tf, float(a))
    va = _fval(sid, x0, y0, p, n, b2, True)
    x1, y1 = _pair(axis, tf, float(b))
    vb = _fval(sid, x1, y1, p, n, b2, True)
    if not (math.isfinite(va) and math.isfinite(vb)):
        return 0
    vmin, vmax = (va, vb) if d > 0 else (vb, va)
    if vmax < lo - MARGIN * max(1.0, abs(vmax)) or vmin > hi + MARGIN * max(1.0, abs(vmin)):
        return -1
    if vmin >= lo + MARGIN * max(1.0, abs(vmin)) and vmax <= hi - MARGIN * max(1.0, abs(vmax)):
        return 1
    return 0


@njit(cache=True, error_model="numpy")
def _column_extreme(sid, axis, t, d, p, n, b2, X, want_max):
    """Largest (``want_max``) or smallest value of the score on column t, by monotonicity in x."""
    x = float(X) if (d >= 0) == want_max else 0.0
    a, b = _pair(axis, float(t), x)
    return _fval(sid, a, b, p, n, b2, True)


@njit(cache=True, error_model="numpy")
def _t_range(sid, axis, d, dt, p, n, b2, lo, hi, T, X):
    """Columns [ta, tb] outside which the score certainly misses [lo, hi].

    The column maximum max_x f(t, x) is monotone in t (direction ``dt``), as is
    the minimum.  A bisection looks for the last column (from the side where
    the maximum is lowest) whose maximum is certainly below ``lo``; every column
    beyond it on that side is then out of reach.  Only a certified column is
    ever used as a cut, so float noise or undefined values can only shorten
    the cut, never lose a solution.  Likewise for the minimum and ``hi``.
    """
    ta, tb = 0, T
    if dt == 0:
        return ta, tb
    for side in range(2):
        # side 0: maximum < lo; side 1: minimum > hi
        # the failing columns form a prefix if (side 0 and dt > 0) or (side 1 and dt < 0)
        prefix = (side == 0) == (dt > 0)
        good, bad = -1, T + 1  # good: certified failing column (virtual), bad: not certified
        while bad - good > 1:
            mid = (good + bad) // 2
            probe = mid if prefix else T - mid
            v = _column_extreme(sid, axis, probe, d, p, n, b2, X, side == 0)
            m = MARGIN * max(1.0, abs(v))
            fails = math.isfinite(v) and (v < lo - m if side == 0 else v > hi + m)
            if fails:
                good = mid
            else:
                bad = mid
        if prefix:
            ta = max(ta, good + 1)
        else:
            tb = min(tb, T - good - 1)
    return ta, tb


@njit(cache=True, error_model="numpy")
def _bisect_window(sid, axis, tf, d, p, n, b2, lo, hi, X):
    """Window [wa, wb] of column tf by bisection on certified values (the fallback).

    Every x < wa is certified on the far side of ``lo`` (for d > 0; of ``hi`` for
    d < 0) by a certified value at wa - 1 and monotonicity, likewise beyond wb.
    A probe that is undefined or too close to call is treated as not certified,
    which can only widen the window.
    """
    wa, wb = 0, X
    for side in range(2):
        # side 0: the low end, points below it fail; side 1: the high end
        below = (side == 0) == (d > 0)  # the failing points lie below lo (else above hi)
        good, bad = -1, X + 1  # good: last certified failing offset from the end
        while bad - good > 1:
            mid = (good + bad) // 2
            x = mid if side == 0 else X - mid
            if _clearly_outside(sid, axis, tf, x, p, n, b2, lo, hi, below):
                good = mid
            else:
                bad = mid
        if side == 0:
            wa = good + 1
        else:
            wb = X - good - 1
    return wa, wb


#: Below this many columns windows and counting run on one thread: starting the thread pool
#: costs more than it saves (and on a busy machine far more).
PARALLEL_COLUMNS = 20_000


@njit(cache=True, error_model="numpy", inline="always")
def _window_column(sids, lo, hi, b2s, dirs, axis, p, n, X, slack, t, A, B, M, i):
    """The certified window of column t, written to A[i], B[i], M[i] (see :func:`_windows`).

    Returns the number of scores whose window needed the bisection fallback.
    """
    k = sids.shape[0]
    fell = 0
    tf = float(t)
    # constant scores first: they decide a whole column at once
    for j in range(k):
        if dirs[j] != 0:
            continue
        a, b = _pair(axis, tf, 0.0)
        v = _fval(sids[j], a, b, p, n, b2s[j], False)
        if not math.isfinite(v):
            a, b = _pair(axis, tf, float(X))
            v = _fval(sids[j], a, b, p, n, b2s[j], False)
        st = _status(v, lo[j], hi[j])
        if st == -1:
            A[i] = X + 1
            B[i] = -1
            break
    if A[i] > B[i]:
        return fell
    for j in range(k):
        d = dirs[j]
        if d == 0:
            continue
        sid = sids[j]
        # endpoint test first (two evaluations): by monotonicity the values at the ends of
        # the current window bound the score on it, which empties most columns without roots
        # (on the whole column the ends are the column extremes, which the range of
        # columns [t0, t1] has already used: skip the test there)
        e = 0
        if A[i] > 0 or B[i] < X:
            e = _ends(sid, axis, tf, A[i], B[i], p, n, b2s[j], lo[j], hi[j], d)
        if e == -1:
            A[i] = X + 1
            B[i] = -1
            break
        if e == 1:
            M[i] |= 1 << j
            continue
        r_lo = _root(sid, axis, tf, float(X), p, n, b2s[j], lo[j], d)
        r_hi = _root(sid, axis, tf, float(X), p, n, b2s[j], hi[j], d)
        if d > 0:
            ra, rb = r_lo, r_hi
        else:
            ra, rb = r_hi, r_lo
        # the ends: first the tight integer bounds of the estimated roots, then (if the
        # point just outside cannot be certified) the bounds widened by the slack
        ok = True
        if math.isfinite(ra):
            c0 = int(math.ceil(max(min(ra, 1e18), -1e18)))
            wa = max(0, min(X + 1, c0))
            if wa - 1 >= 0 and not _clearly_outside(sid, axis, tf, wa - 1, p, n, b2s[j], lo[j], hi[j], d > 0):
                wa = max(0, min(X + 1, c0 - slack))
                if wa - 1 >= 0:
                    ok = _clearly_outside(sid, axis, tf, wa - 1, p, n, b2s[j], lo[j], hi[j], d > 0)
        else:
            wa = 0
        if math.isfinite(rb):
            c1 = int(math.floor(max(min(rb, 1e18), -1e18)))
            wb = min(X, max(-1, c1))
            if ok and wb + 1 <= X and not _clearly_outside(sid, axis, tf, wb + 1, p, n, b2s[j], lo[j], hi[j], d <= 0):
                wb = min(X, max(-1, c1 + slack))
                if wb + 1 <= X:
                    ok = _clearly_outside(sid, axis, tf, wb + 1, p, n, b2s[j], lo[j], hi[j], d <= 0)
        else:
            wb = X
        if not ok:
            # whole column out of reach?  f(t, 0) and f(t, X) bound f(t, .) by monotonicity
            a, b = _pair(axis, tf, 0.0)
            v0 = _fval(sid, a, b, p, n, b2s[j], True)
            a, b = _pair(axis, tf, float(X))
            vX = _fval(sid, a, b, p, n, b2s[j], True)
            vmin, vmax = (v0, vX) if d > 0 else (vX, v0)
            if (math.isfinite(vmax) and vmax < lo[j] - MARGIN * max(1.0, abs(vmax))) or (
                math.isfinite(vmin) and vmin > hi[j] + MARGIN * max(1.0, abs(vmin))
            ):
                wa = X + 1
                wb = -1
            else:
                # the estimated ends could not be certified: find certified ends by bisection
                fell += 1
                wa, wb = _bisect_window(sid, axis, tf, d, p, n, b2s[j], lo[j], hi[j], X)
        if wa > A[i]:
            A[i] = wa
        if wb < B[i]:
            B[i] = wb
        if A[i] > B[i]:
            break
    return fell


@njit(cache=True, error_model="numpy", parallel=True)
def _window_columns_parallel(sids, lo, hi, b2s, dirs, axis, p, n, X, slack, t0, A, B, M):
    """:func:`_window_column` for every column, in parallel; returns the fallbacks."""
    nfall = 0
    for i in nb.prange(A.shape[0]):
        nfall += _window_column(sids, lo, hi, b2s, dirs, axis, p, n, X, slack, t0 + i, A, B, M, i)
    return nfall


@njit(cache=True, error_model="numpy")
def _columns(sids, lo, hi, b2s, dirs, dirs_t, axis, p, n, T, X):
    """The columns [t0, t1] outside which no score can be reached (t1 < t0: none)."""
    t0, t1 = 0, T
    for j in range(sids.shape[0]):
        ta, tb = _t_range(sids[j], axis, dirs[j], dirs_t[j], p, n, b2s[j], lo[j], hi[j], T, X)
        t0 = max(t0, ta)
        t1 = min(t1, tb)
    return t0, t1


#: At most this many columns are windowed and scanned at once: the five arrays of a block take
#: 5 * 8 * 2**22 bytes = 168 MB, whatever the size of the test set (HRF's 28 million columns
#: run in seven blocks; DRIVE's half million in one).
BLOCK_COLUMNS = 2**22


@njit(cache=True, error_model="numpy")
def _windows(sids, lo, hi, b2s, dirs, axis, p, n, X, t0, size):
    """Certified windows [A, B] of x for the columns t0, ..., t0 + size - 1 (intersection over the scores).

    Also a bit mask M per column of the scores proven surely inside on the whole window by the endpoint
    test (by monotonicity they hold on any part of it, so the scan need not evaluate them);
    returns (A, B, M, fallbacks).  Column i of the arrays is t0 + i.
    """
    nfall = 0
    slack = 2 + int(1e-9 * X)
    A = np.zeros(size, dtype=np.int64)
    B = np.full(size, X, dtype=np.int64)
    M = np.zeros(size, dtype=np.int64)  # bit j: score j proven inside on the whole window
    if size >= PARALLEL_COLUMNS:
        nfall = _window_columns_parallel(sids, lo, hi, b2s, dirs, axis, p, n, X, slack, t0, A, B, M)
    else:
        for i in range(size):
            nfall += _window_column(sids, lo, hi, b2s, dirs, axis, p, n, X, slack, t0 + i, A, B, M, i)
    return A, B, M, nfall


@njit(cache=True, error_model="numpy", inline="always")  # array arguments: no call overhead
def _state(sids, lo, hi, b2s, axis, t, x, p, n, mask):
    """The state of the point (t, x): +1 every score surely inside, -1 some surely outside, 0 undecided.

    An undefined score counts as outside; scores whose bit is set in ``mask`` are known to be
    inside and are not evaluated.
    """
    a, b = _pair(axis, float(t), float(x))
    state = 1
    for j in range(sids.shape[0]):
        if (mask >> j) & 1:
            continue
        st = _status(_fval(sids[j], a, b, p, n, b2s[j], False), lo[j], hi[j])
        if st == -1:
            return -1
        if st == 0:
            state = 0
    return state


@njit(cache=True, error_model="numpy", inline="always")  # array arguments: no call overhead
def _record(state, axis, t, x, sol, nsol, amb, namb):
    ia, ib = _pair(axis, t, x)
    if state == 1:
        if nsol < sol.shape[0]:
            sol[nsol, 0] = ia
            sol[nsol, 1] = ib
        nsol += 1
    elif state == 0:
        if namb < amb.shape[0]:
            amb[namb, 0] = ia
            amb[namb, 1] = ib
        namb += 1
    return nsol, namb


@njit(cache=True, error_model="numpy")
def _pt_hole(has_pt, axis, t, p, n):
    """The x of column t where pt is undefined (tp * n == fp * p), or -1 if none."""
    if not has_pt:
        return -1
    ip, i_n = int(p), int(n)
    if axis == 0:  # t = tp: fp = tp n / p, tn = n - fp
        if (t * i_n) % ip != 0:
            return -1
        return i_n - (t * i_n) // ip
    # t = tn: fp = n - tn fixed, tp = fp p / n
    fp = i_n - t
    if (fp * ip) % i_n != 0:
        return -1
    return (fp * ip) // i_n


@njit(cache=True, error_model="numpy", inline="always")
def _scan_column(sids, lo, hi, b2s, axis, t, a, b, m, p, n, has_pt, sol, nsol, amb, namb):
    """Screen the window [a, b] of column t (see :func:`_scan`); returns (nsol, namb).

    Points are stored while ``sol`` / ``amb`` have room: empty arrays only count.
    """
    max_store = sol.shape[0]
    hole = _pt_hole(has_pt, axis, t, p, n)  # pt is undefined there: never a solution
    # walk up from a, screening and recording, to the first point a1 surely inside
    x = a
    a1 = -1
    if b - a >= 16:  # (a narrow window is screened point by point)
        while x <= b:
            st = -1 if x == hole else _state(sids, lo, hi, b2s, axis, t, x, p, n, m)
            nsol, namb = _record(st, axis, t, x, sol, nsol, amb, namb)
            x += 1
            if st == 1:
                a1 = x - 1
                break
    if 0 <= a1 < b:
        # walk down from b (evaluating only) to the last point b1 surely inside
        y = b
        while y > a1 and (y == hole or _state(sids, lo, hi, b2s, axis, t, y, p, n, m) != 1):
            y -= 1
        if y > a1:
            # (a1, y): every point is a solution, except where pt is undefined (tpr = fpr);
            # the first ones are stored, the rest only counted
            z = a1 + 1
            while z < y and nsol < max_store:
                if z != hole:
                    nsol, namb = _record(1, axis, t, z, sol, nsol, amb, namb)
                z += 1
            if z < y:
                nsol += (y - z) - (1 if z <= hole < y else 0)
            nsol, namb = _record(1, axis, t, y, sol, nsol, amb, namb)
            x = y + 1  # (y, b] is screened below
    for z in range(x, b + 1):
        st = -1 if z == hole else _state(sids, lo, hi, b2s, axis, t, z, p, n, m)
        nsol, namb = _record(st, axis, t, z, sol, nsol, amb, namb)
    return nsol, namb


@njit(cache=True, error_model="numpy", parallel=True)
def _count_columns_parallel(sids, lo, hi, b2s, axis, p, n, A, B, M, has_pt, t0):
    """Sure solutions and undecided points of every column, columns in parallel."""
    T = A.shape[0]
    none = np.empty((0, 2), dtype=np.int64)
    cs = np.zeros(T, dtype=np.int64)
    ca = np.zeros(T, dtype=np.int64)
    for t in nb.prange(T):
        if A[t] <= B[t]:
            cs[t], ca[t] = _scan_column(
                sids, lo, hi, b2s, axis, t0 + t, A[t], B[t], M[t], p, n, has_pt, none, 0, none, 0
            )
    return cs, ca


@njit(cache=True, error_model="numpy")
def _count_columns(sids, lo, hi, b2s, axis, p, n, A, B, M, has_pt, t0):
    """:func:`_count_columns_parallel` on one thread (few columns)."""
    T = A.shape[0]
    none = np.empty((0, 2), dtype=np.int64)
    cs = np.zeros(T, dtype=np.int64)
    ca = np.zeros(T, dtype=np.int64)
    for t in range(T):
        if A[t] <= B[t]:
            cs[t], ca[t] = _scan_column(
                sids, lo, hi, b2s, axis, t0 + t, A[t], B[t], M[t], p, n, has_pt, none, 0, none, 0
            )
    return cs, ca


@njit(cache=True, error_model="numpy")
def _scan(sids, lo, hi, b2s, axis, p, n, A, B, M, t0, max_store, max_amb):
    """Screen every candidate of the windows.

    Sure solutions are counted (the first ``max_store`` kept), undecided ones returned
    for the exact check.

    Within a column every score is monotone in x and defined between the ends,
    except pt at the one point where tpr = fpr (its continuous extension is
    monotone).  So once a point a1 from the left and a point b1 from the right
    are surely inside for every score, every point between them is a solution
    without evaluation (minus pt's hole, never a solution); only the few points
    at the ends of a window are screened, and only for the scores the windows
    did not already prove inside (mask ``M``); column i of the windows is t0 + i.  Columns are counted (in
    parallel when there are at least :data:`PARALLEL_COLUMNS`); those whose
    points must be stored are screened again, in order.
    """
    has_pt = False
    for j in range(sids.shape[0]):
        if sids[j] == PT:
            has_pt = True
    T = A.shape[0]
    if T >= PARALLEL_COLUMNS:
        cs, ca = _count_columns_parallel(sids, lo, hi, b2s, axis, p, n, A, B, M, has_pt, t0)
    else:
        cs, ca = _count_columns(sids, lo, hi, b2s, axis, p, n, A, B, M, has_pt, t0)
    # storing pass, in order, over the columns that have something to store
    sol = np.empty((max_store, 2), dtype=np.int64)
    amb = np.empty((max_amb, 2), dtype=np.int64)
    nsol = 0
    namb = 0
    for t in range(T):
        if (cs[t] > 0 and nsol < max_store) or (ca[t] > 0 and namb < max_amb):
            nsol, namb = _scan_column(
                sids, lo, hi, b2s, axis, t0 + t, A[t], B[t], M[t], p, n, has_pt, sol, nsol, amb, namb
            )
        else:
            nsol += cs[t]
            namb += ca[t]
    return nsol, sol[: min(nsol, max_store)], namb, amb[: min(namb, max_amb)]
