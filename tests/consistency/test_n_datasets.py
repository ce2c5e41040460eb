"""Two-level aggregation over data sets: brute force over every per-unit (tp, tn) is the reference."""

import itertools
from fractions import Fraction

import pytest

from sotalib.consistency import check_n_datasets, check_single, stratified_folds

# private: the brute-force reference reads the reports through the checkers' own intervals, so only the search is compared
from sotalib.consistency._intervals import score_intervals

FUNCS = {
    "acc": lambda tp, tn, p, n: Fraction(tp + tn, p + n),
    "sens": lambda tp, _tn, p, _n: Fraction(tp, p),
    "spec": lambda _tp, tn, _p, n: Fraction(tn, n),
    "bacc": lambda tp, tn, p, n: (Fraction(tp, p) + Fraction(tn, n)) / 2,
}


def _brute(datasets, within, scores, decimals):
    ivs = score_intervals(scores, decimals=decimals)
    D = len(datasets)
    per_ds = []
    for ds, w in zip(datasets, within):
        folds = stratified_folds(ds["p"], ds["n"], ds["k"]) if "k" in ds else ((ds["p"], ds["n"]),)
        units = list(folds) if w == "mos" else [(ds["p"], ds["n"])]
        vals = set()
        for combo in itertools.product(*[itertools.product(range(p + 1), range(n + 1)) for p, n in units]):
            vals.add(
                tuple(
                    sum(FUNCS[iv.base](tp, tn, p, n) for (tp, tn), (p, n) in zip(combo, units)) / len(units)
                    for iv in ivs
                )
            )
        per_ds.append(vals)
    for combo in itertools.product(*per_ds):
        means = [sum(x[j] for x in combo) / D for j in range(len(ivs))]
        if all(iv.lo <= v <= iv.hi for iv, v in zip(ivs, means)):
            return True
    return False


DS = [{"p": 3, "n": 4, "k": 2}, {"p": 2, "n": 5, "k": 2}]


@pytest.mark.parametrize("within", [("mos", "mos"), ("som", "som"), ("som", "mos"), ("mos", "som")])
@pytest.mark.parametrize(
    "scores",
    [
        {"acc": "0.71", "sens": "0.58"},
        {"acc": "0.66", "bacc": "0.70"},
        {"spec": "0.61", "sens": "0.33"},
        {"acc": "0.93", "sens": "0.42"},
        {"acc": "0.5", "spec": "0.9", "sens": "0.1"},
    ],
)
def test_mean_across_data_sets_agrees_with_brute_force(within, scores):
    ref = _brute(DS, within, scores, 2)
    r = check_n_datasets(DS, scores, within=list(within), decimals=2)
    assert r.status == ("feasible" if ref else "infeasible")
    if ref:
        (sol,) = r.evidence
        assert len(sol) == 2 and all(
            0 <= tp <= p and 0 <= tn <= n for ds, us in zip(sol, r.details["units"]) for (tp, tn), (p, n) in zip(ds, us)
        )


def test_score_of_means_across_is_the_test_on_the_totals():
    ds = [{"p": 10, "n": 20, "k": 5}, {"p": 15, "n": 30, "k": 3}]
    scores = {"acc": "0.8", "f1": "0.7"}
    a = check_n_datasets(ds, scores, within="som", across="som", decimals=2)
    b = check_single(25, 50, scores, decimals=2)
    assert a.consistent == b.consistent and a.n_solutions == b.n_solutions


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(datasets=[], scores={"acc": 0.5}, decimals=2), "at least one data set"),
        (dict(datasets=[{"p": 5, "n": 5}], scores={"f1": 0.5}, decimals=2), "supports acc"),
        (dict(datasets=[{"p": 5, "n": 5, "k": 2}], scores={"acc": 0.5}, decimals=2, across="som"), "within='som'"),
        (dict(datasets=[{"p": 5, "n": 5}], scores={"acc": 0.5}, decimals=2, within=["mos", "som"]), "one per data set"),
        (dict(datasets=[{"p": 5, "n": 5, "folds": [(2, 2), (2, 2)]}], scores={"acc": 0.5}, decimals=2), "add up"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_n_datasets(**kwargs)
