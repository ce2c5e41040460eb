r"""The dependence model measured item by item: ``rho_0`` and ``theta_0`` from items x models outcomes in [0, 1].

The multiplicity paper (Section 4.2) ties the classifiers through a reference
classifier ``Y_0 ~ Bernoulli(theta_0)``: given ``Y_0`` the ``Y_j`` are
independent, each with accuracy ``theta_j`` and correlation ``rho_0`` with
``Y_0`` (conditional probabilities of Eqs. 6-7, :func:`conditional_probs`).
Where many models answered the same items and their answers are published,
this model implies moments that can be matched.  Writing
``Z_j = (Y_j - theta_j) / sqrt(theta_j (1 - theta_j))`` and using
``p_1 - p_0 = rho_0 sqrt(theta_j (1 - theta_j) / (theta_0 (1 - theta_0)))``,

.. math::
    \mathrm{E}[Z_j Z_k] = \rho_0^2, \qquad
    \mathrm{E}[Z_j Z_k Z_l] = \rho_0^3\, \gamma(\theta_0), \quad
    \gamma(\theta_0) = \frac{1 - 2\theta_0}{\sqrt{\theta_0 (1 - \theta_0)}}

for distinct ``j, k, l``: every pair of models has the same phi coefficient
``rho_0^2`` whatever their accuracies, and every triple the same standardised
third co-moment (the skewness of ``Y_0`` scaled by ``rho_0^3``).  The
estimator (method of moments) averages the sample phi coefficients over the
pairs and the sample standardised co-moments over the triples,

.. math::
    \hat\rho_0 = \sqrt{\max(\bar\phi, 0)}, \qquad
    \hat\gamma = \bar\tau / \hat\rho_0^3, \qquad
    \hat\theta_0 = \tfrac12 \bigl(1 - \hat\gamma / \sqrt{\hat\gamma^2 + 4}\bigr),

the last inverting ``gamma``.  Both averages are power sums of the
standardised matrix per item (``e_1 = sum_j Z_ij``, ``p_2 = sum_j Z_ij^2``,
``p_3 = sum_j Z_ij^3``: the pairs sum to ``(e_1^2 - p_2) / 2``, the triples
to ``(e_1^3 - 3 e_1 p_2 + 2 p_3) / 6``), and each of ``Z``, ``Z^2``, ``Z^3``
is linear in a 0/1 entry, so a bootstrap resample (multinomial weights on the
items) costs three matrix products: ``O(n m B)`` for ``B`` resamples.

``rho_0`` is taken non-negative: the model with ``-rho_0`` and the reference's
labels swapped (``theta_0 -> 1 - theta_0``) is the same model.

**Graded outcomes** (a pass@1 averaged over ``K`` samples per item: a cell
``X_ij`` in [0, 1]).  Model ``j`` answers item ``i`` correctly with a
probability ``p_ij``, and a cell is the mean of ``K_ij`` samples drawn
independently given the item (and independently of the other models), so
``E[X_ij | i] = p_ij``.  The paper's classifier gives one answer per item:
its ``Y_ij`` is *one* such sample.  The rule: the accuracy is the mean of the
graded cells, ``theta_j = mean_i X_ij``, and ``Z_ij`` is standardised by the
Bernoulli variance of one answer, ``theta_j (1 - theta_j)``, exactly as for
0/1 cells (where it is the column's variance, so the binary numbers are
unchanged).  Then for distinct models the prediction noise averages out of
every cross moment, ``E[(X_j - theta_j)(X_k - theta_k)] = Cov(p_j, p_k) =
Cov(Y_j, Y_k)``, and likewise for triples: ``mean phi`` estimates the phi of
one answer of each model, ``rho_0^2`` of the paper's model, and ``mean tau``
its ``rho_0^3 gamma(theta_0)``, whatever ``K`` is, known or not (the
CRUXEval files do not record it); no correction with ``samples`` or
``squares`` is needed, and none is applied.  The power sums then need
``X^2`` and ``X^3`` (three more matrix products).

What this is *not*: the Pearson correlation of the graded cells,
``r_X = Cov(p_j, p_k) / sqrt(Var X_j Var X_k)`` with ``Var X_j = Var p_j +
E[p_j (1 - p_j) / K]``.  Against the correlation of the success
probabilities ``p`` it is attenuated by the prediction noise (Spearman's
attenuation, ``r_X = r_p sqrt(R_j R_k)``, ``R = Var p / Var X``); against the
paper's ``rho_0^2`` it is inflated, since averaging ``K`` answers removes
prediction noise from the variance but not from the covariance: under the
reference model with every cell a mean of ``K`` answers,
``r_X = rho_0^2 / (rho_0^2 + (1 - rho_0^2) / K)`` (``rho_0^2`` at ``K = 1``,
1 as ``K -> infinity``).  :attr:`Dependence.mean_corr` reports ``r_X`` beside
``mean_phi`` for graded outcomes, so the two can be compared.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._deprecate import REMOVED_IN_NEXT, renamed_arguments, warn_deprecated
from .._json import json_safe
from .._per_item import PerItem, as_per_item
from .._result import Result
from .._rng import as_generator, check_rng, seed_record
from .._validate import (
    ParameterError,
    check_alpha,
    check_choice,
    check_int,
    check_real,
    format_seconds,
    time_limit,
)

__all__ = ["Dependence", "DependenceFit", "dependence_fit", "estimate_dependence", "simulate_per_item"]

#: Resamples per block of the vectorised bootstrap (bounds memory: a few ``n x block`` arrays).
_BLOCK = 64
#: The fit test's level.
FIT_LEVEL = 0.05


# ----------------------------------------------------------------------------------------------------------------
# input


def _as_matrix(
    correct: Any, name: str = "correct", function: str = "estimate_dependence"
) -> tuple[np.ndarray, list[str]]:
    """``(Y, names)``: the items x models outcomes in [0, 1] (NaN = missing) and the model names (:func:`as_per_item`).

    A cell outside [0, 1] is refused by its place; graded cells (a share of correct samples) are taken.
    """
    table = as_per_item(correct, name, function=function)
    table._require_unit(name, function)
    n, m = table.outcomes.shape
    if m < 2:
        raise ValueError(f"{name} must have at least 2 models (columns), got {m}")
    if n < 2:
        raise ValueError(f"{name} must have at least 2 items (rows), got {n}")
    return table.outcomes, list(table.models)


#: Seconds per bootstrap resample and per item x model cell (three matrix products and their sums, 2 cores).
_SECONDS_PER_CELL = 1.6e-8


def _check_bootstrap_time(n_resamples: int, n: int, m: int) -> None:
    """Refuse up front a bootstrap expected to take longer than the time limit, naming ``n_resamples``'s range."""
    per = _SECONDS_PER_CELL * max(n, 1) * max(m, 1) + 4e-5  # and a block's fixed cost per resample
    seconds = per * n_resamples
    limit = time_limit()
    if seconds > limit:
        most = max(int(limit / per), 0)
        raise ParameterError(
            f"n_resamples must be an integer in [0, {most:,}] for {n:,} items x {m:,} models: {n_resamples:,} "
            f"bootstrap resamples are expected to take {format_seconds(seconds)} on a 2-core machine, more than the "
            f"{format_seconds(limit).removeprefix('about ')} sotalib allows itself (SOTALIB_TIME_LIMIT); "
            "1000 resamples give intervals to about 2 digits",
            "n_resamples",
        )


