"""Approximate Bayesian computation of ``max theta`` (Section 5.3.2): ``estimate_sota(method="abc")``.

Prior (weakly informative, on the logit scale): ``theta_j = expit(mu + sigma
z_j)`` with ``mu ~ N(logit(median theta_hat), 1)``, ``sigma ~ |N(0, 1)|``.  Each
proposal simulates a leaderboard (``X_j ~ B(n, theta_j)``, or the dependent
model with ``rho > 0``) and is compared with the observed one on the summary
``(max, mean of the top scores)``; the closest fraction is kept.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .. import _progress
from .._rng import as_generator, seed_record
from .._validate import check_alpha, check_int, check_memory, check_probability, check_real
from ._dependence_model import conditional_probs
from ._sota_model import _chance, prepare
from ._sota_result import SotaEstimate

__all__: list[str] = []  # nothing public: the estimators are reached through estimate_sota

#: Proposals of :func:`abc` unless told otherwise.
N_RESAMPLES = 20000

#: Share of the proposals kept, and how many top scores the summary averages.
ACCEPT, TOP = 0.01, 20


def _abc(
    s: np.ndarray,
    below: int,
    n: int,
    rho: float,
    *,
    proposals: int,
    accept: float,
    rng: int | np.random.Generator | None,
    alpha: float,
    top: int,
    progress: bool | None,
) -> SotaEstimate:
    """The ABC posterior of ``max theta``, on checked input (``proposals`` simulated leaderboards)."""
    # six numbers of 8 bytes per proposal (its parameters, its summaries, its distance and theta_max)
    check_memory(48.0 * proposals, f"n_resamples={proposals} proposals", "use fewer proposals")
    seed = seed_record(rng)
    rng = as_generator(rng)
    m = s.size
    k = min(top, m)
    obs = np.array([s.max(), np.sort(s)[-k:].mean()])
    med = float(np.clip(np.median(s), 1e-4, 1 - 1e-4))
    mu = rng.normal(math.log(med / (1 - med)), 1.0, proposals)
    sig = np.abs(rng.normal(0.0, 1.0, proposals))
    tmax = np.empty(proposals)
    summ = np.empty((proposals, 2))
    for i in _progress.progress(range(proposals), total=proposals, desc="ABC proposals", show=progress):
        th = 1.0 / (1.0 + np.exp(-(mu[i] + sig[i] * rng.standard_normal(m))))
        if rho > 0:
            t0 = th.max()
            p1, p0 = conditional_probs(th, t0, rho)
            p1, p0 = np.clip(p1, 0, 1), np.clip(p0, 0, 1)
            kk = rng.binomial(n, t0)
            x = rng.binomial(kk, p1) + rng.binomial(n - kk, p0)
        else:
            x = rng.binomial(n, th)
        xs = np.sort(x)[-k:] / n
        summ[i] = (xs[-1], xs.mean())
        tmax[i] = th.max()
    dist = np.sqrt(((summ - obs) ** 2).sum(axis=1))
    eps = float(np.quantile(dist, accept))
    keep = dist <= eps
    post = tmax[keep]
    est = float(post.mean())
    lo, hi = (float(v) for v in np.quantile(post, [alpha / 2, 1 - alpha / 2], method="inverted_cdf"))
    return SotaEstimate(
        "abc",
        m,
        n,
        float(s.max()),
        est,
        ci_low=lo,
        ci_high=hi,
        teams_above=int(np.sum(s > est)),
        below_chance=below,
        details={
            "proposals": proposals,
            "accepted": int(keep.sum()),
            "acceptance_rate": float(keep.mean()),
            "eps": eps,
            "seed": seed,
            "rho": rho,
        },
    )


def abc(
    scores: ArrayLike,
    n: int,
    *,
    classes: int = 2,
    rho: float = 0.0,
    n_resamples: int = N_RESAMPLES,
    accept: float = ACCEPT,
    rng: int | np.random.Generator | None = None,
    alpha: float = 0.05,
    top: int = TOP,
    progress: bool | None = None,
) -> SotaEstimate:
    """Approximate Bayesian computation posterior for ``max theta`` (``estimate_sota(method="abc")``).

    For each of ``n_resamples`` proposals the leaderboard is simulated and
    compared with the observed one on the summary ``(max, mean of the top
    ``top`` scores)``; the ``accept`` fraction closest (Euclidean distance,
    tolerance ``eps`` = that quantile) is kept, and their ``max theta`` form
    the posterior.  Reports posterior mean, equal-tailed credible interval,
    ``eps`` and the acceptance rate.  ``rng`` is an int seed, a
    :class:`numpy.random.Generator` or None; ``details["seed"]`` records an
    int seed.  ``progress``: progress bar (None: when stderr is a terminal).
    """
    s, below = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho)
    n_resamples = check_int("n_resamples", n_resamples, low=100)
    accept = check_real("accept", accept, low=0.0, high=1.0, low_open=True)
    alpha = check_alpha("alpha", alpha)
    return _abc(
        s, below, n, rho, proposals=n_resamples, accept=accept, rng=rng, alpha=alpha, top=top, progress=progress
    )
