"""Shrinkage for an AUC leaderboard (Section 5.2.3): ``estimate_sota(metric="auc")``.

``AUC'_j = w AUC_hat_j + (1 - w)/2`` with ``w`` solved so that the expected
maximum empirical AUC (or its upper bound) equals the observed maximum; the
distribution of the maximum AUC is simulated (:mod:`._auc_simulate`) or approximated
(:mod:`._auc_normal`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq

from .._rng import int_seed
from .._validate import check_alpha, check_choice, check_int, check_probability, check_real
from ._auc_model import n_positives
from ._auc_normal import NORMAL_AUC_ACCURACY, normal_max_auc
from ._auc_simulate import expected_max_auc
from ._sota_model import prepare
from ._sota_result import SotaEstimate, _unsolved

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota

#: Replications of the simulated maximum AUC unless told otherwise.
N_RESAMPLES = 200


#: Largest simulation that ``shrink_auc(engine="auto")`` runs: scores drawn per evaluation,
#: ``m reps n_pos`` for independent classifiers (``rho = 0``, the multinomial method) and ``m reps n``
#: for correlated ones.  1e8 scores take 5-13 s per evaluation on one core (50-130 ns a score); the
#: limit keeps the simulation (and its digits) for every board of the book and the tests, the largest
#: being the Melanoma reconstruction (3,050 teams, 136 positives, 200 reps: 8.3e7).  Larger boards use
#: the normal approximation, whose bias (at most 0.07 sd of the maximum at 600 positives, 0.18 sd at
#: 100, less on larger test sets) is about the simulation's own standard error at 200 replications
#: (0.07 sd), at a thousandth of the cost.
AUC_SIMULATION_LIMIT = 1e8

AUC_ENGINES = ("auto", "simulate", "normal")


def auc_simulation_cost(m: int, n: int, prevalence: float, rho: float, reps: int) -> float:
    """Scores the simulation of the maximum AUC draws per evaluation (what ``engine="auto"`` weighs).

    ``m reps n_pos`` for independent classifiers (only the positives' scores
    are drawn, the negatives come as multinomial counts) and ``m reps n`` for
    correlated ones (every score is drawn).
    """
    n_pos, _ = n_positives(n, prevalence)
    return float(m) * reps * (n_pos if rho == 0.0 else n)


def _pick_engine(engine: str, m: int, n: int, prevalence: float, rho: float, reps: int) -> str:
    """``"simulate"`` or ``"normal"``: ``engine`` itself, or for ``"auto"`` the simulation unless it is large."""
    if engine == "auto":
        cost = auc_simulation_cost(m, n, prevalence, rho, reps)
        engine = "simulate" if cost <= AUC_SIMULATION_LIMIT else "normal"
    return engine


def _shrink_auc(
    s: np.ndarray,
    below: int,
    n: int,
    prevalence: float,
    rho: float,
    *,
    target: str,
    reps: int,
    rng: int | np.random.Generator | None,
    alpha: float,
    progress: bool | None,
    engine: str,
) -> SotaEstimate:
    """AUC shrinkage on checked input (``engine`` already ``"simulate"`` or ``"normal"``)."""
    simulate = engine == "simulate"
    seed = int_seed(rng) if simulate else None
    mx = float(s.max())
    memo: dict = {}

    def summ(w):
        if w not in memo:
            a = w * s + (1 - w) * 0.5
            if simulate:
                memo[w] = expected_max_auc(
                    a, n, prevalence, n_resamples=reps, rng=seed, alpha=alpha, rho=rho, show=progress
                )
            else:
                memo[w] = normal_max_auc(a, n, prevalence, rho=rho, alpha=alpha)
        return memo[w]

    def stat(w):
        r = summ(w)
        return r.mean if target == "expected" else r.ci_high

    if simulate:
        details = {"target": target, "rho": rho, "reps": reps, "seed": seed}
    else:
        details = {"target": target, "rho": rho}
    details.update({"metric": "auc", "prevalence": prevalence, "engine": engine})

    def state_accuracy(r) -> None:
        if simulate:
            details["accuracy"] = (
                f"Monte Carlo with {reps} replications (seed {seed}): standard error of the expected maximum "
                f"{r.se_mean:.1e}"
            )
        elif min(r.n_pos, r.n_neg) < 100:
            details["accuracy"] = (
                f"{NORMAL_AUC_ACCURACY}; this test set has only {r.n_pos} positives and {r.n_neg} negatives, "
                "fewer than it was checked at: engine='simulate' is the reliable choice"
            )
        else:
            details["accuracy"] = NORMAL_AUC_ACCURACY

    def _no_solution(reason: str) -> SotaEstimate:
        state_accuracy(summ(1.0))
        return _unsolved("shrink", s, n, below, reason, details)

    f_hi = stat(1.0)
    what = "expected maximum AUC" if target == "expected" else f"upper {100 * (1 - alpha):g}% bound of the maximum AUC"
    if f_hi < mx:
        return _no_solution(
            f"no shrinkage weight w in [0, 1] makes the {what} reach the observed maximum "
            f"{mx:.4f}: even without shrinking it is {f_hi:.4f}; the top score is an outlier, "
            "not an effect of multiplicity"
        )
    a = 0.0
    guess = 1.0 - 1.5 * (f_hi - mx) / (mx - 0.5)
    if 0.0 < guess < 1.0 and stat(guess) < mx:
        a = guess
    elif stat(0.0) > mx:
        return _no_solution(f"no shrinkage weight w in [0, 1]: even at AUC 0.5 the {what} exceeds {mx:.4f}")
    w = brentq(lambda w: stat(w) - mx, a, 1.0, xtol=1e-6)
    r = summ(w)
    est = w * mx + (1 - w) * 0.5
    state_accuracy(r)
    if simulate:
        details["se_mean"] = r.se_mean
    return SotaEstimate(
        "shrink",
        s.size,
        n,
        mx,
        float(est),
        weight=float(w),
        expected_max=r.mean,
        ci_low=r.ci_low,
        ci_high=r.ci_high,
        teams_above=int(np.sum(s > est)),
        below_chance=below,
        details=details,
    )


def shrink_auc(
    aucs: ArrayLike,
    n: int,
    prevalence: float,
    *,
    rho: float = 0.0,
    target: str = "expected",
    n_resamples: int = N_RESAMPLES,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
    progress: bool | None = None,
    engine: str = "auto",
) -> SotaEstimate:
    """Shrinkage for an AUC leaderboard (Section 5.2.3): toward 0.5 (``estimate_sota(metric="auc")``).

    ``AUC'_j = w AUC_hat_j + (1 - w)/2`` with ``w`` solved so that the
    expected maximum empirical AUC (or, with ``target="upper"``, its upper
    ``1 - alpha/2`` quantile) equals the observed maximum.

    Two engines compute the distribution of the maximum AUC:

    * ``"simulate"``: the AUC chapter's Monte Carlo
      (:func:`sotalib.multiplicity._auc_simulate.expected_max_auc`, binormal scores,
      ``round(n pi)`` positives) with ``n_resamples`` replications and common random
      numbers: every evaluation uses the same int seed (``rng`` itself if it
      is an int; one draw from it if it is a :class:`numpy.random.Generator`;
      fresh entropy for None), so the equation is a deterministic function of
      ``w``; the seed and the Monte Carlo standard error are reported in
      ``details``.
    * ``"normal"``: the normal approximation of the empirical AUCs
      (:func:`sotalib.multiplicity._auc_normal.normal_max_auc`; the
      U-statistic projection of Hanley and McNeil 1982 and DeLong et al. 1988
      with one shared factor for the reference classifier and each AUC's
      skewness): deterministic, no random numbers (``rng`` is not used), well
      under a second per evaluation for thousands of teams at any ``n``.  Its
      error, measured against the simulation and stated in
      ``details["accuracy"]``, is at most 0.18 sd of the maximum at 100 to
      600 positives and up to 3,000 teams (3.3e-4 in AUC), and falls as the
      test set grows.
    * ``"auto"`` (default): the simulation when it draws at most
      :data:`AUC_SIMULATION_LIMIT` scores per evaluation
      (:func:`auc_simulation_cost`), else the normal approximation.

    ``details`` reports the ``engine`` used and the ``accuracy`` of its answer.
    """
    s, below = prepare(aucs, n, 0.5)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    target = check_choice("target", target, ("expected", "upper"))
    n_resamples = check_int("n_resamples", n_resamples, low=10)
    engine = check_choice("engine", engine, AUC_ENGINES)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    alpha = check_alpha("alpha", alpha)
    engine = _pick_engine(engine, s.size, n, prevalence, rho, n_resamples)
    return _shrink_auc(
        s,
        below,
        n,
        prevalence,
        rho,
        target=target,
        reps=n_resamples,
        rng=rng,
        alpha=alpha,
        progress=progress,
        engine=engine,
    )
