"""The best empirical AUC of many classifiers by a normal approximation (Section 5.2, large test sets).

The simulation of :func:`sotalib.multiplicity.expected_max_auc` draws every
score when the classifiers are correlated (``rho > 0``), at a cost of
``m n reps`` scores: hours for a leaderboard of a few thousand teams scored
on a million items.  For large test sets the empirical AUCs are close to
jointly normal, and the distribution of their maximum is then a
one-dimensional integral.

The model is the simulation's (``_auc._max_u_correlated``): classifier ``j``
scores positive ``i`` as ``mu_j + rho z0_i + c e_ji`` and negative ``k`` as
``rho w0_k + c e_jk``, ``c = sqrt(1 - rho^2)``, with ``z0, w0`` the hidden
reference classifier's scores and every noise term standard normal; the
test set has ``round(n pi)`` positives.  Each classifier is binormal with
unit variances and AUC ``A_j = Phi(mu_j / sqrt 2)`` (Eq. 10).

The U-statistic projection (Hoeffding 1948; Hanley and McNeil 1982; DeLong
et al. 1988).  To first order

.. math:: \\hat A_j - A_j = \\frac{1}{n_+}\\sum_i (g_j(X_{ji}) - A_j) + \\frac{1}{n_-}\\sum_k (h_j(Y_{jk}) - A_j),

``g_j(x) = Phi(x)``, ``h_j(y) = Phi(mu_j - y)``.  Given the reference
classifier, the classifiers are independent, and the part of ``g_j(X_ji)``
that the reference fixes is ``a_j(z0_i) = E[g_j | z0_i] = Phi((mu_j + rho
z0_i) / sqrt(1 + c^2))``; by symmetry the negatives' part has the same
variance.  ``E a_j^2 = P(V_1 - rho Z < mu_j, V_2 - rho Z < mu_j)`` with
``V_1, V_2 ~ N(0, 1 + c^2)`` independent: a bivariate normal orthant with
variances 2 and correlation ``rho^2 / 2``, so

.. math:: \\beta_j^2 = \\Big(\\frac{1}{n_+} + \\frac{1}{n_-}\\Big)\\big(\\Phi_2(h_j, h_j; \\rho^2/2) - A_j^2\\big), \\qquad h_j = \\Phi^{-1}(A_j),

is the variance of the shared part (0 at ``rho = 0``; the whole projection
variance at ``rho = 1``).  With the exact variance ``Var(AUC_hat_j)`` of
:func:`~sotalib.multiplicity._auc.auc_variance` (Hanley and McNeil's Eq. 2
with the exact binormal ``Q1, Q2``) the rest is ``tau_j^2 = Var - beta_j^2``,
and

.. math:: \\hat A_j \\approx A_j + \\beta_j \\zeta + \\tau_j \\varepsilon_j, \\qquad \\zeta, \\varepsilon_j \\text{ iid } N(0, 1).

The shared parts of two classifiers are taken as one factor ``zeta``: their
correlation is ``(Phi_2(h_j, h_l; rho^2/2) - A_j A_l) / (beta_j beta_l)``,
which is 1 for equal AUCs and above 0.999 for AUCs within 0.01 of each other
around 0.9 (the top of a leaderboard, which decides the maximum).  Then

.. math:: F(a) = P(\\max_j \\hat A_j \\le a) = \\int \\phi(\\zeta) \\prod_j \\Phi\\Big(\\frac{a - A_j - \\beta_j \\zeta}{\\tau_j}\\Big) d\\zeta,

computed in log space (the product as a sum of ``log Phi``), by the
trapezoidal rule in ``zeta`` over ``[-9, 9]`` on a grid fine enough for the
steepest conditional cdf, on a grid of ``a`` that covers the maximum's
distribution from ``F = 1e-15`` to ``1 - F = 1e-15``.  Teams whose factor is
within ``1e-30`` of 1 over the whole grid are skipped.  No array of size
``m x grid`` is formed: the work is ``O(m)`` per grid point and memory is
``O(m + grid)``.

Accuracy (measured against the simulation; the tests repeat it): the error
is that of the normal approximation of each AUC (its skewness, of order
``1 / sqrt(n_pos)``) and of the rank-one factor.  It shrinks as the test set
grows; see :data:`NORMAL_AUC_ACCURACY`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from scipy.special import ndtri, owens_t

from .._numba import njit
from .._validate import check_alpha, check_int, check_probability, check_real
from ._summary import Summary

__all__ = ["NORMAL_AUC_ACCURACY", "NormalMaxAUC", "auc_normal_components", "normal_max_auc", "normal_max_auc_cdf"]

#: The measured accuracy of the approximation, as :func:`shrink_auc` states it (see the module docstring).
NORMAL_AUC_ACCURACY = (
    "normal approximation of the empirical AUCs (U-statistic projection, one shared factor for the reference "
    "classifier); against the simulation, its expected maximum of 50 to 3,000 equal teams of AUC 0.9 is too "
    "high by 0.2 to 0.8 sd of the maximum at 600 positives (5e-4 to 1.6e-3 in AUC) and by 0.4 to 1.7 sd at 136; "
    "the error in AUC falls about as 1/n"
)

#: Half-width of the trapezoidal rule's range in the shared factor ``zeta`` (``phi(9) < 1e-17``).
ZETA_RANGE = 9.0
#: ``x`` beyond which ``log Phi(x) > -1e-30``: a factor that near 1 is skipped.
_CUT = 11.5
#: The a-grid covers ``F`` from ``_EDGE`` to ``1 - _EDGE``.
_EDGE = 1e-15
_COARSE = 64
_FINE = 256


def _excess(auc: np.ndarray, r: float) -> np.ndarray:
    """``Phi_2(h, h; r) - A^2`` for ``h = Phi^{-1}(A)``, without cancellation at ``A`` near 0 or 1.

    Owen's T: ``Phi_2(h, h; r) = Phi(h) - 2 T(h, k)``, ``k = sqrt((1 - r)/(1 + r))``, so the excess is
    ``A (1 - A) - 2 T(h, k)`` (``T`` is even in ``h``, so this form is symmetric in ``A <-> 1 - A``).
    """
    h = ndtri(auc)
    k = math.sqrt((1.0 - r) / (1.0 + r))
    return np.maximum(auc * (1.0 - auc) - 2.0 * owens_t(h, k), 0.0)


def _as_aucs(auc, m) -> np.ndarray:
    a = np.asarray(auc, dtype=float)
    if a.ndim == 0:
        if m is None:
            raise ValueError("m must be given (an integer >= 1) when auc is a single number")
        m = check_int("m", m, low=1)
        check_probability("auc", float(a), open_low=True, open_high=True)
        return np.full(m, float(a))
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"auc must be a number or a non-empty 1-d array, got shape {a.shape}")
    if m is not None and check_int("m", m, low=1) != a.size:
        raise ValueError(f"m must equal len(auc) = {a.size}, got {m}")
    ok = (a > 0) & (a < 1)
    if not np.all(ok):
        raise ValueError(f"auc must be in (0, 1), got {a[~ok][0]:g}")
    return a


def _components(a: np.ndarray, n_pos: int, n_neg: int, rho: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(sd, beta, tau)`` of each empirical AUC (checked arguments)."""
    q = _excess(a, 0.5)  # Q1 - A^2 = Q2 - A^2 for equal variances
    var = (a * (1.0 - a) + (n_pos - 1) * q + (n_neg - 1) * q) / (float(n_pos) * n_neg)
    if rho == 0.0:
        beta2 = np.zeros_like(a)
    else:
        beta2 = np.minimum((1.0 / n_pos + 1.0 / n_neg) * _excess(a, 0.5 * rho * rho), var)
    tau2 = np.maximum(var - beta2, 1e-300)
    return np.sqrt(var), np.sqrt(beta2), np.sqrt(tau2)


