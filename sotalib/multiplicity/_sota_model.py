"""The model every state-of-the-art estimator fits: the leaderboard above chance, the dependent model, a simulated board.

Shared by the estimators (:mod:`._sota_shrink`, :mod:`._sota_crop`, :mod:`._sota_observed`,
:mod:`._sota_deconvolve`, :mod:`._sota_abc`, :mod:`._sota_shrink_auc`) and the front door
:mod:`._sota_estimate`:

* :func:`prepare` -- the scores above chance, and how many were not;
* :func:`_fit_dist` -- the exact (or normal) distribution of the maximum when
  the classifiers' accuracies are drawn from the empirical distribution of
  given values, under the dependent model of Section 4.3 (``theta0`` the
  largest value, values violating Eq. 8 excluded);
* :func:`simulate_leaderboard` -- one leaderboard drawn from that model
  (Figures 8b, 8d and 9b of the paper).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._frame import as_vector
from .._rng import as_generator
from .._validate import ParameterError, check_int, check_probability
from ._dependence_model import conditional_probs, feasible
from ._max_dependent_normal import _NORMAL_MIN_N, ACCURACY, exact_work, normal_max_distribution
from ._max_dependent_swap import dependent_max_distribution

__all__ = ["simulate_leaderboard"]

#: The paper's correlation with the reference classifier (Section 4.2, from Mania et al.).
RHO0 = 0.6


def _check_scores(scores: ArrayLike) -> np.ndarray:
    """``scores`` as a flat float array, checked to hold at least one number, each in [0, 1]."""
    s, names = as_vector(scores, "scores")
    if s.size == 0:
        raise ValueError("scores must hold at least one team, got an empty leaderboard")
    bad = ~(np.isfinite(s) & (s >= 0) & (s <= 1))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        who = f"team {i + 1}" + (f" ({names[i]!r})" if names is not None else "")
        raise ValueError(
            f"scores must be numbers in [0, 1]: {who} has {float(s[i])!r}"
            + (f" ({int(bad.sum())} such teams)" if bad.sum() > 1 else "")
            + ("; drop the missing scores first" if np.isnan(s[i]) else "")
        )
    return s


def _keep_above(s: np.ndarray, chance: float, metric: str = "") -> tuple[np.ndarray, int]:
    """The checked scores above chance and the number excluded.

    A board with no team above chance is an error that names what sets the chance level (for
    ``metric="accuracy"``, the ``chance`` of :func:`~sotalib.multiplicity.estimate_sota`).
    """
    keep = s > chance
    if not keep.any():
        if metric == "auc":
            raise ValueError(f"no team is above chance (an AUC of {chance:g})")
        if metric == "accuracy":
            raise ParameterError(
                f"no team is above chance ({chance:g}): the chance level is set by chance=0 for a task that has "
                "none (code generation, open answers), by another chance in [0, 1), or by classes: one over "
                "their number",
                "classes",
            )
        raise ValueError(f"no team is above chance ({chance:g})")
    return s[keep], int((~keep).sum())


def prepare(scores: ArrayLike, n: int, chance: float) -> tuple[np.ndarray, int]:
    """Scores above chance (as floats) and the number excluded; ``scores`` and ``n`` checked."""
    s = _check_scores(scores)
    check_int("n", n, low=1)
    return _keep_above(s, chance)


def _chance(classes: int) -> float:
    return 1.0 / check_int("classes", classes, low=2)


def _fit_dist(
    values: np.ndarray,
    n: int,
    rho: float,
    y0: str = "random",
    tail: float = 1e-12,
    start=None,
    engine="exact",
    end=None,
):
    """Max distribution with P(theta) = empirical distribution of ``values``; Eq. 8 exclusions.

    ``engine``: ``"exact"`` (:func:`sotalib.multiplicity._max_dependent_swap.dependent_max_distribution`;
    ``start`` and ``end`` are guesses of the window's first and last counts, checked by the engine) or
    ``"normal"`` (:func:`sotalib.multiplicity._max_dependent_normal.normal_max_distribution`).
    """
    theta0 = float(values.max())
    ok = feasible(values, theta0, rho)
    v = values[ok]
    if engine == "normal":
        return normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0, tail=tail), int((~ok).sum())
    if start is None and y0 == "random" and n >= _NORMAL_MIN_N and exact_work(n, v, rho) >= _HINT_WORK:
        start, end = _normal_window(n, v, rho, theta0, tail) or (start, end)
    d = dependent_max_distribution(n, v.size, v, rho=rho, theta0=theta0, y0=y0, tail=tail, start=start, end=end)
    return d, int((~ok).sum())


def _model_details(engine: str) -> dict:
    """What ``details`` says about the model and, for the approximation, its accuracy."""
    if engine == "normal":
        return {"model": "dependent, normal approximation", "engine": "normal", "accuracy": ACCURACY}
    return {"model": "dependent, exact", "engine": "exact"}


#: Work of the exact engine (:func:`~sotalib.multiplicity._max_dependent_normal.exact_work`) from which its window
#: is guessed by the normal engine (a fraction of a second; the exact fit takes a second at this work and a minute
#: at n = 10^6 on 300 teams): the guess spares the exact engine its first pass, which finds where F exceeds the
#: tail, and the counts above the window.  The exact engine checks the guess and computes the same distribution
#: with or without it.  Only fits without a guess of their own are guessed so (the first fit of a solve: the
#: later ones take the window of the nearest fit, which costs nothing; the normal engine costs a third of an
#: exact fit at n = 10^5).
_HINT_WORK = 5e7


def _normal_window(n: int, v: np.ndarray, rho: float, theta0: float, tail: float) -> tuple[int, int] | None:
    """``(start, end)``: the normal engine's window, widened by half a standard deviation of the maximum (+5)."""
    try:
        d = normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0, tail=tail)
    except ValueError:  # a window the normal engine refuses: no guess
        return None
    margin = int(0.5 * d.sd() * n) + 5
    return max(0, d.lo - margin), min(n, d.lo + d.cdf.size - 1 + margin)


