"""Mean of Scores over unknown fold configurations of (repeated) k-fold: one joint integer program."""

import itertools
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib.consistency import aggregate_scores, check_mos_kfold, count_configurations, kfold_configurations

# private: the joint integer program and its configuration count work on intervals; they are compared
# against the per-configuration worker, brute force and the exact verifier of a solution
from sotalib.consistency._intervals import score_intervals
from sotalib.consistency._mos import _verify, check_mos_intervals
from sotalib.consistency._mos_kfold import check_mos_kfold_intervals, count_kfold_configurations

TPEHG = {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}
LINEAR = ["acc", "sens", "spec", "bacc"]


def _flags(names):
    return dict(
        positives_in_every_fold=bool(set(names) & {"sens", "bacc"}),
        negatives_in_every_fold=bool(set(names) & {"spec", "bacc"}),
    )


@pytest.mark.parametrize("flags", [(False, False), (True, False), (False, True), (True, True)])
def test_count_equals_enumeration(flags):
    kw = dict(positives_in_every_fold=flags[0], negatives_in_every_fold=flags[1])
    for p, n, k in itertools.product(range(0, 13, 3), range(1, 15, 4), (2, 3, 5)):
        if p + n < k:
            continue
        assert count_kfold_configurations(p, n, k, **kw) == count_configurations(p, n, k, **kw)


def test_count_of_the_paper_and_of_the_oversampled_data():
    assert count_kfold_configurations(30, 300, 5) == 673
    assert count_kfold_configurations(38, 262, 5, positives_in_every_fold=True) == 918
    # p' = 244: far too many to enumerate one by one
    assert (
        count_kfold_configurations(244, 262, 5, positives_in_every_fold=True, negatives_in_every_fold=True) == 2_616_607
    )


def test_tpehg_single_and_repeated():
    # one repetition: the 918 configurations, all infeasible (as the enumeration finds)
    r1 = check_mos_kfold(38, 262, 5, TPEHG, eps="0.0001")
    assert r1.status == "infeasible" and r1.configurations_tested == 918
    # two repetitions: 600 * [0.9446, 0.9448] = [566.76, 566.88] holds no integer
    r2 = check_mos_kfold(38, 262, 5, TPEHG, eps="0.0001", repeats=2)
    assert r2.status == "infeasible" and r2.configurations_tested == math.comb(919, 2)
    # five repetitions: 1500 * [0.9446, 0.9448] contains 1417, and the solver finds a witness
    r5 = check_mos_kfold(38, 262, 5, TPEHG, eps="0.0001", repeats=5)
    assert r5.status == "feasible" and len(r5.configurations) == 5
    _check_evidence(r5, 38, 262, 5, TPEHG)


def test_tpehg_oversampled_feasible_with_evidence():
    r = check_mos_kfold(244, 262, 5, TPEHG, eps="0.0001")
    assert r.status == "feasible" and r.configurations_tested == 2_616_607
    _check_evidence(r, 244, 262, 5, TPEHG)


