"""Leaderboard files: Kaggle's leaderboard CSV, Meta Kaggle, and any CSV with a score column.

* :func:`read_leaderboard` -- a file as the ``sotalib sota`` command reads it:
  one score per team in ``[0, 1]`` (percentages rescaled), what was dropped or
  merged counted and said;
* :func:`read_kaggle_leaderboard` -- the CSV that ``kaggle competitions
  leaderboard SLUG --download`` writes, the Kaggle command line's ``--csv``
  output, or ``rank,score``, with the scores as they are;
* :func:`read_meta_kaggle` -- one competition's private leaderboard from
  ``Competitions.csv``, ``Teams.csv`` and ``Submissions.csv`` of the Meta
  Kaggle dataset, read in chunks.

Each returns a :class:`Leaderboard`, which :func:`estimate_sota` takes as its
``scores``.  The reconstructions of the paper's three challenges (and the
facts they honour) live in the book's reconstructions module (not part of the library).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._deprecate import keyword_only_since
from .._io import parse_number, read_table
from .._json import json_safe
from .._result import Result

__all__ = ["Leaderboard", "read_leaderboard", "read_kaggle_leaderboard", "read_meta_kaggle"]


@dataclass(frozen=True, eq=False, repr=False)
class Leaderboard(Result):
    """Scores of ``m`` teams on one test set (what :func:`read_leaderboard` returns).

    Pass it to :func:`estimate_sota` as ``scores``: the estimate then records
    what reading the file dropped and merged.

    Attributes
    ----------
    scores : ndarray
        One score per team (accuracy or AUC), in file order (a team listed
        several times appears once, where it is first listed).
    teams : tuple of str
        Team names (may be empty for reconstructions).
    source : str
        File name, or ``"reconstruction of ..."``.
    dropped : int
        Rows without a score (teams that never submitted), dropped and counted.
    reconstruction : bool
        True for the shipped reconstructions.
    duplicates : int
        Rows that repeated a team already listed (same team id, else same
        team name); each team keeps its best score, as Kaggle does.
    notes : tuple of str
        How the file was read, one sentence each: rows dropped or merged,
        percentages rescaled, a Kaggle pagination line skipped.
    m : int
        Number of teams (a property: ``scores.size``).
    """

    scores: np.ndarray
    teams: tuple = ()
    source: str = ""
    dropped: int = 0
    reconstruction: bool = False
    duplicates: int = 0
    notes: tuple = ()

    @property
    def m(self) -> int:
        """Number of teams."""
        return int(self.scores.size)

    def to_dict(self) -> dict:
        """JSON-safe account of the reading: ``source, m, dropped, duplicates, notes``."""
        return json_safe(
            {
                "source": self.source,
                "m": self.m,
                "dropped": self.dropped,
                "duplicates": self.duplicates,
                "notes": list(self.notes),
            }
        )


# ------------------------------------------------------------------------ loaders
def _parse_score(value, path, row: int, column: str):
    """A score as a float, or None for an empty cell.

    A non-number is an error naming file, row and column (Meta Kaggle's Submissions.csv, read by pandas in chunks; users' leaderboards go through sotalib._io).

    A trailing ``%`` divides by 100 (``91.5%`` is 0.915).
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    s = str(value).strip()
    if s == "":
        return None
    percent = s.endswith("%")
    try:
        v = float(s[:-1] if percent else s)
    except ValueError:
        raise ValueError(f"{path}: row {row}, column {column!r}: score {s!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{path}: row {row}, column {column!r}: score {s!r} is not a finite number")
    return v / 100.0 if percent else v


#: Kaggle's command line (``kaggle competitions leaderboard SLUG --show --csv``) ends a page with this line.
_PAGE_TOKEN = "next page token"


