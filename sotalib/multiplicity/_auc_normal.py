r"""The best empirical AUC of many classifiers by a normal approximation (Section 5.2, large test sets).

The simulation of :func:`sotalib.multiplicity._auc_simulate.expected_max_auc` draws every
score when the classifiers are correlated (``rho > 0``), at a cost of
``m n reps`` scores: hours for a leaderboard of a few thousand teams scored
on a million items.  For large test sets the empirical AUCs are close to
jointly normal, and the distribution of their maximum is then a
one-dimensional integral.

The model is the simulation's (``_auc_kernels._max_u_correlated``): classifier ``j``
scores positive ``i`` as ``mu_j + rho z0_i + c e_ji`` and negative ``k`` as
``rho w0_k + c e_jk``, ``c = sqrt(1 - rho^2)``, with ``z0, w0`` the hidden
reference classifier's scores and every noise term standard normal; the
test set has ``round(n pi)`` positives.  Each classifier is binormal with
unit variances and AUC ``A_j = Phi(mu_j / sqrt 2)`` (Eq. 10).

The U-statistic projection (Hoeffding 1948; Hanley and McNeil 1982; DeLong
et al. 1988).  To first order

.. math:: \hat A_j - A_j = \frac{1}{n_+}\sum_i (g_j(X_{ji}) - A_j) + \frac{1}{n_-}\sum_k (h_j(Y_{jk}) - A_j),

``g_j(x) = Phi(x)``, ``h_j(y) = Phi(mu_j - y)``.  Given the reference
classifier, the classifiers are independent, and the part of ``g_j(X_ji)``
that the reference fixes is ``a_j(z0_i) = E[g_j | z0_i] = Phi((mu_j + rho
z0_i) / sqrt(1 + c^2))``; by symmetry the negatives' part has the same
variance.  ``E a_j^2 = P(V_1 - rho Z < mu_j, V_2 - rho Z < mu_j)`` with
``V_1, V_2 ~ N(0, 1 + c^2)`` independent: a bivariate normal orthant with
variances 2 and correlation ``rho^2 / 2``, so

.. math:: \beta_j^2 = \Big(\frac{1}{n_+} + \frac{1}{n_-}\Big)\big(\Phi_2(h_j, h_j; \rho^2/2) - A_j^2\big), \qquad h_j = \Phi^{-1}(A_j),

is the variance of the shared part (0 at ``rho = 0``; the whole projection
variance at ``rho = 1``).  With the exact variance ``Var(AUC_hat_j)`` of
:func:`~sotalib.multiplicity.auc_variance` (Hanley and McNeil's Eq. 2
with the exact binormal ``Q1, Q2``) the rest is ``tau_j^2 = Var - beta_j^2``,
and

.. math:: \hat A_j \approx A_j + \beta_j \zeta + \tau_j \varepsilon_j, \qquad \zeta, \varepsilon_j \text{ iid } N(0, 1).

The shared parts of two classifiers are taken as one factor ``zeta``: their
correlation is ``(Phi_2(h_j, h_l; rho^2/2) - A_j A_l) / (beta_j beta_l)``,
exactly 1 for equal AUCs and, at ``rho = 0.6``, 0.9999 for AUCs 0.90 and
0.89, 0.991 for 0.90 and 0.80 (the maximum is decided by the top of the
board, where the AUCs are close; the rank-one factor is exact in the limit
of equal AUCs).

The skewness.  An AUC near 1 is skewed to the left (it cannot exceed 1),
and the maximum of many AUCs lives in their upper tails, where a normal
approximation errs most: without a correction it puts ``E max`` of 500
equal teams at 600 positives 0.46 sd of the maximum too high.  Each
empirical AUC's third cumulant is known to order ``n^-2``
(:func:`auc_skewness`), and the marginals are given that skewness by the
Cornish-Fisher map ``AUC_hat_j = A_j + sd_j (Y_j + g_j (Y_j^2 - 1))``,
``g_j = gamma_j / 6``, with ``Y_j = (beta_j zeta + tau_j eps_j) / sd_j``
standard normal (a Gaussian copula; ``|g_j|`` is capped at 1/12, where the
map stops being increasing 6 sd out, which only very small test sets
reach).  ``AUC_hat_j <= a`` is ``Y_j <= y_j(a)``, the quadratic's root, so

.. math:: F(a) = P(\max_j \hat A_j \le a) = \int \phi(\zeta) \prod_j \Phi\Big(\frac{sd_j\, y_j(a) - \beta_j \zeta}{\tau_j}\Big) d\zeta

(``y_j(a) = (a - A_j) / sd_j`` without the correction, ``skew=False``),
computed in log space (the product as a sum of ``log Phi``), by the
trapezoidal rule in ``zeta`` over ``[-9, 9]`` on a grid fine enough for the
steepest conditional cdf, on a grid of ``a`` that covers the maximum's
distribution from ``F = 1e-15`` to ``1 - F = 1e-15``.  Teams whose factor is
within ``1e-30`` of 1 over the whole grid are skipped.  Memory is
``O(m + 4096 x grid)`` (teams in blocks); a board of 3,000 teams takes well
under a second at any ``n``.  Teams of equal AUC have equal factors and are
computed once (a count multiplies their ``log Phi``), so ``m = 10^7`` equal
teams take about a second.

Accuracy, measured against the simulation (``E max`` of ``m`` equal teams
of AUC 0.9, in sd of the maximum; the simulation's standard error in
brackets; ``rho = 0`` against the conditional Monte Carlo of
:func:`~sotalib.multiplicity.auc_distribution` with 2,000 draws,
``rho = 0.6`` against :func:`~sotalib.multiplicity._auc_simulate.expected_max_auc`):

=========  =====  ==================  ==================  ==================
positives  rho    m = 50              m = 500             m = 3,000
=========  =====  ==================  ==================  ==================
600        0      +0.011 (0.014)      +0.035 (0.032)      +0.070 (0.047)
136        0      +0.013 (0.0004)     +0.042 (0.001)      +0.077 (0.002)
100 (*)    0      +0.045 (0.003)      +0.111 (0.010)      +0.174 (0.019)
600        0.6    -0.030 (0.022)      -0.028 (0.031)      +0.014 (0.057)
250        0.6    -0.004 (0.022)
=========  =====  ==================  ==================  ==================

(*) AUC 0.95.  Without the skewness correction the same rows read +0.18,
+0.46, +0.77 (600 positives) and +0.79, +2.20, +3.82 (100 positives).  The
rest is the normal copula's error in the far tail, of order ``1 / n_pos``;
:data:`NORMAL_AUC_ACCURACY` states it in one sentence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numba as nb
import numpy as np
from scipy.special import ndtr, ndtri, owens_t

from .._distribution import DistributionSummary
from .._frame import as_vector
from .._json import json_safe
from .._numba import njit
from .._validate import check_alpha, check_int, check_memory, check_probability, check_real
from ._auc_model import n_positives
from ._max_distribution import Summary

__all__: list[str] = []  # nothing public: the normal engine of summarize_max_auc and estimate_sota(metric="auc")

#: The measured accuracy of the approximation, as :func:`shrink_auc` states it (see the module docstring).
NORMAL_AUC_ACCURACY = (
    "normal approximation of the empirical AUCs (U-statistic projection, one shared factor for the reference "
    "classifier, skewness corrected); against the simulation at 100 to 600 positives, 1 to 3,000 teams and "
    "rho 0 or 0.6 its expected maximum is off by at most 0.18 sd of the maximum (3.3e-4 in AUC), by at most "
    "0.07 sd at 600 positives, and less on larger test sets"
)

#: Half-width of the trapezoidal rule's range in the shared factor ``zeta`` (``phi(9) < 1e-17``).
ZETA_RANGE = 9.0
#: ``x`` beyond which ``log Phi(x) > -1e-30``: a factor that near 1 is skipped.
_CUT = 11.5
#: The a-grid covers ``F`` from ``_EDGE`` to ``1 - _EDGE``.
_EDGE = 1e-15
_COARSE = 64
#: Teams per block of the kernel (their standard scores on the grid: ``_BLOCK x grid`` doubles).
_BLOCK = 4096
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
    scalar = np.ndim(auc) == 0 and not isinstance(auc, Mapping)  # np.ndim of a dict is 0 too
    a = np.asarray(auc, dtype=float) if scalar else as_vector(auc, "auc")[0]
    if a.ndim == 0:
        if m is None:
            raise ValueError("m must be given (an integer >= 1) when auc is a single number")
        m = check_int("m", m, low=1)
        check_probability("auc", float(a), open_low=True, open_high=True)
        # every classifier's AUC and its mean score at least (8 bytes each), before they are allocated
        check_memory(16.0 * m, f"m={m} classifiers", "use fewer classifiers")
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


#: Nodes per unit of the trapezoidal rule for the third moments; boards with more distinct AUCs than
#: ``_SKEW_NODES`` are interpolated (cubic spline in ``mu``) between that many exact values.
_T_STEP = 1.0 / 256
_SKEW_NODES = 48
#: Largest ``|gamma| / 6`` used: the Cornish-Fisher map then stays increasing over ``|y| <= 6``.
_G_MAX = 1.0 / 12.0


def _third_moments(mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``E g(X)^3`` and ``E[g(X) h(Y) 1(Y < X)]`` for binormal classifiers with unit variances.

    ``X ~ N(mu, 1)`` (a positive), ``Y ~ N(0, 1)`` (a negative), ``g(x) = Phi(x) - A``,
    ``h(y) = Phi(mu - y) - A`` (the two halves of the U-statistic's projection; ``h(Y)`` has the
    distribution of ``g(X)``).  Trapezoidal rules on ``[min(mu, 0) - 12, mu + 12]``, the inner
    integral ``int_{-inf}^x phi(y) h(y) dy`` cumulated on the same grid.
    """
    mu3 = np.empty(mu.size)
    cross = np.empty(mu.size)
    for i, u in enumerate(mu):
        t = np.arange(min(u, 0.0) - 12.0, u + 12.0 + _T_STEP, _T_STEP)
        a = float(ndtr(u / math.sqrt(2.0)))
        fx = np.exp(-0.5 * (t - u) ** 2) / math.sqrt(2.0 * math.pi)
        gx = ndtr(t) - a
        inner = np.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi) * (ndtr(u - t) - a)
        cum = np.concatenate([[0.0], np.cumsum(0.5 * (inner[1:] + inner[:-1]))]) * _T_STEP
        mu3[i] = float(np.sum(fx * gx**3)) * _T_STEP
        cross[i] = float(np.sum(fx * gx * cum)) * _T_STEP
    return mu3, cross


