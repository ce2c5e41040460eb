"""Figures of the judging chapter (Figures 6, 7, 8 and 10 of {pavao2024judge}, and the
public-versus-private scatter of {mollersen2024multiplicity_v2})."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from ..judging._errorbars import cv_bootstrap_schema
from ..judging._rankfunctions import condorcet_winner, pairwise_wins
from .style import COLORS

__all__ = [
    "cv_bootstrap_schema",
    "plot_condorcet_graph",
    "plot_cv_bootstrap_schema",
    "plot_public_private",
    "plot_rank_granularity",
    "plot_stability",
]


def plot_cv_bootstrap_schema(folds: np.ndarray, counts: np.ndarray, axes=None):
    """Figure 6: k-fold cross-validation (left) and bootstrap resampling (right) of the same items."""
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(10, 3.2), gridspec_kw={"width_ratios": [1, 1]})
    k, n = folds.shape
    cv_cmap = ListedColormap([COLORS["single"], COLORS["better"]])
    axes[0].imshow(folds.astype(int), aspect="auto", cmap=cv_cmap, vmin=0, vmax=1, interpolation="nearest")
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
    cb.ax.set_yticklabels([str(i) if i < len(colors) - 1 else f"{i}+" for i in range(len(colors))])
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
        ax.plot(sizes, w, ls="-", marker=markers[i % len(markers)], ms=4, label=label)
    if extra is not None:
        ax.plot(extra[1], extra[2], color=COLORS["reference"], ls="--", marker=".", label=extra[0])
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
        _, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 4), sharex=True, sharey=True)
    axes = np.atleast_1d(axes)
    lo = min(min(r.public.min(), r.private.min()) for r in results)
    hi = max(max(r.public.max(), r.private.max()) for r in results)
    for ax, r in zip(axes, results):
        sc = ax.scatter(r.public, r.private, c=np.log10(r.submissions), s=10, cmap="viridis", alpha=0.8)
        ax.plot([lo, hi], [lo, hi], color=COLORS["reference"], lw=1, label="public = private")
        ax.set_title("(a)" if r.mechanism == "kaggle" else "(b)", loc="left")
        ax.set_xlabel("public leaderboard score")
        ax.legend(loc="upper left")
    axes[0].set_ylabel("private leaderboard score")
    cb = plt.colorbar(sc, ax=list(axes), fraction=0.03)
    cb.set_label("log$_{10}$ submissions")
    return axes


def plot_condorcet_graph(M, labels=None, lower_is_better: bool = False, ax=None):
    """Condorcet graph (Figure 10): an arrow ``u -> v`` when ``u`` beats ``v`` for more judges.

    Arrows out of a Condorcet winner and arrows on 3-cycles are drawn bold.
    Candidates are numbered from 1 in the nodes, as in the book's tables.
    """
    W = pairwise_wins(M, lower_is_better)
    n = W.shape[0]
    labels = list(labels) if labels is not None else [f"Candidate {i + 1}" for i in range(n)]
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
            color = COLORS["sota"] if u == winner else (COLORS["better"] if cyc[u, v] else COLORS["observed"])
            ax.annotate(
                "",
                xy=xy[v],
                xytext=xy[u],
                arrowprops=dict(
                    arrowstyle="-|>", lw=2.6 if bold else 1.0, color=color, shrinkA=22, shrinkB=22, mutation_scale=16
                ),
            )
            mid = xy[u] + 0.4 * (xy[v] - xy[u])  # off-centre, so that crossing edges keep their labels apart
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
        ax.scatter(*xy[i], s=900, color=COLORS["sota"] if i == winner else COLORS["single"], zorder=3)
        ax.text(*xy[i], str(i + 1), color="white", ha="center", va="center", fontsize=12, zorder=4, weight="bold")
        px, py = xy[i] * 1.22
        ha = "left" if xy[i, 0] > 0.2 else ("right" if xy[i, 0] < -0.2 else "center")
        va = "bottom" if xy[i, 1] > 0.2 else ("top" if xy[i, 1] < -0.2 else "center")
        ax.text(px, py, labels[i], ha=ha, va=va, fontsize=9)
    ax.set_xlim(-2.0, 2.0)
    ax.set_ylim(-1.6, 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax
