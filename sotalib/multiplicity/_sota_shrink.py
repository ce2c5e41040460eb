"""Shrinking toward chance (Eq. 9) and capping: the estimators that solve ``E max(Theta_hat') = max(Theta_hat)``.

* :func:`shrink` -- ``theta'_j = w theta_hat_j + (1 - w)/classes``, ``w`` solved
  so that ``E max(Theta_hat') = max(Theta_hat)`` (Table 2, row 3) or, with
  ``target="upper"``, so that the upper ``1 - alpha/2`` bound equals it (row 4);
* :func:`cap` -- ``theta'_j = min(theta_hat_j, c)``, a cap at ``c`` (the paper's
  cropping, Appendix, Table 4, is :mod:`._sota_crop`: the teams above ``c`` are
  dropped and the rest resampled).

When no parameter solves the equation the result says so (``solved=False``
with a ``reason``): a result, not a crash (Cassava).  The public door is
:func:`sotalib.multiplicity.estimate_sota`; :func:`shrink` and :func:`cap` are
the validated doors of its former names.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq

from .._validate import check_alpha, check_choice, check_probability
from ._max_dependent_normal import choose_engine
from ._sota_model import RHO0, _chance, _end_hint, _fit_dist, _model_details, _start_hint, prepare
from ._sota_result import SotaEstimate, _unsolved

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota


def _two(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with the fewest decimals (at least 4) that tell them apart."""
    for d in range(4, 13):
        fa, fb = f"{a:.{d}f}", f"{b:.{d}f}"
        if fa != fb:
            break
    return fa, fb


#: Accuracies closer than this count as equal when matching E max to the observed maximum
#: (the exact mean of one classifier equals its accuracy up to rounding).
_MATCH_TOL = 1e-9


def _solve(
    transform,
    lo_param: float,
    hi_param: float,
    s: np.ndarray,
    n: int,
    rho: float,
    target: str,
    alpha: float,
    *,
    what: str,
    slope: float = 1.0,
    engine: str = "auto",
):
    """Find the parameter where E max (or the upper bound) of the transformed leaderboard equals max(s).

    ``slope`` approximates d max(Theta') / d parameter; it only narrows the
    first bracket (each evaluation is an exact distribution and costs seconds
    on a Kaggle-sized leaderboard), never the answer.

    Returns ``(parameter, (distribution, excluded))`` -- the fit at the
    solution, reused by the caller -- or ``(None, reason)``.
    """
    mx = float(s.max())
    half = 0.5 / n
    memo: dict = {}
    fits: dict = {}

    def stat(p):
        if p not in memo:
            fits[p] = _fit_dist(
                transform(p), n, rho, start=_start_hint(fits, p, n), end=_end_hint(fits, p, n), engine=engine
            )
            d = fits[p][0]
            memo[p] = d.mean() if target == "expected" else d.quantile(1 - alpha / 2)
        return memo[p]

    f_hi = stat(hi_param)
    if target == "expected":
        if f_hi < mx - _MATCH_TOL:
            e, o = _two(f_hi, mx)
            return None, (
                f"no {what} solves E max(Theta_hat') = max(Theta_hat): even without shrinking, "
                f"E max = {e} < observed maximum {o}; the top score is an outlier, "
                "not an effect of multiplicity"
            )
        if f_hi <= mx:  # equal up to rounding: the model at the end of the range is one classifier
            excl = fits[hi_param][1]
            if s.size > 1 and excl == s.size - 1:
                return None, (
                    f"no {what} solves E max(Theta_hat') = max(Theta_hat): Eq. 8 excludes every team but the top "
                    f"one ({excl:,} of {s.size:,}), so the model holds a single classifier whose E max is the "
                    "observed maximum itself; the top score is an outlier, not an effect of multiplicity"
                )
            return hi_param, fits.get(hi_param)  # one team: nothing to shrink
        a = lo_param
        guess = hi_param - 1.5 * (f_hi - mx) / slope
        if lo_param < guess < hi_param and stat(guess) < mx:
            a = guess  # E max increases with the parameter: the fit at its lowest value is not needed
        else:
            f_lo = stat(lo_param)
            if f_lo > mx:
                e, o = _two(f_lo, mx)
                return None, (
                    f"no {what} solves E max(Theta_hat') = max(Theta_hat): even at its lowest value, "
                    f"E max = {e} > observed maximum {o}"
                )
        p = brentq(lambda p: stat(p) - mx, a, hi_param, xtol=1e-8)
    else:
        # the upper bound is a step function of the parameter: find where it first reaches max(s)
        if f_hi < mx - half:
            return None, (
                f"no {what} puts the upper {100 * (1 - alpha):g}% bound at max(Theta_hat): even without "
                f"shrinking it is {f_hi:.4f} < {mx:.4f}; the top score is an outlier"
            )
        f_lo = stat(lo_param)
        if f_lo >= mx - half:
            return None, f"no {what}: even at its lowest value the upper bound {f_lo:.4f} exceeds {mx:.4f}"
        # the quantile is a step function; it reaches max(s) exactly when
        # F(x_max - 1) < 1 - alpha/2, and F(x_max - 1) is continuous and decreasing
        # in the parameter: solve F(x_max - 1) = 1 - alpha/2 and step just past the root
        x_max = int(round(mx * n))
        level = 1 - alpha / 2
        cmemo: dict = {}

        def cdf_below(p):
            if p not in cmemo:
                fits[p] = _fit_dist(
                    transform(p), n, rho, start=_start_hint(fits, p, n), end=_end_hint(fits, p, n), engine=engine
                )
                cmemo[p] = float(fits[p][0].cdf_at(x_max - 1))
            return cmemo[p]

        a = lo_param
        guess = hi_param - 1.5 * (f_hi - mx) / slope
        if lo_param < guess < hi_param and cdf_below(guess) > level:
            a = guess
        root = brentq(lambda p: cdf_below(p) - level, a, hi_param, xtol=1e-10)
        p = min(root + 1e-9, hi_param)
        while cdf_below(p) >= level and p < hi_param:
            p = min(p + 1e-9, hi_param)
    return p, fits.get(p)


