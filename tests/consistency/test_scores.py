"""The 20 scores of Table 2: independent definitions, exact comparisons, names."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from sklearn.metrics import (
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
    fbeta_score,
    jaccard_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)

from sotalib.consistency import SCORES, all_scores
from sotalib.consistency._scores import (  # private: the exact score kernels and the name resolver are the subject
    exact_sign,
    resolve_score,
    score_float,
    score_value,
)


def _labels(tp, tn, p, n):
    y = np.r_[np.ones(p, int), np.zeros(n, int)]
    yhat = np.r_[np.ones(tp, int), np.zeros(p - tp, int), np.zeros(tn, int), np.ones(n - tn, int)]
    return y, yhat


@pytest.mark.parametrize("tp,tn,p,n", [(78, 189, 100, 201), (3, 5, 7, 11), (40, 1, 41, 9), (1, 30, 2, 31)])
def test_scores_match_scikit_learn(tp, tn, p, n):
    y, yhat = _labels(tp, tn, p, n)
    s = all_scores(tp, tn, p, n)
    assert s["sens"] == pytest.approx(recall_score(y, yhat), rel=1e-14)
    assert s["ppv"] == pytest.approx(precision_score(y, yhat), rel=1e-14)
    assert s["fbp"] == pytest.approx(f1_score(y, yhat), rel=1e-14)
    assert score_value("fbp", tp, tn, p, n, beta=2) == pytest.approx(fbeta_score(y, yhat, beta=2), rel=1e-14)
    assert s["ji"] == pytest.approx(jaccard_score(y, yhat), rel=1e-14)
    assert s["mcc"] == pytest.approx(matthews_corrcoef(y, yhat), rel=1e-12)
    assert s["kappa"] == pytest.approx(cohen_kappa_score(y, yhat), rel=1e-12)
    assert s["bacc"] == pytest.approx(balanced_accuracy_score(y, yhat), rel=1e-14)
    # the original definitions of Table 2 (column 4)
    sens, spec, ppv, npv = s["sens"], s["spec"], s["ppv"], s["npv"]
    assert s["gm"] == pytest.approx(np.sqrt(sens * spec), rel=1e-14)
    assert s["fm"] == pytest.approx(np.sqrt(ppv * sens), rel=1e-14)
    assert s["mk"] == pytest.approx(npv + ppv - 1, abs=1e-14)
    assert s["bm"] == pytest.approx(sens + spec - 1, abs=1e-14)
    assert s["lrp"] == pytest.approx(sens / (1 - spec), rel=1e-13)
    assert s["lrn"] == pytest.approx((1 - sens) / spec, rel=1e-13)
    assert s["dor"] == pytest.approx(s["lrp"] / s["lrn"], rel=1e-13)
    assert s["pt"] == pytest.approx((spec + np.sqrt(sens * (1 - spec)) - 1) / (sens + spec - 1), rel=1e-12)
    f1n = 2 * npv * spec / (npv + spec)
    assert s["fbn"] == pytest.approx(f1n, rel=1e-14)
    assert s["upm"] == pytest.approx(2 * s["fbp"] * f1n / (s["fbp"] + f1n), rel=1e-14)
    assert abs(s["mcc"]) == pytest.approx(np.sqrt(s["bm"] * s["mk"]), rel=1e-12)


def test_undefined_scores_are_none_not_nan():
    s = all_scores(0, 5, 3, 5)  # nothing predicted positive
    assert s["ppv"] is None and s["mcc"] is None and s["fm"] is None and s["lrp"] is None
    assert s["sens"] == 0.0
    v, ok = score_float("ppv", [0, 1], [5, 5], 3, 5)
    assert list(ok) == [False, True] and np.isnan(v[0])
    assert exact_sign("ppv", 0, 5, 3, 5, Fraction(0)) is None
    # pt is 0/0 where sens == 1 - spec
    assert score_value("pt", 2, 2, 4, 4) is None


def test_exact_sign_agrees_with_mpmath():
    rng = np.random.default_rng(7)
    mpmath.mp.dps = 50
    for _ in range(2000):
        p, n = (int(x) for x in rng.integers(1, 60, 2))
        tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
        base = SCORES[int(rng.integers(0, 20))]
        v = score_value(base, tp, tn, p, n)
        if v is None:
            continue
        for c in (Fraction(v).limit_denominator(10**4), Fraction(round(v, 3)).limit_denominator(10**6)):
            fp, fn = n - tn, p - tp
            P, N, TP, TN, FP, FN = map(mpmath.mpf, (p, n, tp, tn, fp, fn))
            ref = {
                "gm": lambda: mpmath.sqrt(TP * TN / (P * N)),
                "fm": lambda: TP / mpmath.sqrt(P * (TP + FP)),
                "mcc": lambda: (TP * TN - FP * FN) / mpmath.sqrt(P * N * (TP + FP) * (TN + FN)),
                "pt": lambda: mpmath.sqrt(FP / N) / (mpmath.sqrt(TP / P) + mpmath.sqrt(FP / N)),
            }.get(base)
            if ref is None:
                continue
            ref = ref()
            diff = ref - mpmath.mpf(c.numerator) / c.denominator
            expected = 0 if abs(diff) < mpmath.mpf(10) ** -40 else (1 if diff > 0 else -1)
            assert exact_sign(base, tp, tn, p, n, c) == expected


def test_names_synonyms_complements():
    assert resolve_score("recall").base == "sens"
    assert resolve_score("Precision").base == "ppv"
    assert resolve_score("TNR").base == "spec"
    assert resolve_score("F1").base == "fbp" and resolve_score("f2").beta == 2
    assert resolve_score("error rate").complement and resolve_score("error_rate").base == "acc"
    assert resolve_score("balanced accuracy").base == "bacc"
    assert resolve_score("Cohen's kappa").base == "kappa"
    for bad in ("foo", "auc", "accuracyy", ""):
        with pytest.raises(ValueError, match="score must be one of"):
            resolve_score(bad)


def test_exact_sign_of_the_f_scores_matches_fractions_from_the_definition():
    # exact_sign takes the F-scores in integers (beta^2 as numerator and denominator): checked here against
    # F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) in Fractions, at and around the exact value
    rng = np.random.default_rng(11)
    for beta in (Fraction(1), Fraction(2), Fraction(1, 2), Fraction(3, 7), 1):
        b2 = Fraction(beta) ** 2
        for _ in range(200):
            p, n = (int(x) for x in rng.integers(0, 40, 2))
            tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
            fp, fn = n - tn, p - tp
            for base, (x, bad, other) in {"fbp": (tp, fn, fp), "fbn": (tn, fp, fn)}.items():
                den = (1 + b2) * x + b2 * bad + other
                if den == 0:
                    assert exact_sign(base, tp, tn, p, n, Fraction(1, 2), beta) is None
                    continue
                value = (1 + b2) * x / den
                for c in (value, value + Fraction(1, 10**9), value - Fraction(1, 10**9), Fraction(1, 3)):
                    want = (value > c) - (value < c)
                    assert exact_sign(base, tp, tn, p, n, c, beta) == want, (base, tp, tn, p, n, beta, c)