def _skew(a: np.ndarray, n_pos: int, n_neg: int, sd: np.ndarray) -> np.ndarray:
    """Skewness of each empirical AUC to order ``1 / sqrt(n)`` (the third cumulant over ``sd^3``)."""
    mu = math.sqrt(2.0) * ndtri(a)
    u, inv = np.unique(mu, return_inverse=True)
    if u.size <= _SKEW_NODES:
        mu3, cross = _third_moments(u)
        mu3, cross = mu3[inv], cross[inv]
    else:
        from scipy.interpolate import CubicSpline  # lazily: only boards with many distinct AUCs need it

        nodes = np.linspace(u[0], u[-1], _SKEW_NODES)
        m3, cr = _third_moments(nodes)
        mu3, cross = CubicSpline(nodes, m3)(mu), CubicSpline(nodes, cr)(mu)
    k3 = mu3 * (1.0 / n_pos**2 + 1.0 / n_neg**2) + 6.0 * cross / (float(n_pos) * n_neg)
    return k3 / sd**3


def auc_skewness(auc, n: int, prevalence: float):
    r"""Skewness of each classifier's empirical AUC, to order ``1 / sqrt(n)``.

    The third cumulant of the two-sample U-statistic (Mann-Whitney) is, to
    leading order,

    .. math:: \kappa_3 = \frac{E g^3}{n_+^2} + \frac{E h^3}{n_-^2} + \frac{6 E[g(X) h(Y) 1(Y < X)]}{n_+ n_-},

    with ``g, h`` the projection's halves (module docstring): the projection's own third moments plus
    the one term in which the degenerate remainder meets the projection.  For binormal classifiers
    with equal variances ``E h^3 = E g^3``; both expectations are one- and two-dimensional integrals
    computed by the trapezoidal rule.  Negative for AUCs above 0.5 (an AUC is bounded by 1).  Checked
    against the simulated skewness of :func:`~sotalib.multiplicity.simulate_auc` (200,000 test sets:
    within 2 standard errors at 100 to 600 positives).

    Parameters
    ----------
    auc : float or array of float
        True AUCs, each in ``(0, 1)``.
    n, prevalence
        Test-set size and share of positives (``round(n pi)`` positives).

    Returns
    -------
    ndarray
        ``kappa_3 / sd^3``, one entry per AUC.

    Examples
    --------
    >>> round(float(auc_skewness(0.9, 1000, 0.1)[0]), 3)
    -0.233
    """
    a = _as_aucs(auc, None if np.ndim(auc) else 1)
    n_pos, n_neg = n_positives(n, prevalence)
    sd = _components(a, n_pos, n_neg, 0.0)[0]
    return _skew(a, n_pos, n_neg, sd)


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
        ``sqrt(Var(AUC_hat_j))`` (exact, :func:`~sotalib.multiplicity.auc_variance`),
        the shared loading ``beta_j >= 0`` and the own sd ``tau_j``, one entry per AUC.

    Examples
    --------
    >>> sd, beta, tau = auc_normal_components(0.9, 2000, 0.3, rho=0.6)
    >>> bool(abs(beta[0] ** 2 + tau[0] ** 2 - sd[0] ** 2) < 1e-18)
    True
    """
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


@njit(cache=True)
def _inv_cf(x, g):
    """The ``y`` with ``y + g (y^2 - 1) = x`` on the increasing branch (``+-inf`` beyond its range)."""
    if g == 0.0:
        return x
    d = 1.0 + 4.0 * g * (g + x)
    if d < 0.0:
        return math.inf if g < 0.0 else -math.inf
    return 2.0 * (g + x) / (1.0 + math.sqrt(d))


#: ``exp`` of anything below this is exactly 0.0 (``exp(-745.2)`` is the smallest subnormal): a grid
#: point whose ``log F`` has fallen below it contributes 0 to ``F`` whatever is added to it.
_UNDERFLOW = -800.0


def _log_conditional_cdf(grid, zetas, aucs, sd, g, b, s, counts):
    """``log P(max_j AUC_hat_j <= grid[i] | zeta = zetas[k])`` as an array (zetas, grid).

    Team ``j``'s factor is ``Phi(s_j y_j(a) - b_j zeta)``, ``y_j(a)`` the
    Cornish-Fisher standard score of ``(a - A_j) / sd_j`` (``g_j`` = skewness / 6),
    ``s_j = sd_j / tau_j``, ``b_j = beta_j / tau_j``.  Teams are taken in
    blocks of ``_BLOCK`` (their ``s_j y_j(a)`` computed once for every
    ``zeta``: memory ``O(_BLOCK x grid)``), the ``zeta`` rows in parallel; a
    team adds ``log Phi`` to every grid point until its factor is within
    ``Phi(-_CUT)`` of 1 (it only grows with ``a``), and is skipped where it
    already is at the grid's low end.  ``counts[j]`` teams share team ``j``'s
    numbers (equal AUCs have equal factors), so ``m`` equal teams cost one.

    The teams are taken from the last (the highest AUC, ``aucs`` being sorted
    by :meth:`_Model.build`) to the first, and a grid point whose sum has
    fallen below :data:`_UNDERFLOW` takes no more terms: every later term is
    ``<= 0`` and ``exp`` of the sum is 0.0 either way, so :meth:`_Model.cdf`
    (which only takes ``exp`` of this array) is unchanged, and the strongest
    teams, taken first, empty the low end of each row soonest.  Any order of
    ``aucs`` gives the same ``F`` (up to the rounding of the sums).  The rows of ``zeta``
    are dealt to the threads round-robin (the work grows with ``zeta``; halves would not
    balance); each row is computed the same way whatever the number of threads.
    """
    return _log_conditional_kernel(grid, zetas, aucs, sd, g, b, s, counts, nb.get_num_threads())


@njit(parallel=True, cache=True)
def _log_conditional_kernel(grid, zetas, aucs, sd, g, b, s, counts, nth):  # noqa: PLR0917 (Numba kernel, positional)
    """:func:`_log_conditional_cdf` on ``nth`` threads."""
    nz = zetas.size
    na = grid.size
    m = aucs.size
    out = np.zeros((nz, na))
    start = np.zeros(nz, dtype=np.int64)  # row k: the grid points below start[k] are below _UNDERFLOW
    for j1 in range(m, 0, -_BLOCK):
        j0 = max(0, j1 - _BLOCK)
        y = np.empty((j1 - j0, na))
        for jj in nb.prange(j1 - j0):
            j = j0 + jj
            inv = 1.0 / sd[j]
            for i in range(na):
                y[jj, i] = s[j] * _inv_cf((grid[i] - aucs[j]) * inv, g[j])
        for t in nb.prange(nth):  # rows round-robin
            for k in range(t, nz, nth):
                z = zetas[k]
                i0 = start[k]
                for jj in range(j1 - j0 - 1, -1, -1):
                    if i0 >= na:
                        break
                    shift = b[j0 + jj] * z
                    if y[jj, i0] - shift > _CUT:
                        continue
                    c = counts[j0 + jj]
                    for i in range(i0, na):
                        x = y[jj, i] - shift
                        if x > _CUT:
                            break
                        out[k, i] += c * _log_ndtr(x)
                    while i0 < na and out[k, i0] < _UNDERFLOW:
                        i0 += 1
                start[k] = i0
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


def _psi(y: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The Cornish-Fisher map ``y + g (y^2 - 1)``, held at its maximum beyond the fold (``g < 0``)."""
    with np.errstate(divide="ignore"):
        fold = np.where(g < 0.0, -0.5 / g, np.inf)
    y = np.minimum(y, fold)
    return y + g * (y * y - 1.0)


