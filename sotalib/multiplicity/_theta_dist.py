"""The distribution ``P(theta)`` of the classifiers' probabilities of success (Section 4.1, Eq. 1b).

Non-identical classifiers draw ``theta_j`` iid from ``P(theta)``: a uniform
``U(a, b)`` (the paper's example, :func:`uniform_for_sota` fixes its state of
the art ``E max Theta``), a point mass (identical classifiers) or the
discrete distribution of a leaderboard.  These are the input settings of
:func:`~sotalib.multiplicity.max_distribution` and
:func:`~sotalib.multiplicity.simulate_max`; the expectation over
``P(theta)`` in the exact engines is the quadrature :func:`_quadrature`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._result import Result
from .._validate import check_int, check_memory, check_probability, check_real

__all__ = ["Uniform", "PointMass", "Empirical", "uniform_for_sota"]


#: Gauss--Legendre nodes for a uniform ``P(theta)``: at least this many, and
#: more when the support is wide compared with the standard error of one
#: classifier (see :func:`_uniform_nodes`).
DEFAULT_NODES = 8


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

    def expected_max(self, m: int) -> float:  # noqa: ARG002 (the Distribution protocol's signature: a point mass's maximum is theta for every m)
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
        assert self.weights is not None  # __post_init__ sets it
        return float(np.dot(self.values, self.weights))

    def expected_max(self, m: int) -> float:
        """``E max`` of ``m`` iid draws: ``sum_i v_i (W_i^m - W_{i-1}^m)``."""
        assert self.weights is not None  # __post_init__ sets it
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


def default_theta0(theta_dist, m: int) -> float:
    """The book's default reference classifier: ``theta0 = theta_SOTA = E max Theta``.

    For identical classifiers this is ``theta`` (the CLI's ``--theta``); for
    ``uniform_for_sota(theta_sota, d, m)`` it is ``theta_sota``, the reading
    that reproduces row 4.3 of Table 1 (Chapter 3).
    """
    return expected_max_theta(theta_dist, m)


def _uniform_nodes(u: Uniform, n: int) -> int:
    """Gauss--Legendre nodes for ``U(a, b)``: grows with ``d`` over the standard error of one classifier."""
    th = min(max(u.mean(), 1.0 / n), 1 - 1.0 / n)
    se = math.sqrt(th * (1 - th) / n)
    return int(min(400, max(DEFAULT_NODES, math.ceil(1.5 * u.d / se) + 6)))


def _quadrature(dist: ThetaDist, n: int, nodes: int | None) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(dist, PointMass):
        return np.array([dist.theta]), np.array([1.0])
    if isinstance(dist, Empirical):
        assert dist.weights is not None  # __post_init__ sets it
        return dist.values.copy(), dist.weights.copy()
    if dist.d == 0:
        return np.array([dist.a]), np.array([1.0])
    k = _uniform_nodes(dist, n) if nodes is None else check_int("nodes", nodes, low=1)
    # NumPy's Gauss-Legendre rule solves a k x k eigenproblem (8-byte floats, a few copies)
    check_memory(32.0 * k * k, f"nodes={k} quadrature nodes", "use fewer nodes")
    x, w = np.polynomial.legendre.leggauss(k)
    return dist.a + 0.5 * dist.d * (x + 1), 0.5 * w
