"""The paper's cropping estimator (Appendix, Table 4).

The multiplicity paper's alternative to shrinking (Eq. 9) is *cropping*.  In
the authors' public code (``SOTA_bootstrap_accuracy.R`` of the repository
``3inar/ninety-nine``) it is not a cap ``theta'_j = min(theta_hat_j, c)``
(that estimator is ``estimate_sota(method="cap")``).  It is:

1. a crop point ``c`` is the candidate state of the art, ``theta0 = c``
   (the reference classifier of Section 4.3 is the best one);
2. the teams above ``c`` are dropped, and so are the teams below the
   lower cut-off of Eq. 8 for ``theta0 = c``, ``theta >= rho^2 c / (1 - c + rho^2 c)``;
3. the simulated leaderboard has as many teams as there are above the lower
   cut-off (the dropped top teams included), each drawn with replacement
   from the scores between the cut-off and ``c``, and simulated under the
   dependent, non-identical model (Eqs. 6-7);
4. ``c`` is tuned until ``E max(Theta_hat') = max(Theta_hat)`` (or, with
   ``target="upper"``, until the upper 95% bound of the simulated maximum
   reaches ``max(Theta_hat)``);
5. the reported state of the art is ``c`` snapped to the grid of the
   paper's histograms: the first multiple of ``0.04/175`` above ``c``
   (the code's ``breks[which(breks > cropped)[1]]``).

The authors tuned ``c`` by hand and drew the resampled boards by Monte
Carlo (10,000 replications, two bootstrap boards).  Here ``c`` is solved
numerically and "drawn with replacement from the scores" is the exact
mixture: each of the ``m`` classifiers has its ``theta`` drawn iid from the
empirical distribution of the kept scores, which is what
:func:`sotalib.multiplicity._max_dependent_swap.dependent_max_distribution` computes exactly.
The public door is ``estimate_sota(method="crop")``; :func:`crop` is the
validated door of its former name.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq

from .._validate import check_alpha, check_choice, check_probability
from ._dependence_model import feasible_interval
from ._max_dependent_normal import choose_engine, normal_max_distribution
from ._max_dependent_swap import dependent_max_distribution
from ._sota_model import RHO0, _chance, _model_details, prepare
from ._sota_result import SotaEstimate, _unsolved

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota

#: Step of the histogram grid the paper snaps its crop point to (its Figures 8-9: 175 bins over 0.04).
PAPER_GRID = 0.04 / 175


def _pool(s: np.ndarray, c: float, rho: float) -> tuple[np.ndarray, int, float]:
    """Scores resampled at crop point ``c``, the number of simulated teams and the lower cut-off."""
    low, _ = feasible_interval(c, rho)
    above_low = s > low
    pool = s[above_low & (s <= c)]
    return pool, int(above_low.sum()), float(low)


def crop_distribution(scores: ArrayLike, n: int, c: float, *, rho: float = RHO0, engine: str = "exact"):
    """The distribution of the simulated maximum at crop point ``c`` (steps 1-3 of :mod:`._sota_crop`).

    ``scores`` are the teams above chance; ``engine`` is ``"exact"`` or
    ``"normal"`` (:func:`sotalib.multiplicity._max_dependent_normal.normal_max_distribution`).
    Returns ``(MaxDistribution, m, lower_cutoff, pool_size)``.
    """
    engine = check_choice("engine", engine, ("exact", "normal"))
    return _crop_distribution(np.asarray(scores, dtype=float), n, c, rho, engine)


def _crop_distribution(s: np.ndarray, n: int, c: float, rho: float, engine: str):
    """:func:`crop_distribution` on checked input."""
    pool, m, low = _pool(s, c, rho)
    if pool.size == 0:
        raise ValueError(f"c: no team scores between the lower cut-off {low:.4f} and the crop point {c:.4f}")
    if engine == "normal":
        return normal_max_distribution(n, m, pool, rho=rho, theta0=c), m, low, int(pool.size)
    return dependent_max_distribution(n, m, pool, rho=rho, theta0=c), m, low, int(pool.size)


def _snap(c: float, grid: float | None) -> float:
    if grid is None:
        return c
    k = math.floor(c / grid + 1e-9) + 1  # the first grid point strictly above c
    return k * grid


def _check_grid(grid: float | None) -> float | None:
    if grid is not None and not (isinstance(grid, (int, float)) and 0 < grid < 1):
        raise ValueError(f"grid must be a step in (0, 1) or None, got {grid!r}")
    return grid


def crop(
    scores: ArrayLike,
    n: int,
    *,
    classes: int = 2,
    rho: float = RHO0,
    target: str = "expected",
    alpha: float = 0.05,
    grid: float | None = PAPER_GRID,
    engine: str = "auto",
) -> SotaEstimate:
    """The paper's cropping (Appendix, Table 4): drop the teams above a crop point, resample the rest.

    Parameters
    ----------
    scores : array of float
        One accuracy per team, in ``[0, 1]``; teams at or below chance are left out and counted.
    n : int
        Test-set size (``>= 1``).
    classes : int
        Number of classes (``>= 2``).
    rho : float
        Correlation ``rho_0`` with the reference classifier, in ``[0, 1)``; default 0.6.
    target : {"expected", "upper"}
        Solve ``E max(Theta_hat') = max(Theta_hat)`` or put the upper ``1 - alpha/2``
        bound of the simulated maximum at ``max(Theta_hat)``.
    alpha : float
        Intervals are ``1 - alpha``, in ``(0, 1)``.
    grid : float or None
        Step of the grid the reported estimate is snapped up to (default the
        paper's ``0.04/175``); None reports the solved crop point itself.
    engine : {"auto", "exact", "normal"}
        The exact model, its large-``n`` normal approximation
        (:mod:`sotalib.multiplicity._max_dependent_normal`), or the first unless its work is large.

    Returns
    -------
    SotaEstimate
        ``estimate`` is the snapped crop point (the paper's ``max(Theta')``),
        ``weight`` the solved crop point ``c``, ``teams_above`` the teams above
        ``c`` (the cropped teams, as the paper counts them), ``expected_max`` and
        the interval those of the simulated maximum at ``c``; ``details`` holds
        the lower cut-off, the number of simulated teams, the pool size and the
        teams above the snapped estimate.  ``solved=False`` with a ``reason``
        when no crop point solves the equation.
    """
    s, below = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho, open_high=True)
    target = check_choice("target", target, ("expected", "upper"))
    alpha = check_alpha("alpha", alpha)
    grid = _check_grid(grid)
    engine = choose_engine(engine, n, s, rho)
    return _crop(s, below, n, rho, target, alpha, grid, engine)


def _crop(
    s: np.ndarray,
    below: int,
    n: int,
    rho: float,
    target: str,
    alpha: float,
    grid: float | None,
    engine: str,
) -> SotaEstimate:
    """The paper's cropping on checked input (``engine`` already ``"exact"`` or ``"normal"``)."""
    mx = float(s.max())
    x_max = int(round(mx * n))
    level = 1 - alpha / 2
    fits: dict = {}

    def fit(c):
        if c not in fits:
            if not np.any((s > feasible_interval(c, rho)[0]) & (s <= c)):
                raise _EmptyPool(c)
            fits[c] = _crop_distribution(s, n, c, rho, engine)
        return fits[c]

    def gap(c):  # increasing in c; its root is the crop point
        d = fit(c)[0]
        if target == "expected":
            return d.mean() - mx
        return level - float(d.cdf_at(x_max - 1))  # > 0 once the upper bound reaches max(s)

    details = {"target": target, "rho": rho, **_model_details(engine), "grid": grid}
    try:
        return _solve_crop(
            s, n, mx, below, details, gap, fit=fit, fits=fits, grid=grid, alpha=alpha, target=target, level=level
        )
    except _EmptyPool as exc:
        reason = (
            f"no crop point solves the equation: at c = {exc.args[0]:.4f} no team lies between Eq. 8's lower "
            "cut-off and c, so the winner stands alone; the top score is an outlier, not an effect of multiplicity"
        )
        return _unsolved("crop", s, n, below, reason, details)


class _EmptyPool(Exception):
    """No team between the lower cut-off and the crop point (the board cannot be resampled)."""


def _solve_crop(s, n, mx, below, details, gap, *, fit, fits, grid, alpha, target, level):
    hi = mx
    g_hi = gap(hi)
    if g_hi < 0:
        reason = (
            "no crop point solves the equation: even without cropping the simulated maximum's "
            f"{'expected value' if target == 'expected' else 'upper bound'} is below the observed "
            f"maximum {mx:.4f}; the top score is an outlier, not an effect of multiplicity"
        )
        return _unsolved("crop", s, n, below, reason, details)
    # the simulated maximum exceeds c by a slowly changing margin: step down by the gap, then bracket
    smin = float(np.min(s))
    lo, g_lo = hi, g_hi
    while g_lo > 0:
        if lo <= smin:
            reason = (
                "no crop point solves the equation: even at the lowest score the simulated maximum "
                f"exceeds the observed maximum {mx:.4f}"
            )
            return _unsolved("crop", s, n, below, reason, details)
        d = fit(lo)[0]
        excess = d.mean() - mx if target == "expected" else d.quantile(level) - mx
        hi, g_hi = lo, g_lo
        lo = max(lo - max(1.2 * excess, 1.0 / n), smin)
        g_lo = gap(lo)
    root = brentq(gap, lo, hi, xtol=1e-7)
    # the gap jumps where c crosses a score (those teams join the pool): a root on a jump is that score,
    # the smallest crop point whose gap is >= 0, as for the upper bound, which is a step function
    near = s[(s >= root - 2e-7) & (s <= root + 2e-7)]
    candidates = ([float(near.min())] if near.size else []) + [root, min(root + 2e-7, hi)]
    c = next((x for x in candidates if gap(x) >= 0), hi)
    left = max((x for x in fits if x < c and gap(x) < 0), default=None)
    d, m, low, pool = fit(c)
    ci_low, ci_high = d.interval(alpha)
    est = _snap(c, grid)
    details.update(
        crop_point=c,
        lower_cutoff=low,
        teams_simulated=m,
        pool=pool,
        teams_above_estimate=int(np.sum(s > est)),
    )
    if left is not None and c - left < 1e-6:  # the root is on a jump: the fit just below it
        dl = fits[left][0]
        lo_l, hi_l = dl.interval(alpha)
        details["just_below"] = {"crop_point": left, "expected_max": dl.mean(), "ci_low": lo_l, "ci_high": hi_l}
    return SotaEstimate(
        "crop",
        s.size,
        n,
        mx,
        float(est),
        weight=float(c),
        expected_max=d.mean(),
        ci_low=ci_low,
        ci_high=ci_high,
        teams_above=int(np.sum(s > c)),
        below_chance=below,
        excluded=int(s.size - m),
        details=details,
    )
