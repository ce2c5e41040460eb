"""Leaderboards: loaders for Kaggle files, the published facts of Section 5, reconstructions.

Three challenges are analysed in Section 5 of the paper.  Their leaderboards
cannot be downloaded here, so this module ships

* :data:`FACTS` -- the numbers the paper publishes about each challenge;
* :func:`reconstruct` -- for each a *reconstructed* leaderboard whose upper
  tail agrees with those facts (every published count of teams above a
  threshold, the top scores, ``m`` and ``n``).  Everything below the
  published anchors is a plausible guess and is labelled as such;
* loaders for the real files when a reader has them:
  :func:`read_kaggle_leaderboard` (the CSV that ``kaggle competitions
  leaderboard SLUG --download`` writes) and :func:`read_meta_kaggle`
  (``Competitions.csv``, ``Teams.csv`` and ``Submissions.csv`` of the Meta
  Kaggle dataset, read in chunks).

:func:`load_challenge` returns the real leaderboard when the environment
variable ``SOTALIB_LEADERBOARD_<NAME>`` (e.g. ``SOTALIB_LEADERBOARD_OBESITY``)
points to a Kaggle leaderboard CSV, and the reconstruction otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["Leaderboard", "read_leaderboard", "read_kaggle_leaderboard", "read_meta_kaggle"]


@dataclass(frozen=True, eq=False)
class Leaderboard:
    """Scores of ``m`` teams on one test set.

    Attributes
    ----------
    scores : ndarray
        One score per team (accuracy or AUC), in file order.
    teams : tuple of str
        Team names (may be empty for reconstructions).
    source : str
        File name, or ``"reconstruction of ..."``.
    dropped : int
        Rows without a score (teams that never submitted), dropped and counted.
    reconstruction : bool
        True for the shipped reconstructions.
    """

    scores: np.ndarray
    teams: tuple = ()
    source: str = ""
    dropped: int = 0
    reconstruction: bool = False

    @property
    def m(self) -> int:
        return int(self.scores.size)


# ------------------------------------------------------------------------ loaders
def _parse_score(value, path, row: int, column: str):
    """float, or None for an empty cell; a non-number is an error naming file, row and column."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    s = str(value).strip()
    if s == "":
        return None
    try:
        v = float(s)
    except ValueError:
        raise ValueError(f"{path}: row {row}, column {column!r}: score {s!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{path}: row {row}, column {column!r}: score {s!r} is not a finite number")
    return v


def read_kaggle_leaderboard(path: str | Path, score_column: str | None = None) -> Leaderboard:
    """Read a Kaggle leaderboard CSV (``TeamId, TeamName, SubmissionDate, Score``).

    Parameters
    ----------
    path : str or Path
        The CSV (as written by ``kaggle competitions leaderboard SLUG --download``,
        unzipped).
    score_column : str, optional
        Column holding the scores; default ``"Score"``, else the only numeric-looking
        column whose name contains "score".

    Rows with an empty score are dropped and counted in ``Leaderboard.dropped``;
    a score that is not a number raises ValueError naming the file, the row
    (1 = first data row) and the column.
    """
    import pandas as pd

    path = Path(path)
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not a readable CSV file ({' '.join(str(exc).split())})") from None
    cols = list(df.columns)
    if score_column is None:
        cands = [c for c in cols if c.strip().lower() == "score"] or [c for c in cols if "score" in c.lower()]
        if len(cands) != 1:
            raise ValueError(
                f"{path}: cannot tell which column holds the scores (columns: {', '.join(cols)}); use --score-column"
            )
        score_column = cands[0]
    elif score_column not in cols:
        raise ValueError(f"{path}: no column {score_column!r} (columns: {', '.join(cols)})")
    team_col = next((c for c in cols if c.lower() in ("teamname", "team name", "team")), None)
    scores, teams, dropped = [], [], 0
    for i, value in enumerate(df[score_column].tolist(), start=1):
        v = _parse_score(value, path, i, score_column)
        if v is None:
            dropped += 1
            continue
        scores.append(v)
        teams.append(str(df[team_col].iloc[i - 1]) if team_col else "")
    if not scores:
        raise ValueError(f"{path}: no scores in column {score_column!r}")
    return Leaderboard(scores=np.asarray(scores), teams=tuple(teams), source=str(path), dropped=dropped)


