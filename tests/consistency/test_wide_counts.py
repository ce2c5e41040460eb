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
from sotalib.consistency import _scores as scores_mod
from sotalib.consistency import _single as single
from sotalib.consistency import _single_kernel as kernel
from sotalib.consistency._scores import score_float, score_value
from sotalib.consistency._single import MAX_COUNT

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


# ---------------------------------------------------------------- an independent reference: Table 2, exact, brute force
# Nothing in this section calls sotalib.  The scores are written from their definitions (Fazekas & Kovacs,
# Table 2), each compared with a bound in exact rational arithmetic (fractions.Fraction; the four with a square
# root through squares, their signs apart); a reported value's interval is built from the rule the checks
# document (sotalib.consistency._intervals: the exact decimal written, +- half a unit of its last decimal,
# widened by a relative 1e-12); and the solutions are found by trying every (tp, tn): the whole grid on small
# sets, on wide ones every tn of each column that a linear score (acc, spec or bacc, solved for tn from its
# definition) allows.  No monotonicity, bisection or column logic of the checks is used.

Q = Fraction

#: The ranges a reported base score may take (a value outside is refused).
_SIGNED = ("mk", "bm", "mcc", "kappa")
_RATIOS = ("lrp", "lrn", "dor")


def _root_sign(s, q, c):
    """sign(s sqrt(q) - c) for s in {-1, 0, 1}, a rational q >= 0 and a rational c, exactly."""
    if s == 0 or q == 0:
        return (0 > c) - (0 < c)
    if s > 0:
        return 1 if c < 0 else (q > c * c) - (q < c * c)
    return -1 if c >= 0 else (c * c > q) - (c * c < q)


def _q(a, b):
    """a / b exactly, None when b = 0."""
    return None if b == 0 else Q(a) / Q(b)


