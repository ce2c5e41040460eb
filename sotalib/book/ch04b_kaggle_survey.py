"""The survey chapter: the state of the art behind every Kaggle board the book can read.

The boards and their manifest are vendored in ``data/kaggle/`` (source, commit and licence
in ``data/README.md``).  :func:`survey` estimates every board with the public API
(:func:`sotalib.estimate_sota`, shrinking, the dependent model with ``rho_0 = 0.6``); where
the test-set size is not known it estimates at the ends of the plausible range, so the
chapter can show how far the answer moves.  The result is cached
(``make cache NAME=kaggle_survey``; :func:`load_survey` reads it).
"""

from __future__ import annotations

import json
import math
import time
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .. import multiplicity as sota
from .._errors import NoSolutionError

__all__ = [
    "central_rows",
    "plot_inflation",
    "reasons_text",
    "size_table",
    "survey_table",
    "DATA_DIR",
    "CACHE",
    "EULER_GAMMA",
    "evt_expected_max",
    "load_manifest",
    "read_board",
    "estimate_board",
    "survey",
    "load_survey",
    "lattice_n",
]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "kaggle"
CACHE = "kaggle_survey.json"
EULER_GAMMA = 0.5772156649015329


def evt_expected_max(theta: float, n: float, m: int) -> float:
    """The extreme-value approximation of the expected best of ``m`` proportions.

    ``E max ~ theta + sigma (sqrt(2 ln m) - (ln ln m + ln 4 pi) / (2 sqrt(2 ln m)) + gamma / sqrt(2 ln m))``
    with ``sigma = sqrt(theta (1 - theta) / n)`` and Euler's ``gamma``: the maximum of ``m``
    independent normal variables (Cramér), for independent, equally good teams.
    """
    if m < 2:
        return theta
    sigma = math.sqrt(theta * (1 - theta) / n)
    a = math.sqrt(2 * math.log(m))
    return theta + sigma * (
        a
        - (math.log(math.log(m)) + math.log(4 * math.pi)) / (2 * a)
        + EULER_GAMMA / a
    )


def load_manifest(path: Path | None = None) -> pd.DataFrame:
    """The manifest of the vendored boards (one row per competition, handled or excluded)."""
    return pd.read_csv(
        path or DATA_DIR / "manifest.csv", keep_default_na=False
    )


def read_board(slug: str, which: str = "private") -> np.ndarray:
    """The scores of one vendored board, as printed."""
    return sota.read_leaderboard(DATA_DIR / f"{slug}__{which}.csv").scores


def _number(value) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def estimate_board(
    scores,
    n: int,
    *,
    metric: str,
    classes: int = 2,
    prevalence: float | None = None,
) -> dict:
    """Shrinkage estimate of one board at one test-set size, as a flat dict (never raises for data).

    ``metric="gini"`` scores (normalized Gini, ``2 AUC - 1``) are converted to the AUC first.
    A board without an answer gives ``reason`` (an outlier at the top, perfect scores,
    too few teams above chance) and no estimate.
    """
    s = np.asarray(scores, dtype=float)
    if (
        metric == "gini"
    ):  # scores as printed (2 AUC - 1); read_leaderboard(scale="gini") does this too
        s, metric = (s + 1) / 2, "auc"
    kwargs = dict(metric=metric)
    if (
        n >= 100_000
    ):  # the normal engine: the exact model would take minutes per board
        kwargs["engine"] = "normal"
    if metric == "auc":
        kwargs["prevalence"] = 0.5 if prevalence is None else prevalence
        chance = 0.5
    else:
        kwargs["classes"] = classes
        chance = 1 / classes
    above = s[s > chance]
    row = dict(
        n=int(n),
        m=int(above.size),
        sample_max=float(s.max()) if s.size else None,
    )
    t0 = time.perf_counter()
    try:
        est = sota.estimate_sota(
            s, n, method="shrink", rng=0, progress=False, **kwargs
        )
    except (NoSolutionError, ValueError) as exc:
        row.update(reason=str(exc), seconds=time.perf_counter() - t0)
        return row
    row.update(
        estimate=est.estimate if est.solved else None,
        ci_low=est.ci_low,
        ci_high=est.ci_high,
        expected_max=est.expected_max,
        teams_above=est.teams_above,
        weight=est.weight,
        reason=est.reason or "",
        seconds=time.perf_counter() - t0,
    )
    if est.solved and above.size:
        theta = float(np.mean(above))
        sd = math.sqrt(max(est.estimate * (1 - est.estimate), 1e-12) / n)
        row.update(
            inflation=float(s.max() - est.estimate),
            inflation_sd=float((s.max() - est.estimate) / sd),
            evt_max=evt_expected_max(theta, n, int(above.size)),
        )
    return row


