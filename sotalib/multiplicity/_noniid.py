"""Non-identical and dependent classifiers: the exact distribution of the maximum (Section 4).

The paper (Møllersen & Holsbø, Section 4) extends the iid model of Chapter 2
in two directions and computes both by Monte Carlo:

* **non-identical** classifiers: the probabilities of success ``theta_j`` are
  drawn iid from a distribution ``P(theta)`` (Eq. 1b), by default the uniform
  ``U(a, b)`` with ``theta_SOTA = E max Theta = (m b + a) / (m + 1)`` held fixed
  (:func:`uniform_for_sota`), or form a given fixed vector ``Theta`` (Eq. 4);
* **dependent** classifiers (Boland et al., 1989): a reference classifier
  ``Y_0`` with ``P(Y_0 = 1) = theta0``; given ``Y_0`` the classifiers are
  independent, with correlation ``rho`` to ``Y_0`` and the conditional
  probabilities of Eqs. 6--7 (:func:`conditional_probs`).  The reference
  classifier is either *random* (its number of correct predictions is
  ``K_0 ~ B(n, theta0)``) or *fixed* (exactly ``round(n theta0)`` correct).

Both are computed here exactly.  Given ``K_0 = k_0`` the classifiers are
independent, and the successes of classifier ``j`` are the sum of two
independent binomials,

.. math:: X_j \\mid k_0 \\sim B(k_0, p_1(\\theta_j)) + B(n - k_0, p_0(\\theta_j)),

where ``p_1, p_0 = P(Y_j = 1 | Y_0 = 1), P(Y_j = 1 | Y_0 = 0)``.  With
``theta_j`` iid from ``P(theta)`` the ``X_j`` are also identically distributed
given ``k_0``, so

.. math:: P(\\max_j X_j \\le x) = \\sum_{k_0} P(K_0 = k_0)\\,
          \\bigl[\\mathrm{E}_\\theta\\, P(X \\le x \\mid k_0, \\theta)\\bigr]^m ,

and for a fixed vector the bracket is the product over ``j`` (Eq. 4 given
``k_0``).  Numerics (the same in both engines, below):

* the expectation over ``P(theta)`` is a quadrature: Gauss--Legendre on
  ``[a, b]`` for the uniform (:data:`DEFAULT_NODES` rule, convergence checked
  in the tests), the atoms themselves for discrete distributions;
* each binomial pmf is computed on the window where it exceeds ``1e-40`` of its
  mode (ratio recurrence from the mode, normalised on the window), the
  convolution's cdf and survival function are sums of positive terms (left
  sums for the cdf, right sums for the survival function), so both tails keep
  their relative digits; ``[.]^m`` is ``exp(m log G)`` with ``log G`` taken from
  the accurate side;
* the sum over ``k_0`` runs over the central interval of ``B(n, theta0)``
  holding all but ``tol`` of its mass (default ``1e-20``, renormalised), and
  for each ``k_0`` only over the counts ``x`` where ``P(K_0 = k_0)`` times the
  bracket raised to ``m`` (or times one minus it) exceeds ``1e-25``; outside,
  the bracket is 0 or 1.  Each ``k_0`` thus errs by at most ``1e-25``.

The cost grows like ``n^{3/2}`` times the number of quadrature nodes for a
random reference classifier (``sqrt(n)`` values of ``k_0``, each a
convolution on windows of width ``sqrt(n)``): all of Table 1 (``n = 3000``)
takes about a second on two cores, identical classifiers with ``n = 10^5``
and ``rho = 0.6`` about ten seconds, and a uniform ``P(theta)`` multiplies
the time by its number of nodes (which grows like ``d sqrt(n)``).  Without dependence, or with a fixed reference, it is a single
``k_0`` and fast for any ``n`` (``m = n = 10^7`` in about a second).

Three engines compute this: a Numba kernel (:mod:`._noniid_kernels`, parallel
over ``k_0``) and a plain-NumPy one (:mod:`._noniid_numpy`), which agree to
``1e-12``, and for large problems with a random reference classifier and at
least :data:`_SWAP_MIN_M` classifiers the swap engine
(:func:`sotalib.multiplicity._depmax.swap_max`): the pmf of ``X | k_0`` is
built once, at the largest ``k_0``, and carried to ``k_0 - 1`` by removing one
``Bernoulli(p_1)`` and adding one ``Bernoulli(p_0)`` (exact up to rounding,
stable in the direction whose removed Bernoulli has the smaller ``p q``), so the
cost is ``O(window)`` per ``k_0`` instead of a convolution; it agrees with the
NumPy engine to ``1e-12`` (tests) and computes ``n = 10^6`` in seconds with
memory bounded by blocks of ``k_0``.  The NumPy engine is used when a rough count of its work is below
:data:`_NUMPY_WORK` (all of Table 1, dependent identical classifiers up to
``n`` of about ``10^4``): it is then at most about twice as slow as the kernel's
computation, and saves loading Numba and the compiled kernel (about half a
second per process, seconds of compilation on a fresh machine).  Importing
this module imports neither Numba nor SciPy.

The result is the same :class:`~sotalib.multiplicity._maxdist.MaxDistribution` the iid code
returns, so summaries, intervals and the quantile convention are shared.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .._deprecate import renamed_arguments
from .._result import Result
from .._rng import spawn
from .._validate import check_choice, check_int, check_probability, check_real
from ._binomial import _table as _binomial_table
from ._maxdist import TAIL, MaxDistribution
from ._summary import Summary

__all__ = [
    "Uniform",
    "PointMass",
    "Empirical",
    "uniform_for_sota",
    "expected_max_theta",
    "conditional_probs",
    "feasible_interval",
    "feasible",
    "check_feasible",
    "default_theta0",
    "max_distribution",
    "fixed_max_distribution",
    "simulate_max",
    "similarity",
    "rho_from_similarity",
    "DEFAULT_NODES",
]

#: Gauss--Legendre nodes for a uniform ``P(theta)``: at least this many, and
#: more when the support is wide compared with the standard error of one
#: classifier (see :func:`_uniform_nodes`).
DEFAULT_NODES = 8

#: Relative size (to the mode) below which a binomial pmf is treated as zero.
_PMF_EPS = 1e-40
#: Per-``k_0`` truncation of the factor ``G(x | k_0)^m`` to 0 or 1.
_FACTOR_EPS = 1e-25
#: Engine of the exact computation: "auto" (NumPy for small and moderate
#: problems, Numba beyond), or "numpy" / "numba" to force one (tests).
_ENGINE = "auto"
#: Work (``_noniid_numpy.work_estimate``) up to which the NumPy engine is used.
_NUMPY_WORK = 1.5e9
#: The swap engine (:func:`sotalib.multiplicity._depmax.swap_max`) computes the large problems of a
#: random reference classifier with at least this many classifiers (its ``F`` is summed from the upper
#: tail's side, which keeps its digits when ``G^m`` is small only if ``m`` is not).
_SWAP_MIN_M = 64
#: Its binomials are cut at this many standard deviations (beyond, the pmf is below 1e-42 of its mode),
_SWAP_WIDTH = 14.0
#: and its window starts where ``F`` first exceeds this.
_SWAP_TAIL = 1e-30
#: Monte Carlo replications are split into this many independently seeded chunks.
_MC_CHUNKS = 8


# ---------------------------------------------------------------------------
# P(theta)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Uniform(Result):
    """``theta_j ~ U(a, b)``, the continuous uniform distribution of Section 4 (an input setting).

    Give it as ``theta_dist`` to :func:`max_distribution` or
    :func:`simulate_max`; :func:`uniform_for_sota` builds the one with a
    given state of the art.

    Attributes
    ----------
    a, b : float
        The ends, ``0 <= a <= b <= 1``.
    """

    a: float
    b: float

    def __post_init__(self):
        a = check_probability("a", self.a)
        b = check_probability("b", self.b)
        if b < a:
            raise ValueError(f"b must be >= a, got a={a:g}, b={b:g}")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    @property
    def d(self) -> float:
        """Width ``d = b - a``."""
        return self.b - self.a

    @property
    def support(self) -> tuple[float, float]:
        return self.a, self.b

    def mean(self) -> float:
        return 0.5 * (self.a + self.b)

    def expected_max(self, m: int) -> float:
        """``E max Theta = (m b + a) / (m + 1)`` for ``m`` draws (Section 4)."""
        return (m * self.b + self.a) / (m + 1)


@dataclass(frozen=True, repr=False)
class PointMass(Result):
    """All classifiers share ``theta_j = theta``: identical classifiers (an input setting).

    Attributes
    ----------
    theta : float
        The common probability of success, in ``[0, 1]``.
    """

    theta: float

    def __post_init__(self):
        object.__setattr__(self, "theta", check_probability("theta", self.theta))

    @property
    def support(self) -> tuple[float, float]:
        return self.theta, self.theta

    def mean(self) -> float:
        return self.theta

    def expected_max(self, m: int) -> float:
        return self.theta


@dataclass(frozen=True, eq=False, repr=False)
class Empirical(Result):
    """``theta_j`` drawn iid from the discrete distribution on ``values`` (an input setting).

    ``weights`` default to equal; they are normalised to sum to one, and
    repeated values are merged.  Use :func:`fixed_max_distribution` instead
    when the vector ``Theta`` itself is given (each value used exactly
    once).  A leaderboard's scores as ``P(theta)`` are the model of
    Section 4.3.

    Attributes
    ----------
    values : ndarray
        The distinct probabilities of success, sorted, each in ``[0, 1]``.
    weights : ndarray
        Their probabilities, summing to one.
    """

    values: np.ndarray
    weights: np.ndarray | None = field(default=None)

    def __post_init__(self):
        v = np.asarray(self.values, dtype=float).ravel()
        if v.size == 0 or not np.all(np.isfinite(v)) or np.any((v < 0) | (v > 1)):
            raise ValueError("values must be a non-empty array of probabilities in [0, 1]")
        if self.weights is None:
            w = np.full(v.size, 1.0 / v.size)
        else:
            w = np.asarray(self.weights, dtype=float).ravel()
            if w.shape != v.shape or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
                raise ValueError("weights must be non-negative, finite, of the same length as values, not all zero")
            w = w / w.sum()
        # merge duplicate atoms, sorted
        u, inv = np.unique(v, return_inverse=True)
        wu = np.bincount(inv, weights=w, minlength=u.size)
        keep = wu > 0
        object.__setattr__(self, "values", u[keep])
        object.__setattr__(self, "weights", wu[keep] / wu[keep].sum())

    @property
    def support(self) -> tuple[float, float]:
        return float(self.values[0]), float(self.values[-1])

    def mean(self) -> float:
        return float(np.dot(self.values, self.weights))

    def expected_max(self, m: int) -> float:
        """``E max`` of ``m`` iid draws: ``sum_i v_i (W_i^m - W_{i-1}^m)``."""
        c = np.concatenate([[0.0], np.minimum(np.cumsum(self.weights), 1.0)])
        c[-1] = 1.0
        return float(np.dot(self.values, np.diff(c**m)))


ThetaDist = Uniform | PointMass | Empirical


def uniform_for_sota(theta_sota: float, d: float, m: int) -> Uniform:
    """The uniform ``U(a, b)`` of width ``d`` whose expected maximum of ``m`` draws is ``theta_sota``.

    ``b = theta_SOTA + d / (m + 1)``, ``a = b - d``, from
    ``E max Theta = (m b + a) / (m + 1)``.

    Parameters
    ----------
    theta_sota : float
        The state of the art ``E max_j theta_j``, in ``[0, 1]``.
    d : float
        Width of the uniform, in ``[0, 1]``.
    m : int
        Number of classifiers, ``>= 1``.

    Returns
    -------
    Uniform
        ``U(a, b)`` within ``[0, 1]``.

    Raises
    ------
    ValueError
        If an argument is out of range, or the uniform leaves ``[0, 1]``.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.1 and Table 1 (``d = 0.025``).

    Examples
    --------
    >>> from sotalib.multiplicity import uniform_for_sota
    >>> u = uniform_for_sota(0.9, 0.025, 1000)
    >>> round(u.a, 6), round(u.b, 6)
    (0.875025, 0.900025)
    """
    theta_sota = check_probability("theta_sota", theta_sota)
    d = check_real("d", d, low=0.0, high=1.0)
    m = check_int("m", m, low=1)
    b = theta_sota + d / (m + 1)
    a = b - d
    if a < 0 or b > 1:
        raise ValueError(f"d={d:g} with theta_sota={theta_sota:g}, m={m} gives U({a:g}, {b:g}), outside [0, 1]")
    return Uniform(a, b)


def _as_dist(theta_dist) -> ThetaDist:
    if isinstance(theta_dist, (Uniform, PointMass, Empirical)):
        return theta_dist
    if isinstance(theta_dist, (int, float, np.integer, np.floating)) and not isinstance(theta_dist, bool):
        return PointMass(float(theta_dist))
    raise ValueError(f"theta_dist must be Uniform, PointMass, Empirical or a probability, got {theta_dist!r}")


def expected_max_theta(theta_dist, m: int) -> float:
    """``theta_SOTA = E max Theta`` for ``m`` classifiers drawn from ``theta_dist``."""
    return _as_dist(theta_dist).expected_max(check_int("m", m, low=1))


# ---------------------------------------------------------------------------
# The dependence model (Boland et al. 1989; Eqs. 6-8)
# ---------------------------------------------------------------------------


def conditional_probs(theta: ArrayLike, theta0: float, rho: float) -> tuple[np.ndarray, np.ndarray]:
    """``P(Y_j = 1 | Y_0 = 1)`` and ``P(Y_j = 1 | Y_0 = 0)`` of the dependence model (Eqs. 6 and 7).

    .. math::
        p_1 = \\frac{\\rho\\sqrt{\\theta(1-\\theta)\\theta_0(1-\\theta_0)} + \\theta\\theta_0}{\\theta_0}, \\qquad
        p_0 = \\frac{-\\rho\\sqrt{\\theta(1-\\theta)\\theta_0(1-\\theta_0)} + \\theta(1-\\theta_0)}{1-\\theta_0}.

    With ``rho = 0`` both equal ``theta``.  No feasibility check is made
    (:func:`feasible` says whether both are probabilities).

    Parameters
    ----------
    theta : float or array_like of float
        Probabilities of success of the classifiers (vectorised).
    theta0 : float
        ``P(Y_0 = 1)`` of the reference classifier, in ``(0, 1)`` unless
        ``rho = 0``.
    rho : float
        Correlation of each classifier with the reference classifier, in ``[-1, 1]``.

    Returns
    -------
    p1, p0 : ndarray
        The conditional probabilities, of the shape of ``theta``.

    Raises
    ------
    ValueError
        If ``theta0`` or ``rho`` is out of range.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2, Eqs. 6-7; Boland, Proschan & Tong
    (1989), *J. Appl. Prob.* 26: 81-88.

    Examples
    --------
    >>> from sotalib.multiplicity import conditional_probs
    >>> p1, p0 = conditional_probs(0.9, 0.9, 0.6)
    >>> round(float(p1), 4), round(float(p0), 4)
    (0.96, 0.36)
    """
    th = np.asarray(theta, dtype=float)
    theta0 = check_probability("theta0", theta0)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    if rho == 0.0:
        return th.copy(), th.copy()
    if not 0.0 < theta0 < 1.0:
        raise ValueError(f"theta0 must be in (0, 1) when rho != 0, got {theta0:g}")
    s = rho * np.sqrt(np.clip(th * (1 - th), 0, None) * theta0 * (1 - theta0))
    p1 = (s + th * theta0) / theta0
    p0 = (-s + th * (1 - theta0)) / (1 - theta0)
    return p1, p0


def feasible_interval(theta0: float, rho: float) -> tuple[float, float]:
    """The interval of ``theta`` for which Eqs. 6-7 are probabilities (Eq. 8 and its twin).

    For ``rho >= 0``, ``p_0 >= 0`` gives Eq. 8,
    ``theta >= rho^2 theta0 / (1 - theta0 + rho^2 theta0)``, and its twin from
    Eq. 6, ``p_1 <= 1``, gives ``theta <= theta0 / (theta0 + rho^2 (1 - theta0))``.
    For ``rho < 0`` the roles of success and failure of ``Y_0`` swap.

    Parameters
    ----------
    theta0 : float
        ``P(Y_0 = 1)``, in ``(0, 1)`` unless ``rho = 0``.
    rho : float
        Correlation with the reference classifier, in ``[-1, 1]``.

    Returns
    -------
    tuple of float
        The smallest and largest feasible ``theta`` (``(0, 1)`` at ``rho = 0``).

    Raises
    ------
    ValueError
        If ``theta0`` or ``rho`` is out of range.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2, Eqs. 6-8.

    Examples
    --------
    >>> from sotalib.multiplicity import feasible_interval
    >>> lo, hi = feasible_interval(0.9, 0.6)
    >>> round(lo, 4), round(hi, 4)
    (0.7642, 0.9615)
    """
    theta0 = check_probability("theta0", theta0)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    if rho == 0.0:
        return 0.0, 1.0
    if not 0.0 < theta0 < 1.0:
        raise ValueError(f"theta0 must be in (0, 1) when rho != 0, got {theta0:g}")
    r2 = rho * rho
    if rho > 0:
        return r2 * theta0 / (1 - theta0 + r2 * theta0), theta0 / (theta0 + r2 * (1 - theta0))
    return r2 * (1 - theta0) / (theta0 + r2 * (1 - theta0)), (1 - theta0) / (1 - theta0 + r2 * theta0)


_FEAS_RTOL = 1e-12


def feasible(theta: ArrayLike, theta0: float, rho: float) -> np.ndarray:
    """Whether ``(theta, theta0, rho)`` is a valid dependence model (Eq. 8 and its twin), per ``theta``.

    ``theta`` is feasible when it lies in :func:`feasible_interval` (up to a
    relative ``1e-12``), that is when both conditional probabilities of
    Eqs. 6-7 are in ``[0, 1]``.

    Parameters
    ----------
    theta : float or array_like of float
        Probabilities of success of the classifiers.
    theta0 : float
        ``P(Y_0 = 1)``, in ``(0, 1)`` unless ``rho = 0``.
    rho : float
        Correlation with the reference classifier, in ``[-1, 1]``.

    Returns
    -------
    ndarray of bool
        One entry per ``theta``.

    Raises
    ------
    ValueError
        If ``theta0`` or ``rho`` is out of range.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2, Eq. 8.

    Examples
    --------
    >>> from sotalib.multiplicity import feasible
    >>> feasible([0.7, 0.8, 0.9], 0.9, 0.6).tolist()
    [False, True, True]
    """
    lo, hi = feasible_interval(theta0, rho)
    th = np.asarray(theta, dtype=float)
    return (th >= lo - _FEAS_RTOL) & (th <= hi + _FEAS_RTOL)


def check_feasible(theta, theta0: float, rho: float) -> None:
    """Raise ``ValueError`` naming ``rho``, ``theta``, ``theta0`` and the bound if infeasible."""
    th = np.atleast_1d(np.asarray(theta, dtype=float))
    ok = feasible(th, theta0, rho)
    if np.all(ok):
        return
    lo, hi = feasible_interval(theta0, rho)
    bad = float(th[~ok].min()) if np.any(th[~ok] < lo) else float(th[~ok].max())
    if rho > 0:
        which = "Eq. 8 (P(Y_j=1|Y_0=0) >= 0)" if bad < lo else "Eq. 6 (P(Y_j=1|Y_0=1) <= 1)"
    else:
        which = "P(Y_j=1|Y_0=1) >= 0" if bad < lo else "P(Y_j=1|Y_0=0) <= 1"
    raise ValueError(
        f"rho={rho:g} is infeasible for theta={bad:.6g} with theta0={theta0:g}: "
        f"{which} requires {lo:.6g} <= theta <= {hi:.6g}"
    )


def default_theta0(theta_dist, m: int) -> float:
    """The book's default reference classifier: ``theta0 = theta_SOTA = E max Theta``.

    For identical classifiers this is ``theta`` (the CLI's ``--theta``); for
    ``uniform_for_sota(theta_sota, d, m)`` it is ``theta_sota``, the reading
    that reproduces row 4.3 of Table 1 (Chapter 3).
    """
    return expected_max_theta(theta_dist, m)


# ---------------------------------------------------------------------------
# Mania et al. (2019): similarity and correlation
# ---------------------------------------------------------------------------


def similarity(theta_j: ArrayLike, theta_k: ArrayLike, rho_jk: ArrayLike) -> float | np.ndarray:
    """Probability that two classifiers agree on an item (Mania et al., 2019).

    ``(1 - theta_j)(1 - theta_k) + theta_j theta_k
    + 2 rho_jk sqrt(theta_j theta_k (1 - theta_j)(1 - theta_k))``.

    Parameters
    ----------
    theta_j, theta_k : float or array_like of float
        The two classifiers' probabilities of success, in ``[0, 1]``.
    rho_jk : float or array_like of float
        Their correlation, in ``[-1, 1]``.

    Returns
    -------
    float or ndarray
        The probability of agreement (an array when an argument is one).

    Raises
    ------
    ValueError
        Never for numbers; arrays must broadcast (NumPy's error otherwise).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2; Mania, Miller, Schmidt, Hardt &
    Recht (2019), *Model similarity mitigates test set overuse*, NeurIPS.

    Examples
    --------
    >>> from sotalib.multiplicity import similarity
    >>> round(float(similarity(0.9, 0.9, 0.0)), 2)
    0.82
    """
    tj, tk, r = (np.asarray(v, dtype=float) for v in (theta_j, theta_k, rho_jk))
    out = (1 - tj) * (1 - tk) + tj * tk + 2 * r * np.sqrt(tj * tk * (1 - tj) * (1 - tk))
    return float(out) if out.ndim == 0 else out


def rho_from_similarity(similarity: ArrayLike, theta: ArrayLike) -> float | np.ndarray:
    """Pairwise correlation of two classifiers of accuracy ``theta`` that agree with probability ``similarity``.

    Inverts :func:`similarity` with ``theta_j = theta_k = theta``:
    ``rho = 1 - (1 - similarity) / (2 theta (1 - theta))``.  In the model of
    Boland et al., ``rho_jk = rho_0^2``.

    Parameters
    ----------
    similarity : float or array_like of float
        Probability of agreement, in ``[0, 1]``.
    theta : float or array_like of float
        The common accuracy, in ``(0, 1)``.

    Returns
    -------
    float or ndarray
        The correlation ``rho_jk``.

    Raises
    ------
    ValueError
        Never for numbers (``theta`` of 0 or 1 gives an infinity); arrays
        must broadcast.

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2 (the similarities of Mania et al., 2019).

    Examples
    --------
    >>> from sotalib.multiplicity import rho_from_similarity
    >>> round(float(rho_from_similarity(0.85, 0.756)), 4)
    0.5934
    """
    s = np.asarray(similarity, dtype=float)
    t = np.asarray(theta, dtype=float)
    out = 1 - (1 - s) / (2 * t * (1 - t))
    return float(out) if out.ndim == 0 else out


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------


def _uniform_nodes(u: Uniform, n: int) -> int:
    """Gauss--Legendre nodes for ``U(a, b)``: grows with ``d`` over the standard error of one classifier."""
    th = min(max(u.mean(), 1.0 / n), 1 - 1.0 / n)
    se = math.sqrt(th * (1 - th) / n)
    return int(min(400, max(DEFAULT_NODES, math.ceil(1.5 * u.d / se) + 6)))


def _quadrature(dist: ThetaDist, n: int, nodes: int | None) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(dist, PointMass):
        return np.array([dist.theta]), np.array([1.0])
    if isinstance(dist, Empirical):
        return dist.values.copy(), dist.weights.copy()
    if dist.d == 0:
        return np.array([dist.a]), np.array([1.0])
    k = _uniform_nodes(dist, n) if nodes is None else check_int("nodes", nodes, low=1)
    x, w = np.polynomial.legendre.leggauss(k)
    return dist.a + 0.5 * dist.d * (x + 1), 0.5 * w


def _k0_grid(n: int, theta0: float, rho: float, y0: str, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Values of ``K_0`` and their probabilities (renormalised on the window)."""
    if rho == 0.0:
        # X_j ~ B(n, theta_j) whatever Y_0: one term, A ~ B(n, theta), B = 0.
        return np.array([n], dtype=np.int64), np.array([1.0])
    if y0 == "fixed":
        return np.array([int(math.floor(n * theta0 + 0.5))], dtype=np.int64), np.array([1.0])
    # the central window of B(n, theta0) holding all but ``tol`` of its mass (NumPy only: no SciPy at start-up)
    start, cdf, sf = _binomial_table(n, theta0)
    lo = start + int(np.searchsorted(cdf, tol / 2))  # smallest k with P(K0 <= k) >= tol / 2
    hi = start + int(np.argmax(sf <= tol / 2)) + 1  # smallest k with P(K0 > k) <= tol / 2, plus one
    lo, hi = max(0, lo - 1), min(n, hi)
    k = np.arange(lo, hi + 1, dtype=np.int64)
    i = np.clip(k - start, 0, cdf.size - 1)
    left = cdf[i] - np.where(i > 0, cdf[np.maximum(i - 1, 0)], 0.0)  # P(K0 = k), accurate left of the mode
    right = np.where(i > 0, sf[np.maximum(i - 1, 0)], 1.0) - sf[i]  # accurate right of the mode
    p = np.where(cdf[i] < 0.5, left, right)
    p = np.where((k >= start) & (k < start + cdf.size), np.maximum(p, 0.0), 0.0)
    return k, p / p.sum()


def _kernel_inputs(
    n: int, thetas: np.ndarray, rho: float, theta0: float, y0: str, tol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``k0s, pk0, p1, p0``: the values of ``K_0`` with their probabilities and the conditional probabilities."""
    k0s, pk0 = _k0_grid(n, theta0, rho, y0, tol)
    if rho == 0.0:
        p1 = thetas.astype(float).copy()
        p0 = thetas.astype(float).copy()
    else:
        p1, p0 = conditional_probs(thetas, theta0, rho)
    return k0s, pk0, np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)


def _choose_engine(n: int, m_or_zero: int, k0s: np.ndarray, p1: np.ndarray, p0: np.ndarray) -> str:
    """``"numpy"`` for problems small enough that NumPy is about as fast as the Numba kernel, else ``"numba"``."""
    if _ENGINE != "auto":
        return _ENGINE
    from ._noniid_numpy import work_estimate

    if work_estimate(n, k0s.size, p1.size, p1, p0, m_or_zero) <= _NUMPY_WORK:
        return "numpy"
    return "swap" if k0s.size > 1 and m_or_zero >= _SWAP_MIN_M else "numba"


def _exact_max(
    n: int,
    m_or_zero: int,
    k0s: np.ndarray,
    pk0: np.ndarray,
    p1: np.ndarray,
    p0: np.ndarray,
    w: np.ndarray,
    engine: str | None = None,
    thetas: np.ndarray | None = None,
) -> tuple[int, np.ndarray, np.ndarray]:
    """``(xlo, F, S)`` from one of the engines (``engine``: "numpy", "numba", "swap" or None: choose).

    ``thetas`` (the values behind ``p1, p0``) are needed by the swap engine only.
    """
    if thetas is None:
        thetas = p1
    engine = _choose_engine(n, m_or_zero, k0s, p1, p0) if engine is None else engine
    args = (
        int(n),
        int(m_or_zero),
        np.ascontiguousarray(k0s, dtype=np.int64),
        np.ascontiguousarray(pk0, dtype=float),
        np.ascontiguousarray(p1, dtype=float),
        np.ascontiguousarray(p0, dtype=float),
        np.ascontiguousarray(w, dtype=float),
    )
    if engine == "numpy":
        from ._noniid_numpy import max_kernel

        return max_kernel(*args, _PMF_EPS, _FACTOR_EPS)
    if engine == "swap" and m_or_zero > 0:
        from ._depmax import swap_max

        return swap_max(*args[:3], args[3], thetas, *args[4:], _SWAP_TAIL, _SWAP_WIDTH)
    if engine not in ("numba", "swap"):
        raise ValueError(f"engine must be 'numpy', 'numba' or 'swap', got {engine!r}")
    import numba  # lazily: importing this module does not import Numba

    from ._noniid_kernels import _max_kernel

    # window length bound: mode +- ~13.6 sd for eps = 1e-40, plus slack for skewed (Poisson-like) cases
    pq = float(max(np.max(p1 * (1 - p1)), np.max(p0 * (1 - p0))))
    maxlen = int(min(n + 1, 2 * math.ceil(16 * math.sqrt(n * pq)) + 400))
    nblocks = max(1, min(k0s.size, 4 * numba.get_num_threads()))
    return _max_kernel(*args, _PMF_EPS, _FACTOR_EPS, maxlen, nblocks)


def _run(
    n: int,
    m_or_zero: int,
    thetas: np.ndarray,
    w: np.ndarray,
    rho: float,
    theta0: float,
    y0: str,
    tol: float,
    tail: float,
) -> MaxDistribution:
    k0s, pk0, p1, p0 = _kernel_inputs(n, thetas, rho, theta0, y0, tol)
    xlo, F, S = _exact_max(n, m_or_zero, k0s, pk0, p1, p0, w, thetas=thetas)
    F = np.minimum(F, 1.0)
    S = np.clip(S, 0.0, 1.0)
    # trim to the window carrying all but `tail` at each end (as iid_max_distribution)
    i_lo = int(np.argmax(F > tail)) if np.any(F > tail) else F.size - 1
    i_hi_candidates = np.nonzero(S[i_lo:] <= tail)[0]
    i_hi = i_lo + int(i_hi_candidates[0]) if i_hi_candidates.size else F.size - 1
    return MaxDistribution(
        n=int(n), lo=int(xlo + i_lo), cdf=F[i_lo : i_hi + 1].copy(), sf=S[i_lo : i_hi + 1].copy(), method="exact"
    )


def _check_common(n, rho, y0, tol):
    n = check_int("n", n, low=1)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    y0 = check_choice("y0", y0, ("random", "fixed"))
    tol = check_real("tol", tol, low=0.0, high=1e-6, low_open=True)
    return n, rho, y0, tol


def max_distribution(
    n: int,
    m: int,
    theta_dist: Uniform | PointMass | Empirical | float,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    tol: float = TAIL,
    nodes: int | None = None,
    tail: float = TAIL,
) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` for ``m`` classifiers with ``theta_j ~ P(theta)`` iid (Section 4).

    .. math:: F(x) = \\sum_{k_0} P(K_0 = k_0)\\,\\bigl[\\mathrm{E}_\\theta P(X \\le x \\mid k_0, \\theta)\\bigr]^m

    with ``X | k_0, theta ~ B(k_0, p_1) + B(n - k_0, p_0)`` (Eqs. 6--7).

    Parameters
    ----------
    n : int
        Test-set size.
    m : int
        Number of classifiers.
    theta_dist : Uniform, PointMass, Empirical or float
        ``P(theta)`` (Eq. 1b); a float means identical classifiers.
    rho : float
        Correlation ``rho_0`` of each classifier with the reference classifier
        ``Y_0``, in ``[-1, 1]``; 0 gives independent classifiers.  Must satisfy
        Eq. 8 and its twin on the support of ``P(theta)``.
    theta0 : float, optional
        ``P(Y_0 = 1)``.  Default: ``theta_SOTA = E max Theta``
        (:func:`default_theta0`), i.e. ``theta`` for identical classifiers.
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one
        (``K_0 = round(n theta0)``), Section 4.2.
    tol : float
        Mass of ``B(n, theta0)`` left out of the sum over ``k_0``.
    nodes : int, optional
        Gauss--Legendre nodes for a uniform ``P(theta)`` (default grows with
        the width, at least :data:`DEFAULT_NODES`).
    tail : float
        Probability left outside the returned window at each end.

    Returns
    -------
    MaxDistribution
        The distribution of the maximum count on the window that carries
        all but ``tail`` of it at each end.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), or if
        ``rho`` and ``theta0`` violate Eq. 8 or its twin somewhere on the
        support of ``P(theta)`` (the message gives the admissible range).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.1 (Eq. 1b), Section 4.2 (Eqs. 6-8),
    Table 1.

    Examples
    --------
    Table 1, row 4.2 (dependent identical classifiers, random reference):

    >>> from sotalib.multiplicity import max_distribution
    >>> s = max_distribution(3000, 1000, 0.9, rho=0.6).summary()
    >>> round(s.mean, 4), round(s.sd, 4), round(s.ci_high, 4)
    (0.914, 0.0035, 0.9207)
    """
    n, rho, y0, tol = _check_common(n, rho, y0, tol)
    m = check_int("m", m, low=1)
    dist = _as_dist(theta_dist)
    if theta0 is None:
        theta0 = default_theta0(dist, m)
    theta0 = check_probability("theta0", theta0)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    thetas, w = _quadrature(dist, n, nodes)
    if rho != 0.0:
        lo, hi = dist.support
        check_feasible(np.array([lo, hi]) if not isinstance(dist, Empirical) else dist.values, theta0, rho)
    return _run(n, m, thetas, w, rho, theta0, y0, tol, tail)


def fixed_max_distribution(
    n: int,
    thetas: ArrayLike,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    tol: float = TAIL,
    tail: float = TAIL,
) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` for a given vector ``Theta = (theta_1, ..., theta_m)``.

    ``F(x) = sum_k0 P(K_0 = k_0) prod_j P(X_j <= x | k_0, theta_j)`` (Eq. 4 for
    ``rho = 0``; given ``k_0`` for dependent classifiers, Eqs. 6-7).

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    thetas : array_like of float
        The classifiers' probabilities of success, each in ``[0, 1]`` (``m = len(thetas)``).
    rho : float
        Correlation of each classifier with the reference classifier, in ``[-1, 1]``.
    theta0 : float, optional
        ``P(Y_0 = 1)``; default ``max Theta``.
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one.
    tol : float
        Mass of ``B(n, theta0)`` left out of the sum over ``k_0``, in ``(0, 1e-6]``.
    tail : float
        Probability left outside the returned window at each end, in ``(0, 1e-6]``.

    Returns
    -------
    MaxDistribution
        The distribution of the maximum count.

    Raises
    ------
    ValueError
        If an argument is out of range, or if a ``theta_j`` violates Eq. 8
        or its twin (the message gives the admissible range).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.1, Eq. 4; Section 4.2, Eqs. 6-8.

    Examples
    --------
    >>> from sotalib.multiplicity import fixed_max_distribution
    >>> s = fixed_max_distribution(1000, [0.80, 0.82, 0.85]).summary()
    >>> round(s.mean, 4)
    0.8502
    """
    n, rho, y0, tol = _check_common(n, rho, y0, tol)
    th = np.asarray(thetas, dtype=float).ravel()
    if th.size == 0 or not np.all(np.isfinite(th)) or np.any((th < 0) | (th > 1)):
        raise ValueError("thetas must be a non-empty array of probabilities in [0, 1]")
    if theta0 is None:
        theta0 = float(th.max())
    theta0 = check_probability("theta0", theta0)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    if rho != 0.0:
        check_feasible(th, theta0, rho)
    u, counts = np.unique(th, return_counts=True)
    return _run(n, 0, u, counts.astype(float), rho, theta0, y0, tol, tail)


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------


def simulate_max_counts(
    n: int,
    m: int | None,
    theta_dist_or_thetas,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    reps: int = 100_000,
    rng=None,
) -> np.ndarray:
    """``reps`` Monte Carlo draws of ``max_j X_j`` from the hierarchical model (Figure 7).

    ``theta_dist_or_thetas`` is a ``P(theta)`` (then ``m`` classifiers draw
    fresh ``theta_j`` in every replication) or an array ``Theta`` (then ``m``
    must be None or ``len(Theta)``).  Binomial counts are drawn directly.
    The replications run in 8 chunks, each with its own stream, on Numba's
    threads (the result does not depend on the number of threads).

    ``rng`` is an int seed (the chunks' streams are
    ``np.random.SeedSequence(rng).spawn(8)``), a :class:`numpy.random.Generator`
    (the chunks use ``rng.spawn(8)``) or None (fresh entropy).
    """
    n = check_int("n", n, low=1)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    y0 = check_choice("y0", y0, ("random", "fixed"))
    reps = check_int("reps", reps, low=1)
    empty = np.zeros(1)
    if isinstance(theta_dist_or_thetas, (Uniform, PointMass, Empirical, float, int, np.floating)) and not isinstance(
        theta_dist_or_thetas, bool
    ):
        dist = _as_dist(theta_dist_or_thetas)
        m = check_int("m", m, low=1)
        if theta0 is None:
            theta0 = default_theta0(dist, m)
        if isinstance(dist, PointMass):
            kind, a, b, values, cumw = 1, dist.theta, dist.theta, empty, empty
        elif isinstance(dist, Uniform):
            kind, a, b, values, cumw = 1, dist.a, dist.b, empty, empty
        else:
            kind, a, b, values, cumw = 2, 0.0, 0.0, dist.values, np.cumsum(dist.weights)
        support = np.array(dist.support) if not isinstance(dist, Empirical) else dist.values
    else:
        values = np.asarray(theta_dist_or_thetas, dtype=float).ravel()
        if values.size == 0 or np.any((values < 0) | (values > 1)) or not np.all(np.isfinite(values)):
            raise ValueError("thetas must be a non-empty array of probabilities in [0, 1]")
        if m is not None and check_int("m", m, low=1) != values.size:
            raise ValueError(f"m must equal len(thetas) = {values.size}, got {m}")
        m = values.size
        if theta0 is None:
            theta0 = float(values.max())
        kind, a, b, cumw = 0, 0.0, 0.0, empty
        support = values
    theta0 = check_probability("theta0", theta0)
    if rho != 0.0:
        check_feasible(support, theta0, rho)
    fixed_k0 = int(math.floor(n * theta0 + 0.5)) if y0 == "fixed" else -1
    import numba  # lazily: importing this module does not import Numba

    from ._noniid_kernels import _simulate_kernel

    values = np.ascontiguousarray(values, dtype=float)
    cumw = np.ascontiguousarray(cumw, dtype=float)
    out = np.empty(reps, dtype=np.int64)
    # Fixed chunks, each with its own stream spawned from ``rng``: the result
    # depends on ``rng`` only, not on how many threads run the chunks.
    nchunks = min(_MC_CHUNKS, reps)
    bounds = np.linspace(0, reps, nchunks + 1).astype(np.int64)
    seeds = spawn(rng, nchunks)

    def work(i):
        gen = np.random.default_rng(seeds[i])
        _simulate_kernel(
            gen,
            n,
            m,
            int(bounds[i + 1] - bounds[i]),
            kind,
            float(a),
            float(b),
            values,
            cumw,
            float(rho),
            float(theta0),
            fixed_k0,
            out[bounds[i] : bounds[i + 1]],
        )

    threads = numba.get_num_threads()
    if nchunks == 1 or threads == 1:
        for i in range(nchunks):
            work(i)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(work, range(nchunks)))
    return out


@renamed_arguments(reps="n_resamples")
def simulate_max(
    n: int,
    m: int | None,
    theta_dist_or_thetas: Uniform | PointMass | Empirical | float | ArrayLike,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    n_resamples: int = 100_000,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
) -> Summary:
    """Monte Carlo summary of ``theta_hat_max`` for non-identical and dependent classifiers.

    The independent check of :func:`max_distribution` and
    :func:`fixed_max_distribution`, by the hierarchical model of Figure 7:
    in each replication draw ``K_0`` (the reference classifier), the
    ``theta_j`` (from ``P(theta)``, or the given vector) and each
    classifier's count ``B(K_0, p1_j) + B(n - K_0, p0_j)`` directly.  The
    replications run in 8 chunks with streams spawned from ``rng``, on
    Numba's threads (the result does not depend on the number of threads).

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    m : int or None
        Number of classifiers with a ``P(theta)``; None (or ``len``) with a vector.
    theta_dist_or_thetas : Uniform, PointMass, Empirical, float or array_like
        ``P(theta)`` (fresh ``theta_j`` in every replication; a float means
        identical classifiers) or the vector ``Theta`` itself.
    rho : float
        Correlation with the reference classifier, in ``[-1, 1]``.
    theta0 : float, optional
        ``P(Y_0 = 1)``; default ``E max Theta`` (``max Theta`` for a vector).
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one.
    n_resamples : int
        Monte Carlo replications, ``>= 1``.
    rng : int, numpy.random.Generator or None
        An int seed (reproducible), a Generator, or None (fresh entropy).
    alpha : float
        The interval's level is ``1 - alpha``, ``alpha`` in ``(0, 1)``.

    Returns
    -------
    Summary
        Mean, sd, ``1 - alpha`` interval (the book's quantile convention),
        replications and the standard error of the mean, as accuracies.

    Raises
    ------
    ValueError
        If an argument is out of range or the model is infeasible (Eq. 8).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4, Figure 7 and Table 1 (Monte Carlo).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_max
    >>> s = simulate_max(3000, 1000, 0.9, rho=0.6, n_resamples=2000, rng=1)
    >>> abs(s.mean - 0.9140) < 4 * s.se_mean
    True
    """
    counts = simulate_max_counts(n, m, theta_dist_or_thetas, rho=rho, theta0=theta0, y0=y0, reps=n_resamples, rng=rng)
    return Summary.from_samples(counts, alpha, scale=1.0 / n)
