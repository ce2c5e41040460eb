"""Single test set and Score of Means (Sections 3, 4.2): paper numbers, brute force, properties."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib.consistency import (
    SCORES,
    all_scores,
    check_single,
    check_som,
    diagnose,
    power_oversampling,
    stratified_folds,
)

# private: the intervals of a report, the score kernels and the fast interval worker (against its brute force)
# are the subjects of their tests
from sotalib.consistency._intervals import FLOAT_SLACK, score_intervals
from sotalib.consistency._scores import score_float, score_value
from sotalib.consistency._single import brute_force, check_intervals

PAPER_33 = {"acc": 0.6801, "npv": 0.9401, "f1": 0.4004}


def test_section_32_interval_example():
    # p = 40, n = 70, acc 0.927 at 3 decimals, tp = 30: tn in [71.86, 72.08] -> 72
    lo, hi = 0.926 * 110 - 30, 0.928 * 110 - 30
    assert (round(lo, 2), round(hi, 2)) == (71.86, 72.08)
    r = check_single(40, 70, {"acc": 0.927}, eps=0.001)
    # ... but tn = 72 exceeds n = 70: tp = 30 is not possible at all; tp = 32..40 are
    assert [tn for tp, tn in r.evidence.tolist() if tp == 30] == []
    assert r.evidence.tolist() == [[tp, 102 - tp] for tp in range(32, 41)]


def test_section_33_as_printed_is_inconsistent():
    r = check_single(1000, 6000, PAPER_33, eps=1e-4)
    assert not r.consistent and r.n_solutions == 0
    # an independent scan of all 7e6 pairs finds nothing within eps (+1e-9)
    tp, tn = np.meshgrid(np.arange(1001), np.arange(6001), indexing="ij")
    ok = np.ones(tp.shape, bool)
    for base, v in (("acc", 0.6801), ("npv", 0.9401), ("fbp", 0.4004)):
        f, d = score_float(base, tp, tn, 1000, 6000)
        ok &= d & (np.abs(np.where(d, f, 9.0) - v) <= 1e-4 + 1e-9)
    assert not ok.any()
    # the pairs the paper names give acc 0.6820 and 0.6821, not 0.6801
    assert all_scores(743, 4031, 1000, 6000)["acc"] == pytest.approx(0.6820, abs=5e-5)
    assert all_scores(743, 4032, 1000, 6000)["acc"] == pytest.approx(0.68214, abs=5e-6)
    # npv and f1 alone admit exactly the two pairs the paper names
    r2 = check_single(1000, 6000, {"npv": 0.9401, "f1": 0.4004}, eps=1e-4)
    assert r2.evidence.tolist() == [[743, 4031], [743, 4032]]
    # with acc 0.6821 the paper's statement holds
    r3 = check_single(1000, 6000, {**PAPER_33, "acc": 0.6821}, eps=1e-4)
    assert r3.evidence.tolist() == [[743, 4031], [743, 4032]]


@pytest.mark.parametrize("change", [{"acc": 0.6811}, {"p": 1100}])
def test_section_33_perturbations_inconsistent(change):
    scores = {**PAPER_33, "acc": 0.6821}
    p = change.get("p", 1000)
    if "acc" in change:
        scores["acc"] = change["acc"]
    assert not check_single(p, 6000, scores, eps=1e-4).consistent


def test_typo_finder_finds_the_accuracy_typo():
    sug = diagnose(1000, 6000, PAPER_33, eps=1e-4)
    by = {s.score: s for s in sug}
    assert set(by) == {"acc", "npv"}  # f1 would need 0.4004 -> 0.3993: no typo
    assert by["acc"].example == (743, 4031) and by["acc"].suggested == 0.6821
    for s in sug:  # every proposal really is consistent
        fixed = {**PAPER_33, s.score: s.suggested}
        assert check_single(1000, 6000, fixed, eps=1e-4).consistent


def test_intervals_of_rounding_modes():
    def iv(mode):
        (i,) = score_intervals({"acc": "0.93"}, decimals=2, rounding=mode)
        return float(i.lo), float(i.hi)

    s = 1e-12
    assert iv("round") == pytest.approx((0.925 - s, 0.935 + s), abs=1e-15)
    assert iv("floor") == pytest.approx((0.93 - s, 0.94 + s), abs=1e-15)
    assert iv("ceil") == pytest.approx((0.92 - s, 0.93 + s), abs=1e-15)
    assert iv("any") == pytest.approx((0.92 - s, 0.94 + s), abs=1e-15)
    (e,) = score_intervals({"error_rate": "0.07"}, eps=0.005)
    assert (e.lo, e.hi) == (Fraction(925, 1000) - FLOAT_SLACK, Fraction(935, 1000) + FLOAT_SLACK)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"scores": {"acc": 1.2}, "eps": 1e-3}, "acc must be in"),
        ({"scores": {"foo": 0.5}, "eps": 1e-3}, "score must be one of"),
        ({"scores": {"acc": 0.5}}, "exactly one of eps"),
        ({"scores": {"acc": 0.5}, "decimals": 3, "rounding": "up"}, "rounding must be one of"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_single(10, 10, **kwargs)


def _has(solutions, tp, tn):
    return bool(np.any((solutions[:, 0] == tp) & (solutions[:, 1] == tn)))


def _report(p, n, tp, tn, names, d, mode, beta=1.0):
    """Scores as an author would report them: float value, then rounded/floored/ceiled."""
    out = {}
    for s in names:
        v = score_value(s, tp, tn, p, n, beta)
        if v is None or abs(v) > 1e6:
            continue
        x = v * 10**d
        r = {"round": round(x), "floor": math.floor(x), "ceil": math.ceil(x)}[mode]
        out[s] = f"{r / 10**d:.{d}f}"
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fast_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        p, n = (int(x) for x in rng.integers(1, 30, 2))
        names = list(rng.choice(SCORES, size=int(rng.integers(1, 4)), replace=False))
        d = int(rng.integers(1, 4))
        mode = ["round", "floor", "ceil", "any"][int(rng.integers(0, 4))]
        if rng.random() < 0.5:  # a true report
            scores = _report(
                p,
                n,
                int(rng.integers(0, p + 1)),
                int(rng.integers(0, n + 1)),
                names,
                d,
                "round" if mode == "any" else mode,
            )
        else:  # arbitrary numbers, mostly inconsistent
            scores = {s: f"{rng.uniform(0, 1):.{d}f}" for s in names}
        if not scores:
            continue
        ivs = score_intervals(scores, decimals=d, rounding=mode)
        fast = check_intervals(p, n, ivs)
        ref = brute_force(p, n, ivs)
        assert fast.consistent == (len(ref) > 0)
        assert fast.n_solutions == len(ref)
        assert np.array_equal(fast.evidence, ref)


@pytest.mark.parametrize("seed", range(4))
def test_fast_equals_brute_force_wide_windows(seed):
    # one or two decimals on columns of 40-120 points: windows hold many solutions, so the
    # kernel's shortcuts (t-range bisection, endpoint test, bulk interior of a window) all fire
    rng = np.random.default_rng(100 + seed)
    for _ in range(4):
        p, n = (int(x) for x in rng.integers(40, 120, 2))
        names = list(rng.choice([s for s in SCORES if s != "pt"], size=int(rng.integers(1, 3)), replace=False))
        d = int(rng.integers(1, 3))
        scores = _report(p, n, int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1)), names, d, "round")
        if not scores:
            continue
        ivs = score_intervals(scores, decimals=d)
        fast = check_intervals(p, n, ivs)
        ref = brute_force(p, n, ivs)
        assert fast.n_solutions == len(ref) > 0
        assert np.array_equal(fast.evidence, ref)


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    p=st.integers(1, 400),
    n=st.integers(1, 400),
    units=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=10, max_size=10),
    names=st.lists(st.sampled_from(SCORES), min_size=1, max_size=4, unique=True),
    d=st.integers(2, 6),
    mode=st.sampled_from(["round", "floor", "ceil"]),
)
def test_property_true_report_never_inconsistent(p, n, units, names, d, mode):
    # 1,000 examples x 10 confusion matrices = 10^4 true reports
    for ut, un in units:
        tp, tn = round(ut * p), round(un * n)
        scores = _report(p, n, tp, tn, names, d, mode)
        if not scores:
            continue
        r = check_single(p, n, scores, decimals=d, rounding=mode)
        assert r.consistent
        assert _has(r.evidence, tp, tn)


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    folds=st.lists(st.tuples(st.integers(1, 60), st.integers(1, 60)), min_size=2, max_size=10),
    seed=st.integers(0, 2**32 - 1),
    names=st.lists(st.sampled_from(SCORES), min_size=1, max_size=3, unique=True),
    d=st.integers(2, 6),
    mode=st.sampled_from(["round", "floor", "ceil"]),
)
def test_property_som_never_inconsistent(folds, seed, names, d, mode):
    rng = np.random.default_rng(seed)
    tps = [int(rng.integers(0, p + 1)) for p, _ in folds]
    tns = [int(rng.integers(0, n + 1)) for _, n in folds]
    P, N = sum(f[0] for f in folds), sum(f[1] for f in folds)
    scores = _report(P, N, sum(tps), sum(tns), names, d, mode)  # Eq. 7: SoM = score of the totals
    if not scores:
        return
    r = check_som(folds, scores, decimals=d, rounding=mode)
    assert r.consistent and _has(r.evidence, sum(tps), sum(tns))


def test_large_test_set_true_pair_found():
    p, n = 577649, 3960494  # DRIVE-like pixel counts
    tp, tn = 451_234, 3_900_017
    for names in (["acc", "sens", "spec"], ["fbp", "mcc"], ["mk", "upm", "pt"], ["dor", "lrp", "kappa"]):
        scores = _report(p, n, tp, tn, names, 4, "round")
        r = check_single(p, n, scores, decimals=4)
        assert [tp, tn] in r.evidence.tolist()
        assert r.fallbacks < 100


def test_fig3_power_simulation_reduced_and_cached():
    # reduced run of the cached Figure 3 simulation (same seeds, first 25 replications): at four
    # decimals accuracy alone must catch every replication whose interval x 300 holds no integer
    from sotalib.book.ch06_consistency import FIG3_SEED, fig3_power

    pt = power_oversampling(4, n_resamples=25, rng=FIG3_SEED + 4)
    rng = np.random.default_rng(FIG3_SEED + 4)
    folds = stratified_folds(262, 262, 5)
    no_integer = 0
    for _ in range(25):
        tps = [int(rng.binomial(a, 0.9139)) for a, _ in folds]
        tns = [int(rng.binomial(b, 0.9733)) for _, b in folds]
        acc = float(np.mean([(t + u) / (a + b) for (a, b), t, u in zip(folds, tps, tns)]))
        v = round(acc, 4)
        no_integer += math.floor(300 * (v + 5e-5)) < math.ceil(300 * (v - 5e-5))
    assert pt.power * 25 >= no_integer >= 20
    # two decimals: nothing is detected, as in the cache
    assert power_oversampling(2, n_resamples=5, rng=FIG3_SEED + 2).power == 0.0
    cached = {p.decimals: p.power for p in fig3_power()}
    assert cached[2] == 0.0 and cached[4] >= 0.97