#: Sizes tried where the test-set size is unknown (neither stated nor pinned by the lattice).
N_UNKNOWN = (2_000, 10_000, 50_000)
#: The prevalence assumed for an AUC board that states none: balanced classes, where one
#: AUC is most precise, so the inflation found is, if anything, too small.
PREVALENCE_UNKNOWN = 0.5


def lattice_n(scores, decimals: int, classes: int) -> int | None:
    """The test-set size an accuracy board's printed scores pin down, or None.

    The sizes between 100 and ``10**decimals / 4`` that can produce every score above
    chance (:func:`sotalib.multiplicity.possible_n`); beyond that nearly every size fits
    and the lattice says nothing.  When they are the smallest and its multiples, the
    smallest is the board's n.
    """
    s = np.asarray(scores, dtype=float)
    s = s[s > 1 / classes]
    top = min(10**decimals // 4, 10**7)
    if s.size == 0 or top <= 100:
        return None
    fit = sota.possible_n(s, decimals, range(100, top))
    if fit.size and np.all(fit % fit[0] == 0):
        return int(fit[0])
    return None


def board_settings(record: dict) -> dict:
    """How one manifest row is estimated: metric, scale, classes, prevalence, sizes and why."""
    metric = str(record["metric"]).lower()
    out = dict(
        metric="auc" if metric == "gini" else metric,
        scale="gini" if metric == "gini" else "auto",
        flip=str(record.get("conversion", "")).startswith("accuracy = 1 -"),
        classes=int(_number(record.get("classes")) or 2),
        prevalence=_number(record.get("prevalence")),
        prevalence_source="stated"
        if _number(record.get("prevalence"))
        else "assumed 0.5",
    )
    n_test = _number(record.get("n_test"))
    if n_test:
        out.update(sizes=[int(n_test)], n_source="stated (whole test set)")
    else:
        out.update(sizes=list(N_UNKNOWN), n_source="unknown")
    if out["prevalence"] is None and out["metric"] == "auc":
        out["prevalence"] = PREVALENCE_UNKNOWN
    return out


def survey(
    manifest: pd.DataFrame | None = None, *, which: str = "private", log=None
) -> list[dict]:
    """Estimate every handled board of the manifest, at each size of its plausible range."""
    manifest = load_manifest() if manifest is None else manifest
    rows = []
    for record in manifest.to_dict("records"):
        if str(record.get("handled", "")).lower() != "yes":
            continue
        how = board_settings(record)
        path = DATA_DIR / f"{record['slug']}__{which}.csv"
        try:
            scores = sota.read_leaderboard(path, scale=how["scale"]).scores
        except (OSError, ValueError) as exc:
            rows.append(dict(slug=record["slug"], reason=f"unreadable: {exc}"))
            continue
        if how["flip"]:  # a top-1 error, 1 - accuracy
            scores = 1 - scores
        decimals = _number(record.get(f"decimals_{which}"))
        # an accuracy board's own n, where its printed scores pin it (for a
        # stated test set, its private part)
        if how["metric"] == "accuracy" and decimals:
            n = lattice_n(scores, int(decimals), how["classes"])
            if n:
                how = {
                    **how,
                    "sizes": [n],
                    "n_source": "lattice (n and its multiples fit)",
                }
        for n in how["sizes"]:
            row = dict(
                slug=record["slug"],
                board=which,
                metric=how["metric"],
                classes=how["classes"],
                prevalence=how["prevalence"],
                prevalence_source=how["prevalence_source"],
                n_source=how["n_source"],
                perfect=int(_number(record.get(f"perfect_{which}")) or 0),
                truncated=record.get(f"truncated_{which}", ""),
            )
            row.update(
                estimate_board(
                    scores,
                    n,
                    metric=how["metric"],
                    classes=how["classes"],
                    prevalence=how["prevalence"],
                )
            )
            rows.append(row)
            if log:
                log(
                    f"{record['slug']} n={n}: {row.get('estimate')} {row.get('reason', '')[:60]}"
                )
    return rows


def load_survey(
    out: Path | None = None, *, recompute: bool = False
) -> pd.DataFrame:
    """The cached survey (``make cache NAME=kaggle_survey`` regenerates it)."""
    path = (
        Path(out) / CACHE
        if out
        else Path(str(resources.files("sotalib.book").joinpath("data", CACHE)))
    )
    if recompute or not path.exists():
        rows = survey(log=print if recompute else None)
        path.write_text(json.dumps(rows, indent=0, default=float))
    return pd.DataFrame(json.loads(path.read_text()))


# ----------------------------------------------------------------- presentation
def _short(slug: str, width: int = 26) -> str:
    """A competition's name within ``width`` characters, keeping its distinctive end."""
    if len(slug) <= width:
        return slug
    head = slug[: width // 3]
    return head + "…" + slug[-(width - len(head) - 1) :]


def central_rows(survey: pd.DataFrame) -> pd.DataFrame:
    """One row per board: its only size, or the middle size where n is unknown."""
    rows = []
    for _, g in survey.groupby("slug", sort=True):
        if len(g) > 1 and "n" in g:
            g = g[g["n"] == N_UNKNOWN[len(N_UNKNOWN) // 2]]
        rows.append(g.iloc[0])
    return pd.DataFrame(rows).reset_index(drop=True)


def reasons_text(central: pd.DataFrame) -> str:
    """The boards without an answer, by kind of reason, as a phrase."""
    missing = central[central["estimate"].isna()]
    kinds: dict[str, int] = {}
    for reason in missing["reason"].fillna(""):
        if "outlier" in reason:
            kind = "an outlier at the top"
        elif "chance" in reason:
            kind = "no team above chance"
        elif "perfect" in reason:
            kind = "only perfect scores"
        else:
            kind = "another reason"
        kinds[kind] = kinds.get(kind, 0) + 1
    return "; ".join(f"{k}: {v}" for k, v in kinds.items()) or "none"


def survey_table(central: pd.DataFrame) -> pd.DataFrame:
    """The survey's main table, one row per board."""

    def size(r) -> str:
        source = str(r["n_source"])
        tag = (
            ""
            if source.startswith("stated")
            else (" (lattice)" if source.startswith("lattice") else " (?)")
        )
        return f"{int(r['n']):,}{tag}"

    out = pd.DataFrame(
        {
            "competition": [
                _short(s, 20) + (" (AUC)" if m == "auc" else "")
                for s, m in zip(
                    central["slug"], central["metric"], strict=True
                )
            ],
            "m": central["m"].astype("Int64"),
            "n": [size(r) for _, r in central.iterrows()],
            "best": central["sample_max"],
            "estimate": central["estimate"],
            "above": central["teams_above"].astype("Int64"),
            "sd up": central.get("inflation_sd"),
        }
    )
    return out.sort_values("sd up", ascending=False, na_position="last")


def size_table(survey: pd.DataFrame) -> pd.DataFrame:
    """Boards of unknown n: the estimate at each size tried."""
    unknown = survey[survey["n_source"] == "unknown"]
    wide = unknown.pivot_table(
        index="slug", columns="n", values="estimate", aggfunc="first"
    )
    wide.columns = [f"{int(c):,}" for c in wide.columns]
    wide.insert(0, "competition", [_short(s) for s in wide.index])
    return wide.reset_index(drop=True)


def plot_inflation(central: pd.DataFrame, ax=None):
    """Inflation of the winning score (binomial sd) against m, beside the extreme-value curve."""
    import matplotlib.pyplot as plt

    from .style import COLORS

    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.8))
    solved = central[central["estimate"].notna()]
    for metric, marker, color in (
        ("accuracy", "o", COLORS["single"]),
        ("auc", "s", COLORS["better"]),
    ):
        g = solved[solved["metric"] == metric]
        ax.scatter(
            g["m"],
            g["inflation_sd"],
            marker=marker,
            color=color,
            s=22,
            label=metric,
        )
    m = np.logspace(
        np.log10(max(2, solved["m"].min())), np.log10(solved["m"].max()), 100
    )
    a = np.sqrt(2 * np.log(m))
    evt = (
        a - (np.log(np.log(m)) + np.log(4 * np.pi)) / (2 * a) + EULER_GAMMA / a
    )
    ax.plot(
        m, evt, color=COLORS["reference"], ls="--", label="extreme value, iid"
    )
    ax.set_xscale("log")
    ax.set_xlabel("teams above chance, $m$")
    ax.set_ylabel("inflation (binomial sd)")
    ax.legend(loc="upper left")
    return ax
