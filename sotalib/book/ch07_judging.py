"""The judging chapter: its cached experiments, tables and figures.

The per-item predictions of thirteen scikit-learn classifiers on five tasks
(cached in ``data/judging_tasks.npz``; regenerate with
``python -m sotalib.book.cache judging_tasks --out sotalib/book/data``), the
cached search for the properties of ranking functions
(``data/ranking_properties.json``; ``... cache ranking_properties``), the
builders of the chapter's tables and its figures.
"""

from __future__ import annotations

import itertools
import json
import textwrap
import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap

from .._rng import int_seed
from ..judging import Counterexample, SearchResult
from ..judging._errorbars import cv_bootstrap_schema
from ..judging._properties import format_counterexample
from ..judging._property_checks import FUNCTIONS, PROPERTIES
from ..judging._ranking import METHODS
from ..judging._ranking_functions import condorcet_winner, pairwise_wins
from .style import COLORS

__all__ = [
    "CLASSIFIERS",
    "N_TASKS",
    "N_TEST",
    "N_TRAIN",
    "SEED",
    "TASKS",
    "TaskPredictions",
    "build_task_predictions",
    "cv_bootstrap_schema",
    "plot_condorcet_graph",
    "plot_cv_bootstrap_schema",
    "plot_public_private",
    "plot_rank_granularity",
    "plot_stability",
    "PROPERTY_SEED",
    "TABLE_FILE",
    "PROPERTY_TRIALS",
    "FUNCTION_NAMES",
    "PROPERTY_NAMES",
    "save_property_table",
    "load_property_table",
    "counterexample_summary",
    "counterexample_text",
    "property_long",
    "coverage_frame",
    "variance_frame",
    "final_phase_frame",
    "ranking_frame",
]


# ----------------------------------------------------------------------
# per-item predictions of the classifiers (was sotalib/book/judging_data.py)

SEED = 20240707
N_TRAIN = 1000
N_TEST = 20000
#: Task parameters for make_classification: (name, n_informative, class_sep, flip_y).
TASKS = (
    ("easy", 6, 1.5, 0.01),
    ("medium", 5, 1.0, 0.02),
    ("noisy", 5, 1.0, 0.10),
    ("hard", 8, 0.6, 0.03),
    ("very hard", 10, 0.4, 0.05),
)
N_TASKS = len(TASKS)
#: Names of the classifiers ("candidates").
CLASSIFIERS = (
    "logistic C=0.01",
    "logistic C=1",
    "LDA",
    "QDA",
    "naive Bayes",
    "5-NN",
    "25-NN",
    "tree depth 3",
    "tree depth 8",
    "random forest",
    "gradient boosting",
    "RBF SVM",
    "MLP",
)
FILE = "judging_tasks.npz"


def _models(seed: int):
    # scikit-learn only to regenerate the cache: deliberately lazy (optional for readers of the book, and heavy)
    from sklearn.discriminant_analysis import (
        LinearDiscriminantAnalysis,
        QuadraticDiscriminantAnalysis,
    )
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        RandomForestClassifier,
    )
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    scaled = lambda est: make_pipeline(StandardScaler(), est)
    return [
        scaled(LogisticRegression(C=0.01)),
        scaled(LogisticRegression(C=1.0)),
        LinearDiscriminantAnalysis(),
        QuadraticDiscriminantAnalysis(reg_param=0.1),
        GaussianNB(),
        scaled(KNeighborsClassifier(5)),
        scaled(KNeighborsClassifier(25)),
        DecisionTreeClassifier(max_depth=3, random_state=seed),
        DecisionTreeClassifier(max_depth=8, random_state=seed),
        RandomForestClassifier(100, random_state=seed, n_jobs=1),
        GradientBoostingClassifier(random_state=seed),
        scaled(SVC()),
        scaled(MLPClassifier((32,), max_iter=500, random_state=seed)),
    ]


@dataclass(frozen=True, eq=False)
class TaskPredictions:
    """Per-item correctness: ``correct[t, j, i]`` is True if classifier ``j`` is right on item ``i`` of task ``t``."""

    correct: np.ndarray
    classifiers: tuple
    tasks: tuple

    def accuracy(self) -> np.ndarray:
        """Accuracies, shape (tasks, classifiers)."""
        return self.correct.mean(axis=2)


