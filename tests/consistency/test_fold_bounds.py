"""The per-fold minimum and maximum of Eq. 10 in check_report: brute force over every per-fold (tp, tn)."""

import itertools
from fractions import Fraction

import pytest

from sotalib.consistency import check_report

# private: the brute-force reference reads the reports through check_report's own intervals, so only the search is compared
from sotalib.consistency._intervals import score_intervals

FOLDS = ((3, 4), (2, 5), (3, 3))
F = {
    "acc": lambda tp, tn, p, n: Fraction(tp + tn, p + n),
    "sens": lambda tp, _tn, p, _n: Fraction(tp, p),
    "spec": lambda _tp, tn, _p, n: Fraction(tn, n),
}


def _brute(scores, fold_min, fold_max, decimals):
    ivs = score_intervals(scores, decimals=decimals)
    los = {k: score_intervals({k: v}, decimals=decimals)[0].lo for k, v in fold_min.items()}
    his = {k: score_intervals({k: v}, decimals=decimals)[0].hi for k, v in fold_max.items()}
    for combo in itertools.product(*[itertools.product(range(p + 1), range(n + 1)) for p, n in FOLDS]):
        per = [(tp, tn, p, n) for (tp, tn), (p, n) in zip(combo, FOLDS)]
        if not all(los[k] <= F[k](*x) <= his[k] for k in los for x in per):
            continue
        if all(iv.lo <= sum(F[iv.base](*x) for x in per) / len(per) <= iv.hi for iv in ivs):
            return True
    return False


@pytest.mark.parametrize(
    "scores,fold_min,fold_max",
    [
        ({"acc": "0.62", "sens": "0.61"}, {"sens": "0.50"}, {"sens": "0.67"}),
        ({"acc": "0.62", "sens": "0.61"}, {"sens": "0.33"}, {"sens": "1.00"}),
        ({"acc": "0.70", "spec": "0.80"}, {"acc": "0.57"}, {"acc": "0.86"}),
        ({"acc": "0.70", "spec": "0.80"}, {"acc": "0.67"}, {"acc": "0.71"}),
        ({"sens": "0.72", "acc": "0.60"}, {"sens": "0.33"}, {"sens": "1.00"}),
        ({"sens": "0.72", "acc": "0.60"}, {"sens": "0.67"}, {"sens": "0.67"}),
    ],
)
def test_fold_bounds_agree_with_brute_force(scores, fold_min, fold_max):
    ref = _brute(scores, fold_min, fold_max, 2)
    v = check_report(scores=scores, folds=FOLDS, decimals=2, fold_min=fold_min, fold_max=fold_max)
    assert v.aggregation == "mos" and v.consistent == ref
    if ref:
        (sol,) = v.evidence
        name = next(iter(fold_min))
        lo = score_intervals({name: fold_min[name]}, decimals=2)[0].lo
        hi = score_intervals({name: fold_max[name]}, decimals=2)[0].hi
        assert all(lo <= F[name](tp, tn, p, n) <= hi for (tp, tn), (p, n) in zip(sol, FOLDS))


def test_bounds_turn_a_consistent_report_inconsistent():
    # consistent without bounds; every fold accuracy in [0.67, 0.71] (3/7 folds cannot) makes it impossible
    scores = {"acc": "0.70", "spec": "0.80"}
    assert check_report(scores=scores, folds=FOLDS, decimals=2).consistent
    bounded = check_report(scores=scores, folds=FOLDS, decimals=2, fold_min={"acc": "0.67"}, fold_max={"acc": "0.71"})
    assert not bounded.consistent and not _brute(scores, {"acc": "0.67"}, {"acc": "0.71"}, 2)
    loose = check_report(scores=scores, folds=FOLDS, decimals=2, fold_min={"acc": "0.57"}, fold_max={"acc": "0.86"})
    assert loose.consistent and _brute(scores, {"acc": "0.57"}, {"acc": "0.86"}, 2)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(fold_min={"sens": "0.5"}), "must name the same scores"),
        (dict(fold_min={"f1": "0.5"}, fold_max={"f1": "0.7"}), "support acc"),
        (dict(fold_min={"sens": "0.5"}, fold_max={"sens": "0.7"}, p=8, n=12, folds=None), "need folds or k"),
    ],
)
def test_bad_fold_bounds(kwargs, match):
    args = dict(folds=FOLDS, decimals=2)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        check_report(scores={"acc": "0.62"}, **args)
