"""The two estimators without multiplicity correction (Table 2, rows 1 and 2).

* :func:`naive` -- the sample maximum and its single-classifier exact
  (Clopper-Pearson) ``1 - alpha`` interval, and how many teams fall inside it;
* :func:`observed` -- ``Theta' = Theta_hat``: the distribution of the maximum
  if the observed scores were the true ones, under the dependent,
  non-identical model (Section 4.3, ``rho0 = 0.6``, ``theta0 = max Theta'``,
  classifiers drawn iid from the empirical distribution, those violating
  Eq. 8 excluded).

The public door is :func:`sotalib.multiplicity.estimate_sota` (``method="naive"``
or ``"observed"``); these are the validated doors of its former names.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_alpha, check_probability
from ._binomial import clopper_pearson
from ._max_dependent_normal import choose_engine
from ._max_iid import MaxDistribution
from ._sota_model import RHO0, _chance, _fit_dist, _model_details, prepare
from ._sota_result import SotaEstimate

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota


def _naive(s: np.ndarray, below: int, n: int, alpha: float) -> SotaEstimate:
    """The sample maximum and its Clopper-Pearson interval, on checked input."""
    mx = float(s.max())
    lo, hi = clopper_pearson(int(round(mx * n)), n, alpha=alpha)
    inside = int(np.sum((s >= lo) & (s <= hi)))
    return SotaEstimate(
        "naive",
        s.size,
        n,
        mx,
        mx,
        ci_low=lo,
        ci_high=hi,
        teams_above=0,
        below_chance=below,
        details={"teams_inside_interval": inside},
    )


def _observed(s: np.ndarray, below: int, n: int, rho: float, alpha: float, engine: str) -> SotaEstimate:
    """``Theta' = Theta_hat`` on checked input (``engine`` already ``"exact"`` or ``"normal"``)."""
    d, excl = _fit_dist(s, n, rho, engine=engine)
    lo, hi = d.interval(alpha)
    mx = float(s.max())
    return SotaEstimate(
        "observed",
        s.size,
        n,
        mx,
        mx,
        weight=1.0,
        expected_max=d.mean(),
        ci_low=lo,
        ci_high=hi,
        teams_above=0,
        below_chance=below,
        excluded=excl,
        details={"rho": rho, **_model_details(engine)},
    )


def naive(scores: ArrayLike, n: int, *, classes: int = 2, alpha: float = 0.05) -> SotaEstimate:
    """No multiplicity: the sample maximum and its exact (Clopper-Pearson) interval (``estimate_sota(method="naive")``)."""
    s, below = prepare(scores, n, _chance(classes))
    return _naive(s, below, n, check_alpha("alpha", alpha))


def observed_distribution(
    scores: ArrayLike, n: int, *, classes: int = 2, rho: float = RHO0, engine: str = "auto"
) -> MaxDistribution:
    """Distribution of ``max(Theta_hat')`` with ``Theta' = Theta_hat`` (Section 5.1.1).

    ``engine``: ``"exact"``, ``"normal"`` (the large-``n`` approximation) or ``"auto"``.
    """
    s, _ = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho)
    engine = choose_engine(engine, n, s, rho)
    return _fit_dist(s, n, rho, engine=engine)[0]


def observed(
    scores: ArrayLike, n: int, *, classes: int = 2, rho: float = RHO0, alpha: float = 0.05, engine: str = "auto"
) -> SotaEstimate:
    """``Theta' = Theta_hat``: E max and interval if the observed scores were true (``estimate_sota(method="observed")``).

    Table 2, row 2.  ``engine``: ``"exact"``, ``"normal"`` (the large-``n``
    approximation) or ``"auto"``.
    """
    s, below = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho)
    alpha = check_alpha("alpha", alpha)
    engine = choose_engine(engine, n, s, rho)
    return _observed(s, below, n, rho, alpha, engine)