def auc_normal_components(auc, n: int, prevalence: float, *, rho: float = 0.0):
    """Standard deviation of each empirical AUC and its split into a shared and an own part.

    ``AUC_hat_j ~ A_j + beta_j zeta + tau_j eps_j`` with ``zeta`` shared by
    all classifiers (the hidden reference classifier's scores) and
    ``beta_j^2 + tau_j^2 = Var(AUC_hat_j)`` (module docstring).

    Parameters
    ----------
    auc : float or array of float
        True AUCs, each in ``(0, 1)``.
    n : int
        Test-set size (``round(n pi)`` positives, at least one of each class).
    prevalence : float
        Share of positives ``pi`` in ``(0, 1)``.
    rho : float
        Within-class correlation with the reference classifier, in ``[0, 1]``.

    Returns
    -------
    sd, beta, tau : ndarray
        ``sqrt(Var(AUC_hat_j))`` (exact, :func:`~sotalib.multiplicity._auc.auc_variance`),
        the shared loading ``beta_j >= 0`` and the own sd ``tau_j``, one entry per AUC.

    Examples
    --------
    >>> sd, beta, tau = auc_normal_components(0.9, 2000, 0.3, rho=0.6)
    >>> bool(abs(beta[0] ** 2 + tau[0] ** 2 - sd[0] ** 2) < 1e-18)
    True
    """
    from ._auc import n_positives

    a = _as_aucs(auc, None if np.ndim(auc) else 1)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    return _components(a, n_pos, n_neg, rho)


