"""The best score on a leaderboard in one call: :func:`summarize_max` and :func:`summarize_max_auc`.

Two front doors with one shape and one result, :class:`MaxSummary`:

* :func:`summarize_max` (the ``sotalib maxdist`` command): the best accuracy
  ``theta_hat_max`` of ``m`` classifiers on ``n`` test items -- identical
  independent classifiers (Section 3, Eqs. 2-3), non-identical ones with
  ``theta_j ~ U(a, b)`` (Section 4.1) and classifiers dependent through a
  reference classifier (Section 4.2, Eqs. 6-8) -- exact, or by Monte Carlo
  as a check;
* :func:`summarize_max_auc` (the ``sotalib auc-max`` command): the best
  empirical ROC AUC of ``m`` binormal classifiers on one test set with
  class imbalance (Section 5.2), simulated exactly in distribution or by
  the normal approximation of the empirical AUCs.

The accuracy's exact engines need NumPy alone (the Numba kernels load only
for large problems and the Monte Carlo); SciPy and the AUC's kernels are
imported lazily, when the AUC is asked for, so that ``sotalib maxdist``
starts fast.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np
from numpy.typing import ArrayLike

from .._distribution import DistributionSummary
from .._json import json_safe
from .._progress import announce, showing
from .._rng import check_rng, seed_record
from .._validate import (
    check_alpha,
    check_choice,
    check_int,
    check_memory,
    check_probability,
    check_real,
    check_time,
    time_limit,
)
from ._dependence_model import check_feasible
from ._max_dependent import check_window_memory, max_distribution
from ._max_iid import iid_max_summary
from ._simulate import simulate_max
from ._theta_dist import PointMass, uniform_for_sota

__all__ = ["AUC_SECONDS_PER_SCORE", "MaxSummary", "summarize_max", "summarize_max_auc"]

#: ``engine="auto"`` of :func:`summarize_max_auc` simulates when one run draws at most this many scores
#: (the rule of :func:`sotalib.multiplicity.shrink_auc`), else it takes the normal approximation.
_AUC_SIMULATION_LIMIT = 1e8
#: Seconds per simulated score of :func:`summarize_max_auc` on a 2-core machine: one classifier's score of
#: one positive (of every item, with ``rho > 0``) in one challenge (m = 10^6 classifiers, 60 positives, 20
#: challenges: about 120 s).  A normal approximation records what the simulation it replaces would take.
AUC_SECONDS_PER_SCORE = 1e-7
#: The largest test set of the exact distribution of the iid maximum: counts up to 2**53 are exact in
#: double precision (beyond, neighbouring counts are one number).
_IID_MAX_N = 2**53


#: Seconds of the exact engines of the non-identical and dependent models on a 2-core machine, per
#: test item and quadrature node (m = 1000, theta = 0.9): a random reference classifier (the swap engine,
#: 19 s at n = 10^6), a fixed one (one convolution, 0.8 s at n = 10^7), and per node and sqrt(n) for a
#: spread alone (8.7 s at n = 10^7 with 161 nodes).
_SECONDS_RANDOM, _SECONDS_FIXED, _SECONDS_SPREAD = 2e-5, 1e-7, 1.7e-5


def _exact_seconds(n: int, m: int, theta: float, spread: float, rho: float, y0: str) -> float:
    """Expected seconds of :func:`max_distribution` for :func:`summarize_max` (rough, to refuse hours up front)."""
    from ._theta_dist import _uniform_nodes

    nodes = _uniform_nodes(uniform_for_sota(theta, spread, m), n) if spread > 0 else 1
    if rho == 0.0:
        return _SECONDS_SPREAD * nodes * math.sqrt(n)
    return (_SECONDS_RANDOM if y0 == "random" else _SECONDS_FIXED) * n * nodes


class _Model(TypedDict):
    """The fields of :class:`MaxSummary` that describe the model, in common to both front doors."""

    n: int
    m: int
    alpha: float
    rho: float
    metric: str


@dataclass(frozen=True, repr=False)
class MaxSummary(DistributionSummary):
    """Mean, standard deviation and interval of the best score of ``m`` classifiers.

    Returned by :func:`summarize_max` (the best accuracy) and
    :func:`summarize_max_auc` (the best empirical AUC).  The fields of every
    distribution summary (``sotalib._distribution.DistributionSummary``),
    then the model's.

    Attributes
    ----------
    mean : float
        The expected best score, ``E theta_hat_max`` (from Eq. 3, or the
        mixture over ``theta`` and ``K_0`` of Eqs. 6-8) or ``E max_j AUC_hat_j``.
    sd : float
        Standard deviation of the best score.
    ci_low, ci_high : float
        Equal-tailed ``1 - alpha`` interval: the ``alpha/2`` and
        ``1 - alpha/2`` quantiles (Section 3.4's
        ``(theta^m_{alpha/2}, theta^m_{1-alpha/2})`` for the accuracy).
    alpha : float
        The interval's level is ``1 - alpha``.
    engine : str
        How the numbers were computed: ``"exact"``, ``"simulate"`` (Monte
        Carlo) or ``"normal"`` (the normal approximation of the AUCs).
    n_resamples : int or None
        Monte Carlo replications (None unless ``engine="simulate"``).
    se_mean : float or None
        Monte Carlo standard error of ``mean`` (None unless simulated).
    seed : int or None
        The int seed of a simulation (None when exact, normal, or when a
        Generator or None was given as ``rng``).
    metric : str
        ``"accuracy"`` or ``"auc"``.
    n, m : int
        Test-set size and number of classifiers.
    rho : float
        Dependence on the reference classifier (``rho_0`` of Eqs. 6-7 for
        the accuracy, the within-class correlation of the scores for the AUC).
    details : dict
        The rest of the model: ``theta, theta0, y0, spread`` for the
        accuracy; ``prevalence, n_pos, n_neg`` for the AUC, with ``teams``
        (classifiers that can reach the maximum), ``accuracy`` (the
        approximation's measured error) and ``simulation_seconds`` (what a
        simulation would take, :data:`AUC_SECONDS_PER_SCORE`) for the normal
        engine, and ``auc`` (the classifiers' common AUC; None when they differ).
    """

    metric: str
    n: int
    m: int
    rho: float
    details: dict[str, Any] = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``sotalib maxdist --json`` or ``sotalib auc-max --json``.

        ``mean, sd, ci_low, ci_high, engine`` (``"exact"``, ``"simulate"``
        or ``"normal"``), plus ``reps, se_mean`` when simulated (the
        command line's ``--reps``); for the AUC also ``n_pos, n_neg`` and
        ``seed`` when simulated, ``m, teams`` by the normal approximation.
        Every value is a finite number, an int, a string or None.
        """
        d: dict[str, Any] = {
            "mean": self.mean,
            "sd": self.sd,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "engine": self.engine,
        }
        simulated = self.engine == "simulate"
        if simulated:
            d.update(reps=self.n_resamples, se_mean=self.se_mean)
        if self.metric == "auc":
            d.update(n_pos=self.details["n_pos"], n_neg=self.details["n_neg"])
            if simulated:
                d.update(seed=self.seed)
            else:
                d.update(m=self.m, teams=self.details["teams"])
        return json_safe(d)

    def to_text(self) -> str:
        """The model, the mean, sd and interval: what ``sotalib maxdist`` or ``sotalib auc-max`` prints."""
        from .._validate import format_seconds

        level = f"{100 * (1 - self.alpha):g}%"
        if self.metric == "auc":
            auc = self.details.get("auc")
            if self.engine == "normal":
                how = (
                    f"  normal approximation (a simulation would take "
                    f"{format_seconds(self.details['simulation_seconds'])}; "
                    f"{self.details['teams']:,} teams can reach the maximum)\n"
                    f"  mean  {self.mean:.6f}\n"
                )
            else:
                how = (
                    f"  simulated: {self.n_resamples} challenges, seed {self.seed}\n"
                    f"  mean  {self.mean:.6f}  (Monte Carlo standard error {self.se_mean:.6f})\n"
                )
            return (
                f"best AUC of m={self.m} classifiers, AUC={'various' if auc is None else format(auc, 'g')}, "
                f"n={self.n} ({self.details['n_pos']} positives, {self.details['n_neg']} negatives), rho={self.rho:g}\n"
                + how
                + f"  sd    {self.sd:.6f}\n  {level} interval ({self.ci_low:.6f}, {self.ci_high:.6f})"
            )
        theta, theta0, y0, spread = (self.details[k] for k in ("theta", "theta0", "y0", "spread"))
        model = f"theta={theta:g}" if spread == 0 else f"theta_SOTA={theta:g}, theta_j ~ U(a, b) with d={spread:g}"
        if self.rho != 0.0:
            model += f", rho0={self.rho:g} to a {y0} reference classifier with theta0={theta0:g}"
        simulated = self.engine == "simulate"
        d = max(6, len(str(self.n)) - 1)  # 6 decimals up to n = 10^6, 12 at n = 10^12: a count's digits show
        lines = [
            f"best accuracy of m={self.m} classifiers, {model}, n={self.n} ({self.engine})",
            f"  mean  {self.mean:.{d}f}"
            + (f"  (se {self.se_mean:.2g}, {self.n_resamples} replications, seed {self.seed})" if simulated else ""),
            f"  sd    {self.sd:.{d}f}",
            f"  {level} interval ({self.ci_low:.{d}f}, {self.ci_high:.{d}f})",
        ]
        return "\n".join(lines)


def _auto_engine(n: int, m: int, theta: float, spread: float, rho: float, y0: str) -> str:
    """``engine="auto"`` of :func:`summarize_max`: exact when it fits in memory and in ``SOTALIB_TIME_LIMIT``."""
    if rho == 0.0 and spread == 0.0:
        return "exact" if n <= _IID_MAX_N else "simulate"
    try:
        check_window_memory(n, 0.25)
    except ValueError:
        return "simulate"
    return "exact" if _exact_seconds(n, m, theta, spread, rho, y0) <= time_limit() else "simulate"


def summarize_max(
    n: int,
    m: int,
    theta: float,
    *,
    alpha: float = 0.05,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    spread: float = 0.0,
    engine: str = "auto",
    n_resamples: int = 10_000,
    rng: int | np.random.Generator | None = None,
    progress: bool | None = None,
) -> MaxSummary:
    """Distribution of ``theta_hat_max``, the best accuracy of ``m`` classifiers on ``n`` test items.

    By default the ``m`` classifiers are identical and independent, each
    correct with probability ``theta``: the maximum count has cdf
    ``F(x) = P(X <= x)^m`` with ``X ~ B(n, theta)`` (Eq. 2) and pmf
    ``F(x) - F(x - 1)`` (Eq. 3).  ``spread = d > 0`` makes them
    non-identical, ``theta_j ~ U(a, b)`` with ``b = theta + d/(m + 1)`` and
    ``a = b - d``, so that ``theta`` is the state of the art
    ``theta_SOTA = E max_j theta_j`` (Section 4.1).  ``rho != 0`` makes them
    dependent through a reference classifier ``Y_0`` with ``P(Y_0 = 1) =
    theta0``: given ``K_0`` correct predictions of ``Y_0``, classifier ``j``
    makes ``B(K_0, p1_j) + B(n - K_0, p0_j)`` correct ones (Eqs. 6-7), with
    the conditional probabilities of Eq. 6 required to lie in ``[0, 1]``
    (Eq. 8).

    Parameters
    ----------
    n : int
        Test-set size, ``n >= 1``.
    m : int
        Number of classifiers, ``m >= 1``.
    theta : float
        Probability of success of every classifier, in ``[0, 1]``; with
        ``spread > 0``, ``theta_SOTA = E max_j theta_j``.
    alpha : float
        The interval's level is ``1 - alpha``, ``alpha`` in ``[1e-10, 1)``
        (smaller levels are not resolved by double precision).
    rho : float
        Correlation ``rho_0`` of each classifier with the reference
        classifier, in ``[-1, 1]``; 0 for independent classifiers.
    theta0 : float, optional
        ``P(Y_0 = 1)``, in ``(0, 1)`` when ``rho != 0``; default ``theta``.
    y0 : {"random", "fixed"}
        Reference classifier random (``K_0 ~ B(n, theta0)``) or fixed
        (``round(n theta0)`` correct predictions).
    spread : float
        Width ``d`` of the uniform the ``theta_j`` are drawn from, in ``[0, 1]``.
    engine : {"auto", "exact", "simulate"}
        Exact computation, or Monte Carlo simulation of the same model (an
        independent check); ``"auto"`` (the default) is exact unless the
        exact engine is expected to take longer than ``SOTALIB_TIME_LIMIT``
        or not to fit in memory (a spread or a reference classifier at very
        large ``n``, identical classifiers beyond ``n = 2^53``), and then
        simulates.
    n_resamples : int
        Monte Carlo replications, ``>= 2`` (used when simulating; default
        10,000, the vocabulary's default for the Monte Carlo of a
        distribution).
    rng : int, numpy.random.Generator or None
        Randomness of the simulation: an int seed (reproducible), a
        Generator, or None (fresh entropy; the command line seeds with 0).
    progress : bool or None
        A progress bar on stderr over a long exact computation (a reference
        classifier at large ``n``): True, False, or None (only when stderr is
        a terminal).

    Returns
    -------
    MaxSummary
        Mean, sd and ``1 - alpha`` interval of ``theta_hat_max``
        (``metric="accuracy"``; the model's ``theta, theta0, y0, spread`` in
        ``details``); ``to_dict()`` is the JSON of ``sotalib maxdist --json``.

    Sizes: identical independent classifiers are exact at any ``n`` up to
    ``2^53`` and any ``m`` in well under a second (beyond
    ``n theta (1 - theta) = 10^8`` the sums over the window are done by
    quadrature of the regularized incomplete beta function, to the same
    digits).  The exact engine of a spread or a reference classifier grows
    with ``n`` (about 20 s at ``n = 10^6`` with a random reference
    classifier); a run expected to take longer than ``SOTALIB_TIME_LIMIT``
    (a minute) is refused up front, and ``engine="simulate"`` answers in
    seconds at any ``n`` (``"auto"`` takes it then).

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), if ``rho``
        and ``theta0`` violate Eq. 8 for some ``theta_j`` (the message gives
        the admissible range), if ``n > 2^53`` for the exact iid
        distribution, or if an exact run would take longer than
        ``SOTALIB_TIME_LIMIT`` (the message names ``n`` and the estimate).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*: Section 3.3, Eqs. 2-3 (identical independent
    classifiers); Section 4.1 (non-identical); Section 4.2, Eqs. 6-8
    (dependent); Table 1.

    Examples
    --------
    The simulated public challenge of Section 3.4 (Table 1, row 1):

    >>> from sotalib.multiplicity import summarize_max
    >>> s = summarize_max(3000, 1000, 0.9)
    >>> round(s.mean, 4), round(s.sd, 4), round(s.ci_high, 4)
    (0.9173, 0.0018, 0.9213)

    Dependent classifiers (Table 1, row 3):

    >>> s = summarize_max(3000, 1000, 0.9, rho=0.6)
    >>> round(s.mean, 4), round(s.sd, 4)
    (0.914, 0.0035)
    """
    n = check_int("n", n, low=1)
    m = check_int("m", m, low=1)
    theta = check_probability("theta", theta)
    alpha = check_alpha("alpha", alpha)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    if theta0 is None:
        theta0 = theta
        if rho != 0.0 and not 0.0 < theta0 < 1.0:
            raise ValueError(
                f"rho={rho:g} needs a reference classifier with 0 < theta0 < 1, and theta0 defaults to "
                f"theta={theta:g}: give theta0 in (0, 1), or rho=0 (a classifier always right or always wrong "
                "is correlated with nothing)"
            )
    else:
        theta0 = check_probability("theta0", theta0)
        if rho != 0.0 and not 0.0 < theta0 < 1.0:
            raise ValueError(f"theta0 must be in (0, 1) when rho != 0, got {theta0:g}")
    y0 = check_choice("y0", y0, ("random", "fixed"))
    spread = check_real("spread", spread, low=0.0, high=1.0)
    engine = check_choice("engine", engine, ("auto", "exact", "simulate"))
    n_resamples = check_int("n_resamples", n_resamples, low=2)
    check_rng(rng)
    if engine == "auto":
        engine = _auto_engine(n, m, theta, spread, rho, y0)
    if engine == "simulate":
        # the simulated maxima (8 bytes each) and their sorted copy for the quantiles
        check_memory(
            16.0 * n_resamples,
            f"n_resamples={n_resamples} replications",
            "use fewer replications (10000 give 2 to 3 digits)",
        )
    elif rho == 0.0 and spread == 0.0:
        if n > _IID_MAX_N:
            raise ValueError(
                f"n={n} items is more than the exact distribution of the maximum handles, n <= 2**53 = "
                f"{_IID_MAX_N} (counts beyond are not exact in double precision); give a smaller n"
            )
    else:
        # a spread or a reference classifier: the widest window, theta = 1/2
        check_window_memory(n, 0.25)
        check_time(
            _exact_seconds(n, m, theta, spread, rho, y0),
            f"the exact distribution at n={n} items"
            + (f" with spread={spread:g}" if spread > 0 else "")
            + (f" and rho={rho:g} ({y0} reference classifier)" if rho != 0 else ""),
            "give a smaller n, or engine='simulate' (a Monte Carlo check of the same model, seconds at any n), "
            "or raise SOTALIB_TIME_LIMIT",
            work="exact distribution",
            n=n,
        )
    model = _Model(n=n, m=m, alpha=alpha, rho=rho, metric="accuracy")
    details = dict(theta=theta, theta0=theta0, y0=y0, spread=spread)

    if rho == 0.0 and spread == 0.0 and engine == "exact":
        # any n and m in seconds: the window is tabulated, or summed by quadrature when it is long
        s = iid_max_summary(n, m, theta, alpha)
        return MaxSummary(s.mean, s.sd, s.ci_low, s.ci_high, engine="exact", **model, details=details)

    dist = uniform_for_sota(theta, spread, m) if spread > 0 else PointMass(theta)
    if rho != 0.0:
        lo, hi = dist.support
        try:
            check_feasible([lo, hi], theta0, rho)
        except ValueError as exc:  # "rho=... is infeasible ...": names rho (--rho on the command line)
            message = str(exc)
            raise ValueError(message if message.startswith("rho") else f"rho: {message}") from None
    if engine == "exact":
        with showing(progress):
            s = max_distribution(n, m, dist, rho=rho, theta0=theta0, y0=y0).summary(alpha)
        return MaxSummary(s.mean, s.sd, s.ci_low, s.ci_high, engine="exact", **model, details=details)
    seed = seed_record(rng)
    s = simulate_max(n, m, dist, rho=rho, theta0=theta0, y0=y0, n_resamples=n_resamples, rng=rng, alpha=alpha)
    return MaxSummary(
        s.mean,
        s.sd,
        s.ci_low,
        s.ci_high,
        engine="simulate",
        **model,
        n_resamples=s.n_resamples,
        se_mean=s.se_mean,
        seed=seed,
        details=details,
    )


def summarize_max_auc(
    n: int,
    m: int | None,
    auc: ArrayLike,
    prevalence: float,
    *,
    rho: float = 0.0,
    engine: str = "auto",
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
    progress: bool | None = None,
) -> MaxSummary:
    """Distribution of the best empirical ROC AUC of ``m`` classifiers on one test set.

    Classifier ``j`` has binormal scores with equal variances (Eq. 10,
    ``sigma+ = sigma- = 1``) and true AUC ``A_j``; all are scored on one
    test set of ``n`` items with ``round(n pi)`` positives (Section 5.2).
    With ``rho > 0`` every classifier's scores correlate, within each
    class, with those of a hidden reference classifier (Section 5.3.1).

    Two engines compute the distribution of ``max_j AUC_hat_j``:

    * ``"simulate"``: ``n_resamples`` simulated challenges, each empirical
      AUC drawn exactly in distribution (the positives' scores, then the
      multinomial counts of negatives between them); with an int ``rng``
      the draws do not depend on the AUCs (common random numbers);
    * ``"normal"``: the empirical AUCs taken as jointly normal (the
      U-statistic projection of Hanley & McNeil and DeLong et al., one
      shared factor for the reference classifier, each AUC's skewness by a
      Cornish-Fisher map), one integral: deterministic and fast for any
      ``n``, off by at most 0.18 sd of the maximum at 100 to 600 positives
      (``details["accuracy"]``);
    * ``"auto"`` (default): the simulation when it draws at most ``10^8``
      scores (``m n_resamples n_pos``, or ``m n_resamples n`` with
      ``rho > 0``), else the normal approximation.

    Parameters
    ----------
    n : int
        Test-set size (``n >= 2``; ``round(n pi)`` must leave at least one
        positive and one negative).
    m : int or None
        Number of classifiers (``m >= 1``); required with a scalar ``auc``,
        and equal to ``len(auc)`` (or None) with an array.
    auc : float or array_like of float
        The true AUC of every classifier (a number) or of each classifier
        (one entry per team); each in ``(0, 1)``.
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    rho : float
        Within-class correlation of each classifier's scores with the
        reference classifier's, in ``[0, 1]`` (0: independent classifiers;
        ``rho > 0`` makes the simulation draw every score, much slower).
    engine : {"auto", "simulate", "normal"}
        How the distribution is computed (above).
    n_resamples : int
        Simulated challenges, ``>= 2`` (``engine="simulate"``).
    rng : int, numpy.random.Generator or None
        Randomness of the simulation: an int seed (reproducible), a
        Generator, or None (fresh entropy; the command line seeds with 0).
    alpha : float
        The interval is the equal-tailed ``1 - alpha`` interval, ``alpha``
        in ``[1e-10, 1)``.
    progress : bool or None
        A progress bar over the simulated challenges on stderr: True, False,
        or None (only when stderr is a terminal).

    Returns
    -------
    MaxSummary
        Mean, sd and ``1 - alpha`` interval of the best empirical AUC
        (``metric="auc"``; ``prevalence, n_pos, n_neg`` in ``details``);
        ``to_dict()`` is the JSON of ``sotalib auc-max --json``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), or if a
        simulation's arrays would not fit in memory.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*: Section 5.2, Eq. 10 (the binormal model),
    Figure 10; Section 5.3.1 (correlated classifiers).  Hanley & McNeil
    (1982), *Radiology* 143: 29-36; DeLong, DeLong & Clarke-Pearson (1988),
    *Biometrics* 44: 837-845 (the normal approximation).

    Examples
    --------
    The paper's Figure 10c setting, 1,000 classifiers with AUC 0.9, by the
    normal approximation (the simulation gives 0.9562; 51 positives are
    fewer than the approximation is made for):

    >>> from sotalib.multiplicity import summarize_max_auc
    >>> s = summarize_max_auc(3000, 1000, 0.9, 0.017, engine="normal")
    >>> round(s.mean, 3), s.details["n_pos"]
    (0.957, 51)

    Simulated, with a seed:

    >>> s = summarize_max_auc(3000, 1000, 0.9, 0.017, engine="simulate", n_resamples=100, rng=1)
    >>> abs(s.mean - 0.9562) < 4 * s.se_mean
    True
    """
    return _summarize_max_auc(
        n,
        m,
        auc,
        prevalence,
        rho=rho,
        engine=engine,
        n_resamples=n_resamples,
        rng=rng,
        alpha=alpha,
        progress=progress,
    )


def _summarize_max_auc(
    n: int,
    m: int | None,
    auc: ArrayLike,
    prevalence: float,
    *,
    rho: float,
    engine: str,
    n_resamples: int,
    rng: int | np.random.Generator | None,
    alpha: float,
    progress: bool | None,
    on_start: Callable[[], None] | None = None,
) -> MaxSummary:
    """:func:`summarize_max_auc`; ``on_start()`` is called once every argument is checked.

    The command line states a long simulation's cost there, after any error
    message it might have had to print.
    """
    # lazily: SciPy and the AUC's Numba kernels load only when the AUC is asked for
    from ._auc_model import n_positives
    from ._auc_normal import NORMAL_AUC_ACCURACY, _as_aucs, _normal_max_auc
    from ._auc_simulate import _check_auc_memory, _simulated_max_auc

    a = _as_aucs(auc, m)
    n = check_int("n", n, low=2)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    engine = check_choice("engine", engine, ("auto", "simulate", "normal"))
    n_resamples = check_int("n_resamples", n_resamples, low=2)
    alpha = check_alpha("alpha", alpha)
    check_rng(rng)
    if engine == "auto":
        cost = float(a.size) * n_resamples * (n_pos if rho == 0.0 else n)
        engine = "simulate" if cost <= _AUC_SIMULATION_LIMIT else "normal"
    model = _Model(n=n, m=int(a.size), alpha=alpha, rho=rho, metric="auc")
    common = float(a[0]) if a.size and bool(np.all(a == a[0])) else None
    details: dict[str, Any] = dict(prevalence=prevalence, n_pos=n_pos, n_neg=n_neg, auc=common)
    if engine == "normal":
        r = _normal_max_auc(a, n, prevalence, rho, alpha, True)
        simulated = float(a.size) * n_resamples * (n_pos if rho == 0.0 else n)
        details.update(
            teams=r.teams, accuracy=NORMAL_AUC_ACCURACY, simulation_seconds=simulated * AUC_SECONDS_PER_SCORE
        )
        return MaxSummary(r.mean, r.sd, r.ci_low, r.ci_high, engine="normal", **model, details=details)
    _check_auc_memory(a.size, n, n_pos, n_resamples, rho, name="n_resamples")
    scores = float(a.size) * n_resamples * (n_pos if rho == 0.0 else n)

    def started() -> None:  # every argument checked, the memory too: the simulation starts
        if on_start is not None:
            on_start()
        announce(scores * AUC_SECONDS_PER_SCORE, work="auc simulation", scores=scores)

    sim = _simulated_max_auc(
        a, n, prevalence, rho, n_resamples=n_resamples, rng=rng, alpha=alpha, show=progress, on_start=started
    )
    return MaxSummary(
        sim.mean,
        sim.sd,
        sim.ci_low,
        sim.ci_high,
        engine="simulate",
        **model,
        n_resamples=sim.n_resamples,
        se_mean=sim.se_mean,
        seed=sim.seed,
        details=details,
    )