def build_task_predictions(
    n_train: int = N_TRAIN, n_test: int = N_TEST, rng=SEED
) -> TaskPredictions:
    """Train every classifier on every task and record per-item correctness (deterministic for an int ``rng``).

    ``rng`` (SPEC 7) gives the master ``seed`` (see
    :func:`sotalib._rng.int_seed`); task ``t`` is drawn and its
    models seeded with ``seed + t``.  The default, ``SEED``, gives the cached predictions.
    """
    from sklearn.datasets import make_classification

    seed = int_seed(rng)
    out = np.zeros((N_TASKS, len(CLASSIFIERS), n_test), dtype=bool)
    for t, (_name, informative, sep, flip) in enumerate(TASKS):
        X, y = make_classification(
            n_samples=n_train + n_test,
            n_features=12,
            n_informative=informative,
            n_redundant=2,
            class_sep=sep,
            flip_y=flip,
            random_state=seed + t,
        )
        for j, model in enumerate(_models(seed + t)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X[:n_train], y[:n_train])
                out[t, j] = model.predict(X[n_train:]) == y[n_train:]
    return TaskPredictions(out, CLASSIFIERS, tuple(name for name, *_ in TASKS))


def save_task_predictions(tp: TaskPredictions, path: str | Path) -> None:
    np.savez_compressed(
        path,
        bits=np.packbits(tp.correct, axis=-1),
        n_items=tp.correct.shape[-1],
        classifiers=np.array(tp.classifiers),
        tasks=np.array(tp.tasks),
    )


# ----------------------------------------------------------------------
# tables (was sotalib/book/judging_tables.py)


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


# ----------------------------------------------------------------------
# figures (was sotalib/book/fig_judging.py)


def plot_cv_bootstrap_schema(folds: np.ndarray, counts: np.ndarray, axes=None):
    """Figure 6: k-fold cross-validation (left) and bootstrap resampling (right) of the same items."""
    if axes is None:
        _, axes = plt.subplots(
            1, 2, figsize=(10, 3.2), gridspec_kw={"width_ratios": [1, 1]}
        )
    k, n = folds.shape
    cv_cmap = ListedColormap([COLORS["single"], COLORS["better"]])
    axes[0].imshow(
        folds.astype(int),
        aspect="auto",
        cmap=cv_cmap,
        vmin=0,
        vmax=1,
        interpolation="nearest",
    )
    axes[0].set_title("(a)", loc="left")
    axes[0].set_ylabel("round (model retrained)")
    top = max(3, int(counts.max()))
    colors = ["white", "#C6DBEF", "#6BAED6", "#2171B5", "#08306B"][: top + 1]
    bs_cmap = ListedColormap(colors)
    im = axes[1].imshow(
        np.minimum(counts, len(colors) - 1),
        aspect="auto",
        cmap=bs_cmap,
        vmin=-0.5,
        vmax=len(colors) - 0.5,
        interpolation="nearest",
    )
    axes[1].set_title("(b)", loc="left")
    axes[1].set_ylabel("bootstrap sample (same model)")
    cb = plt.colorbar(im, ax=axes[1], ticks=range(len(colors)), fraction=0.05)
    cb.ax.set_yticklabels(
        [
            str(i) if i < len(colors) - 1 else f"{i}+"
            for i in range(len(colors))
        ]
    )
    for ax, rows in zip(axes, (k, counts.shape[0])):
        ax.set_xlabel("item")
        ax.set_yticks(range(rows))
        ax.set_yticklabels([str(i + 1) for i in range(rows)])
    return axes