def read_leaderboard(path: str | Path, score_column: str | None = None) -> Leaderboard:
    """Read a leaderboard file for :func:`~sotalib.multiplicity.estimate_sota` (the ``sotalib sota`` command).

    The file is a Kaggle leaderboard CSV (:func:`read_kaggle_leaderboard`:
    ``TeamId, TeamName, SubmissionDate, Score``); every score must be an
    accuracy or an AUC, i.e. in ``[0, 1]``.

    Parameters
    ----------
    path : str or Path
        The CSV file.
    score_column : str, optional
        Column holding the scores; default ``"Score"``, else the only column
        whose name contains "score".

    Returns
    -------
    Leaderboard
        Scores in file order; rows without a score are dropped and counted
        in ``dropped``.

    Raises
    ------
    ValueError
        If the file cannot be read, the score column is missing or
        ambiguous, a score is not a number (the message names file, row and
        column), or a score lies outside ``[0, 1]``.
    """
    lb = read_kaggle_leaderboard(path, score_column)
    s = lb.scores
    outside = np.flatnonzero((s < 0) | (s > 1))
    if outside.size:
        i = int(outside[0])
        raise ValueError(
            f"{lb.source}: scores must be in [0, 1] (accuracies or AUCs), got {s[i]:g} "
            f"({outside.size} such scores; the first is team {i + 1} with a score)"
        )
    return lb


def read_meta_kaggle(
    directory: str | Path, slug: str, *, chunksize: int = 1_000_000, higher_is_better: bool = True
) -> Leaderboard:
    """The private leaderboard of one competition from Meta Kaggle, at full precision.

    Reads ``Competitions.csv`` (to find the competition id of ``slug``),
    ``Teams.csv`` (its teams) and ``Submissions.csv`` (their submissions) in
    chunks of ``chunksize`` rows, so the multi-gigabyte files never sit in
    memory.  A team's score is the best ``PrivateScoreFullPrecision`` among
    its selected submissions (``IsSelected``), or among all its submissions if
    it selected none (Kaggle's automatic selection uses the public score; this
    is an approximation and is counted in the source string).  Teams without
    any scored submission are dropped and counted.
    """
    import pandas as pd

    d = Path(directory)
    files = {k: d / f"{k}.csv" for k in ("Competitions", "Teams", "Submissions")}
    for k, p in files.items():
        if not p.is_file():
            raise ValueError(f"{p}: no such file (Meta Kaggle's {k}.csv is needed)")
    comp_id = None
    for chunk in pd.read_csv(files["Competitions"], usecols=["Id", "Slug"], chunksize=chunksize, dtype=str):
        hit = chunk[chunk["Slug"] == slug]
        if len(hit):
            comp_id = hit["Id"].iloc[0]
            break
    if comp_id is None:
        raise ValueError(f"{files['Competitions']}: no competition with slug {slug!r}")
    team_names: dict[str, str] = {}
    for chunk in pd.read_csv(
        files["Teams"],
        usecols=["Id", "CompetitionId", "TeamName"],
        chunksize=chunksize,
        dtype=str,
        keep_default_na=False,
    ):
        sel = chunk[chunk["CompetitionId"] == comp_id]
        team_names.update(zip(sel["Id"], sel["TeamName"]))
    if not team_names:
        raise ValueError(f"{files['Teams']}: no teams for competition {slug!r} (id {comp_id})")
    best_sel: dict[str, float] = {}
    best_any: dict[str, float] = {}
    better = max if higher_is_better else min
    col = "PrivateScoreFullPrecision"
    offset = 0
    for chunk in pd.read_csv(
        files["Submissions"],
        usecols=["TeamId", "IsSelected", col],
        chunksize=chunksize,
        dtype=str,
        keep_default_na=False,
    ):
        sel = chunk[chunk["TeamId"].isin(team_names)]
        for idx, team, is_sel, value in zip(sel.index, sel["TeamId"], sel["IsSelected"], sel[col]):
            v = _parse_score(value, files["Submissions"], int(idx) + 1, col)
            if v is None:
                continue
            best_any[team] = better(best_any.get(team, v), v)
            if str(is_sel).strip().lower() in ("true", "1"):
                best_sel[team] = better(best_sel.get(team, v), v)
        offset += len(chunk)
    ids = [t for t in team_names if t in best_any]
    scores = np.array([best_sel.get(t, best_any[t]) for t in ids])
    dropped = len(team_names) - len(ids)
    if scores.size == 0:
        raise ValueError(f"{files['Submissions']}: no scored submissions for competition {slug!r}")
    return Leaderboard(
        scores=scores, teams=tuple(team_names[t] for t in ids), source=f"Meta Kaggle {slug} ({d})", dropped=dropped
    )