@keyword_only_since("score_column")
def read_kaggle_leaderboard(
    path: str | Path, *, score_column: str | None = None, lower_is_better: bool = False
) -> Leaderboard:
    r"""Read a leaderboard CSV: Kaggle's download, Kaggle's command-line ``--csv`` output, or ``rank,score``.

    Accepted layouts (column names are matched case-insensitively):

    * the CSV that ``kaggle competitions leaderboard SLUG --download`` writes
      (``TeamId, TeamName, SubmissionDate, Score``);
    * what ``kaggle competitions leaderboard SLUG --show --csv`` prints
      (``teamId, teamName, submissionDate, score``); its closing
      ``Next Page Token = ...`` line is skipped and reported, since it means
      the file holds one page of the leaderboard only;
    * any CSV with a header row and one column named ``score`` (e.g.
      ``rank,score``).

    Parameters
    ----------
    path : str or Path
        The CSV file: UTF-8 (a byte-order mark is fine), separated by commas,
        semicolons (decimal commas allowed) or tabs.
    score_column : str, optional
        Column holding the scores (any case); default the column named
        ``score`` (any case), else the only column whose name contains "score".
    lower_is_better : bool
        Which score a team listed several times keeps (its best, as Kaggle
        does): the largest (default, for accuracies and AUCs) or, if True,
        the smallest (losses, errors).

    Returns
    -------
    Leaderboard
        One score per team.  Rows with an empty score are dropped and counted
        in ``dropped``; rows repeating a team id (or, without an id column, a
        team name) are merged into the team's best score and counted in
        ``duplicates``; ``notes`` says what was done.  A score written with
        a percent sign (``91.5%``) is divided by 100.

    Raises
    ------
    ValueError
        An ``InputError`` (a ``ValueError``) if the file is missing, not
        UTF-8 or not a CSV with a header row, the score column is missing or
        ambiguous, or a score is not a finite number; the message names the
        file, the line and the column.

    References
    ----------
    Møllersen & Holsbø, Section 5 (the Kaggle leaderboards read there).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.multiplicity import read_kaggle_leaderboard
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "board.csv"
    >>> _ = path.write_text("TeamId,TeamName,Score\n1,a,0.91\n2,b,0.88\n2,b,0.90\n3,c,\n")
    >>> board = read_kaggle_leaderboard(path)
    >>> board.scores.tolist(), board.dropped, board.duplicates
    ([0.91, 0.9], 1, 1)
    >>> read_kaggle_leaderboard(path, lower_is_better=True).scores.tolist()
    [0.91, 0.88]
    """
    return _read_kaggle(Path(path), score_column, lower_is_better)


def _read_kaggle(path: Path, score_column: str | None, lower_is_better: bool) -> Leaderboard:
    """Read the CSV file (see :func:`read_kaggle_leaderboard`) with sotalib's one reader of users' tables."""
    t = read_table(path, header=True, needs="a header row and one row per team", min_rows=0)
    notes = []

    def is_token(row: tuple[str, ...]) -> bool:
        return row[0].lower().startswith(_PAGE_TOKEN)

    if len(t.where(is_token)):
        t = t.where(lambda row: not is_token(row))
        notes.append(
            "the file ends with the Kaggle command line's 'Next Page Token' line, so it holds one page of "
            "the leaderboard; for every team use 'kaggle competitions leaderboard SLUG --download'"
        )
    assert t.header is not None  # read with header=True
    cols = list(t.header)
    named = [c for c in cols if c]
    if named and all(parse_number(c, decimal_comma=t.decimal_comma, percent=True) is not None for c in named):
        raise t.error(
            "the first line holds numbers, not column names; add a header line such as 'rank,score' "
            "(the scores are read from the column named score)",
            line=t.header_line,
        )
    if score_column is None:
        j = t.find("score", required=False)
        if j is None:
            cands = [k for k, c in enumerate(cols) if "score" in c.lower()]
            if len(cands) != 1:
                raise t.error(
                    f"cannot tell which column holds the scores (columns: {', '.join(cols)}); "
                    "name it 'score' or use --score-column",
                    line=t.header_line,
                )
            j = cands[0]
    else:
        j = t.find(score_column)
    lowered = {c.strip().lower().replace("_", "").replace(" ", ""): k for k, c in reversed(list(enumerate(cols)))}
    id_col = lowered.get("teamid")
    team_col = lowered.get("teamname", lowered.get("team"))
    key_col = id_col if id_col is not None else team_col
    better = min if lower_is_better else max
    best: dict = {}  # team key -> index in scores
    scores: list[float]
    teams: list[str]
    scores, teams, dropped, duplicates = [], [], 0, 0
    values = t.column(j, percent=True, blank="none")  # ``91.5%`` is 0.915 exactly; a blank score is None
    for row, v in zip(t.rows, values, strict=True):
        if v is None:
            dropped += 1
            continue
        key = row[key_col] if key_col is not None else None
        if key and key in best:
            k = best[key]
            scores[k] = better(scores[k], v)
            duplicates += 1
            continue
        if key:
            best[key] = len(scores)
        scores.append(v)
        teams.append(row[team_col] if team_col is not None else "")
    if not scores:
        raise t.error(f"no scores in column {cols[j]!r}")
    if dropped:
        notes.append(f"{dropped} row{'s' if dropped != 1 else ''} without a score dropped")
    if duplicates:
        what = "team id" if id_col is not None else "team name"
        notes.append(
            f"{duplicates} row{'s' if duplicates != 1 else ''} repeating a {what} already listed merged "
            f"into {len(scores)} teams (each keeps its best score)"
        )
    return Leaderboard(
        scores=np.asarray(scores, dtype=float),
        teams=tuple(teams),
        source=str(path),
        dropped=dropped,
        duplicates=duplicates,
        notes=tuple(notes),
    )


