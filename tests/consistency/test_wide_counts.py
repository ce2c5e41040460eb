"""Test sets above 2**26 items (HRF, DRISHTI-GS): the kernel's wide path against exact rational arithmetic.

Below ``WIDE`` = 2**26 every product of two counts is an exact float64 integer and the kernel uses float
products; above it, up to ``MAX_COUNT`` = 2**31, the differences of products that could cancel or tie are
taken in int64.  The two paths must agree wherever both apply, and the wide one must give exactly the
verdict and the solution count of an independent exact computation (Python's Fraction and integers).
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib.consistency import SCORES, check_single

# private: the kernel's two paths and its float evaluation are the subjects of these tests
from sotalib.consistency import _interval_kernel as kernel
from sotalib.consistency import _scores as scores_mod
from sotalib.consistency import _single as single
from sotalib.consistency._intervals import score_intervals
from sotalib.consistency._scores import exact_sign, score_float, score_value
from sotalib.consistency._single import MAX_COUNT, _dirs, brute_force

SMALL = st.integers(0, 2**26 - 1)


def test_limits():
    assert kernel.WIDE == scores_mod.WIDE == 2**26 and MAX_COUNT == 2**31
    # every product of two counts of a set at the limit fits in int64
    assert (MAX_COUNT // 2) ** 2 < MAX_COUNT * MAX_COUNT < 2**63


@settings(max_examples=300, deadline=None)
@given(SMALL, SMALL, SMALL, SMALL)
def test_both_paths_agree_below_2_26(a, b, c, d):
    fa, fb, fc, fd = map(float, (a, b, c, d))
    want = float(a * b - c * d)
    assert kernel._cross(fa, fb, fc, fd, True) == kernel._cross(fa, fb, fc, fd, False) == want
    arrs = [np.array([x], dtype=np.float64) for x in (fa, fb, fc, fd)]
    assert scores_mod._cross(*arrs, True)[0] == scores_mod._cross(*arrs, False)[0] == want


@settings(max_examples=200, deadline=None)
@given(st.integers(2**27, 2**31 - 1), st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_wide_cross_is_exact(total, fp_, ft, fu):
    p = max(1, int(fp_ * total))
    n = max(1, total - p)
    tp, tn = int(ft * p), int(fu * n)
    fp, fn = n - tn, p - tp
    assert kernel._cross(float(tp), float(tn), float(fp), float(fn), True) == float(tp * tn - fp * fn)
    assert kernel._cross(float(tp), float(n), float(fp), float(p), True) == float(tp * n - fp * p)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2**26 + 1, 2**31), st.floats(0.001, 0.999), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_float_values_are_within_far_less_than_the_margin(total, share, ft, fu):
    # the screen is sound if every float value is within MARGIN * max(1, |v|) of the exact one;
    # on the wide path it stays within 1e-13 of that (a hundredth of the margin)
    p = min(max(1, int(share * total)), total - 1)
    n = total - p
    tp, tn = int(ft * p), int(fu * n)
    for sid, base in enumerate(SCORES):
        exact = score_value(base, tp, tn, p, n)
        got = kernel._fval(sid, float(tp), float(tn), float(p), float(n), 1.0, False)
        if exact is None:
            assert not math.isfinite(got), base
            continue
        assert abs(got - exact) <= 1e-13 * max(1.0, abs(exact)), (base, got, exact)
        v, ok = score_float(base, [tp], [tn], p, n)
        assert ok[0] and abs(v[0] - exact) <= 1e-13 * max(1.0, abs(exact)), (base, v[0], exact)


def _float_tie():
    """(p, n, tp, tn): tp n - fp p = 1 exactly, while the two float64 products round to the same number."""
    p = 2**24 + 1
    for n in range(2**30, 2**30 + 1000):
        if math.gcd(p, n) != 1:
            continue
        tp = pow(n, -1, p)  # tp n = 1 (mod p)
        fp = (tp * n - 1) // p
        if tp * n > 2**54 and float(tp) * float(n) == float(fp) * float(p):
            assert tp * n - fp * p == 1 and 0 <= fp <= n
            return p, n, tp, n - fp
    raise AssertionError("no tie found")


def test_pt_is_defined_where_float_products_tie():
    p, n, tp, tn = _float_tie()
    pt = kernel._fval(kernel.PT, float(tp), float(tn), float(p), float(n), 1.0, False)
    assert math.isfinite(pt) and abs(pt - score_value("pt", tp, tn, p, n)) < 1e-15
    v, ok = score_float("pt", [tp], [tn], p, n)
    assert ok[0] and math.isfinite(v[0])
    # end to end: the true confusion matrix is among the solutions of its own report
    report = {"pt": f"{score_value('pt', tp, tn, p, n):.15f}", "sens": f"{tp / p:.12f}"}
    r = check_single(p, n, report, decimals=15, max_solutions=10**6)
    assert r.consistent and [tp, tn] in r.evidence.tolist()


# ---------------------------------------------------------------- the wide path against an exact reference
def _member(iv, tp, tn, p, n):
    return iv.contains_exact(tp, tn, p, n)


def _first_true(pred, a, b):
    """Smallest x in [a, b] with pred(x) True for a monotone pred (False ... False True ... True); b + 1 if none."""
    lo, hi = a, b + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _reference_count(p, n, intervals):
    """Number of (tp, tn) reproducing every interval, in exact arithmetic (for p <= n, few columns).

    In each column tp every score is monotone in tn (the kernel's premise, proven in the chapter), so on
    1 <= tn <= n - 1 -- where no score of this test is undefined, except pt at its one tie -- the values
    of tn above ``lo`` (below ``hi``) form a suffix or a prefix, found by bisection on exact signs; tn = 0
    and tn = n are tested one by one.
    """
    dirs = _dirs([iv.base for iv in intervals], 0)
    total = 0
    for tp in range(p + 1):
        a, b = 1, n - 1
        for iv, d in zip(intervals, dirs):
            beta = iv.spec.beta

            def sgn(tn, c, iv=iv, beta=beta, tp=tp):
                s = exact_sign(iv.base, tp, tn, p, n, c, beta)
                if s is None:  # pt at its tie: its continuous extension there is 1/2
                    return (Fraction(1, 2) > c) - (Fraction(1, 2) < c)
                return s

            if d == 0:  # constant in tn
                if not (sgn(1, iv.lo) >= 0 and sgn(1, iv.hi) <= 0):
                    a, b = 1, 0
                continue
            if d > 0:
                a = max(a, _first_true(lambda x: sgn(x, iv.lo) >= 0, 1, n - 1))
                b = min(b, _first_true(lambda x: sgn(x, iv.hi) > 0, 1, n - 1) - 1)
            else:
                a = max(a, _first_true(lambda x: sgn(x, iv.hi) <= 0, 1, n - 1))
                b = min(b, _first_true(lambda x: sgn(x, iv.lo) < 0, 1, n - 1) - 1)
        if a <= b:
            total += b - a + 1
            # pt is undefined at its tie tp n == fp p: never a solution
            if any(iv.base == "pt" for iv in intervals) and (tp * n) % p == 0:
                tie = n - tp * n // p
                total -= a <= tie <= b
        total += sum(all(_member(iv, tp, tn, p, n) for iv in intervals) for tn in (0, n))
    return total


WIDE_SCORES = ("acc", "sens", "spec", "bacc", "f1", "ji", "gm", "mcc", "kappa", "upm", "ppv", "npv", "fm", "pt")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    p=st.integers(1, 24),
    n=st.integers(2**26, 2**31 - 24),
    ft=st.floats(0.0, 1.0),
    fu=st.floats(0.0, 1.0),
    names=st.lists(st.sampled_from(WIDE_SCORES), min_size=1, max_size=3, unique=True),
    decimals=st.integers(4, 12),
    shift=st.integers(-2, 2),
)
def test_wide_path_equals_exact_reference(p, n, ft, fu, names, decimals, shift):
    tp, tn = round(ft * p), round(fu * n)
    values = {}
    for name in names:
        base = "fbp" if name == "f1" else name
        v = score_value(base, tp, tn, p, n)
        if v is None:
            return
        values[name] = round(v + shift * 10.0**-decimals, decimals)
    report = {k: f"{v:.{decimals}f}" for k, v in values.items()}
    try:
        intervals = score_intervals(report, decimals=decimals)
    except ValueError:  # shifted out of the score's range
        return
    r = check_single(p, n, report, decimals=decimals, max_solutions=1000)
    assert r.n_solutions == _reference_count(p, n, intervals), report
    assert r.consistent == (r.n_solutions > 0)
    assert all(all(iv.contains_exact(a, b, p, n) for iv in intervals) for a, b in r.evidence.tolist())
    if shift == 0:
        assert r.consistent  # the true confusion matrix reproduces its own report


@pytest.mark.parametrize("p,n", [(MAX_COUNT // 2, MAX_COUNT // 2), (1, MAX_COUNT - 1)])
def test_at_the_limit(p, n):
    # the largest sets the checks take: a report of a true confusion matrix is consistent, exactly
    tp, tn = p // 3, n - n // 7
    report = {"sens": f"{tp / p:.9f}", "spec": f"{tn / n:.9f}", "acc": f"{(tp + tn) / (p + n):.9f}"}
    r = check_single(p, n, report, decimals=9)
    assert r.consistent and [tp, tn] in r.evidence.tolist()
    with pytest.raises(ValueError, match=r"must be <= "):
        check_single(p, n + 1, report, decimals=9)


# ---------------------------------------------------------------- columns decided exactly, against brute force
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    p=st.integers(1, 9),
    n=st.integers(1, 30),
    ft=st.floats(0.0, 1.0),
    fu=st.floats(0.0, 1.0),
    names=st.lists(st.sampled_from(SCORES), min_size=1, max_size=3, unique=True),
    decimals=st.integers(1, 4),
    shift=st.integers(-1, 1),
)
def test_exact_columns_equal_brute_force(p, n, ft, fu, names, decimals, shift):
    # with no undecided point allowed, every column goes through the exact bisection of _exact_column
    tp, tn = round(ft * p), round(fu * n)
    report = {}
    for base in names:
        v = score_value(base, tp, tn, p, n)
        if v is None or not math.isfinite(v):
            return
        report[base] = f"{round(v + shift * 10.0**-decimals, decimals):.{decimals}f}"
    try:
        intervals = score_intervals(report, decimals=decimals)
    except ValueError:  # shifted out of the score's range
        return
    want = brute_force(p, n, intervals)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(single, "MAX_UNDECIDED", -1)
        r = check_single(p, n, report, decimals=decimals)
    assert r.n_solutions == len(want), (report, r.evidence.tolist(), want.tolist())
    assert r.evidence.tolist() == want.tolist()
    assert r.to_dict() == check_single(p, n, report, decimals=decimals).to_dict()