@njit(cache=True)
def _log_ndtr(x):
    """``log Phi(x)`` accurate in both tails."""
    if x > 0.0:
        return math.log1p(-0.5 * math.erfc(x / math.sqrt(2.0)))
    if x > -37.0:
        return math.log(0.5 * math.erfc(-x / math.sqrt(2.0)))
    # Mills ratio: Phi(x) = phi(x)/(-x) (1 - 1/x^2 + 3/x^4 - ...)
    x2 = x * x
    return -0.5 * x2 - math.log(-x) - 0.5 * math.log(2.0 * math.pi) + math.log1p(-1.0 / x2 + 3.0 / (x2 * x2))


@njit(parallel=True, cache=True)
def _log_conditional_cdf(grid, zetas, aucs, beta, tau, cut):
    """``log P(max_j AUC_hat_j <= grid[i] | zeta = zetas[k])`` as an array (zetas, grid).

    One row per ``zeta`` (in parallel); a team adds ``log Phi((a - A_j - beta_j zeta)/tau_j)`` to every
    grid point until that term exceeds ``-Phi(-cut)`` (it only grows with ``a``), and is skipped where it
    already does at the grid's low end.
    """
    nz = zetas.size
    na = grid.size
    m = aucs.size
    out = np.zeros((nz, na))
    for k in nb.prange(nz):
        z = zetas[k]
        for j in range(m):
            loc = aucs[j] + beta[j] * z
            inv = 1.0 / tau[j]
            if (grid[0] - loc) * inv > cut:
                continue
            for i in range(na):
                x = (grid[i] - loc) * inv
                if x > cut:
                    break
                out[k, i] += _log_ndtr(x)
    return out