def _finish(method, p, s, n, rho, alpha, below, transform, *, estimate, target, fit=None, engine="exact"):
    d, excl = fit if fit is not None else _fit_dist(transform(p), n, rho, engine=engine)
    lo, hi = d.interval(alpha)
    return SotaEstimate(
        method,
        s.size,
        n,
        float(s.max()),
        float(estimate),
        weight=float(p),
        expected_max=d.mean(),
        ci_low=lo,
        ci_high=hi,
        teams_above=int(np.sum(s > estimate)),
        below_chance=below,
        excluded=excl,
        details={"target": target, "rho": rho, **_model_details(engine)},
    )


#: The least shrinkage weight searched toward a chance level of 0 (w = 0 would be the board of zeros).
W_MIN_AT_ZERO = 1e-6


def _shrink(
    s: np.ndarray, below: int, n: int, chance: float, rho: float, target: str, alpha: float, engine: str
) -> SotaEstimate:
    """Shrinkage toward chance on checked input (``engine`` already ``"exact"`` or ``"normal"``).

    At ``chance = 0`` (a task without a chance level) the target of Eq. 9 is 0 and ``theta'_j = w theta_hat_j``
    scales the board; ``w = 0`` is then the board of zeros, whose maximum is 0, below any observed maximum
    (every team is above chance), and whose reference accuracy ``theta0 = 0`` the dependent model cannot take:
    the weight is searched in ``[W_MIN_AT_ZERO, 1]``.
    """

    def transform(w):
        return w * s + (1 - w) * chance

    w, fit = _solve(
        transform,
        0.0 if chance > 0 else W_MIN_AT_ZERO,
        1.0,
        s,
        n,
        rho,
        target,
        alpha,
        what="shrinkage weight w in [0, 1]" if chance > 0 else "shrinkage weight w in (0, 1] (toward chance 0)",
        slope=float(s.max()) - chance,
        engine=engine,
    )
    if w is None:
        return _unsolved("shrink", s, n, below, fit, {"target": target, "rho": rho, **_model_details(engine)})
    est = w * s.max() + (1 - w) * chance
    return _finish("shrink", w, s, n, rho, alpha, below, transform, estimate=est, target=target, fit=fit, engine=engine)


def _cap(s: np.ndarray, below: int, n: int, rho: float, target: str, alpha: float, engine: str) -> SotaEstimate:
    """The cap ``min(theta_hat_j, c)`` on checked input (``engine`` already ``"exact"`` or ``"normal"``)."""

    def transform(c):
        return np.minimum(s, c)

    c, fit = _solve(
        transform, float(s.min()), float(s.max()), s, n, rho, target, alpha, what="crop point c", engine=engine
    )
    if c is None:
        reason = fit.replace("shrinking", "capping")
        return _unsolved("cap", s, n, below, reason, {"target": target, "rho": rho, **_model_details(engine)})
    return _finish("cap", c, s, n, rho, alpha, below, transform, estimate=c, target=target, fit=fit, engine=engine)


def shrink(
    scores: ArrayLike,
    n: int,
    *,
    classes: int = 2,
    rho: float = RHO0,
    target: str = "expected",
    alpha: float = 0.05,
    engine: str = "auto",
) -> SotaEstimate:
    """Shrinkage toward chance (Eq. 9): ``estimate_sota(method="shrink")`` for accuracy.

    ``theta'_j = w theta_hat_j + (1 - w)/classes``; ``target="expected"`` solves
    ``E max(Theta_hat') = max(Theta_hat)`` (Table 2, row 3), ``"upper"`` puts
    the upper ``1 - alpha/2`` quantile there (row 4).  The estimate is
    ``max(Theta') = w max(Theta_hat) + (1 - w)/classes``.  ``engine``:
    ``"exact"``, ``"normal"`` (the large-``n`` approximation of
    :mod:`sotalib.multiplicity._max_dependent_normal`) or ``"auto"`` (exact unless
    its work is large).  Deprecated as a public name: use
    :func:`sotalib.multiplicity.estimate_sota`.
    """
    chance = _chance(classes)
    s, below = prepare(scores, n, chance)
    rho = check_probability("rho", rho)
    target = check_choice("target", target, ("expected", "upper"))
    alpha = check_alpha("alpha", alpha)
    engine = choose_engine(engine, n, s, rho)
    return _shrink(s, below, n, chance, rho, target, alpha, engine)


def cap(
    scores: ArrayLike,
    n: int,
    *,
    classes: int = 2,
    rho: float = RHO0,
    target: str = "expected",
    alpha: float = 0.05,
    engine: str = "auto",
) -> SotaEstimate:
    """A cap at ``c``: ``theta'_j = min(theta_hat_j, c)``, ``c`` solved numerically (``estimate_sota(method="cap")``).

    Not the paper's cropping (:mod:`._sota_crop`): capped teams stay on the
    simulated board at ``c``, where cropping drops them and resamples.
    ``engine`` as in :func:`shrink`.  Deprecated as a public name: use
    :func:`sotalib.multiplicity.estimate_sota`.
    """
    chance = _chance(classes)
    s, below = prepare(scores, n, chance)
    rho = check_probability("rho", rho)
    target = check_choice("target", target, ("expected", "upper"))
    alpha = check_alpha("alpha", alpha)
    engine = choose_engine(engine, n, s, rho)
    return _cap(s, below, n, rho, target, alpha, engine)
