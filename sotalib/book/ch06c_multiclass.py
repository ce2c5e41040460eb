"""The multiclass section's power of the multiclass consistency test against the number of decimals (Figure 5 style).

Each replication draws a classifier (a per-class hit rate ``theta`` uniform in
``theta_range``, the misses spread uniformly over the other classes), a
confusion matrix on the test set (each row multinomial), reports the chosen
scores rounded to ``decimals`` as an author would, adds the smallest typo --
one unit of the last digit, random sign -- to one of them chosen at random,
and runs :func:`sotalib.consistency.check_multiclass`.  The power is the
fraction of these false reports found inconsistent; the test never flags a
true report (tested), so this is its only error.
"""

from __future__ import annotations

import math

import numpy as np

from ..consistency import PowerPoint, check_multiclass, multiclass_scores

__all__ = [
    "CLASSES",
    "REPORTS",
    "multiclass_power",
    "random_report",
    "reports_frame",
]

#: The test set of the chapter's example: three classes of 30, 50 and 20 items.
CLASSES = (30, 50, 20)

#: Reported score sets compared in the chapter (keys of :func:`sotalib.consistency.multiclass_scores`).
REPORTS = {
    "accuracy and macro F1": ("acc", "macro_fbp"),
    "accuracy, macro precision, recall and F1": (
        "acc",
        "macro_ppv",
        "macro_sens",
        "macro_fbp",
    ),
}

_NAMES = {
    "acc": "acc",
    "macro_fbp": "macro_f1",
    "macro_ppv": "macro_precision",
    "macro_sens": "macro_recall",
}


def _fmt(x: float, d: int) -> str:
    return f"{round(x * 10**d) / 10**d:.{d}f}"


def random_report(classes, decimals: int, keys, rng, theta_range=(0.6, 0.95)):
    """One true report: (confusion matrix, ``{name: value}`` rounded to ``decimals``)."""
    k = len(classes)
    theta = rng.uniform(*theta_range)
    probs = np.full((k, k), (1 - theta) / (k - 1))
    np.fill_diagonal(probs, theta)
    m = np.array([rng.multinomial(c, probs[i]) for i, c in enumerate(classes)])
    sc = multiclass_scores(m)
    return m, {_NAMES[key]: _fmt(sc[key], decimals) for key in keys}


def multiclass_power(
    decimals: int,
    keys=REPORTS["accuracy and macro F1"],
    n_resamples: int = 200,
    rng=None,
    classes=CLASSES,
    theta_range=(0.6, 0.95),
) -> PowerPoint:
    """Power against a one-digit typo in a multiclass report (the paper's Figure 5, for k classes).

    ``rng`` is an int seed or a :class:`numpy.random.Generator`; an int is recorded in the result.
    """
    seed = int(rng) if isinstance(rng, int) else None
    rng = np.random.default_rng(rng)
    hits = 0
    reps = n_resamples
    for _ in range(reps):
        _, rep = random_report(classes, decimals, keys, rng, theta_range)
        name = list(rep)[rng.integers(len(rep))]
        v = float(rep[name]) + rng.choice([-1, 1]) * 10.0**-decimals
        rep[name] = _fmt(min(max(v, 0.0), 1.0), decimals)
        hits += not check_multiclass(
            classes, rep, decimals=decimals
        ).consistent
    pw = hits / reps
    return PowerPoint(
        decimals, pw, math.sqrt(pw * (1 - pw) / reps), reps, seed
    )


#: The table's names of the reported scores.
_COLUMNS = {
    "acc": "acc",
    "macro_precision": "P",
    "macro_recall": "R",
    "f1": "F1",
}


def reports_frame(reports: dict, verdicts: dict):
    """One row per report: its scores in one column, the verdict, the fits and the typo finder's proposal."""
    import pandas as pd

    def typo(v):
        if not v.suggestions:
            return "-"
        s = v.suggestions[0]
        return f"{_COLUMNS.get(s.score, s.score)} {s.reported:.4f} → {s.suggested:.4f}"

    return pd.DataFrame(
        {
            "report": list(reports),
            "scores": [
                ", ".join(f"{_COLUMNS.get(k, k)} {x}" for k, x in r.items())
                for r in reports.values()
            ],
            "consistent": [
                "yes" if v.consistent else "no" for v in verdicts.values()
            ],
            "fits": [v.n_solutions for v in verdicts.values()],
            "typo finder": [typo(v) for v in verdicts.values()],
        }
    )
