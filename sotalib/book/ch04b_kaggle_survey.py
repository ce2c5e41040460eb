"""The survey chapter: the state of the art behind every Kaggle board the book can read.

The boards and their manifest are vendored in ``data/kaggle/`` (source, commit and licence
in ``data/README.md``).  :func:`survey` estimates every board with the public API
(:func:`sotalib.estimate_sota`, shrinking, the dependent model with ``rho_0 = 0.6``); where
the test-set size is not known it estimates at the ends of the plausible range, so the
chapter can show how far the answer moves.  The result is cached
(``make cache NAME=kaggle_survey``; :func:`load_survey` reads it).

:func:`split_survey` tests each competition's public board against its private
board where the split is known (:func:`board_split`), with
:func:`sotalib.multiplicity.summarize_max_difference`; cached as
``make cache NAME=kaggle_split`` (:func:`load_split`).  :func:`plot_inflation`
draws the boards' inflation against the extreme-value curve.
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
    "plot_inflation",
    "size_table",
    "survey_table",
    "DATA_DIR",
    "CACHE",
    "load_manifest",
    "estimate_board",
    "survey",
    "load_survey",
    "lattice_n",
    "SPLIT_CACHE",
    "board_split",
    "split_test",
    "split_survey",
    "load_split",
    "split_table",
    "split_phrases",
    "left_out_table",
    "plot_split",
]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "kaggle"
CACHE = "kaggle_survey.json"
SPLIT_CACHE = "kaggle_split.json"


def load_manifest(path: Path | None = None) -> pd.DataFrame:
    """The manifest of the vendored boards (one row per competition, handled or excluded)."""
    return pd.read_csv(
        path or DATA_DIR / "manifest.csv", keep_default_na=False
    )


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
            evt_max=sota.expected_max_extreme_value(n, int(above.size), theta),
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


def _cached(name: str, out: Path | None) -> Path:
    if out:
        return Path(out) / name
    return Path(str(resources.files("sotalib.book").joinpath("data", name)))


# ------------------------------------------------- the public against the private board
#: A split found by the lattice for one board only is accepted when the two
#: sizes add up to the stated test set or to a round total (a multiple of
#: this), or give the public board a whole percentage of it (to 0.01 points).
ROUND_TOTAL = 1_000


def _pinned(
    record: dict, which: str, how: dict
) -> tuple[np.ndarray, int | None]:
    """A board's scores (as accuracies) and the size its lattice pins, if any."""
    scores = sota.read_leaderboard(
        DATA_DIR / f"{record['slug']}__{which}.csv", scale=how["scale"]
    ).scores
    if how["flip"]:
        scores = 1 - scores
    decimals = _number(record.get(f"decimals_{which}"))
    n = lattice_n(scores, int(decimals), how["classes"]) if decimals else None
    return scores, n


def _first_fit(scores, decimals: int, classes: int, top: int) -> int | None:
    """The smallest size from 100 to ``top`` that fits every score above chance."""
    s = np.asarray(scores, dtype=float)
    s = s[s > 1 / classes]
    if s.size == 0:
        return None
    fit = sota.possible_n(s, decimals, range(100, top + 1))
    return int(fit[0]) if fit.size else None


def _accepted(n_pub: int, n_priv: int, n_test: float | None) -> str | None:
    """Why a split found from one board's lattice is believed, or None."""
    total = n_pub + n_priv
    if n_test and total == int(n_test):
        return "adds up to the stated test set"
    if total % ROUND_TOTAL == 0:
        return f"adds up to a round {total:,}"
    share = 100 * n_pub / total
    if abs(share - round(share)) < 0.01:
        return f"gives the public board {round(share)}% of the items"
    return None


def board_split(record: dict) -> dict:
    """The public and private sizes of one competition (see :func:`_board_split`)."""
    return _board_split(record)[0]