def _start_hint(fits: dict, p: float, n: int) -> int | None:
    """The window start of the fit nearest to parameter ``p``, lowered by two standard deviations of its maximum."""
    if not fits:
        return None
    q = min(fits, key=lambda q: abs(q - p))
    d = fits[q][0]
    return max(0, d.lo - int(2 * d.sd() * n) - 2)


def _end_hint(fits: dict, p: float, n: int) -> int | None:
    """The window end of the fit nearest to parameter ``p``, raised by two standard deviations of its maximum."""
    if not fits:
        return None
    q = min(fits, key=lambda q: abs(q - p))
    d = fits[q][0]
    return d.lo + d.cdf.size - 1 + int(2 * d.sd() * n) + 2


def simulate_leaderboard(
    thetas: ArrayLike,
    n: int,
    *,
    rho: float = RHO0,
    theta0: float | None = None,
    rng: int | np.random.Generator | None = None,
) -> tuple[np.ndarray, int]:
    """One simulated leaderboard of classifiers with true accuracies ``thetas`` (Figures 8b, 8d, 9b).

    The dependent model of Section 4.3 with a random reference classifier:
    ``K_0 ~ B(n, theta0)`` correct predictions of the reference, then for each
    classifier ``X_j = B(K_0, p1_j) + B(n - K_0, p0_j)`` (Eqs. 6-7).  As in the
    estimators, ``theta0`` defaults to ``max(thetas)`` and classifiers that
    violate Eq. 8 are left out.

    Parameters
    ----------
    thetas : array_like of float
        True accuracies of the classifiers, in ``[0, 1]``.
    n : int
        Test-set size (``>= 1``).
    rho : float
        Correlation ``rho_0`` with the reference classifier, in ``[0, 1]``;
        default 0.6 as in the paper.
    theta0 : float, optional
        Accuracy of the reference classifier; default ``max(thetas)``.
    rng : int, numpy.random.Generator or None
        Randomness: None (fresh entropy), an int seed (reproducible) or a Generator.

    Returns
    -------
    accuracies : ndarray
        The simulated accuracies ``X_j / n`` of the feasible classifiers.
    excluded : int
        Number of classifiers left out by Eq. 8.

    Raises
    ------
    ValueError
        If ``n``, ``rho``, ``theta0`` or ``rng`` is out of range (the message
        names it).

    References
    ----------
    Møllersen & Holsbø, Section 4.3, Eqs. 6-8; Section 5.1, Figures 8-9.

    Examples
    --------
    >>> from sotalib.multiplicity import simulate_leaderboard
    >>> acc, excluded = simulate_leaderboard([0.80, 0.85, 0.90], 1000, rho=0.6, rng=0)
    >>> acc.size + excluded
    3
    """
    th = np.asarray(thetas, dtype=float).ravel()
    n = check_int("n", n, low=1)
    rho = check_probability("rho", rho)
    theta0 = float(th.max()) if theta0 is None else check_probability("theta0", theta0)
    ok = feasible(th, theta0, rho)
    p1, p0 = conditional_probs(th[ok], theta0, rho)
    rng = as_generator(rng)
    k0 = int(rng.binomial(n, theta0))
    x = rng.binomial(k0, np.clip(p1, 0, 1)) + rng.binomial(n - k0, np.clip(p0, 0, 1))
    return x / n, int((~ok).sum())
