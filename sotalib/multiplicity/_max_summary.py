"""The best accuracy on a leaderboard in one call: :func:`max_summary` (the ``sotalib maxdist`` command).

One front door to the three models of the best accuracy ``theta_hat_max``
of ``m`` classifiers on ``n`` test items: identical independent classifiers
(Section 3, Eqs. 2-3), non-identical ones with ``theta_j ~ U(a, b)``
(Section 4.1) and classifiers dependent through a reference classifier
(Section 4.2, Eqs. 6-8) -- exact, or by Monte Carlo as a check.

The identical independent case needs NumPy alone; SciPy and Numba are
imported only for the non-identical, dependent and Monte Carlo cases.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._rng import check_rng
from .._validate import check_alpha, check_choice, check_int, check_memory, check_probability, check_real

__all__ = ["MaxSummary", "max_summary"]


@dataclass(frozen=True)
class MaxSummary:
    """Mean, standard deviation and interval of the best accuracy of ``m`` classifiers.

    Returned by :func:`max_summary`.

    Attributes
    ----------
    mean : float
        ``E theta_hat_max``, the expected best accuracy (from Eq. 3, or the
        mixture over ``theta`` and ``K_0`` of Eqs. 6-8).
    sd : float
        Standard deviation of ``theta_hat_max``.
    ci_low, ci_high : float
        Equal-tailed ``1 - alpha`` interval: the ``alpha/2`` and ``1 - alpha/2``
        quantiles, each the smallest accuracy ``x/n`` with ``F(x) >= q``
        (Section 3.4's ``(theta^m_{alpha/2}, theta^m_{1-alpha/2})``).
    method : str
        ``"exact"`` or ``"mc"``.
    reps : int or None
        Monte Carlo replications (None when exact).
    se_mean : float or None
        Monte Carlo standard error of ``mean`` (None when exact).
    n, m, theta, alpha, rho, theta0, y0, spread : int, float or str
        The model, as given (``theta0`` resolved to ``theta`` when not given).
    seed : int or None
        The int seed of a Monte Carlo run (None when exact or when a
        Generator was given).
    """

    mean: float
    sd: float
    ci_low: float
    ci_high: float
    method: str
    reps: int | None
    se_mean: float | None
    n: int
    m: int
    theta: float
    alpha: float
    rho: float
    theta0: float
    y0: str
    spread: float
    seed: int | None = None

    def to_dict(self) -> dict:
        """The keys of ``sotalib maxdist --json``: ``mean, sd, ci_low, ci_high, method``, plus ``reps, se_mean`` for Monte Carlo.

        All values are finite floats, ints or strings, so the dictionary
        passes ``json.dumps(..., allow_nan=False)``.
        """
        d = {"mean": self.mean, "sd": self.sd, "ci_low": self.ci_low, "ci_high": self.ci_high, "method": self.method}
        if self.method == "mc":
            d.update(reps=self.reps, se_mean=self.se_mean)
        return d


def max_summary(
    n: int,
    m: int,
    theta: float,
    *,
    alpha: float = 0.05,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    spread: float = 0.0,
    method: str = "exact",
    reps: int = 100_000,
    rng=0,
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
    method : {"exact", "mc"}
        Exact computation or Monte Carlo simulation of the same model.
    reps : int
        Monte Carlo replications, ``>= 2`` (used with ``method="mc"``).
    rng : int, numpy.random.Generator or None
        Randomness of the Monte Carlo method: an int seed (default 0, as on
        the command line), a Generator, or None (fresh entropy).

    Returns
    -------
    MaxSummary
        Mean, sd and ``1 - alpha`` interval of ``theta_hat_max``; ``to_dict()``
        gives the JSON of ``sotalib maxdist --json``.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), or if
        ``rho`` and ``theta0`` violate Eq. 8 for some ``theta_j`` (the message
        gives the admissible range).

    Examples
    --------
    The simulated public challenge of Section 3.4 (Table 1, row 1):

    >>> s = max_summary(3000, 1000, 0.9)
    >>> round(s.mean, 4), round(s.sd, 4), round(s.ci_high, 4)
    (0.9173, 0.0018, 0.9213)

    Dependent classifiers (Table 1, row 3):

    >>> s = max_summary(3000, 1000, 0.9, rho=0.6)
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
    method = check_choice("method", method, ("exact", "mc"))
    reps = check_int("reps", reps, low=2)
    check_rng(rng)
    if method == "mc":
        # the simulated maxima (8 bytes each) and their sorted copy for the quantiles
        check_memory(16.0 * reps, f"reps={reps} replications", "use fewer replications (100000 give 3 digits)")
    model = dict(n=n, m=m, theta=theta, alpha=alpha, rho=rho, theta0=theta0, y0=y0, spread=spread)

    if rho == 0.0 and spread == 0.0 and method == "exact":
        from ._maxdist import iid_max_distribution  # NumPy only: no SciPy, no Numba

        s = iid_max_distribution(n, m, theta).summary(alpha)
        return MaxSummary(s.mean, s.sd, s.ci_low, s.ci_high, "exact", None, None, **model)

    from .._rng import seed_record
    from . import _noniid as noniid  # Numba kernels

    dist = noniid.uniform_for_sota(theta, spread, m) if spread > 0 else noniid.PointMass(theta)
    if rho != 0.0:
        lo, hi = dist.support
        try:
            noniid.check_feasible([lo, hi], theta0, rho)
        except ValueError as exc:  # "rho=... is infeasible ...": names rho (--rho on the command line)
            message = str(exc)
            raise ValueError(message if message.startswith("rho") else f"rho: {message}") from None
    if method == "exact":
        s = noniid.max_distribution(n, m, dist, rho=rho, theta0=theta0, y0=y0).summary(alpha)
        return MaxSummary(s.mean, s.sd, s.ci_low, s.ci_high, "exact", None, None, **model)
    seed = seed_record(rng)
    s = noniid.simulate_max(n, m, dist, rho=rho, theta0=theta0, y0=y0, reps=reps, rng=rng, alpha=alpha)
    return MaxSummary(s.mean, s.sd, s.ci_low, s.ci_high, "mc", s.reps, s.se_mean, **model, seed=seed)
