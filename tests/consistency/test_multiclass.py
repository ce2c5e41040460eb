"""Multiclass consistency: brute force over every confusion matrix is the reference.

The reference enumerates every k x k matrix with the given row sums, computes
each score from its one-vs-rest (tp, fp, fn, tn) in rational arithmetic by
the textbook / scikit-learn definitions (written here independently of the
library), and keeps the (diagonal, column sums) of the matrices that match.
"""

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sotalib.consistency import check_multiclass, multiclass_scores, stratified_class_folds

# private: the engines (exhaustive, ILP) on intervals, the transport condition and the matrix builder are
# compared one by one against brute force over every confusion matrix
from sotalib.consistency._multiclass import check_multiclass_intervals
from sotalib.consistency._multiclass_scores import build_matrix, multiclass_intervals, transport_feasible


# --------------------------------------------------------------------------- independent reference
def _ovr(m):
    k = len(m)
    n = sum(map(sum, m))
    out = []
    for i in range(k):
        tp = m[i][i]
        fn = sum(m[i]) - tp
        fp = sum(m[j][i] for j in range(k)) - tp
        out.append((tp, fp, fn, n - tp - fp - fn))
    return out


def _ref_score(m, name, average, beta=1, zero_division=0):
    """One score of matrix m by the definitions (precision_score etc. of scikit-learn)."""
    k = len(m)
    n = sum(map(sum, m))
    ovr = _ovr(m)
    b2 = Fraction(beta) ** 2
    if name == "acc":
        return Fraction(sum(m[i][i] for i in range(k)), n)
    if name == "bacc":
        return sum(Fraction(tp, tp + fn) for tp, fp, fn, tn in ovr) / k

    def ratio(a, b):
        return Fraction(zero_division) if b == 0 else Fraction(a, b)

    per = {
        "sens": lambda tp, _fp, fn, _tn: ratio(tp, tp + fn),
        "spec": lambda _tp, fp, _fn, tn: ratio(tn, tn + fp),
        "ppv": lambda tp, fp, _fn, _tn: ratio(tp, tp + fp),
        "npv": lambda _tp, _fp, fn, tn: ratio(tn, tn + fn),
        "fbp": lambda tp, fp, fn, _tn: ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
    }
    if name == "f1_of_means":
        P = _ref_score(m, "ppv", "macro", zero_division=zero_division)
        R = _ref_score(m, "sens", "macro")
        return Fraction(0) if P + R == 0 else 2 * P * R / (P + R)
    if average == "micro":
        tp, fp, fn, tn = (sum(x[j] for x in ovr) for j in range(4))
        return per[name](tp, fp, fn, tn)
    vals = [per[name](*x) for x in ovr]
    if average == "macro":
        return sum(vals) / k
    supp = [x[0] + x[2] for x in ovr]
    return sum(Fraction(s) * v for s, v in zip(supp, vals)) / n


def _matrices(classes):
    k = len(classes)
    rows = [[r for r in itertools.product(range(c + 1), repeat=k) if sum(r) == c] for c in classes]
    return itertools.product(*rows)


@functools.lru_cache(maxsize=64)
def _reference(classes, intervals, zero_division=0):
    """Every (diag, colsum) of a matrix that reproduces all intervals."""
    k = len(classes)
    seen, ok = set(), set()
    for m in _matrices(classes):
        d = tuple(m[i][i] for i in range(k))
        s = tuple(sum(m[i][j] for i in range(k)) for j in range(k))
        if (d, s) in seen:
            continue
        seen.add((d, s))
        if all(
            iv.lo
            <= _ref_score(m, "f1_of_means" if iv.base == "fbp_means" else iv.base, iv.average, iv.beta, zero_division)
            <= iv.hi
            for iv in intervals
        ):
            ok.add((d, s))
    return ok


def _ds(mat):
    m = np.asarray(mat)
    return tuple(np.diag(m).tolist()), tuple(m.sum(axis=0).tolist())


