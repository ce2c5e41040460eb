"""eval-arena's estimators written plainly, pair by pair, with pandas and NumPy: the reference of bench_errorbars.

This follows ``arena.py`` and ``estimators.py`` of crux-eval/eval-arena at commit 89f867d
(``BattleSummary._pair_summary`` with ``Paired.from_bernoulli_prob_unbiasedK``, and
``model_table``): each model's ``SE(A)``, ``SE_x(A)`` and ``SE_pred(A)`` from its pass@1 column;
for each unordered pair, on the items both answered, the difference, ``SE(A-B)`` and its data and
prediction parts (the small-K bias correction, clipped at 0; NaN when a model has K = 1), the
Pearson correlation and the sign test on the expected win counts (``scipy.stats.binomtest``);
then Holm's step-down adjustment over all pairs.  One pair at a time, as eval-arena computes
them: the baseline the library's block computation is timed against.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def models_table(P: np.ndarray, names: list[str]) -> pd.DataFrame:
    """Per model (a column of ``P``, items x models, NaN: not answered): pass1, SE(A), SE_x(A), SE_pred(A)."""
    rows = []
    for j, name in enumerate(names):
        p = P[:, j]
        p = p[~np.isnan(p)]
        n = p.size
        rows.append(
            {
                "model": name,
                "pass1": p.mean(),
                "SE(A)": np.sqrt(p.mean() * (1 - p.mean()) / n),
                "SE_x(A)": np.std(p) / np.sqrt(n),
                "SE_pred(A)": np.sqrt(np.mean(p * (1 - p)) / n),
            }
        )
    return pd.DataFrame(rows)


def _pair(pA: np.ndarray, pB: np.ndarray, kA: float, kB: float) -> dict:
    n = pA.size
    mA, mB = pA.mean(), pB.mean()
    cov = np.sum((pA - mA) * (pB - mB)) / n
    total = mA * (1 - mA) + mB * (1 - mB) - 2 * cov
    if kA == 1 or kB == 1:
        bias = np.nan
    else:
        bias = np.mean(pA * (1 - pA)) / (kA - 1) + np.mean(pB * (1 - pB)) / (kB - 1)
    var_e = np.var(pA - pB) - bias
    e_var = np.mean(pA * (1 - pA)) + np.mean(pB * (1 - pB)) + bias
    total, var_e, e_var = (max(v, 0.0) if not np.isnan(v) else v for v in (total, var_e, e_var))  # clip()
    awin, bwin = pA * (1 - pB), (1 - pA) * pB
    k, m = int(awin.sum()), int(awin.sum() + bwin.sum())
    return {
        "total": n,
        "difference": mA - mB,
        "SE(A-B)": np.sqrt(total / n),
        "SE_x(A-B)": np.sqrt(var_e / n),
        "SE_pred(A-B)": np.sqrt(e_var / n),
        "corr(A,B)": pd.Series(pA).corr(pd.Series(pB), method="pearson"),
        "pvalue": stats.binomtest(k, m, p=0.5).pvalue if m != 0 else 1.0,
    }


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values, written plainly."""
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.empty(m)
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[k]))
        adjusted[k] = running
    return adjusted


def pairs_table(P: np.ndarray, names: list[str], K: np.ndarray | None = None) -> pd.DataFrame:
    """Every unordered pair (a before b in the column order), one at a time, with Holm's adjustment."""
    m = P.shape[1]
    K = np.ones(m) if K is None else np.asarray(K, dtype=float)
    answered = ~np.isnan(P)
    rows = []
    for a in range(m):
        for b in range(a + 1, m):
            both = answered[:, a] & answered[:, b]
            if not both.any():
                continue
            rows.append({"a": names[a], "b": names[b], **_pair(P[both, a], P[both, b], K[a], K[b])})
    out = pd.DataFrame(rows)
    out["p_adjusted"] = holm(out["pvalue"].to_numpy())
    return out


def simulate(n_items: int, n_models: int, seed: int, *, chunk: int = 1024) -> np.ndarray:
    """0/1 outcomes, items x models, from a logistic model of ability and difficulty (models correlate).

    Drawn ``chunk`` items at a time, so that the peak memory is the matrix's own (8 bytes a cell).
    """
    rng = np.random.default_rng(seed)
    ability = rng.normal(0.0, 1.0, n_models).astype(np.float32)
    difficulty = rng.normal(0.0, 1.5, n_items).astype(np.float32)
    out = np.empty((n_items, n_models))
    for start in range(0, n_items, chunk):
        logits = ability[None, :] - difficulty[start : start + chunk, None]
        u = rng.random(logits.shape, dtype=np.float32)
        out[start : start + chunk] = u < 1.0 / (1.0 + np.exp(-logits))
    return out
