"""Chapter 4, real challenges: the vendored boards, the chapter's tables and figures, and a cache.

The boards are the project's vendored copies (``data/leaderboards``, ``data/imagenet``
in a checkout; source, commit and licence in ``data/README.md``), read through the
library's reader :func:`sotalib.multiplicity.read_leaderboard`.

The chapter calls :func:`sotalib.estimate_sota` in visible cells through
:func:`cached`: the exact fits on boards of thousands of teams take minutes, so
their results ship in ``sotalib/book/data/real_boards.json``, keyed by the call
(a hash of the scores and the arguments).  A call that is not in the file is
computed.  ``python -m sotalib.book.cache real_boards --out sotalib/book/data``
recomputes every call of :data:`CALLS` (what the chapter asks for).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import multiplicity as sota
from ..multiplicity import simulate_leaderboard
from .groundtruth import load_groundtruth
from .papers import REAL_BOARDS
from .style import COLORS, vline

__all__ = [
    "DATA_DIR",
    "Board",
    "BOARDS",
    "PAPER",
    "load_board",
    "load_imagenet",
    "cached",
    "CALLS",
    "regenerate",
    "groundtruth_crop_vs_cap",
    "leaderboard_panel",
    "plot_realisations",
    "plot_shakeup",
]

#: The vendored real data of a checkout.
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
CACHE = Path(__file__).parent / "data" / "real_boards.json"


@dataclass(frozen=True)
class Board:
    """A Kaggle challenge with its public and private boards."""

    name: str
    slug: str
    classes: int
    #: the test-set size the paper uses (Obesity: the whole test set; Cassava: "approximately 15,000")
    n_paper: int
    #: decimals Kaggle shows (its scores are truncated to them)
    decimals: int
    #: items behind each board, found from the scores' granularity (None when it does not pin them)
    n_private: int | None = None
    n_public: int | None = None


BOARDS = {
    "obesity": Board(
        "Multi-Class Prediction of Obesity Risk",
        "playground-series-s4e2",
        7,
        13840,
        5,
        11072,
        2768,
    ),
    "cassava": Board(
        "Cassava Leaf Disease Classification",
        "cassava-leaf-disease-classification",
        5,
        15000,
        4,
    ),
}

#: The multiplicity paper's printed numbers about the two boards (in :mod:`sotalib.book.papers`).
PAPER = REAL_BOARDS


def load_board(name: str, which: str = "private") -> sota.Leaderboard:
    """The real ``private`` (default) or ``public`` board of ``"obesity"`` or ``"cassava"``."""
    if name not in BOARDS:
        raise ValueError(
            f"name must be one of {', '.join(BOARDS)}, got {name!r}"
        )
    if which not in ("private", "public"):
        raise ValueError(f"which must be 'private' or 'public', got {which!r}")
    return sota.read_leaderboard(
        DATA_DIR / "leaderboards" / f"{BOARDS[name].slug}__{which}.csv",
        score_column="score",
    )


def load_imagenet():
    """335 ImageNet models: top-1 accuracy (as fractions) on the validation set and ImageNetV2."""
    df = pd.read_csv(DATA_DIR / "imagenet" / "imagenet_val_vs_v2_top1.csv")
    for c in [c for c in df.columns if c.endswith("_top1")]:
        df[c] = df[c] / 100.0
    return df


# ------------------------------------------------------------------------- cache
def _key(fn, scores, n, kwargs) -> str:
    s = np.ascontiguousarray(np.asarray(scores, dtype=float))
    h = hashlib.sha256(s.tobytes())
    h.update(
        json.dumps(
            [fn.__name__, int(n), sorted(kwargs.items())], default=str
        ).encode()
    )
    return h.hexdigest()[:20]


def _read() -> dict:
    return json.loads(CACHE.read_text()) if CACHE.exists() else {}


def cached(fn=None):
    """``cached(sl.estimate_sota)(scores, n, **kwargs)``: the call's result, from the cache if it is there.

    Returns a :class:`sotalib.multiplicity.SotaEstimate` equal to what ``fn`` returns.
    """
    fn = sota.estimate_sota if fn is None else fn

    def call(scores, n, **kwargs):
        store = _read()
        key = _key(fn, scores, n, kwargs)
        if key in store:
            return sota.SotaEstimate(**store[key])
        return fn(scores, n, **kwargs)

    return call


def _calls():
    """Every ``(function, scores, n, kwargs)`` the chapter passes through :func:`cached`."""
    ob, ob_pub = (
        load_board("obesity").scores,
        load_board("obesity", "public").scores,
    )
    ca = load_board("cassava").scores
    est = sota.estimate_sota
    out = [
        (est, ob, 13840, dict(classes=7, method="observed")),
        (est, ca, 15000, dict(classes=5, method="observed")),
    ]
    for n in (13840, 11072):
        for method in ("crop", "shrink", "cap"):
            for target in ("expected", "upper"):
                if n == 11072 and method == "cap":
                    continue
                out.append(
                    (est, ob, n, dict(classes=7, method=method, target=target))
                )
    out.append(
        (
            est,
            ob_pub,
            2768,
            dict(classes=7, method="shrink", target="expected"),
        )
    )
    out.append(
        (est, ob_pub, 2768, dict(classes=7, method="crop", target="expected"))
    )
    out.append(
        (est, ca, 15000, dict(classes=5, method="shrink", target="expected"))
    )
    out.append(
        (est, ca, 15000, dict(classes=5, method="crop", target="expected"))
    )
    im = load_imagenet()
    out.append(
        (
            est,
            im["imagenet_val_top1"].to_numpy(),
            50000,
            dict(classes=1000, method="shrink", target="expected"),
        )
    )
    v2 = im["imagenetv2_matched_frequency_top1"].to_numpy()
    out.append(
        (
            est,
            v2,
            10000,
            dict(classes=1000, method="shrink", target="expected"),
        )
    )
    return out


#: What the chapter asks for (a function: reading the boards needs a checkout).
CALLS = _calls


def regenerate(path: str | Path = CACHE, calls=None, log=print) -> dict:
    """Compute every call of :data:`CALLS` and the ground-truth comparison."""
    path = Path(path)
    store = json.loads(path.read_text()) if path.exists() else {}

    def save():
        path.write_text(json.dumps(store, indent=1, allow_nan=False))

    for fn, scores, n, kw in calls if calls is not None else _calls():
        key = _key(fn, scores, n, kw)
        if key in store:
            continue
        t = time.time()
        est = fn(scores, n, **kw)
        store[key] = json.loads(json.dumps(asdict(est), default=float))
        log(
            f"{fn.__name__} n={n} {kw}: {est.estimate} ({time.time() - t:.0f} s)"
        )
        save()
    if "groundtruth_crop_vs_cap" not in store:
        store["groundtruth_crop_vs_cap"] = groundtruth_crop_vs_cap()
        save()
    return store


def groundtruth_crop_vs_cap(boards: int = 60) -> dict:
    """Shrink, crop and cap on the ground-truth challenge's leaderboards, against the true best accuracy.

    The same boards as the chapter's comparison of estimators
    (:func:`sotalib.book.groundtruth.load_groundtruth`, ``m = 240``,
    ``n = 3,000``, the first ``boards`` test sets); every estimator is exact
    (no randomness).  Returns per board the truth and each estimate.
    """
    gt = load_groundtruth()
    rows = []
    for b in range(boards):
        s = gt.leaderboard(b)
        r = {
            "board": b,
            "truth": float(gt.true_accuracy_excluding(b).max()),
            "sample_max": float(s.max()),
        }
        for method in ("shrink", "crop", "cap"):
            r[method] = sota.estimate_sota(s, gt.block, method=method).estimate
        rows.append(r)
    return {"boards": boards, "m": int(gt.m), "n": int(gt.block), "rows": rows}


# ------------------------------------------------------------------------- figures
def leaderboard_panel(
    ax,
    observed,
    values=None,
    *,
    lines=(),
    interval=None,
    lo: float = 0.88,
    hi: float | None = None,
    binwidth: float = 0.0005,
    values_label: str | None = None,
):
    """One panel: the observed leaderboard (grey), optionally other values (black), lines and an interval.

    ``lines`` are ``(x, label, color, linestyle)``; ``interval`` is ``(low, high, label, color)``,
    drawn as a horizontal bar near the bottom of the panel.
    """
    observed = np.asarray(observed)
    top = (
        max(observed.max(), np.max(values) if values is not None else 0)
        if hi is None
        else hi
    )
    bins = np.arange(lo, top + 2 * binwidth, binwidth)
    ax.hist(
        observed[observed >= lo],
        bins=bins,
        color=COLORS["observed"],
        alpha=0.6,
        label=r"$\hat\Theta$",
    )
    if values is not None:
        v = np.asarray(values)
        ax.hist(
            v[v >= lo],
            bins=bins,
            histtype="step",
            color=COLORS["reference"],
            lw=1.1,
            label=values_label,
        )
    for x, label, color, ls in lines:
        vline(ax, x, label, color=color, ls=ls)
    # head room above the bars for the legend (and the interval's bar), so that it covers no data
    peak = ax.get_ylim()[1]
    ax.set_ylim(0, 2.0 * peak)
    if interval is not None:
        a, b, label, color = interval
        ax.hlines(1.08 * peak, a, b, color=color, lw=3, label=label)
    ax.set_xlabel("accuracy")
    ax.set_ylabel(f"teams per bin of {binwidth:g}")
    ax.legend(loc="upper left", fontsize="small")
    return ax


def plot_realisations(
    observed,
    results: dict,
    n: int,
    *,
    classes: int,
    rho: float = 0.6,
    seed: int = 0,
    lo: float = 0.88,
    shrunk: bool = True,
):
    """Figure 8 (``shrunk=True``: panels a-d) or Figure 9 (``shrunk=False``: panels a-b).

    ``results`` holds the cached estimates of the chapter (``naive``, ``observed`` and,
    for Figure 8, ``shrink_expected``).  Realisations are one simulated leaderboard
    each (:func:`sotalib.multiplicity.simulate_leaderboard`, seeds ``seed`` and ``seed + 1``).
    """
    observed = np.asarray(observed)
    s = observed[observed > 1.0 / classes]
    mx = float(s.max())
    nv, ob = results["naive"], results["observed"]
    # two panels a row, the column's width: Figure 8 (four panels) stays lower than a laptop's
    # screen, and each panel's legend sits in the head room above its histogram
    nrows = 2 if shrunk else 1
    fig, axes = plt.subplots(
        nrows, 2, figsize=(8.4, 3.1 * nrows), sharex=True, squeeze=False
    )
    m_line = (mx, r"$\max(\hat\Theta)$", COLORS["maximum"], ":")
    leaderboard_panel(
        axes[0, 0],
        s,
        lines=[m_line],
        lo=lo,
        interval=(
            nv["ci_low"],
            nv["ci_high"],
            r"95% CI of $\hat\theta_{\max}$ alone",
            COLORS["maximum"],
        ),
    )
    real, _ = simulate_leaderboard(s, n, rho=rho, rng=seed)
    leaderboard_panel(
        axes[0, 1],
        s,
        real,
        lo=lo,
        values_label=r"realisation, $\Theta' = \hat\Theta$",
        lines=[
            m_line,
            (
                ob["expected_max"],
                r"$\mathrm{E}\max(\hat\Theta')$",
                COLORS["single"],
                "--",
            ),
        ],
        interval=(
            ob["ci_low"],
            ob["ci_high"],
            r"95% CI of $\max(\hat\Theta')$",
            COLORS["single"],
        ),
    )
    if shrunk:
        sh = results["shrink_expected"]
        w = sh["weight"]
        theta_p = w * s + (1 - w) / classes
        leaderboard_panel(
            axes[1, 0],
            s,
            theta_p,
            lo=lo,
            values_label=r"shrunk $\Theta'$",
            lines=[
                m_line,
                (sh["estimate"], r"$\max(\Theta')$", COLORS["sota"], "--"),
            ],
        )
        real2, _ = simulate_leaderboard(theta_p, n, rho=rho, rng=seed + 1)
        leaderboard_panel(
            axes[1, 1],
            s,
            real2,
            lo=lo,
            values_label=r"realisation of shrunk $\Theta'$",
            lines=[
                m_line,
                (
                    sh["expected_max"],
                    r"$\mathrm{E}\max(\hat\Theta')$",
                    COLORS["better"],
                    "--",
                ),
            ],
            interval=(
                sh["ci_low"],
                sh["ci_high"],
                r"95% CI of $\max(\hat\Theta')$",
                COLORS["better"],
            ),
        )
    for ax, tag in zip(axes.ravel(), "abcd"):
        ax.set_title(f"({tag})", loc="left")
    for ax in (
        axes[:-1].ravel()
    ):  # the panels share the accuracy axis: label it once, at the bottom
        ax.set_xlabel("")
    for ax in axes[:, 1:].ravel():  # the row's left panel names the counts
        ax.set_ylabel("")
    return fig


def plot_shakeup(private, public, ax=None):
    """Figure 4.3: the private and public Obesity boards above 0.88, with their winners."""
    if ax is None:
        _, ax = plt.subplots()
    bins = np.arange(0.88, 0.9250, 0.00036)
    ax.hist(
        private[private > 0.88],
        bins=bins,
        color=COLORS["observed"],
        alpha=0.6,
        label="private board",
    )
    ax.hist(
        public[public > 0.88],
        bins=bins,
        histtype="step",
        color=COLORS["better"],
        lw=1.3,
        label="public board",
    )
    vline(ax, private.max(), "private winner", color=COLORS["maximum"], ls=":")
    vline(ax, public.max(), "public winner", color=COLORS["better"], ls="-.")
    ax.set_xlabel("accuracy")
    ax.set_ylabel(f"teams per bin of {bins[1] - bins[0]:.5f}")
    ax.legend(loc="upper left")
    return ax