def plot_rank_granularity(g, names, ax=None):
    """Figure 7 (paper): mean rank and its standard deviation when items, or tasks, are bootstrapped."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.6))
    order = np.argsort(g.mean_items)
    x = np.arange(len(order))
    ax.errorbar(
        x - 0.12,
        g.mean_items[order],
        yerr=g.sd_items[order],
        fmt="o",
        color=COLORS["single"],
        capsize=3,
        label="bootstrap of test items (high granularity)",
    )
    ax.errorbar(
        x + 0.12,
        g.mean_tasks[order],
        yerr=g.sd_tasks[order],
        fmt="s",
        color=COLORS["better"],
        capsize=3,
        label="bootstrap of tasks (low granularity)",
    )
    ax.set_xticks(x)
    ax.set_xticklabels([names[i] for i in order], rotation=45, ha="right")
    ax.set_ylabel("rank (1 = best), mean $\\pm$ sd")
    ax.invert_yaxis()
    ax.legend(loc="best")
    return ax


def plot_stability(sizes, curves: dict, ax=None, extra: tuple | None = None):
    """Figure 8: Kendall's W of bootstrap rankings against the number of test items, one line per task.

    ``extra = (label, sizes, w)`` adds one more curve, drawn black and dashed.  The tasks'
    curves are solid, each with its own colour and marker (told apart in grey too).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.8))
    markers = ["o", "s", "^", "D", "v", "P", "X", "<"]
    for i, (label, w) in enumerate(curves.items()):
        ax.plot(
            sizes,
            w,
            ls="-",
            marker=markers[i % len(markers)],
            ms=4,
            label=label,
        )
    if extra is not None:
        ax.plot(
            extra[1],
            extra[2],
            color=COLORS["reference"],
            ls="--",
            marker=".",
            label=extra[0],
        )
    ax.set_xscale("log")
    ax.set_xlabel("number of test items $n$ (bootstrap test-set size)")
    ax.set_ylabel("ranking stability (Kendall's $W$)")
    ax.set_ylim(0, 1.02)
    ax.axhline(1, color=COLORS["reference"], lw=0.8, ls=":")
    ax.legend(title="task", loc="best")
    return ax


def plot_public_private(results, axes=None):
    """Public against private score of each team's selected submission (one panel per mechanism)."""
    if axes is None:
        _, axes = plt.subplots(
            1,
            len(results),
            figsize=(4.2 * len(results), 4),
            sharex=True,
            sharey=True,
        )
    axes = np.atleast_1d(axes)
    lo = min(min(r.public.min(), r.private.min()) for r in results)
    hi = max(max(r.public.max(), r.private.max()) for r in results)
    for ax, r in zip(axes, results):
        sc = ax.scatter(
            r.public,
            r.private,
            c=np.log10(r.submissions),
            s=10,
            cmap="viridis",
            alpha=0.8,
        )
        ax.plot(
            [lo, hi],
            [lo, hi],
            color=COLORS["reference"],
            lw=1,
            label="public = private",
        )
        ax.set_title("(a)" if r.mechanism == "kaggle" else "(b)", loc="left")
        ax.set_xlabel("public leaderboard score")
        ax.legend(loc="upper left")
    axes[0].set_ylabel("private leaderboard score")
    cb = plt.colorbar(sc, ax=list(axes), fraction=0.03)
    cb.set_label("log$_{10}$ submissions")
    return axes


def plot_condorcet_graph(
    M, labels=None, lower_is_better: bool = False, ax=None
):
    """Condorcet graph (Figure 10): an arrow ``u -> v`` when ``u`` beats ``v`` for more judges.

    Arrows out of a Condorcet winner and arrows on 3-cycles are drawn bold.
    Candidates are numbered from 1 in the nodes, as in the book's tables.
    """
    W = pairwise_wins(M, lower_is_better)
    n = W.shape[0]
    labels = (
        list(labels)
        if labels is not None
        else [f"Candidate {i + 1}" for i in range(n)]
    )
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 4))
    angles = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    xy = np.c_[np.cos(angles), np.sin(angles)]
    winner = condorcet_winner(M, lower_is_better)
    beats = W > W.T
    cyc = np.zeros_like(beats)
    for a, b, c in itertools.permutations(range(n), 3):
        if beats[a, b] and beats[b, c] and beats[c, a]:
            cyc[a, b] = cyc[b, c] = cyc[c, a] = True
    for u in range(n):
        for v in range(n):
            if not beats[u, v]:
                continue
            bold = (u == winner) or cyc[u, v]
            color = (
                COLORS["sota"]
                if u == winner
                else (COLORS["better"] if cyc[u, v] else COLORS["observed"])
            )
            ax.annotate(
                "",
                xy=xy[v],
                xytext=xy[u],
                arrowprops=dict(
                    arrowstyle="-|>",
                    lw=2.6 if bold else 1.0,
                    color=color,
                    shrinkA=22,
                    shrinkB=22,
                    mutation_scale=16,
                ),
            )
            mid = xy[u] + 0.4 * (
                xy[v] - xy[u]
            )  # off-centre, so that crossing edges keep their labels apart
            ax.text(
                mid[0],
                mid[1],
                f"{W[u, v]}:{W[v, u]}",
                fontsize=9,
                ha="center",
                va="center",
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none"),
            )
    for i in range(n):
        ax.scatter(
            *xy[i],
            s=900,
            color=COLORS["sota"] if i == winner else COLORS["single"],
            zorder=3,
        )
        ax.text(
            *xy[i],
            str(i + 1),
            color="white",
            ha="center",
            va="center",
            fontsize=12,
            zorder=4,
            weight="bold",
        )
        px, py = xy[i] * 1.22
        ha = (
            "left"
            if xy[i, 0] > 0.2
            else ("right" if xy[i, 0] < -0.2 else "center")
        )
        va = (
            "bottom"
            if xy[i, 1] > 0.2
            else ("top" if xy[i, 1] < -0.2 else "center")
        )
        ax.text(px, py, labels[i], ha=ha, va=va, fontsize=9)
    ax.set_xlim(-2.0, 2.0)
    ax.set_ylim(-1.6, 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


# ----------------------------------------------------------------------
# the cached property search (was sotalib/book/ranking_properties.py)

#: File (in sotalib/book/data) holding the full-size search behind the book's Table 4.
TABLE_FILE = "ranking_properties.json"
#: Trials per cell and seed of the shipped table
#: (``property_table(n_resamples=PROPERTY_TRIALS, rng=PROPERTY_SEED)``).
PROPERTY_TRIALS, PROPERTY_SEED = 6000, 2024


def _ce_to_dict(ce: Counterexample | None):
    if ce is None:
        return None
    return {
        "M": ce.M.tolist(),
        "M2": None if ce.M2 is None else ce.M2.tolist(),
        "explanation": ce.explanation,
        "names2": None if ce.names2 is None else list(ce.names2),
        "meta": {k: int(v) for k, v in (ce.meta or {}).items()},
    }


def _ce_from_dict(f, p, d) -> Counterexample | None:
    if d is None:
        return None
    return Counterexample(
        f,
        p,
        np.array(d["M"], dtype=float),
        None if d["M2"] is None else np.array(d["M2"], dtype=float),
        d["explanation"],
        None if d["names2"] is None else tuple(d["names2"]),
        dict(d["meta"]),
    )


def save_property_table(table: dict, path, trials: int, seed: int) -> None:
    """Write a :func:`property_table` result as JSON (``seed``: the int ``rng`` it was run with)."""
    out = {
        "trials": trials,
        "seed": seed,
        "cells": [
            {
                "function": f,
                "property": p,
                "trials": r.n_resamples,
                "tested": r.tested,
                "counterexample": _ce_to_dict(r.counterexample),
            }
            for (f, p), r in table.items()
        ],
    }
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)


def load_property_table(path=None) -> tuple[dict, int, int]:
    """The cached full-size search: ``({(function, property): SearchResult}, trials, seed)``.

    Regenerate with ``python -m sotalib.book.cache ranking_properties --out sotalib/book/data``
    (about ten minutes on two cores).
    """
    if path is None:
        text = (
            resources.files("sotalib.book")
            .joinpath("data", TABLE_FILE)
            .read_text()
        )
    else:
        with open(path) as fh:
            text = fh.read()
    d = json.loads(text)
    table = {}
    for c in d["cells"]:
        f, p = c["function"], c["property"]
        table[f, p] = SearchResult(
            f,
            p,
            c["trials"],
            c["tested"],
            _ce_from_dict(f, p, c["counterexample"]),
        )
    return table, d["trials"], d["seed"]


#: Display names of the ranking functions and properties in the book's tables.
FUNCTION_NAMES = {
    "random-dictator": "Random dictator",
    "mean": "Mean",
    "median": "Median",
    "average-rank": "Average rank",
    "copeland": "Copeland",
    "kemeny": "Kemeny–Young",
    "relative-difference": "Relative difference",
}
PROPERTY_NAMES = {
    "majority": "Majority",
    "condorcet": "Condorcet",
    "consistency": "Consistency",
    "participation": "Participation",
    "iia": "IIA",
    "liia": "LIIA",
    "clone-proof": "Clone-proof",
}


