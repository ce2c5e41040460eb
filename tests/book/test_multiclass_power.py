"""The multiclass power of chapter 6: true reports never flagged, typos in accuracy always caught at 4 decimals."""

import numpy as np

from sotalib.book.ch06c_multiclass import CLASSES, REPORTS, multiclass_power, random_report
from sotalib.consistency import check_multiclass


def test_true_reports_are_never_flagged():
    rng = np.random.default_rng(7)
    for d in (2, 3, 4):
        for _ in range(10):
            m, rep = random_report(CLASSES, d, REPORTS["accuracy, macro precision, recall and F1"], rng)
            r = check_multiclass(CLASSES, rep, decimals=d, max_solutions=10**6)
            assert r.consistent
            assert any(
                np.array_equal(np.diag(m), np.diag(x)) and np.array_equal(m.sum(0), np.sum(x, 0)) for x in r.evidence
            )


def test_a_typo_in_accuracy_is_always_caught_at_four_decimals():
    # n = 100: every accuracy is a whole percent, so a change of 0.0001 is never one
    rng = np.random.default_rng(3)
    for _ in range(10):
        _, rep = random_report(CLASSES, 4, ("acc", "macro_fbp"), rng)
        rep["acc"] = f"{float(rep['acc']) + 0.0001:.4f}"
        assert not check_multiclass(CLASSES, rep, decimals=4).consistent


def test_power_is_reproducible_and_grows_with_the_decimals():
    keys = REPORTS["accuracy, macro precision, recall and F1"]
    a = multiclass_power(3, keys, n_resamples=40, rng=5)
    assert a == multiclass_power(3, keys, n_resamples=40, rng=5) and a.seed == 5 and a.n_resamples == 40
    lo, hi = multiclass_power(2, keys, n_resamples=40, rng=1), multiclass_power(4, keys, n_resamples=40, rng=1)
    assert lo.power < hi.power and hi.power >= 0.9
    assert abs(a.se - np.sqrt(a.power * (1 - a.power) / 40)) < 1e-12