def _board_split(
    record: dict,
) -> tuple[dict, np.ndarray | None, np.ndarray | None]:
    """The public and private sizes of one competition, with their source, or the reason there are none.

    In order: boards not scored by accuracy and boards whose files are the
    same are left out; where the lattice pins both boards' sizes they are
    used, unless together they exceed the stated test set (then the boards
    are not disjoint parts of it); where it pins one, the other board's
    smallest fitting size is used if the pair adds up to the stated test
    set or a round total, or splits it at a whole percentage.  Returns the
    row and the two boards' scores (None where they were not read).
    """
    how = board_settings(record)
    slug = record["slug"]
    if how["metric"] != "accuracy":
        if str(record.get("split", "")).strip():
            return (
                dict(
                    slug=slug,
                    reason="AUC; the public share is stated, the test-set "
                    "size is not, and an AUC's scores do not pin it",
                ),
                None,
                None,
            )
        return (
            dict(slug=slug, reason="AUC: its scores do not pin n"),
            None,
            None,
        )
    if str(record.get("identical", "")).lower() == "yes":
        return (
            dict(slug=slug, reason="the two files hold the same board"),
            None,
            None,
        )
    n_test = _number(record.get("n_test"))
    pub, n_pub = _pinned(record, "public", how)
    priv, n_priv = _pinned(record, "private", how)
    if n_pub and n_priv:
        if n_test and n_pub + n_priv > n_test * 1.01:
            reason = (
                f"both boards fit {n_pub:,} and {n_priv:,} items, more than "
                f"the stated {int(n_test):,} together: not disjoint parts"
            )
            return dict(slug=slug, reason=reason), pub, priv
        source = "lattice, both boards"
        if n_test and n_pub + n_priv == int(n_test):
            source += " (= the stated test set)"
        row = dict(slug=slug, n_public=n_pub, n_private=n_priv, source=source)
        return row, pub, priv
    if n_pub or n_priv:
        which, known = ("private", n_pub) if n_pub else ("public", n_priv)
        other = priv if n_pub else pub
        decimals = int(_number(record.get(f"decimals_{which}")) or 0)
        n_other = _first_fit(other, decimals, how["classes"], 10 * known)
        if n_other:
            n1, n2 = (known, n_other) if n_pub else (n_other, known)
            why = _accepted(n1, n2, n_test)
            if why:
                row = dict(
                    slug=slug,
                    n_public=n1,
                    n_private=n2,
                    source=f"lattice of the {'public' if n_pub else 'private'}"
                    f" board; the other's first fit, which {why}",
                )
                return row, pub, priv
        reason = (
            f"the lattice pins the {'public' if n_pub else 'private'} board "
            "only, and the other board's sizes stay open"
        )
        return dict(slug=slug, reason=reason), pub, priv
    return dict(slug=slug, reason="the lattice pins neither board"), pub, priv


def split_test(record: dict) -> dict:
    """The public-against-private test of one competition (a flat dict; a reason where there is none).

    The private board is fitted at its own size (the shrinkage estimate);
    its fitted true accuracies, ``w * score + (1 - w) / classes`` for the
    scores above chance (perfect scores set aside), are the null model of
    both boards, and :func:`sotalib.multiplicity.summarize_max_difference`
    places the observed difference of the two maxima in its distribution.
    """
    row, pub, priv = _board_split(record)
    if "reason" in row:
        return row
    how = board_settings(record)
    chance = 1 / how["classes"]
    fit = estimate_board(
        priv, row["n_private"], metric="accuracy", classes=how["classes"]
    )
    observed = float(pub.max() - priv.max())
    row.update(
        public_max=float(pub.max()),
        private_max=float(priv.max()),
        observed=observed,
        estimate=fit.get("estimate"),
    )
    if fit.get("estimate") is None:
        row["reason"] = "no fit of the private board: " + fit["reason"]
        return row
    s = priv[(priv > chance) & (priv < 1)]
    thetas = fit["weight"] * s + (1 - fit["weight"]) * chance
    t0 = time.perf_counter()
    d = sota.summarize_max_difference(
        row["n_public"], row["n_private"], thetas, observed=observed, rng=0
    )
    row.update(
        {k: v for k, v in d.to_dict().items() if k not in row},
        seconds=time.perf_counter() - t0,
        reason="",
    )
    return row


def split_survey(manifest: pd.DataFrame | None = None, *, log=None) -> list:
    """:func:`split_test` for every handled competition of the manifest."""
    manifest = load_manifest() if manifest is None else manifest
    rows = []
    for record in manifest.to_dict("records"):
        if str(record.get("handled", "")).lower() != "yes":
            continue
        rows.append(split_test(record))
        if log:
            r = rows[-1]
            log(f"{r['slug']}: {r.get('position')} {r.get('reason', '')}")
    return rows


def load_split(
    out: Path | None = None, *, recompute: bool = False
) -> pd.DataFrame:
    """The cached split test (``make cache NAME=kaggle_split`` regenerates it)."""
    path = _cached(SPLIT_CACHE, out)
    if recompute or not path.exists():
        rows = split_survey(log=print if recompute else None)
        path.write_text(json.dumps(rows, indent=0, default=float))
    return pd.DataFrame(json.loads(path.read_text()))


def _tested(split: pd.DataFrame) -> pd.DataFrame:
    if "position" not in split:
        return split.iloc[:0]
    return split[split["position"].notna()]