def _report(m, names, decimals, mode):
    """The scores of matrix m, shortened to ``decimals`` by ``mode``, as strings."""
    sc = multiclass_scores(m)
    out = {}
    for name in names:
        q = Fraction(sc[name]) * 10**decimals
        r = {"round": round(q), "floor": math.floor(q), "ceil": math.ceil(q)}[mode]
        out[name] = f"{r / 10**decimals:.{decimals}f}"
    return out


NAMES = ["acc", "bacc", "f1_of_means"] + [
    f"{a}_{b}" for a in ("micro", "macro", "weighted") for b in ("sens", "spec", "ppv", "npv", "fbp")
]


# --------------------------------------------------------------------------- the scores themselves
def test_scores_match_scikit_learn_definitions_on_a_known_matrix():
    m = [[6, 2, 2], [1, 5, 1], [3, 2, 7]]
    sc = multiclass_scores(m)
    for name in NAMES:
        if name in ("acc", "bacc", "f1_of_means"):
            ref = _ref_score(m, name, "macro")
        else:
            avg, base = name.split("_", 1)
            ref = _ref_score(m, base, avg)
        assert sc[name] == pytest.approx(float(ref), abs=1e-15), name
    # hand values: accuracy 18/29, macro recall (6/10 + 5/7 + 7/12) / 3
    assert sc["acc"] == pytest.approx(18 / 29)
    assert sc["bacc"] == pytest.approx((6 / 10 + 5 / 7 + 7 / 12) / 3)


def test_scores_agree_with_scikit_learn_when_installed():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 200)
    p = np.where(rng.random(200) < 0.6, y, rng.integers(0, 4, 200))
    m = metrics.confusion_matrix(y, p)
    sc = multiclass_scores(m)
    for avg in ("micro", "macro", "weighted"):
        assert sc[f"{avg}_ppv"] == pytest.approx(metrics.precision_score(y, p, average=avg, zero_division=0))
        assert sc[f"{avg}_sens"] == pytest.approx(metrics.recall_score(y, p, average=avg))
        assert sc[f"{avg}_fbp"] == pytest.approx(metrics.f1_score(y, p, average=avg))
    assert sc["bacc"] == pytest.approx(metrics.balanced_accuracy_score(y, p))


def test_transport_condition_and_matrix_builder_on_every_small_case():
    classes = (3, 2, 4)
    found = {_ds(m) for m in _matrices(classes)}
    k, n = 3, 9
    for d in itertools.product(*[range(c + 1) for c in classes]):
        for s in itertools.product(range(n + 1), repeat=k):
            if sum(s) != n:
                continue
            feas = all(x <= y for x, y in zip(d, s)) and transport_feasible(classes, d, s)
            assert feas == ((d, s) in found), (d, s)
            if feas:
                m = np.array(build_matrix(classes, d, s))
                assert m.min() >= 0 and m.sum(axis=1).tolist() == list(classes) and _ds(m) == (d, s)


def test_stratified_class_folds_match_scikit_learn_allocation():
    # y sorted by class (positions 0-9, 10-16, 17-21), position j dealt to fold j mod 3
    folds = stratified_class_folds([10, 7, 5], 3)
    assert [sum(f[i] for f in folds) for i in range(3)] == [10, 7, 5]
    assert folds == ((4, 2, 2), (3, 3, 1), (3, 2, 2))
    sk = pytest.importorskip("sklearn.model_selection")
    y = np.repeat([0, 1, 2], [10, 7, 5])
    skf = sk.StratifiedKFold(3)
    got = [tuple(np.bincount(y[test], minlength=3).tolist()) for _, test in skf.split(np.zeros(len(y)), y)]
    assert tuple(got) == folds


# --------------------------------------------------------------------------- brute force = exhaustive = ilp
CASES = [
    ((4, 3, 5), {"acc": "0.5833", "macro_f1": "0.5556"}, 4),
    ((4, 3, 5), {"acc": "0.5833", "macro_precision": "0.6000"}, 4),
    ((5, 5, 2), {"weighted_f1": "0.41", "macro_spec": "0.7"}, 2),
    ((6, 2, 3), {"macro_npv": "0.78", "bacc": "0.5"}, 2),
    ((3, 3, 3), {"f1_of_means": "0.5000", "acc": "0.4444"}, 4),
    ((12, 7, 9), {"acc": "0.7143", "macro_f1": "0.7090", "macro_precision": "0.7100"}, 4),
    ((12, 7, 9), {"acc": "0.7143", "macro_f1": "0.7190"}, 4),
    ((10, 12, 11), {"micro_spec": "0.8636", "weighted_precision": "0.7311"}, 4),
]


