"""Chapter 5: the sample maximum of ROC AUC (binormal model, simulated exactly in distribution).

The heavy cases run once without a warm-up call (a warm-up would double the
time of ``make bench``); their Numba kernels are cached on disk
(``cache=True``), so only the very first run includes compilation.
"""

import numpy as np

import sotalib.multiplicity as A

from ._harness import Case

_rng = np.random.default_rng(0)
_y = _rng.random(100_000) < 0.017
_s = _rng.standard_normal(100_000) + 1.8 * _y


def _sklearn():
    from sklearn.metrics import roc_auc_score

    return roc_auc_score(_y, _s)


def _melanoma_shrunk():
    aucs = 0.5 + 0.9 * (np.clip(_rng.normal(0.85, 0.04, 3000), 0.5, 0.95) - 0.5)
    return A.summarize_max_auc(7687, None, aucs, 0.017, engine="simulate", n_resamples=100, rng=1)


CASES = [
    Case(
        "AUC max: paper setting, 10^4 reps x 1,000 classifiers x 3,000 items (direct)",
        lambda: A.simulate_max_auc(0.9, 3000, 1000, 0.017, n_resamples=10_000, rng=1),
        target=60.0,
        repeat=1,
        warmup=False,
        note="10^7 empirical AUCs, multinomial method + Bernstein screening",
    ),
    Case(
        "AUC: 10^6 single-classifier AUCs, n=3,000, pi=0.017 (AUCs per second = 10^6 / time)",
        lambda: A.simulate_auc(0.9, 3000, 0.017, n_resamples=10**6, rng=2),
        target=20.0,
        repeat=1,
        warmup=False,
        note="multinomial method, every AUC completed",
    ),
    Case(
        "AUC max: conditional MC F^m, 1,000 negative samples (paper setting)",
        lambda: A.auc_distribution(0.9, 3000, 0.017, n_resamples=1000, rng=3).max_summary(1000),
        target=30.0,
        repeat=1,
        warmup=False,
    ),
    Case(
        "summarize_max_auc: 3,000 teams, n=7,687, pi=0.017, 100 reps (Melanoma)", _melanoma_shrunk, target=5.0, repeat=3
    ),
    Case(
        "empirical_auc: 10^5 scores",
        lambda: A.empirical_auc(_s, _y),
        target=0.05,
        repeat=5,
        reference=_sklearn,
        reference_name="sklearn roc_auc_score",
    ),
]
