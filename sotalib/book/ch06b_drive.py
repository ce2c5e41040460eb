"""Consistency testing in the wild: 100 published DRIVE retinal-vessel-segmentation results.

The data of Kovács & Fazekas (Medical Image Analysis, 2024), vendored in the
project's ``data/drive`` (source, commit and MIT licence in ``data/README.md``):
every aggregated accuracy, sensitivity and specificity the papers report, and
the authors' verdicts.  For each figure the book asks whether it can come from
the 20 DRIVE test images evaluated inside the field-of-view (FoV) mask or over
all pixels, averaged over the images (Mean of Scores, the authors' "mean of
ratios") or pooled (Score of Means, "ratio of means"), with
:func:`sotalib.consistency.check_report` and the named test sets
``drive-test-fov`` and ``drive-test-all``.

Two tolerances: the authors' (``eps = 10^-digits``, one unit of the last
printed digit) and the strict half unit of correct rounding (``decimals=digits``).

Each figure costs up to four integer programs; :func:`figure_verdicts` caches
its table in ``sotalib/book/data/drive_verdicts.json``
(``python -m sotalib.book.cache drive --out sotalib/book/data`` recomputes it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from ..consistency import check_report

__all__ = [
    "DRIVE_DIR",
    "EVALUATIONS",
    "TOLERANCES",
    "load_figures",
    "check_figure",
    "figure_verdicts",
    "plot_field",
]

DRIVE_DIR = Path(__file__).resolve().parents[2] / "data" / "drive"
CACHE = Path(__file__).parent / "data" / "drive_verdicts.json"
#: (column prefix, named test set): the two evaluations a paper may have used.
EVALUATIONS = (("fov", "drive-test-fov"), ("all", "drive-test-all"))
#: The two tolerances: the authors' one unit of the last digit, and correct rounding (half a unit).
TOLERANCES = ("authors", "rounding")


def load_figures(skip_stare: bool = True) -> pd.DataFrame:
    """The papers' aggregated figures (``key, flag, acc, sens, spec, digits``) with the year of the paper.

    Values are kept as printed (strings); figures of models trained on STARE are
    skipped, as the authors did, unless ``skip_stare`` is False.
    """
    df = pd.read_csv(
        DRIVE_DIR / "aggregated_figures.csv",
        dtype={"acc": str, "sens": str, "spec": str},
    )
    if skip_stare:
        df = df[~df["flag"].str.contains("STARE", case=False)]
    df = df.assign(
        year=df["key"].map(lambda k: int(re.search(r"(\d{4})", k).group(1)))
    )
    return df.reset_index(drop=True)


def check_figure(
    acc, sens, spec, digits: int, tolerance: str = "authors"
) -> dict:
    """Is one reported (acc, sens, spec) consistent with each evaluation and aggregation?

    Returns ``{"fov_mos": bool, "fov_som": bool, "all_mos": bool, "all_som": bool}``.
    ``tolerance="authors"`` uses ``eps = 10^-digits``; ``"rounding"`` uses
    ``decimals=digits`` (values correctly rounded to ``digits`` decimals).  A
    value that is not a score (``alom2019``'s sensitivity 7537, a typo in the
    paper) makes every verdict False.
    """
    if tolerance not in TOLERANCES:
        raise ValueError(
            f"tolerance must be one of {', '.join(TOLERANCES)}, got {tolerance!r}"
        )
    tol = (
        {"eps": 10.0 ** (-digits)}
        if tolerance == "authors"
        else {"decimals": int(digits)}
    )
    scores = {"acc": acc, "sens": sens, "spec": spec}
    out = {}
    for prefix, dataset in EVALUATIONS:
        for agg in ("mos", "som"):
            try:
                v = check_report(
                    scores=scores,
                    dataset=dataset,
                    aggregation=agg,
                    diagnosis=False,
                    **tol,
                )
                out[f"{prefix}_{agg}"] = bool(v.consistent)
            except (
                ValueError
            ):  # a value outside [0, 1]: no evaluation produces it
                out[f"{prefix}_{agg}"] = False
    return out


def figure_verdicts(
    tolerance: str = "authors", *, cache: Path | None = CACHE, log=None
) -> pd.DataFrame:
    """:func:`check_figure` for every figure of :func:`load_figures`, cached in ``cache`` (None: no cache)."""
    figs = load_figures()
    store = (
        json.loads(cache.read_text())
        if cache is not None and cache.exists()
        else {}
    )
    rows = []
    for i, r in figs.iterrows():
        key = f"{tolerance}|{r.key}|{r.flag}|{r.acc}|{r.sens}|{r.spec}|{r.digits}"
        if key not in store:
            store[key] = check_figure(
                r.acc, r.sens, r.spec, int(r.digits), tolerance
            )
            if log is not None:
                log(f"{i + 1}/{len(figs)} {key}: {store[key]}")
            if cache is not None:
                cache.write_text(json.dumps(store, indent=1))
        rows.append({**r.to_dict(), **store[key]})
    return pd.DataFrame(rows)


def plot_field(papers: pd.DataFrame, ax=None):
    """The papers by year and primary accuracy, coloured by category (papers of one year spread)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from .style import COLORS

    colors = {
        "FoV": COLORS["single"],
        "no FoV": COLORS["better"],
        "ambiguous": COLORS["accent"],
        "outlier": COLORS["observed"],
    }
    labels = {
        "FoV": "field of view",
        "no FoV": "all pixels",
        "ambiguous": "both",
        "outlier": "neither",
    }
    # a marker per category too, so that the figure reads in grey and for every colour vision
    markers = {"FoV": "o", "no FoV": "s", "ambiguous": "^", "outlier": "x"}
    if ax is None:
        _, ax = plt.subplots()
    jitter = np.random.default_rng(0).uniform(-0.25, 0.25, len(papers))
    for cat, g in papers.groupby("category"):
        ax.scatter(
            g["year"] + jitter[g.index],
            g["acc"],
            s=26,
            color=colors[cat],
            marker=markers[cat],
            label=f"{labels[cat]} ({len(g)})",
            edgecolor="white" if markers[cat] != "x" else None,
            linewidth=0.4 if markers[cat] != "x" else 1.2,
        )
    ax.set_xlabel("year of publication")
    ax.set_ylabel("reported accuracy (primary figure)")
    ax.legend(title="consistent with", loc="upper left")
    return ax