@pytest.mark.parametrize("classes,scores,decimals", CASES)
def test_exhaustive_and_ilp_agree_with_brute_force(classes, scores, decimals):
    ivs = multiclass_intervals(scores, decimals=decimals)
    ref = _reference(tuple(classes), ivs)
    ex = check_multiclass_intervals(classes, ivs, engine="exhaustive", max_solutions=10**6)
    assert ex.consistent == bool(ref)
    assert ex.n_solutions == len(ref)
    assert {_ds(m) for m in ex.evidence} == ref
    # the integer program, f1_of_means included (an outer approximation refined to a verified point)
    ilp = check_multiclass_intervals(classes, ivs, engine="ilp")
    assert ilp.status == ("feasible" if ref else "infeasible")
    if ref:
        assert _ds(ilp.evidence[0]) in ref


def test_the_inconsistent_cases_exist():
    # the table above holds both verdicts, so the agreement is not vacuous
    verdicts = {bool(_reference(tuple(c), multiclass_intervals(s, decimals=d))) for c, s, d in CASES}
    assert verdicts == {True, False}


@st.composite
def _problem(draw):
    classes = [draw(st.integers(1, 6)) for _ in range(3)]
    m = [list(np.random.default_rng(draw(st.integers(0, 2**32 - 1))).multinomial(c, np.ones(3) / 3)) for c in classes]
    # make the diagonal likelier (a classifier better than chance)
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    decimals = draw(st.integers(2, 4))
    mode = draw(st.sampled_from(["round", "floor", "ceil"]))
    return classes, m, names, decimals, mode


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_problem())
def test_true_reports_are_never_inconsistent_and_the_true_matrix_is_evidence(problem):
    classes, m, names, decimals, mode = problem
    scores = _report(m, names, decimals, mode)
    r = check_multiclass(classes, scores, decimals=decimals, rounding=mode, engine="exhaustive", max_solutions=10**6)
    assert r.consistent
    assert _ds(m) in {_ds(x) for x in r.evidence}
    ilp = check_multiclass(classes, scores, decimals=decimals, rounding=mode, engine="ilp")
    assert ilp.status == "feasible"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_problem(), st.integers(0, 2**32 - 1))
def test_exhaustive_equals_brute_force_on_random_reports(problem, seed):
    classes, m, names, decimals, mode = problem
    scores = _report(m, names, decimals, mode)
    rng = np.random.default_rng(seed)
    if rng.random() < 0.5:  # a false report: one value moved
        name = names[0]
        v = float(scores[name]) + rng.choice([-1, 1]) * rng.integers(1, 30) * 10**-decimals
        scores[name] = f"{min(max(v, 0), 1):.{decimals}f}"
    ivs = multiclass_intervals(scores, decimals=decimals, rounding=mode)
    ref = _reference(tuple(classes), ivs)
    ex = check_multiclass_intervals(classes, ivs, engine="exhaustive", max_solutions=10**6)
    assert {_ds(x) for x in ex.evidence} == ref and ex.n_solutions == len(ref)
    ilp = check_multiclass_intervals(classes, ivs, engine="ilp")
    assert ilp.status == ("feasible" if ref else "infeasible")


# --------------------------------------------------------------------------- folds
def _mos_reference(folds, intervals):
    """Brute force over the per-fold matrices of tiny folds (Mean of Scores)."""
    per_fold = []
    for c in folds:
        vals = {}
        for m in _matrices(c):
            key = _ds(m)
            if key not in vals:
                vals[key] = [_ref_score(m, iv.base, iv.average, iv.beta) for iv in intervals]
        per_fold.append(list(vals.values()))
    for combo in itertools.product(*per_fold):
        means = [sum(x[j] for x in combo) / len(combo) for j in range(len(intervals))]
        if all(iv.lo <= v <= iv.hi for iv, v in zip(intervals, means)):
            return True
    return False