@keyword_only_since("score_column")
def read_leaderboard(path: str | Path, *, score_column: str | None = None, scale: str = "auto") -> Leaderboard:
    r"""Read a leaderboard file for :func:`~sotalib.multiplicity.estimate_sota` (the ``sotalib sota`` command).

    The file is read by :func:`read_kaggle_leaderboard` (Kaggle's download,
    Kaggle's command-line ``--csv`` output, or any CSV with a ``score``
    column); every score must be an accuracy or an AUC, in ``[0, 1]``, or a
    percentage.

    Parameters
    ----------
    path : str or Path
        The CSV file.
    score_column : str, optional
        Column holding the scores; default the column named ``score``, else
        the only column whose name contains "score".
    scale : {"auto", "unit", "percent", "gini"}
        ``"unit"``: scores in ``[0, 1]``; ``"percent"``: scores in ``[0, 100]``,
        divided by 100; ``"gini"``: normalized Gini coefficients in ``[-1, 1]``
        (``2 AUC - 1``, as some Kaggle boards rank), read as the AUC
        ``(Gini + 1) / 2``; ``"auto"`` (default): percentages when every score
        lies in ``[0, 100]`` and none in ``(0, 1]`` (so that no score is
        ambiguous), else the unit scale.  Rescaling is reported in ``notes``.

    Returns
    -------
    Leaderboard
        One score per team, in file order; rows without a score dropped and
        counted in ``dropped``, repeated teams merged (best score) and counted
        in ``duplicates``, both said in ``notes``.

    Raises
    ------
    ValueError
        If the file cannot be read, the score column is missing or
        ambiguous, a score is not a number (the message names the file, the
        line and the column), or a score lies outside the scale (the message says which
        team and what to do).

    References
    ----------
    Møllersen & Holsbø, Section 5 (leaderboards of accuracies and AUCs).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.multiplicity import estimate_sota, read_leaderboard
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "board.csv"
    >>> _ = path.write_text("rank,score\n1,86%\n2,85%\n3,84%\n4,84%\n5,83%\n6,82%\n7,\n")
    >>> board = read_leaderboard(path)
    >>> board.scores.tolist(), board.dropped
    ([0.86, 0.85, 0.84, 0.84, 0.83, 0.82], 1)
    >>> est = estimate_sota(board, 500)
    >>> print(est.solved, f"{est.estimate:.4f}", est.dropped)
    True 0.8568 1
    """
    if scale not in ("auto", "unit", "percent", "gini"):
        raise ValueError(f"scale must be one of 'auto', 'unit', 'percent', 'gini', got {scale!r}")
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(
            f"path must be a file path (a str or a pathlib.Path), got {type(path).__name__}; scores already in "
            "memory (a list, an array, a dict, a pandas Series or DataFrame) go to estimate_sota directly"
        )
    lb = _read_kaggle(Path(path), score_column, False)
    s = lb.scores
    notes = list(lb.notes)
    if scale == "gini":
        outside = np.flatnonzero((s < -1) | (s > 1))
        if outside.size:
            i = int(outside[0])
            raise ValueError(
                f"{lb.source}: normalized Gini coefficients must be in [-1, 1], got {s[i]:g} (team {i + 1})"
            )
        s = (s + 1) / 2
        notes.append("scores read as normalized Gini coefficients and converted to the AUC (Gini + 1) / 2")
    if scale == "auto" and s.max() > 1 and s.min() >= 0 and s.max() <= 100:
        if np.any((s > 0) & (s <= 1)):
            small, big = float(s[(s > 0) & (s <= 1)][0]), float(s.max())
            raise ValueError(
                f"{lb.source}: the scores mix two scales ({small:g} and {big:g}): accuracies and AUCs "
                "are in [0, 1] or, as percentages, in [0, 100]; correct the file, or give the scale "
                "(scale='unit' or scale='percent')"
            )
        scale = "percent"
    if scale == "percent":
        if s.min() < 0 or s.max() > 100:
            i = int(np.flatnonzero((s < 0) | (s > 100))[0])
            raise ValueError(f"{lb.source}: percentages must be in [0, 100], got {s[i]:g} (team {i + 1})")
        if s.size and s.max() <= 1:  # fractions read as percentages: every team would fall below chance
            raise ValueError(
                f"{lb.source}: scale='percent' reads every score as at most 1% (the largest, {s.max():g}, "
                f"as {s.max() / 100:g}); these look like fractions in [0, 1]: give scale='unit' or scale='auto'"
            )
        s = s / 100.0
        notes.append(f"scores read as percentages (the largest is {100 * s.max():g}) and divided by 100")
    outside = np.flatnonzero((s < 0) | (s > 1))
    if outside.size:
        i = int(outside[0])
        raise ValueError(
            f"{lb.source}: scores must be in [0, 1] (accuracies or AUCs) or percentages in [0, 100], "
            f"got {s[i]:g} ({outside.size} such scores; the first is team {i + 1} with a score); "
            "is this another metric (a loss, an error count)?"
            + (
                " (they look like percentages: give scale='percent' or scale='auto')"
                if scale == "unit" and s.min() >= 0 and s.max() <= 100
                else ""
            )
        )
    return Leaderboard(
        scores=s,
        teams=lb.teams,
        source=lb.source,
        dropped=lb.dropped,
        duplicates=lb.duplicates,
        notes=tuple(notes),
    )


