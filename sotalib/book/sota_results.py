"""Cached results of chapters 4 and 5 (the fits are minutes long; the book reads this cache).

``python -m sotalib.book.cache sota_results --out sotalib/book/data`` recomputes ``sota_results.json``:
the AUC shrinkage on the Melanoma reconstruction (:func:`sotalib.book.reconstructions.load_challenge`)
and the comparison of estimators on the ground-truth challenge.  The estimates on the real Obesity and
Cassava boards are cached by :mod:`sotalib.book.ch04_real_challenges`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..multiplicity import estimate_sota
from ..multiplicity._auc_simulate import (
    expected_max_auc,
)  # the simulation behind summarize_max_auc
from ..multiplicity._sota_abc import (
    abc,
)  # its acceptance rate is not an option of estimate_sota
from .groundtruth import load_groundtruth
from .reconstructions import FACTS, load_challenge

PATH = Path(__file__).parent / "data" / "sota_results.json"
#: Leaderboards of the ground-truth challenge used for the comparison, and seeds.
GT_BOARDS = 60
SEED = 2024


def challenge_results(name: str) -> dict:
    f = FACTS[name]
    s = load_challenge(name).scores
    if f.metric == "auc":
        out = {
            "shrink_expected": estimate_sota(
                s,
                f.n,
                metric="auc",
                prevalence=f.prevalence,
                rho=0.0,
                n_resamples=200,
                rng=SEED,
            ).to_dict()
        }
        if "shrink_estimate" in f.paper:
            out["paper_weight"] = paper_weight_check(name)
        return out
    raise ValueError(
        f"name must be 'melanoma' (the accuracy boards are in sotalib.book.ch04_real_challenges), got {name!r}"
    )


def paper_weight_check(name: str, reps: int = 200, seed: int = 1) -> dict:
    """The paper's own shrinkage weight, on the leaderboard and on the most favourable board.

    The paper's state of the art ``est`` fixes its weight ``w = (est - 0.5) /
    (max - 0.5)``.  For that ``w`` this returns the expected maximum AUC
    (:func:`sotalib.multiplicity._auc_simulate.expected_max_auc`, ``reps``
    simulated challenges, ``seed``) on the leaderboard, and on the board
    that puts every team at the upper end of its published bracket (the
    winner at ``top``, the teams
    above each published threshold just below the next one up, everyone
    else at the lowest threshold).  The expected maximum grows with every
    team's AUC, so the second number bounds it over all leaderboards that
    reproduce the published counts; if it is below the winner, no such
    leaderboard gives the paper's estimate under this simulation model.
    """
    f = FACTS[name]
    s = load_challenge(name).scores
    top, est = float(f.top[0]), float(f.paper["shrink_estimate"])
    w = (est - 0.5) / (top - 0.5)
    brackets = sorted(f.above, reverse=True)  # highest threshold first
    ext, prev, upper = [top], 1, round(top - 1e-4, 4)
    for thr, count in brackets:
        ext += [upper] * (count - prev)
        prev, upper = count, thr
    ext += [upper] * (f.m - prev)
    ext = np.asarray(ext)
    on_board = expected_max_auc(
        w * s + (1 - w) * 0.5, f.n, f.prevalence, n_resamples=reps, rng=seed
    )
    bound = expected_max_auc(
        w * ext + (1 - w) * 0.5, f.n, f.prevalence, n_resamples=reps, rng=seed
    )
    return {
        "estimate": est,
        "weight": w,
        "reps": reps,
        "seed": seed,
        "on_board": on_board.mean,
        "on_board_se": on_board.se_mean,
        "bound": bound.mean,
        "bound_se": bound.se_mean,
        "bound_m": int(ext.size),
    }


def groundtruth_results(boards: int = GT_BOARDS, seed: int = SEED) -> dict:
    gt = load_groundtruth()
    rows = []
    for b in range(boards):
        s = gt.leaderboard(b)
        truth = float(gt.true_accuracy_excluding(b).max())
        r = {"board": b, "truth": truth, "sample_max": float(s.max())}
        for name, est in (
            ("shrink", estimate_sota(s, gt.block, rho=0.6)),
            ("shrink_rho0", estimate_sota(s, gt.block, rho=0.0)),
            (
                "deconvolve",
                estimate_sota(
                    s,
                    gt.block,
                    method="deconvolve",
                    n_resamples=50,
                    rng=seed + b,
                ),
            ),
            (
                "abc",
                abc(s, gt.block, n_resamples=4000, accept=0.02, rng=seed + b),
            ),
        ):
            r[name] = est.estimate
            r[name + "_ci"] = [est.ci_low, est.ci_high]
        r["naive_ci"] = list(
            estimate_sota(s, gt.block, method="naive").to_dict()[k]
            for k in ("ci_low", "ci_high")
        )
        rows.append(r)
    # similarity and implied correlation (Mania et al.) on the saved test sets
    c = gt.correct[0].astype(float)
    corr = np.corrcoef(c)
    iu = np.triu_indices(gt.m, 1)
    top = np.argsort(-gt.true_accuracy)[:30]
    ct = np.corrcoef(c[top])
    it = np.triu_indices(top.size, 1)
    agree = (c[:, None, :] == c[None, :, :]).mean(axis=2)
    sim = {
        "similarity_all": float(agree[iu].mean()),
        "rho_jk_all": float(np.nanmean(corr[iu])),
        "similarity_top30": float(agree[np.ix_(top, top)][it].mean()),
        "rho_jk_top30": float(np.nanmean(ct[it])),
    }
    sim["rho0_top30"] = float(np.sqrt(max(sim["rho_jk_top30"], 0.0)))
    sim["rho0_all"] = float(np.sqrt(max(sim["rho_jk_all"], 0.0)))
    return {
        "rows": rows,
        "similarity": sim,
        "boards": boards,
        "seed": seed,
        "block": gt.block,
        "m": gt.m,
        "true_best": gt.true_best,
    }


def load_results(path: Path = PATH) -> dict:
    return json.loads(Path(path).read_text())


def regenerate(path: str | Path, parts=("melanoma", "groundtruth")) -> dict:
    """Recompute the cached results and write them to ``path`` (``python -m sotalib.book.cache sota_results``)."""
    path = Path(path)
    res = load_results(path) if path.exists() else load_results()
    for part in parts:
        res[part] = (
            groundtruth_results()
            if part == "groundtruth"
            else challenge_results(part)
        )
        path.write_text(json.dumps(res, indent=1, allow_nan=False))
    return res