@pytest.mark.parametrize(
    "scores",
    [
        {"acc": "0.55", "macro_recall": "0.52"},
        {"acc": "0.55", "macro_f1": "0.40"},
        {"acc": "0.50", "macro_precision": "0.61"},
        {"macro_spec": "0.70", "weighted_f1": "0.44"},
        {"acc": "0.95", "macro_f1": "0.30"},
    ],
)
def test_mean_of_scores_agrees_with_brute_force(scores):
    folds = ((2, 2, 1), (2, 1, 2))
    ivs = multiclass_intervals(scores, decimals=2)
    ref = _mos_reference(folds, ivs)
    r = check_multiclass_intervals(None, ivs, folds=folds, aggregation="mos")
    assert r.status == ("feasible" if ref else "infeasible")
    if ref:
        (per,) = r.evidence
        vals = [sum(_ref_score(m, iv.base, iv.average, iv.beta) for m in per) / len(per) for iv in ivs]
        assert all(iv.lo <= v <= iv.hi for iv, v in zip(ivs, vals))
        assert [np.asarray(m).sum(axis=1).tolist() for m in per] == [list(f) for f in folds]


def test_score_of_means_is_the_test_on_the_totals():
    folds = ((4, 2, 3), (3, 3, 2))
    scores = {"acc": "0.6471", "macro_f1": "0.6400"}
    a = check_multiclass(None, scores, folds=folds, aggregation="som", decimals=4)
    b = check_multiclass((7, 5, 5), scores, decimals=4)
    assert a.consistent == b.consistent and a.n_solutions == b.n_solutions


def test_stratified_mos_on_a_larger_data_set_finds_verified_evidence():
    classes = (30, 50, 20)
    folds = stratified_class_folds(classes, 5)
    rng = np.random.default_rng(3)
    mats = [[rng.multinomial(c, np.eye(3)[i] * 0.6 + 0.4 / 3).tolist() for i, c in enumerate(f)] for f in folds]
    mean = lambda key: sum(multiclass_scores(m)[key] for m in mats) / len(mats)  # noqa: E731
    scores = {"acc": f"{mean('acc'):.4f}", "macro_recall": f"{mean('macro_sens'):.4f}"}
    r = check_multiclass(classes, scores, k=5, stratified=True, aggregation="mos", decimals=4)
    assert r.status == "feasible"
    scores["acc"] = f"{mean('acc') + 0.0031:.4f}"  # no mean of fold accuracies with denominator 20 lands there
    r = check_multiclass(classes, scores, k=5, stratified=True, aggregation="mos", decimals=4)
    assert (r.status == "infeasible") == (not _acc_reachable(folds, float(scores["acc"])))


def _acc_reachable(folds, acc):
    # mean of fold accuracies = sum(T_f / n_f) / K; every n_f here is 20: (sum T) / (20 K)
    sizes = {sum(f) for f in folds}
    assert sizes == {20}
    tot = 20 * len(folds)
    return any(abs(t / tot - acc) <= 0.5e-4 + 1e-12 for t in range(tot + 1))