def _inv_psi(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """:func:`_inv_cf` on arrays."""
    d = 1.0 + 4.0 * g * (g + x)
    with np.errstate(invalid="ignore"):
        y = 2.0 * (g + x) / (1.0 + np.sqrt(np.maximum(d, 0.0)))
    return np.where(d < 0.0, np.where(g < 0.0, np.inf, -np.inf), y)


@dataclass(frozen=True, eq=False)
class _Model:
    """The approximation's per-team numbers (checked arguments)."""

    aucs: np.ndarray
    sd: np.ndarray
    g: np.ndarray  # skewness / 6, within +-_G_MAX (0 without the correction)
    beta: np.ndarray
    tau: np.ndarray
    zetas: np.ndarray
    weights: np.ndarray
    counts: np.ndarray  # teams sharing each distinct AUC (float, for the compiled kernel)

    @classmethod
    def build(cls, a: np.ndarray, n_pos: int, n_neg: int, rho: float, skew: bool) -> _Model:
        m = a.size
        a, counts = np.unique(a, return_counts=True)  # equal AUCs, equal factors: computed once
        sd, beta, tau = _components(a, n_pos, n_neg, rho)
        g = np.clip(_skew(a, n_pos, n_neg, sd) / 6.0, -_G_MAX, _G_MAX) if skew else np.zeros_like(a)
        zetas, weights = _zeta_rule(m, beta, tau)
        return cls(a, sd, g, beta, tau, zetas, weights, counts.astype(float))

    def subset(self, keep: np.ndarray) -> _Model:
        return _Model(
            self.aucs[keep],
            self.sd[keep],
            self.g[keep],
            self.beta[keep],
            self.tau[keep],
            self.zetas,
            self.weights,
            self.counts[keep],
        )

    def cdf(self, grid: np.ndarray) -> np.ndarray:
        """``F`` on an increasing grid (1 at and above 1: an empirical AUC is at most 1)."""
        f = np.ones_like(grid)
        inside = grid < 1.0
        if inside.any():
            lg = _log_conditional_cdf(
                grid[inside],
                self.zetas,
                self.aucs,
                self.sd,
                self.g,
                self.beta / self.tau,
                self.sd / self.tau,
                self.counts,
            )
            f[inside] = self.weights @ np.exp(lg)
        return np.maximum.accumulate(np.clip(f, 0.0, 1.0))

    def low(self) -> float:
        """A point below the maximum's range: ``F <= P(AUC_hat_j <= low) <= Phi(-9)`` for the top team."""
        return float(np.max(self.aucs + self.sd * _psi(np.full(self.aucs.size, -9.0), self.g)))

    def high(self, m: int) -> float:
        """A point above it: ``1 - F <= m Phi(-z)`` (union bound) is below ``_EDGE``."""
        z = -float(ndtri(_EDGE / m))
        return min(float(np.max(self.aucs + self.sd * _psi(np.full(self.aucs.size, z), self.g))), 1.0)

    def reaching(self, low: float) -> np.ndarray:
        """Teams whose factor differs from 1 by more than ``Phi(-cut)`` somewhere above ``low``."""
        y = _inv_psi((low - self.aucs) / self.sd, self.g)
        return y * self.sd / self.tau - self.beta / self.tau * float(self.zetas[-1]) <= _CUT


def normal_max_auc_cdf(
    x, auc, n: int, prevalence: float, *, m: int | None = None, rho: float = 0.0, skew: bool = True
) -> np.ndarray:
    """``P(max_j AUC_hat_j <= x)`` under the normal approximation, at the points ``x``.

    Parameters as in :func:`normal_max_auc`; ``x`` is an array of AUCs
    (values at or above 1 give 1).
    """
    a = _as_aucs(auc, m)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    xs = np.atleast_1d(np.asarray(x, dtype=float))
    if xs.ndim != 1 or not np.all(np.isfinite(xs)):
        raise ValueError("x must be a finite number or a 1-d array of finite numbers")
    model = _Model.build(a, n_pos, n_neg, rho, bool(skew))
    order = np.argsort(xs)
    out = np.empty_like(xs)
    out[order] = model.cdf(xs[order])
    return out


@dataclass(frozen=True, repr=False)
class NormalMaxAUC(DistributionSummary):
    """The distribution of the best empirical AUC under the normal approximation.

    Returned by :func:`normal_max_auc` (the normal engine of
    :func:`sotalib.multiplicity.summarize_max_auc`): the fields of every
    distribution summary (``sotalib._distribution.DistributionSummary``)
    with ``engine="normal"``, deterministic (no Monte Carlo error: its error
    is the approximation's, :data:`NORMAL_AUC_ACCURACY`), and the model's:

    Attributes
    ----------
    n_pos, n_neg : int
        Positives (``round(n pi)``) and negatives of the test set.
    m, n : int
        Number of classifiers and test-set size.
    teams : int
        Classifiers that can reach the maximum's range (the others change
        ``log F`` by less than ``1e-30`` and are skipped).
    prevalence, rho : float
        The model's prevalence and correlation.
    """

    n_pos: int
    n_neg: int
    m: int
    n: int
    teams: int
    prevalence: float
    rho: float

    def to_dict(self) -> dict:
        """JSON-ready dictionary (finite numbers and ints)."""
        return json_safe(
            {
                "mean": self.mean,
                "sd": self.sd,
                "ci_low": self.ci_low,
                "ci_high": self.ci_high,
                "n_pos": self.n_pos,
                "n_neg": self.n_neg,
                "m": self.m,
                "teams": self.teams,
                "engine": self.engine,
            }
        )

    def summary(self) -> Summary:
        """The same numbers as a :class:`~sotalib.multiplicity.Summary` (``engine="normal"``)."""
        return Summary(self.mean, self.sd, self.ci_low, self.ci_high, engine="normal", alpha=self.alpha)


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
    auc,
    n: int,
    prevalence: float,
    *,
    m: int | None = None,
    rho: float = 0.0,
    alpha: float = 0.05,
    skew: bool = True,
) -> NormalMaxAUC:
    """Distribution of the best empirical AUC of ``m`` classifiers, by the normal approximation.

    The model of :func:`sotalib.multiplicity._auc_simulate.expected_max_auc` (binormal
    classifiers with unit variances, true AUCs ``A_j``, within-class
    correlation ``rho`` with a hidden reference classifier, one test set of
    ``n`` items with ``round(n pi)`` positives), with the empirical AUCs
    replaced by their normal approximation ``A_j + beta_j zeta + tau_j eps_j``
    (module docstring; Hanley and McNeil 1982, DeLong et al. 1988).  The cdf
    of the maximum is one integral over ``zeta``; the mean is
    ``a_0 + int (1 - F)``, the sd from ``2 int (a - a_0)(1 - F)``, the interval
    the equal-tailed quantiles (interpolated on the grid).  Deterministic: no
    random numbers, so a root finder over the AUCs sees a smooth function.

    Accuracy: the numerical error (grids in ``a`` and ``zeta``) is below
    ``1e-6`` of the maximum's sd in the mean and sd and ``1e-4`` in the
    interval; the approximation's error, measured against the simulation,
    is tabulated in the module docstring: at most 0.18 sd of the maximum for
    100 to 600 positives and up to 3,000 teams with the skewness correction
    (:data:`NORMAL_AUC_ACCURACY`).

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
    skew : bool
        Give each empirical AUC its skewness (:func:`auc_skewness`, the
        Cornish-Fisher map of the module docstring; default), or take it as
        normal.

    Returns
    -------
    NormalMaxAUC

    Examples
    --------
    One classifier taken as normal: its empirical AUC's exact sd.

    >>> s = normal_max_auc(0.9, 2000, 0.3, m=1, skew=False)
    >>> from sotalib.multiplicity import auc_variance
    >>> bool(abs(s.sd - auc_variance(0.9, 600, 1400) ** 0.5) < 1e-8)
    True
    """
    a = _as_aucs(auc, m)
    n = check_int("n", n, low=2)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    alpha = check_alpha("alpha", alpha)
    return _normal_max_auc(a, n, prevalence, rho, alpha, bool(skew))


