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
    "DATA_DIR",
    "CACHE",
    "EULER_GAMMA",
    "evt_expected_max",
    "load_manifest",
    "read_board",
    "estimate_board",
    "survey",
    "load_survey",
]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "kaggle"
CACHE = "kaggle_survey.json"
EULER_GAMMA = 0.5772156649015329
#: Sizes tried where the test-set size is unknown: the two ends of a plausible range.
N_RANGE = (1_000, 100_000)


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
    if metric == "gini":
        s, metric = (s + 1) / 2, "auc"
    kwargs = dict(metric=metric)
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


def _sizes(record) -> tuple[list[int], str]:
    n = _number(record.get("n"))
    if n:
        return [int(n)], str(record.get("n_source", "stated"))
    return list(N_RANGE), "unknown: the plausible range's ends"


def survey(
    manifest: pd.DataFrame | None = None,
    *,
    boards=("private", "public"),
    log=None,
) -> list[dict]:
    """Estimate every handled board of the manifest (at each size of its plausible range)."""
    manifest = load_manifest() if manifest is None else manifest
    rows = []
    for record in manifest.to_dict("records"):
        if str(record.get("handled", "")).lower() not in ("yes", "true", "1"):
            continue
        metric = str(record["metric"]).lower()
        classes = int(_number(record.get("classes")) or 2)
        prevalence = _number(record.get("prevalence"))
        sizes, source = _sizes(record)
        for which in boards:
            try:
                scores = read_board(record["slug"], which)
            except (OSError, ValueError) as exc:
                rows.append(
                    dict(
                        slug=record["slug"],
                        board=which,
                        reason=f"unreadable: {exc}",
                    )
                )
                continue
            for n in sizes:
                row = dict(
                    slug=record["slug"],
                    board=which,
                    metric=metric,
                    n_source=source,
                )
                row.update(
                    estimate_board(
                        scores,
                        n,
                        metric=metric,
                        classes=classes,
                        prevalence=prevalence,
                    )
                )
                rows.append(row)
                if log:
                    log(
                        f"{record['slug']} {which} n={n}: {row.get('estimate')} {row.get('reason', '')[:60]}"
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