def _zeta_rule(m: int, beta: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights ``phi(zeta) dzeta`` of the trapezoidal rule in the shared factor.

    The conditional cdf of the maximum falls from 1 to 0 over a range of
    ``zeta`` about ``s / beta`` wide, ``s`` the sd of the maximum of the own
    parts (``tau / sqrt(1 + 2 log m)`` or wider); the step is a third of that
    (a check of the rule at half the step agrees to 1e-9 of the sd).
    """
    bmax = float(beta.max())
    if bmax == 0.0:
        return np.zeros(1), np.ones(1)
    width = float(tau.min()) / (bmax * math.sqrt(1.0 + 2.0 * math.log(m)))
    step = min(0.25, width / 3.0)
    k = int(math.ceil(ZETA_RANGE / step))
    z = np.linspace(-ZETA_RANGE, ZETA_RANGE, 2 * k + 1)
    w = np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi) * (z[1] - z[0])
    w[0] *= 0.5
    w[-1] *= 0.5
    return z, w / w.sum()


def _scale(x, kind):
    """The scale on which the AUCs are taken as normal, and its derivative."""
    x = np.asarray(x, dtype=float)
    if kind == "logit":
        with np.errstate(divide="ignore"):
            return np.log(x) - np.log1p(-x), 1.0 / (x * (1.0 - x))
    if kind == "probit":
        g = ndtri(x)
        return g, np.sqrt(2.0 * math.pi) * np.exp(0.5 * g * g)
    return x, np.ones_like(x)


def _cdf_on(grid: np.ndarray, a, beta, tau, zetas, weights, kind=None) -> np.ndarray:
    kind = _KIND if kind is None else kind
    f = np.zeros_like(grid)
    inside = grid < 1.0
    g, _ = _scale(grid[inside], kind)
    ga, d = _scale(a, kind)
    lg = _log_conditional_cdf(g, zetas, ga, beta * d, tau * d, _CUT)
    f[inside] = weights @ np.exp(lg)
    f[~inside] = 1.0  # an empirical AUC is at most 1
    return np.maximum.accumulate(np.clip(f, 0.0, 1.0))


_KIND = "identity"


def _prune(a, sd, beta, tau, zeta_max):
    """Teams that can reach the maximum's range at some grid ``zeta`` (the others add under 1e-30 to log F)."""
    # the maximum is at least the best team's AUC: its lower end is above max_j (A_j - 9 sd_j)
    low = float(np.max(a - 9.0 * sd))
    reach = a + beta * zeta_max + _CUT * tau
    keep = reach >= low
    return keep, low


def normal_max_auc_cdf(x, auc, n: int, prevalence: float, *, m: int | None = None, rho: float = 0.0) -> np.ndarray:
    """``P(max_j AUC_hat_j <= x)`` under the normal approximation, at the points ``x``.

    Parameters as in :func:`normal_max_auc`; ``x`` is an array of AUCs
    (values at or above 1 give 1).
    """
    from ._auc import n_positives

    a = _as_aucs(auc, m)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    xs = np.atleast_1d(np.asarray(x, dtype=float))
    if xs.ndim != 1 or not np.all(np.isfinite(xs)):
        raise ValueError("x must be a finite number or a 1-d array of finite numbers")
    sd, beta, tau = _components(a, n_pos, n_neg, rho)
    zetas, weights = _zeta_rule(a.size, beta, tau)
    order = np.argsort(xs)
    out = np.empty_like(xs)
    out[order] = _cdf_on(xs[order], a, beta, tau, zetas, weights)
    return out


@dataclass(frozen=True)
class NormalMaxAUC:
    """The distribution of the best empirical AUC under the normal approximation.

    Returned by :func:`normal_max_auc`; the same numbers as
    :class:`~sotalib.multiplicity.MaxAUCSummary` (which comes from a
    simulation), without Monte Carlo error: the result is deterministic and
    its error is the approximation's (:data:`NORMAL_AUC_ACCURACY`).

    Attributes
    ----------
    mean, sd : float
        Expected value and standard deviation of the maximum empirical AUC.
    ci_low, ci_high : float
        Its ``alpha/2`` and ``1 - alpha/2`` quantiles.
    n_pos, n_neg : int
        Positives (``round(n pi)``) and negatives of the test set.
    m, n : int
        Number of classifiers and test-set size.
    teams : int
        Classifiers that can reach the maximum's range (the others change
        ``log F`` by less than ``1e-30`` and are skipped).
    prevalence, rho, alpha : float
        The model's prevalence and correlation, and the interval's level ``1 - alpha``.
    method : str
        Always ``"normal"``.
    """

    mean: float
    sd: float
    ci_low: float
    ci_high: float
    n_pos: int
    n_neg: int
    m: int
    n: int
    teams: int
    prevalence: float
    rho: float
    alpha: float
    method: str = "normal"

    def to_dict(self) -> dict:
        """JSON-ready dictionary (finite numbers and ints)."""
        return {
            "mean": self.mean,
            "sd": self.sd,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "n_pos": self.n_pos,
            "n_neg": self.n_neg,
            "m": self.m,
            "teams": self.teams,
            "method": self.method,
        }

    def summary(self) -> Summary:
        """The same numbers as a :class:`~sotalib.multiplicity.Summary` (``method="normal"``)."""
        return Summary(self.mean, self.sd, self.ci_low, self.ci_high, method="normal", alpha=self.alpha)


def _quantile(grid: np.ndarray, f: np.ndarray, q: float) -> float:
    """``F^{-1}(q)`` by linear interpolation of ``Phi^{-1}(F)`` (nearly linear in ``a``) between grid points."""
    i = int(np.searchsorted(f, q, side="left"))
    if i <= 0:
        return float(grid[0])
    if i >= f.size:
        return float(grid[-1])
    lo, hi = f[i - 1], f[i]
    if hi >= 1.0 or lo <= 0.0:
        t = (q - lo) / (hi - lo)
    else:
        pl, ph, pq = ndtri(lo), ndtri(hi), ndtri(q)
        t = (pq - pl) / (ph - pl)
    return float(grid[i - 1] + t * (grid[i] - grid[i - 1]))


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum(0.5 * (y[1:] + y[:-1]) * np.diff(x)))