def _normal_max_auc(a: np.ndarray, n: int, prevalence: float, rho: float, alpha: float, skew: bool) -> NormalMaxAUC:
    """The computation of :func:`normal_max_auc` on checked arguments (``a`` the array of AUCs)."""
    n_pos, n_neg = n_positives(n, prevalence)
    full = _Model.build(a, n_pos, n_neg, rho, bool(skew))
    low = full.low()
    keep = full.reaching(low)
    model = full.subset(keep)
    coarse = np.linspace(low, max(model.high(a.size), low + 1e-12), _COARSE)
    fc = model.cdf(coarse)
    i0 = max(int(np.searchsorted(fc, _EDGE, side="left")) - 1, 0)
    i1 = min(int(np.searchsorted(fc, 1.0 - _EDGE, side="left")) + 1, _COARSE - 1)
    grid = np.linspace(coarse[i0], coarse[i1], _FINE)
    f = model.cdf(grid)
    g = 1.0 - f
    a0 = float(grid[0])
    mean = a0 + _trapezoid(g, grid)
    # E (X - a0)^2 = 2 int (a - a0)(1 - F): the integrand's slope at a0 is 2 (1 - F(a0)), so the trapezoidal
    # rule is corrected by its Euler-Maclaurin end term h^2/12 * 2 (at the far end the slope is 0)
    h = float(grid[1] - grid[0])
    m2 = 2.0 * _trapezoid((grid - a0) * g, grid) + h * h / 6.0 * g[0]
    var = max(m2 - (mean - a0) ** 2, 0.0)
    return NormalMaxAUC(
        mean,
        math.sqrt(var),
        _quantile(grid, f, alpha / 2),
        _quantile(grid, f, 1 - alpha / 2),
        engine="normal",
        n_pos=n_pos,
        n_neg=n_neg,
        m=int(a.size),
        n=n,
        teams=int(full.counts[keep].sum()),
        prevalence=prevalence,
        rho=rho,
        alpha=alpha,
    )
