"""The multiclass power of chapter 6: true reports never flagged, typos caught more often with more decimals.

The chapter draws its reports and typos in visible code and calls the public
:func:`sotalib.consistency.multiclass_scores` and :func:`sotalib.check_multiclass`; the few
lines that draw a report live here, as the tests' generator of true reports.
"""

import numpy as np

from sotalib.consistency import check_multiclass, multiclass_scores

#: The test set of the chapter's example: three classes of 30, 50 and 20 items.
CLASSES = (30, 50, 20)
#: multiclass_scores key -> name in the report, as in the chapter.
NAMES = {"acc": "acc", "macro_fbp": "macro_f1", "macro_ppv": "macro_precision", "macro_sens": "macro_recall"}
TWO = ("acc", "macro_fbp")
FOUR = ("acc", "macro_ppv", "macro_sens", "macro_fbp")


def _fmt(x: float, d: int) -> str:
    return f"{round(x * 10**d) / 10**d:.{d}f}"


def random_report(classes, decimals, keys, rng, theta_range=(0.6, 0.95)):
    """One true report: (confusion matrix, ``{name: value}`` rounded to ``decimals``)."""
    k = len(classes)
    theta = rng.uniform(*theta_range)
    probs = np.full((k, k), (1 - theta) / (k - 1))
    np.fill_diagonal(probs, theta)
    m = np.array([rng.multinomial(c, probs[i]) for i, c in enumerate(classes)])
    sc = multiclass_scores(m)
    return m, {NAMES[key]: _fmt(sc[key], decimals) for key in keys}


def _power(decimals, keys, reps, seed):
    """The chapter's loop: a true report, one score's last digit changed by one; the share caught."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(reps):
        _, rep = random_report(CLASSES, decimals, keys, rng)
        name = list(rep)[rng.integers(len(rep))]
        v = float(rep[name]) + rng.choice([-1, 1]) * 10.0**-decimals
        rep[name] = _fmt(min(max(v, 0.0), 1.0), decimals)
        hits += not check_multiclass(CLASSES, rep, decimals=decimals).consistent
    return hits / reps


def test_true_reports_are_never_flagged():
    rng = np.random.default_rng(7)
    for d in (2, 3, 4):
        for _ in range(10):
            m, rep = random_report(CLASSES, d, FOUR, rng)
            r = check_multiclass(CLASSES, rep, decimals=d, max_solutions=10**6)
            assert r.consistent
            assert any(
                np.array_equal(np.diag(m), np.diag(x)) and np.array_equal(m.sum(0), np.sum(x, 0)) for x in r.evidence
            )


def test_a_typo_in_accuracy_is_always_caught_at_four_decimals():
    # n = 100: every accuracy is a whole percent, so a change of 0.0001 is never one
    rng = np.random.default_rng(3)
    for _ in range(10):
        _, rep = random_report(CLASSES, 4, TWO, rng)
        rep["acc"] = f"{float(rep['acc']) + 0.0001:.4f}"
        assert not check_multiclass(CLASSES, rep, decimals=4).consistent


def test_power_grows_with_the_decimals():
    lo, hi = _power(2, FOUR, 40, 1), _power(4, FOUR, 40, 1)
    assert lo < hi and hi >= 0.9