# ----------------------------------------------------------------------------------------------------------------
# the estimator


def _powers(Y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(Y^2, Y^3)`` for graded outcomes; None for 0/1 ones (where both are ``Y``)."""
    if np.all((Y == 0) | (Y == 1)):
        return None
    Y2 = Y * Y
    return Y2, Y2 * Y


def _moments(
    Y: np.ndarray, W: np.ndarray, powers: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean pairwise phi, mean standardised triple co-moment and models used, per row of weights ``W``.

    ``Y`` is ``n x m`` in [0, 1] (no NaN); ``W`` is ``B x n`` of item weights summing to ``n`` per row;
    ``powers`` is :func:`_powers` of ``Y`` (None: 0/1 outcomes).  ``Z = (Y - mu) / sqrt(mu (1 - mu))``
    with the Bernoulli variance of one answer (the module's rule for graded outcomes).  A model
    constant under a resample's weights has no phi; it is left out of that resample's averages.
    """
    n = Y.shape[0]
    mu = (W @ Y) / n  # B x m weighted accuracies
    var = mu * (1.0 - mu)
    ok = var > 1e-12
    var_ = np.where(ok, var, 1.0)
    sd = np.sqrt(var_)
    mu_ = np.where(ok, mu, 0.0)
    # Z = (Y - mu) / sd is linear in a 0/1 entry, and so are Z^2 and Z^3:
    a1 = np.where(ok, 1.0 / sd, 0.0)
    c1 = (mu_ * a1).sum(axis=1)
    a2 = np.where(ok, (1.0 - 2.0 * mu) / var_, 0.0)
    c2 = (mu_**2 / var_).sum(axis=1)
    a3 = np.where(ok, ((1.0 - mu) ** 3 + mu**3) / (var_ * sd), 0.0)
    c3 = (mu_**3 / (var_ * sd)).sum(axis=1)
    e1 = Y @ a1.T - c1  # n x B
    if powers is None:
        p2 = Y @ a2.T + c2
        p3 = Y @ a3.T - c3
    else:  # graded: Z^2 and Z^3 are polynomials in an entry, (Y - mu)^2 / var and (Y - mu)^3 / (var sd)
        Y2, Y3 = powers
        b2 = np.where(ok, 1.0 / var_, 0.0)
        b3 = np.where(ok, 1.0 / (var_ * sd), 0.0)
        p2 = Y2 @ b2.T - Y @ (2.0 * mu_ * b2).T + c2
        p3 = Y3 @ b3.T - Y2 @ (3.0 * mu_ * b3).T + Y @ (3.0 * mu_**2 * b3).T - c3
    wt = W.T / n
    e1sq = e1 * e1
    s2 = np.einsum("ib,ib->b", e1sq - p2, wt)
    s3 = np.einsum("ib,ib->b", e1 * (e1sq - 3.0 * p2) + 2.0 * p3, wt)
    mb = ok.sum(axis=1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_phi = np.where(mb >= 2, s2 / (mb * (mb - 1.0)), np.nan)
        mean_tau = np.where(mb >= 3, s3 / (mb * (mb - 1.0) * (mb - 2.0)), np.nan)
    return mean_phi, mean_tau, mb


def _parameters(mean_phi, mean_tau) -> tuple[np.ndarray, np.ndarray]:
    """``rho_0`` and ``theta_0`` from the two averages (NaN where undefined)."""
    mean_phi = np.asarray(mean_phi, dtype=float)
    rho = np.sqrt(np.clip(mean_phi, 0.0, None))
    with np.errstate(invalid="ignore", divide="ignore"):
        gamma = np.where(rho > 0, np.asarray(mean_tau, dtype=float) / rho**3, np.nan)
        theta0 = 0.5 * (1.0 - gamma / np.sqrt(gamma * gamma + 4.0))
    return rho, theta0


def _weights(n: int, size: int, gen: np.random.Generator) -> np.ndarray:
    """``size`` rows of multinomial(n, 1/n) item counts (a bootstrap over items)."""
    idx = gen.integers(0, n, size=(size, n))
    idx += (np.arange(size) * n)[:, None]
    return np.bincount(idx.ravel(), minlength=size * n).reshape(size, n).astype(float)


def _bootstrap(Y: np.ndarray, n_resamples: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Mean phi and mean triple co-moment of ``n_resamples`` bootstrap resamples of the items (NumPy)."""
    n = Y.shape[0]
    phis, taus = [], []
    powers = _powers(Y)
    for start in range(0, n_resamples, _BLOCK):
        W = _weights(n, min(_BLOCK, n_resamples - start), gen)
        p, t, _ = _moments(Y, W, powers)
        phis.append(p)
        taus.append(t)
    return np.concatenate(phis), np.concatenate(taus)


def _percentile(values: np.ndarray, alpha: float) -> tuple[float | None, float | None]:
    v = values[np.isfinite(values)]
    if v.size == 0:
        return None, None
    lo, hi = np.quantile(v, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def _none(x) -> float | None:
    return float(x) if x is not None and np.isfinite(x) else None


@dataclass(frozen=True, repr=False)
class Dependence(Result):
    """The dependence parameters measured from per-item results (what :func:`estimate_dependence` returns).

    Attributes
    ----------
    rho0 : float
        Estimated correlation ``rho_0`` of each model with the reference classifier (``>= 0``).
    rho0_low, rho0_high : float or None
        Percentile bootstrap interval (over items) of level ``1 - alpha``; None without resamples.
    theta0 : float or None
        Estimated accuracy ``theta_0`` of the reference classifier; None when undefined (``rho0 = 0``
        or fewer than three models).
    theta0_low, theta0_high : float or None
        Its bootstrap interval.
    mean_phi : float
        The mean pairwise phi coefficient, ``rho0 ** 2`` when positive.
    mean_tau : float or None
        The mean standardised third co-moment over triples of models.
    n_items : int
        Items used: those answered by every model (the others are dropped).
    n_models : int
        Models used (those neither right nor wrong on every item used).
    models : tuple of str
        Their names.
    theta : tuple of float
        Their accuracies on the items used.
    missing : dict
        Missing answers per model of the input (name -> count; only models with some).
    items_dropped : int
        Items dropped because some model did not answer them.
    constant : tuple of str
        Models right on every item used or wrong on every one: their phi is undefined, so they are
        left out.
    n_resamples : int
        Bootstrap resamples.
    alpha : float
        Interval level.
    seed : int or None
        The ``rng`` seed when it was an int.
    method : str
        ``"moments"``: pairwise phi and triple co-moments matched to the model.
    graded : bool
        Whether some cell used is graded (strictly between 0 and 1): then ``mean_phi`` is the phi of
        one answer of each model, measured from the means of their samples (see :func:`estimate_dependence`).
    mean_corr : float or None
        For graded outcomes, the mean pairwise Pearson correlation of the graded cells (``mean_phi``'s
        numerators over the cells' own variances), which prediction noise pulls away from ``rho0 ** 2``;
        None for 0/1 outcomes, where it equals ``mean_phi``.
    """

    rho0: float
    rho0_low: float | None
    rho0_high: float | None
    theta0: float | None
    theta0_low: float | None
    theta0_high: float | None
    mean_phi: float
    mean_tau: float | None
    n_items: int
    n_models: int
    models: tuple
    theta: tuple
    missing: dict
    items_dropped: int
    constant: tuple
    n_resamples: int
    alpha: float
    seed: int | None = None
    method: str = "moments"
    graded: bool = False
    mean_corr: float | None = None
    _Y: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_text(self) -> str:
        """``rho_0``, ``theta_0`` and the mean phi with their intervals: what ``sotalib dependence`` prints."""
        lo, hi = self.rho0_low, self.rho0_high
        rows = [
            f"dependence of {self.n_models} models on {self.n_items:,} items (answered by all)",
            f"  rho_0            {self.rho0:.4f}" + (f"  ({lo:.4f}, {hi:.4f})" if lo is not None else ""),
        ]
        if self.theta0 is not None:
            rows.append(
                f"  theta_0          {self.theta0:.4f}"
                + (f"  ({self.theta0_low:.4f}, {self.theta0_high:.4f})" if self.theta0_low is not None else "")
            )
        rows.append(f"  mean phi         {self.mean_phi:.4f}")
        if self.graded and self.mean_corr is not None:
            rows.append(
                f"  mean corr        {self.mean_corr:.4f}  (of the graded cells; mean phi is of one answer each)"
            )
        if self.items_dropped:
            rows.append(f"  note: {self.items_dropped:,} items left out: some model did not answer them")
        if self.constant:
            rows.append(f"  note: left out, right or wrong on every item: {', '.join(self.constant)}")
        return "\n".join(rows)


def _prepare(Y: np.ndarray, names: list[str]) -> tuple[np.ndarray, list[str], dict, int, list[str]]:
    """Complete items and non-constant models: ``(Y, names, missing, dropped, constant)``."""
    miss = np.isnan(Y)
    missing = {names[j]: int(c) for j, c in enumerate(miss.sum(axis=0)) if c}
    complete = ~miss.any(axis=1)
    dropped = int((~complete).sum())
    Yc = Y[complete]
    mean = Yc.mean(axis=0) if Yc.shape[0] else np.zeros(Y.shape[1])
    keep = (mean > 0) & (mean < 1)
    constant = [names[j] for j in np.flatnonzero(~keep)]
    return np.ascontiguousarray(Yc[:, keep]), [names[j] for j in np.flatnonzero(keep)], missing, dropped, constant


def estimate_dependence(
    correct: Any, *, n_resamples: int = 1000, alpha: float = 0.05, rng: int | np.random.Generator | None = None
) -> Dependence:
    r"""Estimate the paper's dependence parameters ``rho_0`` and ``theta_0`` from per-item results.

    Under the model of Section 4.2 (a reference classifier ``Y_0`` of
    accuracy ``theta_0``, each model correlated ``rho_0`` with it and
    independent of the others given it) every pair of models has phi
    coefficient ``rho_0^2`` and every triple the standardised third
    co-moment ``rho_0^3 (1 - 2 theta_0) / sqrt(theta_0 (1 - theta_0))``.
    The estimator matches both to their averages over the pairs and triples
    of models (method of moments):

    .. math::
        \hat\rho_0 = \sqrt{\max(\bar\phi, 0)}, \qquad
        \hat\theta_0 = \tfrac12\Bigl(1 - \frac{\hat\gamma}{\sqrt{\hat\gamma^2 + 4}}\Bigr), \quad
        \hat\gamma = \bar\tau / \hat\rho_0^3 .

    The interval is the percentile bootstrap over items (multinomial item
    weights; the models' accuracies are re-estimated in each resample).
    Items some model did not answer are dropped (a complete-case analysis,
    unbiased when answers are missing at random); models right or wrong on
    every item have no phi and are left out.  Both are reported.

    Graded outcomes (a cell in [0, 1]: the share of ``K`` samples that were
    correct, a pass@1 averaged over samples) are taken by one rule: a
    model's accuracy ``theta_j`` is the mean of its graded cells, and the
    standardisation uses the variance of *one* answer, ``theta_j (1 -
    theta_j)``, as for 0/1 cells (where it is the column's own variance: the
    binary numbers are those of the 0/1 estimator).  The samples of a cell
    are independent given the item and of the other models' samples, so the
    prediction noise cancels from the cross moments of distinct models:
    ``mean_phi`` estimates the phi of one answer of each model, the
    paper's ``rho_0^2``, without bias from the ``K`` samples, whether ``K``
    is known or not; no correction by ``samples`` or ``squares`` is needed.
    The Pearson correlation of the graded cells themselves (``mean_corr``)
    is not that: prediction noise ``E[p (1 - p)] / K`` in each cell's
    variance attenuates it against the correlation of the models' per-item
    success probabilities, while averaging removes noise that one answer
    has, so that under the reference model it is ``rho_0^2 / (rho_0^2 + (1 -
    rho_0^2) / K)``, above ``rho_0^2`` for ``K > 1`` (module docstring).

    Parameters
    ----------
    correct : PerItem or pandas.DataFrame
        Per-item results, items as rows and models as columns: 1 (correct)
        and 0 (wrong), or a graded share in [0, 1] (a mean over samples),
        NaN for a missing answer (a :class:`~sotalib.PerItem`, what
        :func:`~sotalib.read_per_item` returns, or a DataFrame with one
        column per model).  An item id listed twice is refused (it would
        count twice); so is a cell outside [0, 1] (a loss), by its place.
    n_resamples : int
        Bootstrap resamples, ``>= 0`` (0: no interval); refused up front when
        they would take longer than the time limit (a minute unless
        ``SOTALIB_TIME_LIMIT`` says otherwise), the message giving the range.
    alpha : float
        The interval has level ``1 - alpha``.
    rng : int, numpy.random.Generator or None
        Randomness of the bootstrap.

    Returns
    -------
    Dependence
        ``rho0``, ``theta0``, their intervals and what was left out.

    Raises
    ------
    ValueError
        If ``correct`` is not per-item results in [0, 1] (or NaN) with at least two
        models and two items (a bare array is refused: wrap it as
        ``PerItem(array)``, items as rows), if fewer than two models vary over the items
        answered by all, or if ``n_resamples``, ``alpha`` or ``rng`` is out
        of range (the message names the argument).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2 (Eqs. 6-8); Boland, Proschan & Tong
    (1989), *J. Appl. Prob.* 26: 81-88.

    Examples
    --------
    >>> from sotalib.multiplicity import estimate_dependence, simulate_per_item
    >>> Y = simulate_per_item(5000, [0.6, 0.65, 0.7, 0.75, 0.8] * 4, rho=0.6, theta0=0.7, rng=1)
    >>> d = estimate_dependence(Y, n_resamples=200, rng=2)  # Y: a PerItem, 5000 items x 20 models
    >>> round(d.rho0, 2), d.rho0_low < 0.6 < d.rho0_high
    (0.6, True)

    Graded cells (shares of samples that passed) give each model's mean and
    the phi of one answer each, below the shares' own correlation:

    >>> import numpy as np
    >>> from sotalib import PerItem
    >>> X = np.array([[1, .8, .9], [0, .1, .2], [1, .6, .7], [0, .3, 0], [1, .9, .5]])
    >>> g = estimate_dependence(PerItem(X), n_resamples=0)
    >>> g.graded, round(g.theta[1], 2), round(g.mean_phi, 3), round(g.mean_corr, 3)
    (True, 0.54, 0.481, 0.858)
    """
    n_resamples = check_int("n_resamples", n_resamples, low=0)
    alpha = check_alpha("alpha", alpha)
    check_rng(rng)
    Y, names = _as_matrix(correct)
    Yc, used, missing, dropped, constant = _prepare(Y, names)
    _check_bootstrap_time(n_resamples, Yc.shape[0], Yc.shape[1])
    if Yc.shape[0] < 2:
        raise ValueError(f"correct has {Yc.shape[0]} item(s) answered by every model; at least 2 are needed")
    if Yc.shape[1] < 2:
        raise ValueError(
            f"correct has {Yc.shape[1]} model(s) neither right nor wrong on every item; at least 2 are needed "
            f"(constant: {', '.join(constant)})"
        )
    powers = _powers(Yc)
    phi, tau, _ = _moments(Yc, np.ones((1, Yc.shape[0])), powers)
    rho, theta0 = _parameters(phi, tau)
    rlo = rhi = tlo = thi = None
    if n_resamples:
        bphi, btau = _bootstrap(Yc, n_resamples, as_generator(rng))
        brho, bth0 = _parameters(bphi, btau)
        rlo, rhi = _percentile(brho, alpha)
        tlo, thi = _percentile(bth0, alpha)
    return Dependence(
        rho0=float(rho[0]),
        rho0_low=rlo,
        rho0_high=rhi,
        theta0=_none(theta0[0]),
        theta0_low=tlo,
        theta0_high=thi,
        mean_phi=float(phi[0]),
        mean_tau=_none(tau[0]),
        n_items=int(Yc.shape[0]),
        n_models=int(Yc.shape[1]),
        models=tuple(used),
        theta=tuple(float(t) for t in Yc.mean(axis=0)),
        missing=missing,
        items_dropped=dropped,
        constant=tuple(constant),
        n_resamples=n_resamples,
        alpha=alpha,
        seed=seed_record(rng),
        graded=powers is not None,
        mean_corr=None if powers is None else _mean_corr(Yc),
        _Y=Yc,
    )


def _mean_corr(Y: np.ndarray) -> float | None:
    """Mean pairwise Pearson correlation of the columns of ``Y`` (columns without variance left out)."""
    sd = Y.std(axis=0)
    keep = sd > 1e-12
    if keep.sum() < 2:
        return None
    R = np.corrcoef(Y[:, keep], rowvar=False)
    iu = np.triu_indices(R.shape[0], 1)
    return float(R[iu].mean())


# ----------------------------------------------------------------------------------------------------------------
# simulation: the paper's model and the latent-difficulty alternative


def _gauss_hermite(nodes: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights for ``E f(B)``, ``B ~ N(0, 1)``."""
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    return x, w / w.sum()


def _norm_cdf(x):
    from scipy.special import ndtr

    return ndtr(x)


def _difficulty_mean_phi(theta: np.ndarray, s: float) -> float:
    """Mean pairwise phi of the probit difficulty model with spread ``s`` and accuracies ``theta``."""
    from scipy.special import ndtri

    b, w = _gauss_hermite()
    a = ndtri(theta) * math.sqrt(1.0 + s * s)
    P = _norm_cdf(a[None, :] - s * b[:, None])  # nodes x m: P(Y_j = 1 | B = b)
    both = (P * w[:, None]).T @ P  # m x m: P(Y_j = Y_k = 1)
    sd = np.sqrt(theta * (1 - theta))
    phi = (both - np.outer(theta, theta)) / np.outer(sd, sd)
    iu = np.triu_indices(theta.size, 1)
    return float(phi[iu].mean())


def _difficulty_spread(theta: np.ndarray, mean_phi: float) -> float:
    """The spread ``s`` whose probit difficulty model has mean pairwise phi ``mean_phi``."""
    from scipy.optimize import brentq

    if mean_phi <= 0:
        return 0.0
    hi = 1.0
    while _difficulty_mean_phi(theta, hi) < mean_phi:
        hi *= 2.0
        if hi > 1e4:
            raise ValueError(f"rho={math.sqrt(mean_phi):g} is not reachable by the difficulty model for this theta")
    return float(brentq(lambda s: _difficulty_mean_phi(theta, s) - mean_phi, 0.0, hi, xtol=1e-10))


def simulate_per_item(
    n: int,
    theta: ArrayLike,
    *,
    rho: float,
    theta0: float | None = None,
    model: str = "reference",
    rng: int | np.random.Generator | None = None,
) -> PerItem:
    r"""Simulate per-item 0/1 results: the paper's dependence model or a latent item difficulty.

    ``model="reference"`` (Section 4.2): per item a reference outcome
    ``Y_0 ~ Bernoulli(theta0)``, then model ``j`` is right with probability
    ``p_1(theta_j)`` or ``p_0(theta_j)`` (Eqs. 6-7, clipped to ``[0, 1]``
    where ``theta_j`` violates Eq. 8), independently given ``Y_0``: pairwise
    phi ``rho^2``.

    ``model="difficulty"`` (the alternative): per item a difficulty
    ``B ~ N(0, 1)`` and model ``j`` right with probability
    ``Phi(a_j - s B)``, with ``a_j = Phi^{-1}(theta_j) sqrt(1 + s^2)`` (so its
    accuracy is ``theta_j``) and the spread ``s`` chosen so that the mean
    pairwise phi over the models is ``rho^2``, that of the reference model.
    Its phi varies with the accuracies of the pair (a continuous latent
    variable), which the reference model's does not.

    Parameters
    ----------
    n : int
        Items, ``>= 1``.
    theta : array_like of float
        Accuracies of the models, in ``(0, 1)``.
    rho : float
        ``rho_0`` in ``[0, 1)``: correlation with the reference classifier, or
        the square root of the mean pairwise phi of the difficulty model.
    theta0 : float, optional
        Accuracy of the reference classifier (reference model; default the
        mean of ``theta``).
    model : {"reference", "difficulty"}
        Which model.
    rng : int, numpy.random.Generator or None
        Randomness.

    Returns
    -------
    PerItem
        ``n`` items as rows, ``len(theta)`` models as columns (``"model 1"``,
        ...): 1 for a correct answer, 0 for a wrong one.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2, Eqs. 6-8 and Figure 7 (the sampling
    procedure).

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_per_item
    >>> simulate_per_item(4, [0.5, 0.9], rho=0.6, theta0=0.7, rng=0).outcomes.shape
    (4, 2)
    """
    return PerItem(_simulate(n, theta, rho=rho, theta0=theta0, model=model, rng=rng))


def _simulate(
    n: int,
    theta: ArrayLike,
    *,
    rho: float,
    theta0: float | None = None,
    model: str = "reference",
    rng: int | np.random.Generator | None = None,
) -> np.ndarray:
    """The items x models 0/1 array of :func:`simulate_per_item`."""
    from ._dependence_model import conditional_probs

    n = check_int("n", n, low=1)
    th = np.atleast_1d(np.asarray(theta, dtype=float))
    if th.ndim != 1 or th.size < 1 or not np.all((th > 0) & (th < 1)):
        raise ValueError("theta must be a non-empty 1-d array of accuracies in (0, 1)")
    rho = check_real("rho", rho, low=0.0, high=1.0, high_open=True)
    model = check_choice("model", model, ("reference", "difficulty"))
    gen = as_generator(rng)
    if model == "difficulty":
        from scipy.special import ndtri

        s = _difficulty_spread(th, rho * rho)
        a = ndtri(th) * math.sqrt(1.0 + s * s)
        b = gen.standard_normal(n)
        p = _norm_cdf(a[None, :] - s * b[:, None])
        return (gen.random((n, th.size)) < p).astype(float)
    t0 = (
        float(th.mean())
        if theta0 is None
        else check_real("theta0", theta0, low=0.0, high=1.0, low_open=True, high_open=True)
    )
    p1, p0 = conditional_probs(th, t0, rho)
    p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
    y0 = gen.random(n) < t0
    p = np.where(y0[:, None], p1[None, :], p0[None, :])
    return (gen.random((n, th.size)) < p).astype(float)


# ----------------------------------------------------------------------------------------------------------------
# the fit of the model


def _phi_matrix(Y: np.ndarray) -> np.ndarray:
    """Pairwise phi coefficients of the columns of a 0/1 matrix (no constant column)."""
    n = Y.shape[0]
    mu = Y.mean(axis=0)
    C = (Y.T @ Y) / n - np.outer(mu, mu)
    sd = np.sqrt(mu * (1 - mu))
    return C / np.outer(sd, sd)


def _dispersion(Y: np.ndarray) -> float:
    """The fit statistic: ``n`` times the sum over pairs of the squared deviation of phi from its mean."""
    phi = _phi_matrix(Y)
    iu = np.triu_indices(Y.shape[1], 1)
    v = phi[iu]
    v = v[np.isfinite(v)]
    return float(Y.shape[0] * np.sum((v - v.mean()) ** 2))


def _observed_best_of_k(Y: np.ndarray, k: int, n_subsets: int, gen: np.random.Generator) -> tuple[np.ndarray, bool]:
    """Best count correct over k-subsets of the models: every subset when there are at most ``n_subsets``."""
    counts = Y.sum(axis=0)
    m = counts.size
    if math.comb(m, k) <= n_subsets:
        best = np.array([counts[list(c)].max() for c in itertools.combinations(range(m), k)])
        return best, True
    keys = gen.random((n_subsets, m))
    idx = np.argpartition(keys, k - 1, axis=1)[:, :k]
    return counts[idx].max(axis=1), False


#: The exact prediction (:func:`max_distribution`) is used up to this many items times distinct accuracies
#: (its cost grows like ``n^2`` times the atoms: 30 models and 12,000 items take about a minute per ``k``);
#: beyond, the model is simulated.
_EXACT_WORK = 60_000
#: Simulated leaderboards of ``k`` models for the prediction beyond :data:`_EXACT_WORK`.
_PREDICT_DRAWS = 100_000


def _predicted_best_of_k(n: int, k: int, theta: np.ndarray, rho0: float, theta0: float):
    """The model's distribution of the best count of k models with accuracies drawn from ``theta`` (exact)."""
    from ._max_dependent import max_distribution
    from ._theta_dist import Empirical

    return max_distribution(n, k, Empirical(theta), rho=rho0, theta0=theta0)


def _simulated_best_of_k(
    n: int, k: int, theta: np.ndarray, rho0: float, theta0: float, draws: int, gen: np.random.Generator
) -> np.ndarray:
    """Best counts of ``draws`` simulated boards of the model: ``K_0 ~ B(n, theta0)``, ``theta_j`` from ``theta``."""
    from ._dependence_model import conditional_probs

    p1, p0 = conditional_probs(theta, theta0, rho0)
    p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
    k0 = gen.binomial(n, theta0, size=draws) if rho0 > 0 else np.full(draws, n)
    j = gen.integers(0, theta.size, size=(draws, k))
    x = gen.binomial(k0[:, None], p1[j]) + gen.binomial((n - k0)[:, None], p0[j])
    return x.max(axis=1)


@dataclass(frozen=True, repr=False)
class DependenceFit(Result):
    """How well the paper's dependence model fits per-item results (what :func:`dependence_fit` returns).

    Attributes
    ----------
    statistic : float
        ``D = n sum_{j<k} (phi_jk - mean phi)^2``: the dispersion of the pairwise phi coefficients,
        which the model says all equal ``rho_0^2``.
    p_value : float
        Parametric-bootstrap p-value: ``(1 + #{D* >= D}) / (1 + n_null)`` with ``D*`` from matrices
        simulated under the fitted model (same items, accuracies, ``rho_0``, ``theta_0``).
    level : float
        The test's level (0.05).
    rejected : bool
        ``p_value <= level``: the model does not fit.
    n_null : int
        Simulated matrices.
    phi_sd : float
        Standard deviation of the pairwise phi over the pairs.
    agreement_observed, agreement_predicted : ndarray
        Pairwise agreement rates (models x models): observed, and the model's
        ``similarity(theta_j, theta_k, rho_0^2)``.
    agreement_mae : float
        Mean absolute difference between the two over the pairs.
    best_of_m : list of dict
        Per number of models ``m`` (the row's ``"m"``): the observed best accuracy over m-subsets of the models (``observed_mean``,
        ``observed_q05``, ``observed_q95``; ``exhaustive`` when every subset was enumerated) and the
        model's prediction by :func:`max_distribution` with the fitted accuracies as an
        :class:`Empirical` ``P(theta)`` (``predicted_mean``, ``predicted_q05``, ``predicted_q95``),
        the Kolmogorov distance between the two distributions (``ks``) and how the prediction was
        computed (``prediction``: ``"exact"``, or ``"simulated"`` from 100,000 boards when the exact
        computation would take minutes: items times distinct accuracies above 60,000).
    excluded : tuple of str
        Models whose accuracy violates Eq. 8 (or its twin) under the fitted ``rho_0, theta_0``,
        left out of the best-of-m prediction and comparison.
    dependence : Dependence
        The fitted parameters.
    seed : int or None
        The ``rng`` seed when it was an int.
    """

    statistic: float
    p_value: float
    level: float
    rejected: bool
    n_null: int
    phi_sd: float
    agreement_observed: np.ndarray
    agreement_predicted: np.ndarray
    agreement_mae: float
    best_of_m: list
    excluded: tuple
    dependence: Dependence
    seed: int | None = None

    def to_dict(self) -> dict:
        """The result as JSON-safe values (the fitted parameters as a nested dictionary)."""
        out = {k: v for k, v in super().to_dict().items() if k != "dependence"}
        out["dependence"] = self.dependence.to_dict()
        return json_safe(out)

    def to_text(self) -> str:
        """The test of the model and the best of m models: the lines ``sotalib dependence --fit`` adds."""
        verdict = "rejected" if self.rejected else "not rejected"
        rows = [f"  fit: D = {self.statistic:,.1f}, p = {self.p_value:.3f}: the model is {verdict} at {self.level}"]
        for b in self.best_of_m:
            rows.append(
                f"  best of {b['m']:>3}: observed {b['observed_mean']:.4f}, predicted {b['predicted_mean']:.4f}"
            )
        return "\n".join(rows)

    @property
    def best_of_k(self) -> list:
        """Deprecated: :attr:`best_of_m` (``k`` is for folds only), each row also under its former key ``"k"``."""
        warn_deprecated(
            "DependenceFit.best_of_k", "best_of_m (each row's number of models under 'm')", removed_in=REMOVED_IN_NEXT
        )
        return [{**row, "k": row["m"]} for row in self.best_of_m]


@renamed_arguments(ks="ms", removed_in=REMOVED_IN_NEXT)
def dependence_fit(
    correct: Any,
    *,
    dependence: Dependence | None = None,
    ms: Sequence[int] | None = None,
    n_null: int = 199,
    n_subsets: int = 2000,
    rng: int | np.random.Generator | None = None,
) -> DependenceFit:
    r"""Test the paper's dependence model on per-item results, and compare its predictions with them.

    The test (level 0.05): the model says every pair of models has phi
    coefficient ``rho_0^2``, so its statistic is the dispersion
    ``D = n sum_{j<k} (phi_jk - mean phi)^2`` of the observed pairwise phi;
    its null distribution is simulated under the fitted model
    (:func:`simulate_per_item` with the models' accuracies, ``rho_0`` and
    ``theta_0`` of :func:`estimate_dependence`), and the model is rejected
    when ``p = (1 + #{D* >= D}) / (1 + n_null) <= 0.05``.  Against a
    latent item difficulty with the same mean pairwise correlation
    (``simulate_per_item(..., model="difficulty")``) its power at 30 models x
    6,000 items is measured in the tests (``tests/multiplicity/test_dependence_measure.py``).

    Beside the test: the model's pairwise agreement
    (:func:`similarity` with ``rho_jk = rho_0^2``) against the observed, and
    its distribution of the best score of ``m`` models
    (:func:`max_distribution`, the fitted accuracies as an :class:`Empirical`
    ``P(theta)``, drawn with replacement; simulated from 100,000 boards of the
    same model when the exact computation would take minutes) against the best over ``m``-subsets
    of the models (without replacement; all subsets when there are at most
    ``n_subsets``, else ``n_subsets`` random ones).

    Graded outcomes (means of ``K`` samples) are taken as
    :func:`estimate_dependence` takes them: the pairwise phi, the agreement
    (``E[X_j X_k + (1 - X_j)(1 - X_k)]``, the chance that one answer of each
    agrees) and the accuracies are those of one answer per model, unbiased
    whatever ``K``.  When the table records each cell's ``K``
    (:attr:`PerItem.samples`) the null matrices are means of ``K`` answers
    drawn under the fitted model, as the data are; when it does not (the
    CRUXEval files) they hold one answer per cell, whose phi varies more
    than that of means of ``K > 1``: the test is then conservative.  The
    predicted best of ``m`` counts one answer per item, as the paper's
    model has it, so for means of ``K > 1`` samples the observed best of
    ``m`` is narrower than the prediction.

    Parameters
    ----------
    correct : PerItem or pandas.DataFrame
        As for :func:`estimate_dependence` (items as rows, models as columns).
    dependence : Dependence, optional
        The fitted parameters (default: ``estimate_dependence(correct, n_resamples=0)``).
    ms : sequence of int, optional
        Numbers of models ``m`` for the best of ``m`` (default 2, 5, 10 and every model, those at most the
        models used).  Formerly ``ks`` (deprecated: ``k`` is for folds only).
    n_null : int
        Simulated matrices for the test's p-value, ``>= 1``.
    n_subsets : int
        Random subsets per ``k`` beyond enumeration, ``>= 1``.
    rng : int, numpy.random.Generator or None
        Randomness (the null simulation and the random subsets).

    Returns
    -------
    DependenceFit
        The statistic, its p-value and decision, and the two comparisons.

    Raises
    ------
    ValueError
        As :func:`estimate_dependence`; also if an ``m`` of ``ms`` is outside ``[1, models used]``, or
        ``n_null``/``n_subsets`` is below 1 (the message names the argument).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.2 (the model, and the similarity of
    Mania et al., 2019, it implies).

    Examples
    --------
    >>> from sotalib.multiplicity import dependence_fit, simulate_per_item
    >>> Y = simulate_per_item(2000, [0.6, 0.7, 0.8] * 3, rho=0.5, theta0=0.7, rng=3)
    >>> fit = dependence_fit(Y, ms=[3], n_null=99, rng=4)
    >>> fit.level, fit.best_of_m[0]["m"]
    (0.05, 3)
    """
    from ._dependence_model import feasible, similarity

    n_null = check_int("n_null", n_null, low=1)
    n_subsets = check_int("n_subsets", n_subsets, low=1)
    check_rng(rng)
    if dependence is None:
        dependence = estimate_dependence(correct, n_resamples=0)
        Y = dependence._Y
    else:
        Yall, names = _as_matrix(correct, function="dependence_fit")
        Y, used, *_ = _prepare(Yall, names)
        if tuple(used) != tuple(dependence.models):
            raise ValueError("dependence was not estimated from these per-item results (its models differ)")
    assert Y is not None
    n, m = Y.shape
    gen = as_generator(rng)
    theta = Y.mean(axis=0)
    rho0 = dependence.rho0
    theta0 = dependence.theta0 if dependence.theta0 is not None else float(theta.mean())
    # the test: the null matrices are means of the cells' K samples when the table records them
    D = _dispersion(Y)
    K = _fit_samples(correct, dependence) if dependence.graded else None
    if K is None:
        null = np.array(
            [
                _dispersion(_nonconstant(_simulate(n, theta, rho=min(rho0, 1 - 1e-12), theta0=theta0, rng=gen)))
                for _ in range(n_null)
            ]
        )
    else:
        null = np.array(
            [
                _dispersion(_nonconstant(_simulate_means(theta, min(rho0, 1 - 1e-12), theta0, K, gen)))
                for _ in range(n_null)
            ]
        )
    p = float((1 + np.sum(null >= D)) / (1 + n_null))
    # agreement
    agree = ((Y.T @ Y) + ((1 - Y).T @ (1 - Y))) / n
    pred = similarity(theta[:, None], theta[None, :], rho0 * rho0)
    iu = np.triu_indices(m, 1)
    phi = _phi_matrix(Y)[iu]
    # best of m
    ok = feasible(theta, theta0, rho0) if rho0 > 0 else np.ones(m, bool)
    excluded = tuple(dependence.models[j] for j in np.flatnonzero(~ok))
    Yf = Y[:, ok]
    mf = Yf.shape[1]
    if ms is None:
        ms = sorted({k for k in (2, 5, 10, mf) if 1 <= k <= mf})
    rows = []
    for k in ms:
        k = check_int("ms", k, low=1, high=max(mf, 1))
        best, exhaustive = _observed_best_of_k(Yf, k, n_subsets, gen)
        xs = np.sort(best)
        if n * np.unique(theta[ok]).size <= _EXACT_WORK:
            dist = _predicted_best_of_k(n, k, theta[ok], rho0, theta0)
            grid, pcdf = dist.x, dist.cdf_at(dist.x)
            pmean, pq, engine = dist.mean(), np.asarray(dist.quantile([0.05, 0.95])), "exact"
        else:
            sim = np.sort(_simulated_best_of_k(n, k, theta[ok], rho0, theta0, _PREDICT_DRAWS, gen))
            grid = np.arange(min(xs[0], sim[0]), max(xs[-1], sim[-1]) + 1)
            pcdf = np.searchsorted(sim, grid, side="right") / sim.size
            pmean, pq, engine = float(sim.mean() / n), _lower_quantiles(sim, [0.05, 0.95]) / n, "simulated"
        ecdf = np.searchsorted(xs, grid, side="right") / xs.size
        ks_dist = float(np.max(np.abs(ecdf - pcdf)))
        q = _lower_quantiles(xs, [0.05, 0.95]) / n
        rows.append(
            {
                "m": k,
                "n_subsets": int(best.size),
                "exhaustive": exhaustive,
                "observed_mean": float(best.mean() / n),
                "observed_q05": float(q[0]),
                "observed_q95": float(q[1]),
                "predicted_mean": float(pmean),
                "predicted_q05": float(np.asarray(pq)[0]),
                "predicted_q95": float(np.asarray(pq)[1]),
                "ks": ks_dist,
                "prediction": engine,
            }
        )
    return DependenceFit(
        statistic=D,
        p_value=p,
        level=FIT_LEVEL,
        rejected=p <= FIT_LEVEL,
        n_null=n_null,
        phi_sd=float(phi.std()),
        agreement_observed=agree,
        agreement_predicted=np.asarray(pred),
        agreement_mae=float(np.mean(np.abs(agree[iu] - np.asarray(pred)[iu]))),
        best_of_m=rows,
        excluded=excluded,
        dependence=dependence,
        seed=seed_record(rng),
    )


def _fit_samples(correct: Any, dependence: Dependence) -> np.ndarray | None:
    """The samples ``K`` of the cells :func:`estimate_dependence` used (complete items, its models), or None."""
    table = as_per_item(correct, "correct", function="dependence_fit")
    if table.samples is None:
        return None
    complete = ~np.isnan(table.outcomes).any(axis=1)
    cols = [table.models.index(name) for name in dependence.models]
    return table.samples[complete][:, cols]


def _simulate_means(
    theta: np.ndarray, rho: float, theta0: float, K: np.ndarray, gen: np.random.Generator
) -> np.ndarray:
    """Items x models means of ``K`` answers drawn independently given the reference outcome (the paper's model)."""
    from ._dependence_model import conditional_probs

    p1, p0 = conditional_probs(theta, theta0, rho)
    p1, p0 = np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)
    y0 = np.asarray(gen.random(K.shape[0]) < theta0)
    p = np.where(y0[:, None], p1[None, :], p0[None, :])
    return gen.binomial(K, p) / K


def _lower_quantiles(sorted_values: np.ndarray, q) -> np.ndarray:
    """Smallest value with empirical cdf ``>= q`` (the book's quantile convention), of sorted values."""
    idx = np.ceil(np.asarray(q, dtype=float) * sorted_values.size).astype(int) - 1
    return sorted_values[np.clip(idx, 0, sorted_values.size - 1)].astype(float)


def _nonconstant(Y: np.ndarray) -> np.ndarray:
    """The columns of ``Y`` that vary (a simulated model right or wrong on every item has no phi)."""
    mu = Y.mean(axis=0)
    return Y[:, (mu > 0) & (mu < 1)]