def split_phrases(counts: dict) -> dict:
    """The split test's counts as phrases for the prose (never "1 competitions")."""
    from .ch06_consistency import count_phrase

    def verb(k: int) -> str:
        return "lies" if k <= 1 else "lie"

    above, below = counts["above"], counts["below"]
    return dict(
        tested=count_phrase(counts["tested"], "competition"),
        above=f"{count_phrase(above, 'competition')} {verb(above)} above "
        f"{'its' if above <= 1 else 'their'} interval, the public maximum "
        "too high",
        below=f"{count_phrase(below, 'competition')} {verb(below)} below",
    )


def split_table(split: pd.DataFrame) -> pd.DataFrame:
    """One row per tested competition: the sizes, the observed and predicted difference."""
    t = _tested(split).sort_values("position", ascending=False)
    return pd.DataFrame(
        {
            "competition": [_short(s, 20) for s in t["slug"]],
            "public n": [f"{int(v):,}" for v in t["n_public"]],
            "private n": [f"{int(v):,}" for v in t["n_private"]],
            "observed": t["observed"].to_numpy(),
            "mean": t["mean"].to_numpy(),
            "95% interval": [
                f"[{lo:+.4f}, {hi:+.4f}]"
                for lo, hi in zip(t["ci_low"], t["ci_high"], strict=True)
            ],
            "position": t["position"].to_numpy(),
        }
    )


def left_out_table(split: pd.DataFrame) -> pd.DataFrame:
    """Accuracy competitions left out of the split test, with the reason."""
    out = split[split["position"].isna()] if "position" in split else split
    out = out[~out["reason"].str.startswith("AUC")]
    return pd.DataFrame(
        {
            "competition": [_short(s, 20) for s in out["slug"]],
            "reason": out["reason"].to_numpy(),
        }
    )


def plot_split(split: pd.DataFrame, ax=None):
    """Observed difference of the two maxima against its predicted interval, one row per competition."""
    import matplotlib.pyplot as plt

    from .style import COLORS

    t = _tested(split).sort_values("mean").reset_index(drop=True)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 0.45 * len(t) + 1.2))
    y = np.arange(len(t))
    ax.hlines(
        y,
        t["ci_low"],
        t["ci_high"],
        color=COLORS["sota"],
        lw=3,
        alpha=0.6,
        label="95% interval, same accuracies",
    )
    ax.plot(t["mean"], y, "|", color=COLORS["sota"], ms=12)
    ax.plot(
        t["observed"],
        y,
        "o",
        color=COLORS["maximum"],
        label="observed, public max $-$ private max",
    )
    ax.axvline(0, color=COLORS["reference"], lw=0.8)
    ax.set_yticks(y, [_short(s, 24) for s in t["slug"]])
    ax.set_xlabel("best public score $-$ best private score")
    ax.legend(loc="lower right", fontsize="small")
    return ax


# ------------------------------------------------- inflation against m and n
def _solved(central: pd.DataFrame) -> pd.DataFrame:
    out = central[central["estimate"].notna() & (central["m"] > 1)].copy()
    out["predicted_sd"] = [
        float(sota.expected_max_extreme_value(1, m, 0.5) - 0.5) / 0.5
        for m in out["m"]
    ]  # the curve in binomial sd: (E max - theta) / sigma
    out["ratio"] = out["inflation_sd"] / out["predicted_sd"]
    return out


def plot_inflation(central: pd.DataFrame, axes=None):
    """Inflation (binomial sd) against m beside the extreme-value curve; observed over predicted against n."""
    import matplotlib.pyplot as plt

    from .style import COLORS

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(7.2, 3.6), sharey=False)
    solved = _solved(central)
    for metric, marker, color in (
        ("accuracy", "o", COLORS["single"]),
        ("auc", "s", COLORS["better"]),
    ):
        g = solved[solved["metric"] == metric]
        axes[0].scatter(
            g["m"],
            g["inflation_sd"],
            marker=marker,
            color=color,
            s=22,
            label=metric,
        )
        known = g[g["n_source"] != "unknown"]
        axes[1].scatter(
            known["n"],
            known["ratio"],
            marker=marker,
            color=color,
            s=22,
            label=metric,
        )
    m = np.logspace(
        np.log10(max(2, solved["m"].min())), np.log10(solved["m"].max()), 100
    )
    curve = (sota.expected_max_extreme_value(1, m, 0.5) - 0.5) / 0.5
    axes[0].plot(
        m,
        curve,
        color=COLORS["reference"],
        ls="--",
        label="extreme value, iid",
    )
    axes[0].set_xscale("log")
    axes[0].set_xlabel("teams above chance, $m$")
    axes[0].set_ylabel("inflation (binomial sd)")
    axes[0].legend(loc="upper left", fontsize="small")
    axes[1].axhline(1, color=COLORS["reference"], ls="--")
    axes[1].set_xscale("log")
    axes[1].set_xlabel("test-set size $n$ (stated or pinned)")
    axes[1].set_ylabel("observed / predicted")
    return axes