def read_meta_kaggle(
    directory: str | Path, slug: str, *, chunksize: int = 1_000_000, lower_is_better: bool = False
) -> Leaderboard:
    r"""The private leaderboard of one competition from Meta Kaggle, at full precision.

    Reads ``Competitions.csv`` (to find the competition id of ``slug``),
    ``Teams.csv`` (its teams) and ``Submissions.csv`` (their submissions) in
    chunks of ``chunksize`` rows, so the multi-gigabyte files never sit in
    memory.  A team's score is the best ``PrivateScoreFullPrecision`` among
    its selected submissions (``IsSelected``), or among all its submissions if
    it selected none (Kaggle's automatic selection uses the public score; this
    is an approximation and is counted in the source string).  Teams without
    any scored submission are dropped and counted.

    Parameters
    ----------
    directory : str or Path
        The folder holding Meta Kaggle's ``Competitions.csv``, ``Teams.csv``
        and ``Submissions.csv``.
    slug : str
        The competition's slug (its name in the URL).
    chunksize : int
        Rows read at a time.
    lower_is_better : bool
        Which submission is a team's best: the largest score (default, for
        accuracies and AUCs) or, if True, the smallest (losses, errors).

    Returns
    -------
    Leaderboard
        One score per team with a scored submission, ``dropped`` counting
        the teams without one.

    Raises
    ------
    ValueError
        If a file is missing, no competition has ``slug``, it has no teams,
        or none of its teams has a scored submission.

    References
    ----------
    Møllersen & Holsbø, Section 5 (the Kaggle leaderboards read there).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from sotalib.multiplicity import read_meta_kaggle
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "Competitions.csv").write_text("Id,Slug\n7,my-comp\n")
    >>> _ = (d / "Teams.csv").write_text("Id,CompetitionId,TeamName\n1,7,a\n2,7,b\n3,7,c\n")
    >>> rows = "TeamId,IsSelected,PrivateScoreFullPrecision\n1,True,0.91\n1,False,0.95\n2,False,0.88\n"
    >>> _ = (d / "Submissions.csv").write_text(rows)
    >>> board = read_meta_kaggle(d, "my-comp")
    >>> board.scores.tolist(), board.teams, board.dropped
    ([0.91, 0.88], ('a', 'b'), 1)
    """
    import pandas as pd  # pandas loads only when a file is read: it takes longer to import than sotalib

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
    better = min if lower_is_better else max
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
