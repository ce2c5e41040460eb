"""The front door of the state-of-the-art estimators: :func:`estimate_sota` (Section 5; the ``sota`` command).

It checks every argument once, then calls the estimator's private worker
(:mod:`._sota_observed`, :mod:`._sota_shrink`, :mod:`._sota_crop`, :mod:`._sota_deconvolve`,
:mod:`._sota_abc`, :mod:`._sota_shrink_auc`), which trusts its input.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._frame import _is_frame, as_vector
from .._per_item import PerItem, as_per_item
from .._progress import showing
from .._rng import check_rng
from .._validate import (
    NoSolutionError,
    ParameterError,
    check_alpha,
    check_choice,
    check_int,
    check_probability,
    check_real,
    check_time,
    time_limit,
)
from ._dependence_measure import Dependence, _as_matrix, estimate_dependence
from ._leaderboard import Leaderboard
from ._max_dependent_normal import FITS_PER_SOLVE, choose_engine, exact_seconds
from ._sota_abc import ACCEPT, TOP, _abc
from ._sota_abc import N_RESAMPLES as ABC_PROPOSALS
from ._sota_crop import PAPER_GRID, _crop
from ._sota_deconvolve import GRID_SIZE, _deconvolve
from ._sota_deconvolve import N_RESAMPLES as BOOTSTRAP_RESAMPLES
from ._sota_methods import SOTA_METHOD_OPTIONS, SOTA_METHODS
from ._sota_model import RHO0, _check_scores, _keep_above
from ._sota_observed import _naive, _observed
from ._sota_result import SotaEstimate
from ._sota_shrink import _cap, _shrink
from ._sota_shrink_auc import N_RESAMPLES as AUC_RESAMPLES
from ._sota_shrink_auc import _pick_engine, _shrink_auc

__all__ = ["estimate_sota"]

#: Estimators :func:`estimate_sota` offers for each metric.
METHODS = SOTA_METHODS

#: Estimators that compute the distribution of the maximum with an engine ("exact" or "normal").
_ENGINE_METHODS = tuple(m for m, uses in SOTA_METHOD_OPTIONS.items() if "engine" in uses)

#: Estimators that solve an equation for a target (the others take only target="expected").
_TARGET_METHODS = tuple(m for m, uses in SOTA_METHOD_OPTIONS.items() if "target" in uses)

#: Monte Carlo estimators: default and least number of resamples.
_RESAMPLES = {"deconvolve": (BOOTSTRAP_RESAMPLES, 0), "abc": (ABC_PROPOSALS, 100), "auc": (AUC_RESAMPLES, 10)}

#: Estimators that model no dependence on a reference classifier (``rho`` is not used).
_NO_RHO_METHODS = tuple(m for m, uses in SOTA_METHOD_OPTIONS.items() if "rho" not in uses)


def _per_item_form(scores: Any) -> PerItem | None:
    """``scores`` as per-item results when it is some, else None (a board of scores).

    A :class:`~sotalib.PerItem` always is; a DataFrame is when it has two or more model columns holding only
    0, 1 and NaN (items as rows, :func:`~sotalib._per_item.as_per_item`), as a board's frame has one score
    column.  A bare 2-d array of 0, 1 and NaN is refused by :func:`as_per_item` (which axis holds the models?).
    """
    if isinstance(scores, PerItem):
        return scores
    if isinstance(scores, (Leaderboard, str, bytes, dict)):
        return None
    if _is_frame(scores):
        try:
            table = as_per_item(scores, "scores", function="estimate_sota")
        except ValueError:
            return None
        return table if table.m >= 2 and table.binary else None
    try:
        A = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        return None
    if A.ndim == 2 and min(A.shape) >= 2 and _is_correctness(A):
        as_per_item(scores, "scores", function="estimate_sota")
    return None


def _is_correctness(A: np.ndarray) -> bool:
    """Whether every entry of ``A`` is 0, 1 or NaN (a per-item matrix)."""
    finite = A[~np.isnan(A)]
    return bool(np.all((finite == 0) | (finite == 1)))


def _per_item_board(
    correct: PerItem, n: int | None, rho: float | Dependence | None, uses_rho: bool, item_chance: np.ndarray | None
) -> tuple[np.ndarray, int, float | Dependence | None, list[str], dict, float | None]:
    """The board behind a per-item matrix: ``(scores, n, rho, notes, details, chance)``.

    The scores are the models' accuracies on the items every model answered, ``n`` is their number,
    and ``rho``, when the method uses it and none is given, is measured from the same items
    (:func:`estimate_dependence`, without a bootstrap).  ``chance`` is the mean of ``item_chance`` (one
    chance level per item) over those items: the accuracy of a model that guesses every item (None when
    ``item_chance`` is None).
    """
    Y, names = _as_matrix(correct, "scores", "estimate_sota")
    complete = ~np.isnan(Y).any(axis=1)
    n_items = int(complete.sum())
    if n_items == 0:
        raise ValueError(
            "scores: no item was answered by every model; a per-item matrix needs items every model answered "
            "(its board is the models' accuracies on them)"
        )
    if n is not None:
        n = check_int("n", n, low=1)
        if n != n_items:
            raise ParameterError(
                f"n must be the number of items every model answered, {n_items:,}, when scores is a per-item "
                f"matrix; got {n:,} (leave n out: it is taken from the matrix)",
                "n",
                "scores",
            )
    values = Y[complete].mean(axis=0)
    notes: list[str] = []
    dropped = Y.shape[0] - n_items
    if dropped:
        notes.append(
            f"{dropped:,} of the {Y.shape[0]:,} items left out (some model did not answer them): the board is "
            f"the {Y.shape[1]:,} models' accuracies on the {n_items:,} items every model answered"
        )
    measured = rho is None and uses_rho
    if measured:
        try:
            dep = estimate_dependence(correct, n_resamples=0)
        except ValueError as exc:
            message = str(exc)
            if message.startswith("correct "):
                message = "scores " + message[len("correct ") :]
            raise ValueError(f"{message}; give rho to estimate without measuring it") from None
        rho = dep.rho0
        notes.append(
            f"rho={dep.rho0:.4f} measured from the per-item matrix (mean pairwise phi {dep.mean_phi:.4f} of "
            f"{dep.n_models:,} models on {dep.n_items:,} items; estimate_dependence)"
        )
    details = {"items_dropped": dropped, "best_model": names[int(np.argmax(values))], "rho_measured": measured}
    Yc = Y[complete]
    if not np.all((Yc == 0) | (Yc == 1)):
        details["graded"] = True
        notes.append(
            "graded outcomes (shares of samples): a model's score is the mean of its cells and rho the phi of one "
            "answer per model; the model counts one answer per item, so for means of K > 1 samples the winner's "
            "luck is overstated (the estimate conservative)"
        )
    chance = None if item_chance is None else float(np.mean(item_chance[complete]))
    return values, n_items, rho, notes, details, chance


def _item_chance(table: PerItem, chance: Any, classes: int | None) -> tuple[np.ndarray | None, str | None]:
    """One chance level per item of a per-item board, and where it came from; ``(None, None)`` for one level.

    A sequence ``chance`` gives one level per item (each in ``[0, 1)``); with neither ``chance`` nor
    ``classes`` given, the items' ``item_info["options"]`` (a number of answer options each, ``>= 2``) gives
    ``1/options`` per item, as MMLU-Pro's items have 3 to 10 options.
    """
    if chance is not None and np.ndim(chance) > 0:
        try:
            c = np.asarray(chance, dtype=float)
        except (TypeError, ValueError):
            raise ValueError("chance must be a number in [0, 1) or one such number per item") from None
        if c.ndim != 1 or c.size != table.n:
            raise ValueError(f"chance must be one number, or one per item ({table.n:,}); got shape {c.shape}")
        bad = np.flatnonzero(~((c >= 0) & (c < 1)))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"chance must be in [0, 1) for every item: item {table.items[i]!r} has {c[i]:g}")
        return c, "the chance level given per item"
    if chance is not None or classes is not None or "options" not in table.item_info:
        return None, None
    raw = table.item_info["options"]
    try:
        options = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        options = np.full(raw.shape, np.nan)
    bad = np.flatnonzero(~(np.isfinite(options) & (options >= 2) & (options == np.round(options))))
    if bad.size:
        i = int(bad[0])
        shown = raw[i].item() if isinstance(raw[i], np.generic) else raw[i]
        raise ValueError(
            f"item_info['options'] must give each item's number of answer options, a whole number >= 2: item "
            f"{table.items[i]!r} has {shown!r} (give chance=0 for a task without a chance level)"
        )
    return 1.0 / options, "1/options of each item (item_info['options'])"


def _check_chance(chance: Any, classes: int | None, metric: str) -> tuple[Any, int | None]:
    """``chance`` (one number, checked; a sequence is left to the per-item board) and ``classes``, checked."""
    if chance is not None and classes is not None:
        raise ValueError("give classes or chance, not both (classes=K sets the chance level 1/K)")
    if metric == "auc" and chance is not None:
        raise ValueError("chance does not apply to metric='auc', whose chance level is an AUC of 0.5")
    if classes is not None:
        classes = check_int("classes", classes, low=2)
    if chance is None or np.ndim(chance) > 0:
        return chance, classes
    return check_real("chance", chance, low=0.0, high=1.0, high_open=True), classes


def _resolve_board(
    scores: Any,
    n: int | None,
    rho: float | Dependence | None,
    metric: str,
    method: str,
    chance: Any = None,
    classes: int | None = None,
) -> tuple[Any, int, float | None, list[str], dict, float | None]:
    """The board, ``n`` and ``rho`` behind ``scores`` (a per-item matrix read as its board), with notes and details.

    ``n`` is checked and given; ``rho`` is a float, or None for the paper's default.  The last element is the
    chance level of a per-item board whose items have their own (the mean of theirs; :func:`_item_chance`),
    else None.
    """
    uses_rho = metric == "auc" or method not in _NO_RHO_METHODS
    notes: list[str] = []
    details: dict = {}
    level = None
    table = _per_item_form(scores)
    if table is not None:
        if metric != "accuracy":
            raise ParameterError(
                f"metric must be 'accuracy' when scores is a per-item matrix of correctness, got {metric!r}",
                "metric",
                "scores",
            )
        if isinstance(rho, Dependence):
            rho, notes = _dependence_rho(rho, uses_rho)
        item_chance, source = _item_chance(table, chance, classes)
        scores, n, rho, more, details, level = _per_item_board(table, n, rho, uses_rho, item_chance)
        notes += more
        if level is not None:
            notes.append(
                f"chance level {level:.4f}: the mean over the {n:,} items of {source} (a model that guesses "
                "every item scores it)"
            )
    elif np.ndim(scores) == 2 and not isinstance(scores, Leaderboard):
        try:
            as_vector(scores, "scores")
        except ValueError as exc:
            raise ValueError(
                f"{exc} (per-item results, items as rows and models as columns, are given as a DataFrame of 0, 1 "
                "and NaN or as a sotalib.PerItem: sotalib.PerItem(frame) for graded cells such as a pass@1 of 0.3)"
            ) from None
    if level is None and chance is not None and np.ndim(chance) > 0:
        raise ValueError(
            "chance must be one number in [0, 1) for a board of scores (a chance level per item needs per-item "
            "results, a sotalib.PerItem)"
        )
    if n is None:
        raise ValueError(
            "n must be given for a leaderboard of scores: the test-set size, an integer >= 1 (only a per-item "
            "matrix gives its own n)"
        )
    n = check_int("n", n, low=1)
    if isinstance(rho, Dependence):
        rho, notes = _dependence_rho(rho, uses_rho)
    return scores, n, rho, notes, details, level


def _dependence_rho(rho: Dependence, uses_rho: bool) -> tuple[float, list[str]]:
    """``rho_0`` of a measured :class:`Dependence`, and a note saying where it came from."""
    if not uses_rho:
        return float(rho.rho0), []
    return float(rho.rho0), [
        f"rho={rho.rho0:.4f} from the Dependence given (measured on {rho.n_items:,} items of {rho.n_models:,} models)"
    ]


def _set_aside_perfect(scores: np.ndarray, metric: str, method: str, rho: float) -> tuple[np.ndarray, tuple]:
    """The scores without the perfect ones where the model cannot take a 1, and a note saying so.

    A perfect score on a board of imperfect ones is most often a leak (as on
    the public Spaceship Titanic board); the dependent model (``rho > 0``)
    and the binormal AUC cannot take it, so it is set aside and the estimate
    is of the other teams.  A board of perfect scores only has nothing left:
    :class:`NoSolutionError`, as :func:`_check_perfect_score` says.
    """
    s = np.asarray(scores, dtype=float)
    cannot = metric == "auc" or (rho != 0.0 and method in ("shrink", "crop", "cap", "observed"))
    if not cannot or s.size == 0 or s.max() != 1.0 or np.all(s == 1.0):
        return s, ()
    perfect = np.flatnonzero(s == 1.0) + 1
    shown = ", ".join(map(str, perfect[:10])) + (", ..." if perfect.size > 10 else "")
    what = "AUC" if metric == "auc" else "score"
    why = (
        "no binormal classifier reaches an AUC of 1 (Eq. 10)"
        if metric == "auc"
        else f"with rho={rho:g} the dependent model takes the top score as the reference accuracy theta0, "
        "which must be below 1 (Eq. 6)"
    )
    teams = "team" if perfect.size == 1 else "teams"
    note = (
        f"{perfect.size} perfect {what}{'s' if perfect.size > 1 else ''} of 1 set aside ({teams} {shown} of "
        f"{s.size}; a leak?): {why}; the estimate is of the other {s.size - perfect.size} teams"
    )
    return s[s != 1.0], (note,)


def _degenerate(est: SotaEstimate, values: np.ndarray) -> SotaEstimate:
    """On a degenerate board, never an interval that excludes its own estimate, nor an estimate above every score.

    A board of one distinct score (one team, or all teams equal) gives the
    bootstrap the same board in every resample and leaves the Monte Carlo
    estimators nothing to tell the teams' spread from the noise: the interval
    is dropped, or the estimate is no answer, with a note or the reason.
    """
    if not est.solved or est.estimate is None:
        return est
    top = float(np.max(values))
    notes = list(est.notes)
    one_score = np.unique(values).size == 1
    if one_score and est.estimate > top + 1e-12:  # on a real board a Monte Carlo estimate may exceed the top
        board = "one team" if values.size == 1 else "all teams equal"
        return dataclasses.replace(
            est,
            estimate=None,
            ci_low=None,
            ci_high=None,
            solved=False,
            reason=(
                f"method {est.method!r} gives {est.estimate:.6g}, above every score on the board ({top:g}; "
                f"{board}): no estimate of the state of the art; use method='shrink' or method='naive'"
            ),
        )
    lo, hi = est.ci_low, est.ci_high
    # an interval of (next to) zero width, or of a board whose every resample is the board itself, that
    # misses its estimate says nothing; a percentile interval of a real board may miss it and is kept
    if lo is not None and hi is not None and not (lo <= est.estimate <= hi) and (one_score or hi - lo <= 1e-9):
        notes.append(
            f"the {est.method} interval ({lo:.9g}, {hi:.9g}) does not contain the estimate {est.estimate:.9g} "
            + (
                "(every bootstrap resample of a board of one distinct score is that board)"
                if one_score
                else "(an interval of zero width)"
            )
            + ": no interval given"
        )
        return dataclasses.replace(est, ci_low=None, ci_high=None, notes=tuple(notes))
    return est


def _check_perfect_score(scores: np.ndarray, metric: str, method: str, rho: float) -> None:
    """A perfect top score where the model cannot take one: an error that says what to do."""
    s = np.asarray(scores, dtype=float).ravel()
    if s.size == 0 or not np.all(np.isfinite(s)) or s.max() != 1.0:
        return  # prepare() reports empty and non-finite leaderboards
    perfect = np.flatnonzero(s == 1.0) + 1
    shown = ", ".join(map(str, perfect[:5])) + (", ..." if perfect.size > 5 else "")
    who = f"team {shown} has" if perfect.size == 1 else f"{perfect.size} teams (rows {shown}) have"
    if metric == "auc":
        raise NoSolutionError(
            f"scores: {who} a perfect AUC of 1, which no binormal classifier reaches (Eq. 10); "
            "check those scores (a leak? a tiny test set?) and leave them out to estimate the state of the art "
            "of the others"
        )
    if rho != 0.0 and method in ("shrink", "crop", "cap", "observed"):
        raise NoSolutionError(
            f"scores: {who} a perfect score of 1; with rho={rho:g} the dependent model takes the top "
            "score as the accuracy theta0 of the reference classifier, which must be below 1 (Eq. 6); use "
            "rho=0 (independent classifiers), or check those scores (a leak? a tiny test set?) and leave them out"
        )


def _engine_within_time(engine: str, method: str, n: int, values: np.ndarray, rho: float) -> str:
    """The accuracy's engine: ``"auto"`` resolved, and ``"exact"`` refused if expected to exceed the time limit.

    ``"auto"`` takes the normal approximation where the exact engine would
    take longer than ``SOTALIB_TIME_LIMIT``; ``"exact"`` asked for there is
    refused up front, naming the engine, ``n`` and the estimate.
    """
    chosen = choose_engine(engine, n, values, rho)
    if chosen != "exact":
        return chosen
    fits = 1 if method == "observed" else FITS_PER_SOLVE
    seconds = exact_seconds(n, rho, fits)
    if engine == "auto" and seconds > time_limit():
        return "normal"  # the default answers within the limit
    check_time(
        seconds,
        f"engine='exact' at n={n} items",
        "use engine='auto' or engine='normal' (the normal approximation, seconds at any n up to 10^9), "
        "or raise SOTALIB_TIME_LIMIT",
        work="exact fits",
        n=n,
        fits=fits,
    )
    return chosen


def _resamples(kind: str, n_resamples: int | None) -> int:
    """The checked number of Monte Carlo resamples of ``kind``, its default for None."""
    default, low = _RESAMPLES[kind]
    return default if n_resamples is None else check_int("n_resamples", n_resamples, low=low)


def estimate_sota(
    scores: ArrayLike | Leaderboard | PerItem,
    n: int | None = None,
    *,
    metric: str = "accuracy",
    classes: int | None = None,
    chance: float | ArrayLike | None = None,
    prevalence: float | None = None,
    rho: float | Dependence | None = None,
    method: str = "shrink",
    target: str = "expected",
    alpha: float = 0.05,
    engine: str = "auto",
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = None,
    progress: bool | None = None,
) -> SotaEstimate:
    """Estimate the state of the art behind a leaderboard (the ``sotalib sota`` command).

    The sample maximum of ``m`` teams overestimates the best true score
    ``theta_SOTA``.  The estimators (``method=``):

    * ``"shrink"`` -- Eq. 9, ``theta'_j = w theta_hat_j + (1 - w) c`` toward
      the chance level ``c`` (``1/classes`` in the paper, the random
      classifier; ``c = 0`` for a task with no chance level, where the
      target is 0 and ``theta'_j = w theta_hat_j`` scales the board, so
      the estimate is ``w max(theta_hat)``), with ``w`` solved so that the expected maximum under the dependent,
      non-identical model (Eqs. 6-8) equals the observed maximum
      (``target="expected"``, Table 2 row 3) or its upper ``1 - alpha/2``
      bound does (``"upper"``, row 4); for ``metric="auc"`` toward 0.5 with
      the maximum empirical AUC (Section 5.2.3);
    * ``"crop"`` -- the paper's cropping (Appendix, Table 4): the teams
      above a crop point ``c`` are dropped, the board is resampled from the
      scores below it, ``c`` is solved and snapped to the paper's grid of
      ``0.04/175``;
    * ``"cap"`` -- ``theta'_j = min(theta_hat_j, c)``, capped teams kept at ``c``;
    * ``"deconvolve"`` -- empirical Bayes: ``E max`` of ``m`` draws from the
      nonparametric maximum-likelihood mixing distribution, with a
      bootstrap interval (beyond the paper; it uses the marginal binomial
      likelihood, which is the same for every ``rho``, so ``rho`` is not used);
    * ``"abc"`` -- approximate Bayesian computation (Section 5.3.2), simulating
      the dependent model with ``rho``;
    * ``"naive"`` -- no correction: the sample maximum and its exact
      (Clopper-Pearson) single-classifier interval (Table 2, row 1);
      ``details["teams_inside_interval"]`` counts the teams inside it;
    * ``"observed"`` -- ``Theta' = Theta_hat``: the expected maximum and its
      interval if the observed scores were the true ones (Table 2, row 2).

    A board whose answers are published item by item is given as its
    per-item matrix instead of its scores: the board is then each model's
    accuracy on the items every model answered, ``n`` is their number, and
    ``rho``, unless given, is measured from the same items by
    :func:`estimate_dependence` (its point estimate; ``notes`` say so).

    Parameters
    ----------
    scores : array_like of float, Leaderboard or per-item matrix
        One score per team (accuracy or AUC), each in ``[0, 1]``; teams at or
        below chance (``chance``, or 0.5 for the AUC) are left out and
        counted (``below_chance``).  A :class:`Leaderboard` (what :func:`read_leaderboard`
        returns) gives its scores, and the result records what reading the
        file dropped and merged (``dropped``, ``duplicates``, ``notes``).
        Per-item correctness (accuracy only): a :class:`~sotalib.PerItem`
        (what :func:`~sotalib.read_per_item` returns, with ``missing=True``
        for blank cells) or a DataFrame of two or more model columns holding
        only 1 (correct), 0 (wrong) and NaN (not answered), items as rows and
        models as columns (a bare 2-d array is refused: wrap it as
        ``PerItem(array)``); ``details["best_model"]`` names the winner and
        ``details["items_dropped"]`` counts the items some model left
        unanswered.  A :class:`~sotalib.PerItem` may hold graded cells in
        [0, 1] (a pass@1 averaged over ``K`` samples per item): a model's
        score is the mean of its cells, and the measured ``rho`` is the phi
        of one answer per model (:func:`estimate_dependence`, unbiased
        whatever ``K``).  The paper's model then counts one answer per item,
        so a mean of ``K > 1`` samples, whose prediction noise is ``K``
        times smaller, is given the luck of one answer: the correction is
        too large (the estimate biased low, its interval too wide), by at
        most the share ``E[p (1 - p)] (1 - 1/K)`` of the variance
        ``theta (1 - theta)`` of one answer; ``notes`` say so and
        ``details["graded"]`` is True.  A cell outside [0, 1] is refused by
        its place.
    n : int, optional
        Test-set size (``>= 1``); required for a leaderboard of scores.  For
        a per-item matrix it is the number of items every model answered:
        leave it out, or give that number (another is refused).
    metric : {"accuracy", "auc"}
        The leaderboard's metric.
    classes : int, optional
        Number of classes (``>= 2``; the chance level is ``1/classes``);
        default 2 unless ``chance`` is given or the items give their own.
    chance : float, array_like or None
        The chance level of the accuracy (``metric="accuracy"`` only): the
        teams at or below it are left out, and ``"shrink"`` shrinks toward
        it.  None (the default): ``1/classes``, or, for a
        :class:`~sotalib.PerItem` whose ``item_info`` has ``"options"`` (each
        item's number of answer options, as MMLU-Pro's 3 to 10) and no
        ``classes`` given, ``1/options`` per item.  A number in ``[0, 1)``:
        0 for a task with no chance level (code generation, open answers),
        where no team is left out and the shrinkage target is 0.  One number
        per item (per-item results only): that item's chance level.  A
        chance level per item makes the board's the mean over the items
        used (the accuracy of a model that guesses every item); ``notes``
        say so.  Not together with ``classes``.  ``details["chance"]`` is
        the level used.
    prevalence : float, optional
        Share of positives in ``(0, 1)``; required for ``metric="auc"``.
    rho : float, Dependence or None
        Correlation ``rho_0`` with the reference classifier, in ``[0, 1]``
        (``[0, 1)`` for ``"crop"``).  A :class:`Dependence` (what
        :func:`estimate_dependence` returns) gives its measured ``rho0``, and
        ``notes`` say so.  None (the default): 0.6 as in the paper for a
        leaderboard of scores, measured from the matrix for a per-item matrix.
        ``"naive"`` and ``"deconvolve"`` do not use it.
    method : {"shrink", "crop", "cap", "deconvolve", "abc", "naive", "observed"}
        The estimator; only ``"shrink"`` for the AUC.
    target : {"expected", "upper"}
        What the shrink, crop and cap equations match to the observed
        maximum; the other estimators solve no such equation and accept only
        ``"expected"``.
    alpha : float
        Intervals are ``1 - alpha``, ``alpha`` in ``(0, 1)``.
    engine : {"auto", "exact", "normal", "simulate"}
        How the distribution of the maximum is computed.  Accuracy:
        ``"exact"`` (the exact model), ``"normal"`` (a normal approximation
        for large ``n``) or ``"auto"`` (exact unless its work would take
        minutes, at ``n >= 10^4``).  AUC: ``"simulate"`` (Monte Carlo, exact
        in distribution), ``"normal"`` or ``"auto"``.  The result's
        ``details`` name the engine used and, for an approximation, its
        accuracy.  Deconvolution and ABC have no engine.  An exact fit of
        the dependent model (``rho > 0``) takes about ``6e-6 n`` seconds
        and a solve about ten fits: ``"exact"`` expected to take longer
        than ``SOTALIB_TIME_LIMIT`` (a minute; ``n`` above ``10^6``) is
        refused up front, and ``"auto"`` then takes the normal
        approximation.  Long exact runs draw a progress bar (``progress``).
    n_resamples : int, optional
        Monte Carlo replications: bootstrap resamples of ``"deconvolve"``
        (default 200, ``>= 0``; fewer than 2 gives no interval), proposals of
        ``"abc"`` (default 20,000, ``>= 100``) and simulations of the maximum
        AUC (default 200, ``>= 10``).  The exact estimators ignore it.
    rng : int, numpy.random.Generator or None
        Randomness of the Monte Carlo estimators (deconvolve, abc, the
        simulated AUC): None (fresh entropy, the default), an int seed
        (reproducible; the command line passes ``--seed``, default 0) or a
        Generator.  ``details["seed"]`` records an int seed.  The exact
        estimators ignore it.
    progress : bool or None
        Progress bars of the Monte Carlo estimators (None: only when stderr
        is a terminal; the command line passes False with ``--json``).

    Returns
    -------
    SotaEstimate
        The estimate, its interval and the fitted model's numbers; with
        ``solved=False`` and a ``reason`` when no shrinkage weight or crop
        point solves the equation (an answer, not an error).

    Raises
    ------
    ValueError
        If an argument is out of range or the combination is not available
        (the message names the parameter), no team is above chance (the
        message names ``chance``, which sets it), or the
        top score is a perfect 1 where the model cannot take one; for a
        per-item matrix, if no item was answered by every model, ``n``
        disagrees with their number, ``metric`` is not ``"accuracy"``, or
        ``rho`` is to be measured and fewer than two models vary.

    References
    ----------
    Møllersen & Holsbø, Section 5.1 and Eq. 9 (shrinking), Table 2 (rows 1-4),
    Appendix and Table 4 (cropping), Section 5.2.3 (the AUC), Section 5.3.2
    (ABC); the dependent model of Section 4.3, Eqs. 6-8.

    Examples
    --------
    >>> from sotalib.multiplicity import estimate_sota
    >>> board = [0.78, 0.80, 0.81, 0.82, 0.82, 0.83, 0.84, 0.84, 0.85, 0.86]
    >>> est = estimate_sota(board, 500)
    >>> print(est.solved, f"{est.estimate:.4f}", f"{est.expected_max:.4f}")
    True 0.8573 0.8600
    >>> naive = estimate_sota(board, 500, method="naive")
    >>> print(f"({naive.ci_low:.4f}, {naive.ci_high:.4f})")
    (0.8265, 0.8892)

    A per-item board (items x models of 0/1): ``n`` and ``rho`` come from it.

    >>> import numpy as np
    >>> from sotalib.multiplicity import simulate_per_item
    >>> theta = np.linspace(0.70, 0.74, 20)
    >>> correct = simulate_per_item(1000, theta, rho=0.6, theta0=0.7, rng=1)
    >>> est = estimate_sota(correct)
    >>> print(est.n, f"{est.details['rho']:.4f}", f"{est.estimate:.4f}")
    1000 0.5889 0.7299

    A task with no chance level (code generation): ``chance=0`` keeps every
    team and shrinks toward 0, so the estimate is ``w`` times the top score.

    >>> code = np.linspace(0.2, 0.6, 40)  # 40 code models' pass rates on 164 problems
    >>> est = estimate_sota(code, 164, chance=0)
    >>> print(est.m, est.below_chance, f"{est.weight:.4f}", f"{est.estimate:.4f}")
    40 0 0.9690 0.5814
    >>> estimate_sota(code, 164).below_chance  # the default chance level 1/2 drops 30
    30
    """
    metric = check_choice("metric", metric, ("accuracy", "auc"))
    method = check_choice("method", method, METHODS["accuracy"])
    given_chance, classes = _check_chance(chance, classes, metric)
    board_scores, n, rho, given_notes, per_item_details, level = _resolve_board(
        scores, n, rho, metric, method, given_chance, classes
    )
    rho = check_probability("rho", RHO0 if rho is None else rho, open_high=method == "crop" and metric == "accuracy")
    target = check_choice("target", target, ("expected", "upper"))
    alpha = check_alpha("alpha", alpha)
    check_rng(rng)
    engine = check_choice("engine", engine, ("auto", "exact", "normal", "simulate"))
    if metric == "accuracy" and engine == "simulate":
        raise ValueError(
            "engine 'simulate' is for metric='auc'; the accuracy's engines are 'auto', 'exact' and 'normal'"
        )
    if metric == "auc" and engine == "exact":
        raise ValueError(
            "engine 'exact' is for metric='accuracy'; the AUC's engines are 'auto', 'simulate' (Monte Carlo, "
            "exact in distribution) and 'normal'"
        )
    if engine != "auto" and metric == "accuracy" and method not in _ENGINE_METHODS:
        raise ParameterError(
            f"engine={engine!r} does not apply to method={method!r}, which computes no distribution of the maximum "
            f"(engines apply to {', '.join(_ENGINE_METHODS)})",
            "engine",
            "method",
        )
    board = board_scores if isinstance(board_scores, Leaderboard) else None
    values = _check_scores(board.scores if board is not None else board_scores)  # any form, as_vector
    values, notes = _set_aside_perfect(values, metric, method, rho)
    notes = tuple(given_notes) + notes
    _check_perfect_score(values, metric, method, rho)  # a board of perfect scores only
    if metric == "auc":
        if prevalence is None:
            raise ValueError("prevalence must be given for metric='auc' (the share of positives, in (0, 1))")
        prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
        if method not in METHODS["auc"]:
            raise ValueError(f"method {method!r} is not available for metric='auc' (use 'shrink')")
        reps = _resamples("auc", n_resamples)
        s, below = _keep_above(values, 0.5, "auc")
        engine = _pick_engine(engine, s.size, n, prevalence, rho, reps)
        est = _shrink_auc(
            s,
            below,
            n,
            prevalence,
            rho,
            target=target,
            reps=reps,
            rng=rng,
            alpha=alpha,
            progress=progress,
            engine=engine,
        )
        return _with_reading(_degenerate(est, s), board, notes, per_item_details)
    if method not in _TARGET_METHODS and target != "expected":
        raise ValueError(
            f"target {target!r} is not supported by method {method!r}, which solves no equation for a target; "
            "use target='expected', or method='shrink', method='crop' or method='cap' to match the upper bound"
        )
    # a per-item board whose items have their own chance levels takes their mean; the default is 1/classes
    used = float(level if level is not None else given_chance if given_chance is not None else 1.0 / (classes or 2))
    s, below = _keep_above(values, used, "accuracy")
    if method in _ENGINE_METHODS:
        engine = _engine_within_time(engine, method, n, s, rho)
        with showing(progress):  # a bar over the exact engine's long runs (none for the quick ones)
            if method == "shrink":
                est = _shrink(s, below, n, used, rho, target, alpha, engine)
            elif method == "crop":
                est = _crop(s, below, n, rho, target, alpha, PAPER_GRID, engine)
            elif method == "cap":
                est = _cap(s, below, n, rho, target, alpha, engine)
            else:
                est = _observed(s, below, n, rho, alpha, engine)
    elif method == "naive":
        est = _naive(s, below, n, alpha)
    elif method == "deconvolve":
        est = _deconvolve(s, below, n, _resamples("deconvolve", n_resamples), rng, alpha, GRID_SIZE, progress)
    else:
        est = _abc(
            s,
            below,
            n,
            rho,
            proposals=_resamples("abc", n_resamples),
            accept=ACCEPT,
            rng=rng,
            alpha=alpha,
            top=TOP,
            progress=progress,
        )
    est = dataclasses.replace(est, details={**est.details, "chance": used})
    return _with_reading(_degenerate(est, s), board, notes, per_item_details)


def _with_reading(
    est: SotaEstimate, board: Leaderboard | None, notes: tuple = (), details: dict | None = None
) -> SotaEstimate:
    """``est`` with what reading the leaderboard file dropped and merged, and the notes and details.

    ``notes`` are on ``rho`` and the scores set aside; ``details`` are a per-item board's.
    """
    if details:
        details = dict(details)
        measured = bool(details.pop("rho_measured", False))  # a field of its own, not a detail
        est = dataclasses.replace(est, details={**est.details, **details}, rho_measured=measured)
    if board is None:
        return dataclasses.replace(est, notes=tuple(notes) + tuple(est.notes)) if notes else est
    return dataclasses.replace(
        est,
        dropped=board.dropped,
        duplicates=board.duplicates,
        notes=tuple(board.notes) + tuple(notes) + tuple(est.notes),
    )