def counterexample_summary(table: dict):
    """One row per counterexample of the search: function, property, its size and what goes wrong."""
    rows = []
    for (f, p), r in table.items():
        ce = r.counterexample
        if ce is None:
            continue
        rows.append(
            {
                "function": FUNCTION_NAMES[f],
                "property": PROPERTY_NAMES[p],
                "candidates × judges": f"{ce.M.shape[0]} × {ce.M.shape[1]}",
                "second profile": "yes" if ce.M2 is not None else "no",
                "what goes wrong": ce.explanation,
            }
        )
    return pd.DataFrame(rows)


def counterexample_text(table: dict, width: int = 88) -> str:
    """Every counterexample of the search as text (score matrices and the explanation wrapped to ``width``)."""
    blocks = []
    for r in table.values():
        if r.counterexample is None:
            continue
        lines = format_counterexample(r.counterexample).splitlines()
        blocks.append("\n".join(lines[:-1] + textwrap.wrap(lines[-1], width)))
    return "\n\n".join(blocks)


def property_long(table: dict, paper: dict):
    """The paper's table of properties beside the search, one row per function.

    Columns: the function, the properties the paper marks as satisfied, those
    the search finds no counterexample to, and whether the two agree (else the
    properties where they differ).  Four columns instead of one per property,
    so that the table fits the book's text column.
    """
    rows = []
    for f in FUNCTIONS:
        found = [p for p in PROPERTIES if table[f, p].holds]
        said = [p for p in PROPERTIES if p in paper[f]] if f in paper else None
        differ = (
            []
            if said is None
            else sorted(set(found) ^ set(said), key=PROPERTIES.index)
        )
        rows.append(
            {
                "function": FUNCTION_NAMES[f],
                "paper: holds": "–"
                if said is None
                else ", ".join(PROPERTY_NAMES[p] for p in said) or "none",
                "search: holds": ", ".join(PROPERTY_NAMES[p] for p in found)
                or "none",
                "agree": "–"
                if said is None
                else (
                    "yes"
                    if not differ
                    else "no: " + ", ".join(PROPERTY_NAMES[p] for p in differ)
                ),
            }
        )
    return pd.DataFrame(rows)


def coverage_frame(exact: dict, boot: dict):
    """Coverage table: ``exact[n]`` (Clopper--Pearson) and ``boot[n, method]`` (a ``Coverage``) as ``rate ± se``."""
    rows = []
    for n, cp in exact.items():
        row = {"n": n, "Clopper–Pearson (exact)": float(cp)}
        for method in ("percentile", "BCa"):
            cov = boot[n, method]
            row[f"{method} (Monte Carlo)"] = f"{cov.rate:.3f} ± {cov.se:.3f}"
        rows.append(row)
    return pd.DataFrame(rows)


def variance_frame(parts, names):
    """One row per classifier: total, within- and between-task variance and the between share."""
    return pd.DataFrame(
        [
            {
                "classifier": name,
                "total": vd.total,
                "within tasks": vd.within,
                "between tasks": vd.between,
                "between share": vd.between / vd.total,
            }
            for name, vd in zip(names, parts)
        ]
    )


def final_phase_frame(results: dict):
    """One row per admission rule (label -> ``FinalPhase``)."""
    return pd.DataFrame(
        [
            {
                "final phase open to": label,
                "finalists (mean)": fp.finalists,
                "winner's true accuracy": fp.winner_theta,
                "± se": fp.se,
                "P(winner is the best)": fp.p_best,
            }
            for label, fp in results.items()
        ]
    )


def ranking_frame(ranked: dict):
    """One row per ranking function: its values f and ranks r of the candidates, each as one text cell."""
    rows = []
    for method in METHODS:
        a = ranked[method]
        rows.append(
            {
                "function": FUNCTION_LABELS[method],
                "f (candidates 1, 2, 3)": ", ".join(
                    f"{float(v):.4g}" for v in a.scores
                ),
                "r (candidates 1, 2, 3)": ", ".join(
                    f"{float(v):g}" for v in a.ranks
                ),
            }
        )
    return pd.DataFrame(rows)
