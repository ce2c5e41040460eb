"""Mean of Scores (Section 4.3), fold configurations (Section 4.4) and TPEHG (Section 5.2)."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import StratifiedKFold

from sotalib.consistency import (
    aggregate_scores,
    check_mos,
    count_configurations,
    diagnose_mos,
    kfold_configurations,
    search_configurations,
    stratified_folds,
)

# private: the Mean of Scores worker on intervals is compared against brute force, and its solutions are
# verified by the exact rational check every public verdict relies on
from sotalib.consistency._intervals import score_intervals
from sotalib.consistency._mos import _verify, check_mos_intervals

TABLE5 = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]
TPEHG = {"acc": 0.9447, "sens": 0.9139, "spec": 0.9733}
EXAMPLE_FOLDS = [(1, 101), (4, 97), (40, 61), (99, 2), (100, 1)]
EXAMPLE_TPTN = [(1, 96), (3, 92), (38, 59), (90, 2), (96, 1)]


def test_section_433_feasible_and_infeasible():
    r = check_mos(TABLE5, {"acc": 0.8290, "sens": 0.7391, "spec": 0.8741}, eps=1e-4)
    assert r.status == "feasible" and len(r.evidence) == 1
    assert check_mos(TABLE5, {"acc": 0.8280, "sens": 0.7391, "spec": 0.8741}, eps=1e-4).status == "infeasible"


def test_eq10_fold_bounds_shrink_the_region():
    scores = {"acc": 0.8290, "sens": 0.7391, "spec": 0.8741}
    # Table 5a's accuracies range from 0.8033 to 0.8870 (fold 0: 267/301, fold 1: 256/300)
    ok = check_mos(TABLE5, scores, eps=1e-4, fold_min={"acc": 0.79}, fold_max={"acc": 0.89})
    assert ok.consistent
    bad = check_mos(TABLE5, scores, eps=1e-4, fold_min={"acc": 0.84}, fold_max={"acc": 0.85})
    assert bad.status == "infeasible"


def test_configuration_counts_of_the_paper():
    assert count_configurations(30, 300, 5) == 673
    assert count_configurations(38, 262, 5) == 1468
    assert count_configurations(38, 262, 5, positives_in_every_fold=True) == 918
    configs = {tuple(sorted(c)) for c in kfold_configurations(30, 300, 5)}
    assert tuple(sorted(zip([1, 2, 6, 9, 12], [65, 64, 60, 57, 54]))) in configs
    assert len(configs) == 673  # each multiset once


def test_configurations_equal_brute_force_enumeration():
    p, n, k = 7, 9, 3
    size = divmod(p + n, k)
    found = set()
    for ps in itertools.product(range(p + 1), repeat=k):
        if sum(ps) != p:
            continue
        for sizes in set(itertools.permutations([size[0] + 1] * size[1] + [size[0]] * (k - size[1]))):
            ns = [s - a for s, a in zip(sizes, ps)]
            if min(ns) < 0 or sum(a > 0 for a in ps) < 2 or sum(b > 0 for b in ns) < 2:
                continue
            found.add(tuple(sorted(zip(ps, ns))))
    assert found == {tuple(sorted(c)) for c in kfold_configurations(p, n, k)}


@pytest.mark.parametrize("p,n,k", [(38, 262, 5), (244, 262, 5), (7, 13, 3), (3, 4, 3), (11, 5, 4), (30, 300, 10)])
def test_stratified_matches_scikit_learn(p, n, k):
    y = np.r_[np.ones(p, int), np.zeros(n, int)]
    folds = sorted(
        (int(y[te].sum()), int(len(te) - y[te].sum())) for _, te in StratifiedKFold(k).split(np.zeros(p + n), y)
    )
    assert tuple(folds) == stratified_folds(p, n, k)


def test_tpehg_inconsistent_with_all_918_configurations():
    s = search_configurations(kfold_configurations(38, 262, 5, positives_in_every_fold=True), TPEHG, eps=1e-4)
    assert s.configurations_tested == 918 and s.n_feasible == 0 and not s.consistent
    # accuracy alone decides it: every fold has 60 records, 300 * [0.9446, 0.9448] holds no integer
    assert s.engines == {"integer-total": 918}


def test_tpehg_oversampled_example_configuration():
    ivs = score_intervals(TPEHG, eps=1e-4)
    assert _verify(EXAMPLE_FOLDS, EXAMPLE_TPTN, ivs, ())
    r = check_mos(EXAMPLE_FOLDS, TPEHG, eps=1e-4)
    assert r.status == "feasible" and _verify(EXAMPLE_FOLDS, r.evidence[0], ivs, ())
    assert sum(a for a, _ in EXAMPLE_FOLDS) == 244 and sum(b for _, b in EXAMPLE_FOLDS) == 262


def test_mos_rejects_nonlinear_scores():
    with pytest.raises(ValueError, match="Mean-of-Scores test supports"):
        check_mos(TABLE5, {"f1": 0.7}, eps=1e-3)


def _mean(folds, sol, base):
    vals = []
    for (p, n), (tp, tn) in zip(folds, sol):
        vals.append(
            {
                "acc": Fraction(tp + tn, p + n),
                "sens": Fraction(tp, p),
                "spec": Fraction(tn, n),
                "bacc": (Fraction(tp, p) + Fraction(tn, n)) / 2,
            }[base]
        )
    return sum(vals) / len(vals)


@pytest.mark.parametrize("seed", range(4))
def test_mos_equals_brute_force_on_tiny_problems(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        folds = [(int(rng.integers(1, 4)), int(rng.integers(1, 4))) for _ in range(int(rng.integers(2, 4)))]
        names = list(rng.choice(["acc", "sens", "spec", "bacc"], size=int(rng.integers(1, 3)), replace=False))
        d = int(rng.integers(1, 3))
        scores = {s: f"{rng.uniform(0, 1):.{d}f}" for s in names}
        ivs = score_intervals(scores, decimals=d)
        ranges = [range(p + 1) for p, _ in folds] + [range(n + 1) for _, n in folds]
        k = len(folds)
        brute = any(
            all(iv.lo <= _mean(folds, list(zip(x[:k], x[k:])), iv.base) <= iv.hi for iv in ivs)
            for x in itertools.product(*ranges)
        )
        assert check_mos_intervals(folds, ivs).consistent == brute


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    folds=st.lists(st.tuples(st.integers(1, 120), st.integers(1, 120)), min_size=2, max_size=10),
    seed=st.integers(0, 2**32 - 1),
    names=st.lists(st.sampled_from(["acc", "sens", "spec", "bacc"]), min_size=1, max_size=4, unique=True),
    d=st.integers(2, 6),
    mode=st.sampled_from(["round", "floor", "ceil"]),
)
def test_property_mos_never_inconsistent(folds, seed, names, d, mode):
    import math

    rng = np.random.default_rng(seed)
    sol = [(int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))) for p, n in folds]
    scores = {}
    for s in names:
        x = float(_mean(folds, sol, s)) * 10**d  # computed in float, as an author would
        r = {"round": round(x), "floor": math.floor(x), "ceil": math.ceil(x)}[mode]
        scores[s] = f"{r / 10**d:.{d}f}"
    res = check_mos(folds, scores, decimals=d, rounding=mode)
    assert res.consistent
    if res.evidence:
        assert _verify(tuple(folds), res.evidence[0], score_intervals(scores, decimals=d, rounding=mode), ())


def test_mos_typo_finder_section_433():
    scores = {"acc": "0.8280", "sens": "0.7391", "spec": "0.8741"}
    sug = diagnose_mos(TABLE5, scores, eps="0.0001")
    # the paper's feasible report differs from this one only in accuracy, by 0.001 (one digit);
    # the nearest plausible typo, 0.8287, is one digit away as well
    assert (sug[0].score, sug[0].suggested, sug[0].aggregation) == ("acc", 0.8287, "mos")
    assert check_mos(TABLE5, dict(scores, acc="0.8290"), eps="0.0001").status == "feasible"
    for s in sug:
        fixed = dict(scores, **{s.score: f"{s.suggested:.4f}"})
        r = check_mos(TABLE5, fixed, eps="0.0001")
        assert r.status == "feasible" and _verify(TABLE5, s.example, score_intervals(fixed, eps="0.0001"), ())
    assert diagnose_mos(TABLE5, dict(scores, acc="0.8290"), eps="0.0001") == []


@pytest.mark.parametrize("seed", range(3))
def test_mos_typo_finder_finds_a_perturbed_score(seed):
    rng = np.random.default_rng(seed)
    # three folds of one size: mean sensitivity moves in steps of 1 / (3 p) > 0.01, so a
    # mistyped third decimal is (almost always) inconsistent
    fold = (int(rng.integers(5, 30)), int(rng.integers(5, 30)))
    folds = [fold] * 3
    counts = [(int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))) for p, n in folds]
    mean = aggregate_scores(folds, counts)
    scores = {s: f"{mean[s][0]:.4f}" for s in ("acc", "sens", "spec")}
    # a plausible typo: the second-to-last digit mistyped (no carry)
    for delta in (0.002, -0.002, 0.003, -0.003, 0.005, -0.005, 0.007, -0.007):
        v = float(scores["sens"]) + delta
        wrong = dict(scores, sens=f"{v:.4f}")
        one_digit = sum(a != b for a, b in zip(wrong["sens"], scores["sens"])) == 1
        if one_digit and 0 <= v <= 1 and not check_mos(folds, wrong, decimals=4).consistent:
            break
    else:
        pytest.skip("no perturbation of sens makes this report inconsistent")
    sug = diagnose_mos(folds, wrong, decimals=4)
    assert any(s.score == "sens" for s in sug)
    for s in sug:
        assert check_mos(folds, dict(wrong, **{s.score: f"{s.suggested:.4f}"}), decimals=4).consistent


def test_a_count_in_no_constraint_is_decided_not_undecided():
    # Only sensitivity is reported, so no constraint involves the true negatives: the solver leaves
    # them without a value.  The report is feasible (sens 0.8 and 0.6 per fold, mean 0.70), and the
    # verdict must say so with per-fold evidence, not "undecided".
    import sotalib

    r = sotalib.check_report(
        scores={"sens": "0.7"},
        folds=[(10, 20), (10, 20)],
        decimals=2,
        aggregation="mos",
        fold_min={"sens": "0.6"},
        fold_max={"sens": "0.8"},
    )
    mos = r.to_dict()["details"]["mos"]
    assert r.consistent and mos["note"] == "feasible (ilp)"
    (tp1, _), (tp2, _) = mos["solutions"][0]
    assert 6 <= tp1 <= 8 and 6 <= tp2 <= 8 and round((tp1 + tp2) / 20, 2) == 0.70