def _rational(base, tp, tn, p, n, beta):  # noqa: C901 (one line per score of Table 2)
    """The rational scores of Table 2, exactly; None where undefined."""
    fp, fn = n - tn, p - tp
    b2 = Q(beta) ** 2
    if base == "acc":
        return _q(tp + tn, p + n)
    if base == "sens":
        return _q(tp, p)
    if base == "spec":
        return _q(tn, n)
    if base == "ppv":
        return _q(tp, tp + fp)
    if base == "npv":
        return _q(tn, tn + fn)
    if base == "fbp":
        return _q((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    if base == "fbn":
        return _q((1 + b2) * tn, (1 + b2) * tn + b2 * fp + fn)
    if base == "upm":
        return _q(4 * tp * tn, 4 * tp * tn + (tp + tn) * (fp + fn))
    if base == "mk":  # ppv + npv - 1
        return None if 0 in (tp + fp, tn + fn) else Q(tp, tp + fp) + Q(tn, tn + fn) - 1
    if base == "bm":  # sens + spec - 1
        return Q(tp, p) + Q(tn, n) - 1
    if base == "lrp":  # sens / (1 - spec)
        return _q(Q(tp, p), Q(fp, n))
    if base == "lrn":  # (1 - sens) / spec
        return _q(Q(fn, p), Q(tn, n))
    if base == "dor":
        return _q(tp * tn, fp * fn)
    if base == "ji":
        return _q(tp, tp + fp + fn)
    if base == "bacc":  # (sens + spec) / 2
        return (Q(tp, p) + Q(tn, n)) / 2
    if base == "kappa":  # (acc - pe) / (1 - pe), pe the chance agreement
        pe = Q((tp + fp) * p + (tn + fn) * n, (p + n) ** 2)
        return _q(Q(tp + tn, p + n) - pe, 1 - pe)
    raise KeyError(base)


_ROOTS = ("gm", "fm", "mcc", "pt")


def _definition(base, tp, tn, p, n, beta=1):
    """``(approximate value, sign(value - c) as a function of c)``, or None where the score is undefined."""
    if base not in _ROOTS:
        v = _rational(base, tp, tn, p, n, beta)
        return None if v is None else (float(v), lambda c: (v > c) - (v < c))
    fp, fn = n - tn, p - tp
    if base == "gm":  # sqrt(sens spec)
        q = Q(tp * tn, p * n)
        return math.sqrt(q), lambda c: _root_sign(1, q, c)
    if base == "fm":  # sqrt(ppv sens)
        if tp + fp == 0:
            return None
        q = Q(tp * tp, (tp + fp) * p)
        return math.sqrt(q), lambda c: _root_sign(1, q, c)
    if base == "mcc":  # (tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))
        m = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        if m == 0:
            return None
        d = tp * tn - fp * fn
        s, q = (d > 0) - (d < 0), Q(d * d, m)
        return s * math.sqrt(q), lambda c: _root_sign(s, q, c)
    if base == "pt":  # (sqrt(tpr fpr) - fpr) / (tpr - fpr), undefined where tpr = fpr
        tpr, fpr = Q(tp, p), Q(fp, n)
        if tpr == fpr:
            return None
        if fpr == 0:
            return 0.0, lambda c: (0 > c) - (0 < c)
        # = 1 / (1 + sqrt(r)), r = tpr / fpr: above c > 0 exactly when sqrt(r) < 1/c - 1
        r = tpr / fpr
        return 1 / (1 + math.sqrt(r)), lambda c: 1 if c <= 0 else -_root_sign(1, r, 1 / c - 1)
    raise KeyError(base)


def _interval(text, decimals):
    """The closed interval of the true value of a score reported as ``text`` with ``decimals`` decimals."""
    v = Q(text)  # the exact decimal written
    half, slack = Q(1, 2 * 10**decimals), Q(1, 10**12) * max(1, abs(v))
    return v - half - slack, v + half + slack


def _in_range(base, v):
    if base in _SIGNED:
        return -1 <= v <= 1
    return 0 <= v and (base in _RATIOS or v <= 1)


def _member(base, lo, hi, tp, tn, p, n):
    d = _definition(base, tp, tn, p, n)
    return d is not None and d[1](lo) >= 0 and d[1](hi) <= 0


def _base(name):
    return "fbp" if name == "f1" else name


def _report(names, tp, tn, p, n, decimals, shift):
    """A report of (tp, tn) rounded to ``decimals``, each value moved by ``shift`` units; None if undefined."""
    out = {}
    for name in names:
        d = _definition(_base(name), tp, tn, p, n)
        if d is None or not math.isfinite(d[0]):
            return None
        out[name] = f"{round(d[0] + shift * 10.0**-decimals, decimals):.{decimals}f}"
    return out


def _reference(p, n, report, decimals, columns):
    """Every (tp, tn) reproducing the report, in lexicographic order: ``columns(tp)`` gives the tn to try."""
    bounds = [(_base(k), *_interval(v, decimals)) for k, v in report.items()]
    return [
        (tp, tn)
        for tp in range(p + 1)
        for tn in columns(tp)
        if all(_member(b, lo, hi, tp, tn, p, n) for b, lo, hi in bounds)
    ]


def test_the_reference_against_hand_computed_values():
    # Table 2 at tp 78, tn 178 of p 100, n 200 (fp 22, fn 22), worked by hand
    tp, tn, p, n = 78, 178, 100, 200
    want = {
        "acc": Q(256, 300),
        "sens": Q(78, 100),
        "spec": Q(89, 100),
        "ppv": Q(78, 100),
        "npv": Q(89, 100),
        "fbp": Q(156, 200),
        "fbn": Q(356, 400),
        "upm": Q(4 * 78 * 178, 4 * 78 * 178 + 256 * 44),
        "mk": Q(67, 100),
        "bm": Q(67, 100),
        "lrp": Q(78, 11),  # 0.78 / 0.11
        "lrn": Q(22, 89),  # 0.22 / 0.89
        "dor": Q(78 * 178, 22 * 22),
        "ji": Q(78, 122),
        "bacc": Q(835, 1000),
        "kappa": Q(67, 100),  # (acc - pe) / (1 - pe), pe = (100 * 100 + 200 * 200) / 300**2 = 5/9
        "mcc": Q(78 * 178 - 22 * 22, 20000),  # sqrt(100 * 100 * 200 * 200) = 20000
    }
    tiny = Q(1, 10**30)
    for base, v in want.items():
        approx, sign = _definition(base, tp, tn, p, n)
        assert (sign(v), sign(v - tiny), sign(v + tiny)) == (0, 1, -1), base
        assert approx == pytest.approx(float(v), rel=1e-15), base
    gm, fm = _definition("gm", tp, tn, p, n)[1], _definition("fm", tp, tn, p, n)[1]
    assert gm(Q(833, 1000)) == 1 and gm(Q(834, 1000)) == -1  # sqrt(0.78 * 0.89) = 0.8332
    assert fm(Q(78, 100)) == 0  # sqrt(0.78 * 0.78)
    assert _definition("mcc", 0, 0, 2, 2)[1](Q(-1)) == 0  # every prediction wrong
    assert _definition("pt", 4, 7, 8, 8)[1](Q(1, 3)) == 0  # tpr 1/2, fpr 1/8: sqrt(1/8) / (sqrt(1/2) + sqrt(1/8))
    assert _definition("pt", 4, 8, 8, 8)[1](Q(0)) == 0  # fpr 0
    # undefined: pt where tpr = fpr, ppv without a predicted positive, mcc with an empty margin
    assert _definition("pt", 4, 4, 8, 8) is None and _definition("ppv", 0, 8, 8, 8) is None
    assert _definition("mcc", 0, 8, 8, 8) is None and _definition("lrn", 3, 0, 8, 8) is None
    assert _interval("0.25", 2) == (Q(245, 1000) - Q(1, 10**12), Q(255, 1000) + Q(1, 10**12))
    assert _interval("12.5", 1) == (Q(1245, 100) - Q(125, 10**13), Q(1255, 100) + Q(125, 10**13))


# ---------------------------------------------------------------- the wide path against the reference
WIDE_SCORES = ("acc", "sens", "spec", "bacc", "f1", "ji", "gm", "mcc", "kappa", "upm", "ppv", "npv", "fm", "pt")
#: Linear scores whose interval is solved for tn exactly from the definition: each report holds one.
ANCHORS = ("acc", "spec", "bacc")
#: At most about this many (tp, tn) are tried per example (an anchor allows (p + n) / 10**decimals tn per
#: column, bacc twice as many): with 4 decimals only p = 1, and n up to 10**8.
CELLS = 40_000


def _anchor_window(anchor, lo, hi, tp, p, n):
    """The tn of column ``tp`` whose anchor score lies in [lo, hi], solved from its definition."""
    if anchor == "acc":  # (tp + tn) / (p + n)
        a, b = lo * (p + n) - tp, hi * (p + n) - tp
    elif anchor == "spec":  # tn / n
        a, b = lo * n, hi * n
    else:  # bacc = (tp / p + tn / n) / 2
        a, b = (2 * lo - Q(tp, p)) * n, (2 * hi - Q(tp, p)) * n
    return max(0, math.ceil(a)), min(n, math.floor(b))


@st.composite
def _wide_cases(draw):
    decimals = draw(st.integers(4, 12))
    p = draw(st.integers(1, max(1, min(24, CELLS * 10**decimals // 2**27 - 1))))
    n = draw(st.integers(2**26, min(2**31 - 24, CELLS * 10**decimals // (2 * (p + 1)))))
    anchor = draw(st.sampled_from(ANCHORS))
    others = draw(
        st.lists(st.sampled_from([s for s in WIDE_SCORES if s != anchor]), min_size=1, max_size=2, unique=True)
    )
    tp, tn = round(draw(st.floats(0.0, 1.0)) * p), round(draw(st.floats(0.0, 1.0)) * n)
    shift = draw(st.sampled_from((0, 0, -1, 1, -2, 2)))  # a third of the reports as computed
    return p, n, tp, tn, [anchor, *others], decimals, shift


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_wide_cases())
def test_wide_path_equals_exact_reference(case):
    p, n, tp, tn, names, decimals, shift = case
    report = _report(names, tp, tn, p, n, decimals, shift)
    if report is None:
        return
    if not all(_in_range(_base(k), Q(v)) for k, v in report.items()):  # shifted out of the score's range
        with pytest.raises(ValueError, match=r"must be in \["):
            check_single(p, n, report, decimals=decimals)
        return
    anchor, (lo, hi) = names[0], _interval(report[names[0]], decimals)

    def columns(t):
        a, b = _anchor_window(anchor, lo, hi, t, p, n)
        # the window is the anchor's solution set: one step outside it the anchor fails
        assert not any(_member(anchor, lo, hi, t, x, p, n) for x in (a - 1, b + 1) if 0 <= x <= n)
        return range(a, b + 1)

    want = _reference(p, n, report, decimals, columns)
    r = check_single(p, n, report, decimals=decimals, max_solutions=1000)
    assert r.n_solutions == len(want), report
    assert r.evidence.tolist() == [list(s) for s in want[:1000]], report
    assert r.consistent == bool(want)
    if shift == 0:
        assert (tp, tn) in want  # the true confusion matrix reproduces its own report


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
    # with no undecided point allowed, every column goes through the exact bisection of _exact_column;
    # the reference tries every (tp, tn) of the grid
    tp, tn = round(ft * p), round(fu * n)
    report = _report(names, tp, tn, p, n, decimals, shift)
    if report is None:
        return
    if not all(_in_range(k, Q(v)) for k, v in report.items()):  # shifted out of the score's range
        with pytest.raises(ValueError, match=r"must be in \["):
            check_single(p, n, report, decimals=decimals)
        return
    want = _reference(p, n, report, decimals, lambda _tp: range(n + 1))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(single, "MAX_UNDECIDED", -1)
        r = check_single(p, n, report, decimals=decimals)
    assert r.n_solutions == len(want), (report, r.evidence.tolist(), want)
    assert r.evidence.tolist() == [list(x) for x in want]
    assert r.to_dict() == check_single(p, n, report, decimals=decimals).to_dict()
    if shift == 0:
        assert (tp, tn) in want  # the true confusion matrix reproduces its own report
