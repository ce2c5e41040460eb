"""Chapter 5's caches and the checks it reports, against independent computations.

The chapter computes its tables in visible code; what stays here is what the
chapter reads (the cached simulations of ``sotalib.book.ch05_auc``) and the
checks that were book helpers used only by tests (scikit-learn agreement, the
second version's Melanoma interval).
"""

from __future__ import annotations

import json
import math
from importlib import resources

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

import sotalib.multiplicity as A
from sotalib.book.ch05_auc import DIRECT, RHO_REPS, RHOS


def test_empirical_auc_agrees_with_scikit_learn():
    # random data sets of 20 to 2,000 items with heavy ties (integer scores on 2 to 50
    # levels, positives shifted by 0.7), as the chapter's check
    g = np.random.default_rng(1)
    worst = 0.0
    for _ in range(30):
        k = int(g.integers(20, 2000))
        y = g.random(k) < g.uniform(0.01, 0.5)
        y[:2] = True, False
        s = g.integers(0, int(g.integers(2, 50)), k) + 0.7 * y
        worst = max(worst, abs(A.empirical_auc(s, y) - roc_auc_score(y, s)))
    assert worst < 1e-12


def test_melanoma_interval_solves_for_the_winner():
    # the second version's argument: AUC 0.9352 +- 1.96 sd reaches the winner's 0.9490
    n, prev = 7687, 584 / 33126  # the training set's prevalence
    kp = round(n * prev)  # positives round(n * prevalence), the rest negatives
    kn = n - kp
    z = float(norm.ppf(0.975))

    def upper(sp):
        return 0.9352 + z * math.sqrt(A.auc_variance(0.9352, kp, kn, sp, 1.0))

    ratio = brentq(lambda sp: upper(sp) - 0.9490, 0.2, 1.0, xtol=1e-10)
    assert 0.9352 + 1.959963984540054 * math.sqrt(A.auc_variance(0.9352, kp, kn, ratio, 1.0)) == pytest.approx(
        0.9490, abs=1e-9
    )
    # the exact equal-variance sd is below Hanley-McNeil's, so its interval ends lower
    upper_hm = 0.9352 + z * math.sqrt(A.hanley_mcneil_variance(0.9352, kp, kn))
    assert upper(1.0) < upper_hm


def test_the_rho_cache_reads_as_one_row_per_rho():
    with resources.files("sotalib.book").joinpath("data/auc_rho.json").open() as fh:
        cache = json.load(fh)
    assert cache["reps"] == RHO_REPS == 400
    rows = cache["rows"]
    assert tuple(r["rho"] for r in rows) == RHOS
    assert [r["seed"] for r in rows] == [1000 + i for i in range(len(RHOS))]
    for r in rows:
        assert r["ci_low"] <= r["mean"] <= r["ci_high"]
        assert r["se_mean"] == pytest.approx(r["sd"] / math.sqrt(400), rel=1e-12)


def test_the_direct_maxima_are_the_papers_setting():
    with resources.files("sotalib.book").joinpath("data/auc_max_direct.npz").open("rb") as fh:
        cache = np.load(fh)
        u, denom = cache["u"], int(cache["denom"])
        params = {k: cache[k].item() for k in DIRECT}
    assert params == DIRECT
    assert u.size == 10_000 and u.dtype.kind == "i"
    # every maximum is a count U of the 51 * 2949 (positive, negative) pairs
    assert denom == 51 * 2949 and 0 <= u.min() and u.max() <= denom
