"""The computations behind the judging chapter's tables (Chapter 7).

Each function is one table of the chapter, built from :mod:`sotalib.judging`,
so that the chapter shows it as one call.  Monte Carlo numbers come with their
seeds and standard errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..judging import bootstrap_coverage, rank_candidates, simulate_final_phase, variance_decomposition
from ..judging._ranking import METHODS
from ..multiplicity import clopper_pearson

__all__ = [
    "clopper_pearson_coverage",
    "coverage_table",
    "variance_table",
    "ranking_function_table",
    "final_phase_table",
]


def clopper_pearson_coverage(theta: float, n: int, alpha: float = 0.05) -> float:
    """Exact coverage of the Clopper--Pearson interval for a binomial proportion ``theta`` on ``n`` items.

    The sum of the binomial probabilities of the counts ``x`` whose interval
    contains ``theta``.
    """
    xs = np.arange(n + 1)
    bounds = np.array([clopper_pearson(int(x), n, alpha) for x in xs])
    cover = (bounds[:, 0] <= theta) & (theta <= bounds[:, 1])
    return float(stats.binom.pmf(xs, n, theta)[cover].sum())


def coverage_table(theta: float = 0.9, sizes=(25, 100, 400), *, reps: int = 400, n_resamples: int = 999):
    """Coverage of nominal 95% intervals for an accuracy ``theta`` on ``n`` items.

    Clopper--Pearson exactly (:func:`clopper_pearson_coverage`); the
    percentile and BCa bootstrap by Monte Carlo
    (:func:`~sotalib.judging.bootstrap_coverage`, ``reps`` simulated test sets
    with ``n_resamples`` resamples each, seed ``[n, len(method)]``), as
    ``rate ± se`` strings.
    """
    rows = []
    for n in sizes:
        row = {"n": n, "Clopper–Pearson (exact)": clopper_pearson_coverage(theta, n)}
        for method in ("percentile", "BCa"):
            cov = bootstrap_coverage(
                theta,
                n,
                method=method,
                n_simulations=reps,
                n_resamples=n_resamples,
                rng=np.random.default_rng([n, len(method)]),
            )
            row[f"{method} (Monte Carlo)"] = f"{cov.rate:.3f} ± {cov.se:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def variance_table(correct: np.ndarray, names, *, reps: int = 200, n: int = 1000, rng=4):
    """Within- and between-task variance of each classifier's accuracy.

    ``correct`` has shape ``(tasks, classifiers, items)``.  For every task,
    ``reps`` bootstrap test sets of ``n`` items (the same for all
    classifiers; one generator ``rng`` drawn task by task); the accuracies of
    each classifier over all tasks and test sets are split by
    :func:`~sotalib.judging.variance_decomposition` (population variances,
    so that the parts add up exactly).
    """
    g = np.random.default_rng(rng)
    T, J, N = correct.shape
    boot = np.empty((T, reps, J))
    for t in range(T):
        idx = g.integers(N, size=(reps, n))
        boot[t] = correct[t][:, idx].mean(axis=2).T
    rows = []
    task = np.repeat(np.arange(T), reps)
    for j, name in enumerate(names):
        vd = variance_decomposition(boot[:, :, j].ravel(), task)
        rows.append(
            {
                "classifier": name,
                "total": vd.total,
                "within tasks": vd.within,
                "between tasks": vd.between,
                "between share": vd.between / vd.total,
            }
        )
    return pd.DataFrame(rows)


#: The chapter's labels of the ranking functions.
FUNCTION_LABELS = {
    "random-dictator": "random dictator (judge 1)",
    "mean": "mean",
    "median": "median",
    "average-rank": "average rank",
    "weighted-average-rank": "weighted average rank (w = 1, 2, 1, 1)",
    "copeland": "Copeland",
    "relative-difference": "relative difference",
    "kemeny": "Kemeny–Young",
}


def ranking_function_table(M, weights=(1, 2, 1, 1)):
    """Every ranking function on one score matrix: the aggregate value f and the rank r of each candidate.

    Candidates are numbered from 1.  The random dictator is shown as the
    outcome when judge 1 is drawn; the weighted average rank uses ``weights``.
    """
    M = np.asarray(M, dtype=float)
    rows = []
    for method in METHODS:
        a = rank_candidates(M[:, :1] if method == "random-dictator" else M, method, weights=list(weights))
        row = {"function": FUNCTION_LABELS[method]}
        row.update({f"f, candidate {i + 1}": float(v) for i, v in enumerate(a.scores)})
        row.update({f"r, candidate {i + 1}": float(v) for i, v in enumerate(a.ranks)})
        rows.append(row)
    return pd.DataFrame(rows)


def final_phase_table(thetas, n_dev: int, n_final: int, *, baseline: float, k: int, reps: int = 4000, rng=9):
    """Who enters the final phase, and how good the winner is (:func:`~sotalib.judging.simulate_final_phase`).

    One row per rule -- everyone, those beating ``baseline`` in the
    development phase, the top ``k`` -- with the mean number of finalists,
    the winner's mean true accuracy and its standard error, and the
    probability that the winner is the truly best entry (``reps`` simulated
    competitions, seed ``rng`` for each rule).
    """
    rows = []
    for label, rule, kw in (
        ("everyone", "all", {}),
        ("those beating the baseline", "baseline", {"baseline": baseline}),
        (f"the top {k}", "top-k", {"k": k}),
    ):
        fp = simulate_final_phase(thetas, n_dev, n_final, rule=rule, n_resamples=reps, rng=rng, **kw)
        rows.append(
            {
                "final phase open to": label,
                "finalists (mean)": fp.finalists,
                "winner's true accuracy": fp.winner_theta,
                "± se": fp.se,
                "P(winner is the best)": fp.p_best,
            }
        )
    return pd.DataFrame(rows)