def _check_evidence(r, p, n, k, scores, tol=1e-4):
    for folds in r.configurations:
        assert len(folds) == k
        assert sum(f[0] for f in folds) == p and sum(f[1] for f in folds) == n
        assert sorted({sum(f) for f in folds}) in ([(p + n) // k], [(p + n) // k, (p + n) // k + 1])
    flat_f = [f for c in r.configurations for f in c]
    flat_s = [s for c in r.evidence[0] for s in c]
    mean = aggregate_scores(flat_f, flat_s)
    for name, v in scores.items():
        assert abs(mean[name][0] - float(v)) <= tol + 1e-12


def _any_configuration(p, n, k, intervals, names, repeats=1):
    """Reference: test every multiset of ``repeats`` configurations with the per-configuration MoS."""
    configs = list(kfold_configurations(p, n, k, **_flags(names)))
    for combo in itertools.combinations_with_replacement(configs, repeats):
        folds = [f for c in combo for f in c]
        if check_mos_intervals(folds, intervals).status != "infeasible":
            return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_single_repetition_equals_enumeration(seed):
    rng = np.random.default_rng(seed)
    for _ in range(8):
        p, n = (int(x) for x in rng.integers(3, 30, 2))
        k = int(rng.integers(2, 5))
        names = list(rng.choice(LINEAR, size=int(rng.integers(1, 4)), replace=False))
        d = int(rng.integers(2, 4))
        scores = {s: f"{rng.uniform(0.3, 1):.{d}f}" for s in names}
        ivs = score_intervals(scores, decimals=d)
        joint = check_mos_kfold_intervals([(p, n, k, 1)], ivs)
        assert joint.status != "undecided"
        assert joint.consistent == _any_configuration(p, n, k, ivs, names), (p, n, k, scores)


@pytest.mark.parametrize("seed", range(3))
def test_two_repetitions_equal_enumeration_of_pairs(seed):
    rng = np.random.default_rng(50 + seed)
    for _ in range(5):
        p, n = (int(x) for x in rng.integers(3, 14, 2))
        k = int(rng.integers(2, 4))
        names = list(rng.choice(LINEAR, size=int(rng.integers(1, 3)), replace=False))
        scores = {s: f"{rng.uniform(0.3, 1):.3f}" for s in names}
        ivs = score_intervals(scores, decimals=3)
        joint = check_mos_kfold_intervals([(p, n, k, 2)], ivs)
        assert joint.consistent == _any_configuration(p, n, k, ivs, names, repeats=2), (p, n, k, scores)


def test_regression_highs_presolve_false_infeasible():
    # HiGHS's MIP presolve called this feasible program infeasible; CBC must confirm infeasibility
    folds = [(12, 10), (11, 10), (13, 9), (10, 11)]  # two repetitions of 2-fold on p = 23, n = 20
    scores = {"acc": "0.552", "sens": "0.372", "spec": "0.769"}
    r = check_mos_kfold(23, 20, 2, scores, repeats=2, decimals=3)
    assert r.status == "feasible"
    _check_evidence(r, 23, 20, 2, scores, tol=5e-4)
    assert check_mos_intervals(folds, score_intervals(scores, decimals=3), solver="highs").status == "feasible"


def test_several_datasets():
    # two data sets, the mean over all their folds: the evidence adds up per data set
    ivs = score_intervals({"acc": "0.81", "sens": "0.62"}, decimals=2)
    r = check_mos_kfold_intervals([(20, 40, 3, 1), (15, 35, 5, 2)], ivs)
    assert r.status == "feasible" and len(r.configurations) == 3
    assert [sum(f[0] for f in c) for c in r.configurations] == [20, 15, 15]
    flat_f = [f for c in r.configurations for f in c]
    flat_s = [s for c in r.evidence[0] for s in c]
    assert _verify(flat_f, flat_s, ivs, ())


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    p=st.integers(5, 30),
    n=st.integers(5, 30),
    k=st.integers(2, 5),
    repeats=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
    names=st.lists(st.sampled_from(LINEAR), min_size=1, max_size=3, unique=True),
    d=st.integers(2, 4),
    mode=st.sampled_from(["round", "floor", "ceil"]),
)
def test_property_true_repeated_kfold_never_inconsistent(p, n, k, repeats, seed, names, d, mode):
    rng = np.random.default_rng(seed)
    folds, counts = [], []
    for _ in range(repeats):  # an unstratified k-fold of a shuffled data set, per repetition
        labels = rng.permutation(np.r_[np.ones(p, int), np.zeros(n, int)])
        rep = [(int(part.sum()), int(len(part) - part.sum())) for part in np.array_split(labels, k)]
        if sum(a > 0 for a, _ in rep) < 2 or sum(b > 0 for _, b in rep) < 2:
            return  # Algorithm 2 leaves out splits with a class in fewer than two folds
        for pi, ni in rep:
            folds.append((pi, ni))
            counts.append((int(rng.integers(0, pi + 1)), int(rng.integers(0, ni + 1))))
    mean = aggregate_scores(folds, counts)
    if any(mean[s][0] is None for s in names):
        return  # a score undefined in some fold cannot be reported as a mean
    f = {"round": round, "floor": math.floor, "ceil": math.ceil}[mode]
    scores = {s: f"{f(mean[s][0] * 10**d) / 10**d:.{d}f}" for s in names}
    r = check_mos_kfold(p, n, k, scores, repeats=repeats, decimals=d, rounding=mode)
    assert r.consistent


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(repeats=0), "repeats must be an integer >= 1"),
        (dict(k=1), "k must be an integer >= 2"),
        (dict(scores={"f1": "0.5"}), "supports acc, sens, spec, bacc"),
    ],
)
def test_bad_input(kwargs, match):
    args = dict(p=10, n=20, k=3, scores={"acc": "0.5"}, decimals=1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        check_mos_kfold(args.pop("p"), args.pop("n"), args.pop("k"), args.pop("scores"), **args)
    with pytest.raises(ValueError, match=r"datasets\[0\] must be \(p, n, k, repeats\)"):
        check_mos_kfold_intervals([(10, 20, 3)], score_intervals({"acc": "0.5"}, decimals=1))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "sotalib", "check", *args], capture_output=True, text=True)


def test_cli_repeated_unknown_folds():
    base = [
        "--p",
        "38",
        "--n",
        "262",
        "--k",
        "5",
        "--score",
        "acc=0.9447",
        "--score",
        "sens=0.9139",
        "--score",
        "spec=0.9733",
        "--eps",
        "0.0001",
        "--aggregation",
        "mos",
        "--json",
    ]
    out = json.loads(_cli(*base, "--repeats", "2").stdout)
    assert out["consistent"] is False and out["configurations_tested"] == 421_821
    out = json.loads(_cli(*base, "--repeats", "5").stdout)
    assert out["consistent"] is True and out["n_solutions"] == 1 and len(out["solutions"][0]) == 25
    assert out["details"]["mos"]["n_solutions_counted"] is False
    bad = _cli(*base, "--repeats", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "repeats" in bad.stderr
