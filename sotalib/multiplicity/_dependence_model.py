"""The dependence model: classifiers correlated through a reference classifier (Section 4.2, Eqs. 6-8).

A reference classifier ``Y_0`` with ``P(Y_0 = 1) = theta0``; given ``Y_0`` the
classifiers are independent, with correlation ``rho`` to ``Y_0`` and the
conditional probabilities of Eqs. 6-7 (Boland et al., 1989), which must be
probabilities (Eq. 8 and its twin).  Also the similarity of two classifiers
of Mania et al. (2019) and the correlation it implies.  NumPy only.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_probability, check_real

__all__ = ["conditional_probs", "feasible", "feasible_interval", "similarity", "rho_from_similarity"]


def conditional_probs(theta: ArrayLike, theta0: float, rho: float) -> tuple[np.ndarray, np.ndarray]:
    r"""``P(Y_j = 1 | Y_0 = 1)`` and ``P(Y_j = 1 | Y_0 = 0)`` of the dependence model (Eqs. 6 and 7).

    .. math::
        p_1 = \frac{\rho\sqrt{\theta(1-\theta)\theta_0(1-\theta_0)} + \theta\theta_0}{\theta_0}, \qquad
        p_0 = \frac{-\rho\sqrt{\theta(1-\theta)\theta_0(1-\theta_0)} + \theta(1-\theta_0)}{1-\theta_0}.

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