# --------------------------------------------------------------------------- input checks
@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(classes=[5], scores={"acc": 0.5}, decimals=2), "classes must list at least 2"),
        (dict(classes=[5, 0], scores={"acc": 0.5}, decimals=2), r"classes must be an integer >= 1, got 0 \(class 2\)"),
        (dict(classes=[5, 5], scores={"mcc": 0.5}, decimals=2), "no multiclass version"),
        (dict(classes=[5, 5], scores={"nonsense": 0.5}, decimals=2), "score must be one of the multiclass"),
        (dict(classes=[5, 5], scores={"acc": 1.5}, decimals=2), r"must be in \[0, 1\]"),
        (dict(classes=[5, 5], scores={"acc": 0.5}, decimals=2, average="mean"), "average must be one of"),
        (dict(classes=[5, 5], scores={"acc": 0.5}, decimals=2, k=2), "k needs stratified"),
        (dict(classes=[5, 5], scores={"acc": 0.5}, decimals=2, folds=[[3, 2], [2, 3]]), "aggregation"),
        (dict(classes=[5, 5], scores={"acc": 0.5}, decimals=2, folds=[[3, 2], [3, 3]], aggregation="mos"), "add up"),
        (dict(classes=[5, 5], scores={"acc": 0.5}, decimals=2, zero_division=2), "zero_division"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_multiclass(**kwargs)


def test_verdict_shape_and_json():
    import json

    r = check_multiclass([4, 3, 5], {"acc": "0.5833", "macro_f1": "0.5556"}, decimals=4)
    d = r.to_dict()
    assert list(d)[:4] == ["consistent", "evidence", "configurations_tested", "details"]
    assert d["solutions"] == d["evidence"] and np.asarray(d["solutions"][0]).shape == (3, 3)
    assert d["details"]["scores"] == {"acc": "acc", "macro_f1": "macro fbp"}
    json.dumps(d, allow_nan=False)
    with pytest.raises(AttributeError):
        r.consistent = False


def test_typo_finder_names_the_changed_digit_and_its_proposal_is_consistent():
    from sotalib.consistency import diagnose_multiclass

    m = [[22, 5, 3], [4, 43, 3], [2, 2, 16]]
    true = _report(m, ["acc", "macro_ppv", "macro_sens", "macro_fbp"], 4, "round")
    assert check_multiclass([30, 50, 20], true, decimals=4).consistent
    typo = dict(true, macro_sens=f"{float(true['macro_sens']) + 0.0001:.4f}")
    r = check_multiclass([30, 50, 20], typo, decimals=4)
    assert not r.consistent
    best = r.suggestions[0]
    assert best.score == "macro_sens" and f"{best.suggested:.4f}" == true["macro_sens"]
    fixed = dict(typo, macro_sens=f"{best.suggested:.4f}")
    assert check_multiclass([30, 50, 20], fixed, decimals=4).consistent
    assert np.asarray(best.example).sum(axis=1).tolist() == [30, 50, 20]
    assert r.to_dict()["suggestions"][0]["score"] == "macro_sens"
    assert diagnose_multiclass([30, 50, 20], true, decimals=4) == []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_problem(), st.integers(0, 2**32 - 1))
def test_f1_of_means_by_the_integer_program_equals_brute_force(problem, seed):
    classes, m, _, decimals, mode = problem
    scores = _report(m, ["f1_of_means", "acc"], decimals, mode)
    rng = np.random.default_rng(seed)
    if rng.random() < 0.5:
        v = float(scores["f1_of_means"]) + rng.choice([-1, 1]) * rng.integers(1, 20) * 10**-decimals
        scores["f1_of_means"] = f"{min(max(v, 0), 1):.{decimals}f}"
    ivs = multiclass_intervals(scores, decimals=decimals, rounding=mode)
    ref = _reference(tuple(classes), ivs)
    r = check_multiclass_intervals(classes, ivs, engine="ilp")
    assert r.status == ("feasible" if ref else "infeasible")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)), min_size=2, max_size=2),
    st.lists(
        st.sampled_from(["acc", "macro_sens", "macro_spec", "macro_ppv", "weighted_fbp", "micro_spec"]),
        min_size=1,
        max_size=2,
        unique=True,
    ),
    st.integers(0, 2**32 - 1),
)
def test_mean_of_scores_equals_brute_force_on_random_reports(folds, names, seed):
    rng = np.random.default_rng(seed)
    mats = [[list(rng.multinomial(c, np.ones(3) / 3)) for c in f] for f in folds]
    scores = {}
    for name in names:
        v = float(np.mean([multiclass_scores(m)[name] for m in mats]))
        if rng.random() < 0.4:
            v += rng.choice([-1, 1]) * rng.integers(1, 6) * 0.01
        scores[name] = f"{min(max(v, 0), 1):.2f}"
    ivs = multiclass_intervals(scores, decimals=2)
    ref = _mos_reference(tuple(folds), ivs)
    r = check_multiclass_intervals(None, ivs, folds=folds, aggregation="mos")
    assert r.status == ("feasible" if ref else "infeasible")