def normal_max_auc(
    auc, n: int, prevalence: float, *, m: int | None = None, rho: float = 0.0, alpha: float = 0.05
) -> NormalMaxAUC:
    """Distribution of the best empirical AUC of ``m`` classifiers, by the normal approximation.

    The model of :func:`sotalib.multiplicity.expected_max_auc` (binormal
    classifiers with unit variances, true AUCs ``A_j``, within-class
    correlation ``rho`` with a hidden reference classifier, one test set of
    ``n`` items with ``round(n pi)`` positives), with the empirical AUCs
    replaced by their normal approximation ``A_j + beta_j zeta + tau_j eps_j``
    (module docstring; Hanley and McNeil 1982, DeLong et al. 1988).  The cdf
    of the maximum is one integral over ``zeta``; the mean is
    ``a_0 + int (1 - F)``, the sd from ``2 int (a - a_0)(1 - F)``, the interval
    the equal-tailed quantiles (interpolated on the grid).  Deterministic: no
    random numbers, so a root finder over the AUCs sees a smooth function.

    Accuracy, measured against the simulation (``expected_max_auc``, the
    tests in ``tests/multiplicity/test_auc_normal.py``): the numerical error
    (grids in ``a`` and ``zeta``) is below ``1e-6`` of the maximum's sd; the
    approximation's error is :data:`NORMAL_AUC_ACCURACY`.

    Parameters
    ----------
    auc : float or array of float
        The true AUC of every classifier (a number, with ``m``) or of each
        classifier (``m = len(auc)``); each in ``(0, 1)``.
    n : int
        Test-set size (``n >= 2``).
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    m : int, optional
        Number of classifiers; required with a scalar ``auc``.
    rho : float
        Within-class correlation with the reference classifier, in ``[0, 1]``.
    alpha : float
        The interval is the equal-tailed ``1 - alpha`` interval, ``alpha`` in ``[1e-10, 1)``.

    Returns
    -------
    NormalMaxAUC

    Examples
    --------
    One classifier with independent errors: the empirical AUC is normal with the exact sd.

    >>> s = normal_max_auc(0.9, 2000, 0.3, m=1)
    >>> from sotalib.multiplicity import auc_variance
    >>> bool(abs(s.sd - auc_variance(0.9, 600, 1400) ** 0.5) < 1e-8)
    True
    """
    from ._auc import n_positives

    a = _as_aucs(auc, m)
    n = check_int("n", n, low=2)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    alpha = check_alpha("alpha", alpha)
    sd, beta, tau = _components(a, n_pos, n_neg, rho)
    zetas, weights = _zeta_rule(a.size, beta, tau)
    keep, low = _prune(a, sd, beta, tau, float(zetas[-1]))
    ak, bk, tk = a[keep], beta[keep], tau[keep]
    # a grid from below the maximum's range to where 1 - F <= m Phi(-z) (union bound) is negligible
    z_hi = -float(ndtri(_EDGE / a.size))
    high = min(float(np.max(ak + z_hi * sd[keep])), 1.0)
    coarse = np.linspace(low, high, _COARSE)
    fc = _cdf_on(coarse, ak, bk, tk, zetas, weights)
    i0 = max(int(np.searchsorted(fc, _EDGE, side="left")) - 1, 0)
    i1 = min(int(np.searchsorted(fc, 1.0 - _EDGE, side="left")) + 1, _COARSE - 1)
    grid = np.linspace(coarse[i0], coarse[i1], _FINE)
    f = _cdf_on(grid, ak, bk, tk, zetas, weights)
    g = 1.0 - f
    a0 = float(grid[0])
    mean = a0 + _trapezoid(g, grid)
    # E (X - a0)^2 = 2 int (a - a0)(1 - F): the integrand's slope at a0 is 2 (1 - F(a0)), so the trapezoidal
    # rule is corrected by its Euler-Maclaurin end term h^2/12 * 2 (at the far end the slope is 0)
    h = float(grid[1] - grid[0])
    m2 = 2.0 * _trapezoid((grid - a0) * g, grid) + h * h / 6.0 * g[0]
    var = max(m2 - (mean - a0) ** 2, 0.0)
    return NormalMaxAUC(
        mean=mean,
        sd=math.sqrt(var),
        ci_low=_quantile(grid, f, alpha / 2),
        ci_high=_quantile(grid, f, 1 - alpha / 2),
        n_pos=n_pos,
        n_neg=n_neg,
        m=int(a.size),
        n=n,
        teams=int(keep.sum()),
        prevalence=prevalence,
        rho=rho,
        alpha=alpha,
    )
