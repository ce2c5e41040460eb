"""Estimating the state of the art from a leaderboard (Section 5).

For a leaderboard ``theta_hat_1, ..., theta_hat_m`` of ``m`` teams on ``n``
test items (teams at or below chance excluded and counted), the estimators of
the paper and two beyond it:

1. :func:`naive` -- the sample maximum and its single-classifier exact 95%
   interval, and how many teams fall inside it;
2. :func:`observed` -- ``Theta' = Theta_hat``: the distribution of the maximum if
   the observed scores were the true ones, under the dependent, non-identical
   model (Section 4.3, ``rho0 = 0.6``, ``theta0 = max Theta'``, classifiers
   drawn iid from the empirical distribution, those violating Eq. 8 excluded);
3. :func:`shrink` -- Eq. 9, ``theta'_j = w theta_hat_j + (1 - w)/|classes|``, with
   ``w`` solved so that ``E max(Theta_hat') = max(Theta_hat)`` (or, with
   ``target="upper"``, so that the upper 95% bound equals it);
4. :func:`cap` -- ``theta'_j = min(theta_hat_j, c)``, a cap at ``c`` (the paper's
   cropping, Appendix, Table 4, is :func:`sotalib.multiplicity.crop`: the teams
   above ``c`` are dropped and the rest resampled);
5. when no weight solves the equation the result says so (``solved=False``
   with a ``reason``): a result, not a crash (Cassava);
6. :func:`deconvolve` -- empirical Bayes: the Kiefer-Wolfowitz nonparametric
   maximum-likelihood estimate of the mixing distribution ``G`` of ``theta``
   and ``theta_SOTA = E max`` of ``m`` draws from it, with a bootstrap interval;
7. :func:`abc` -- the approximate Bayesian computation posterior of
   ``max theta`` sketched in Section 5.3.2.

All distributions of the maximum are exact (:mod:`sotalib._depmax`); only the
bootstrap, ABC and the AUC's maximum are Monte Carlo; they take ``rng`` (an int
seed, a :class:`numpy.random.Generator` or None) and report replications and seeds.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.optimize import brentq

from .._progress import progress
from .._rng import as_generator, check_rng, int_seed, seed_record
from .._validate import check_alpha, check_choice, check_int, check_probability, check_real
from ._binomial import clopper_pearson
from ._dependence import conditional_probs, feasible
from ._dependent_normal import ACCURACY, choose_engine, normal_max_distribution
from ._dependent_swap import dependent_max_distribution
from ._maxdist import MaxDistribution

__all__ = [
    "SotaEstimate",
    "estimate_sota",
    "prepare",
    "naive",
    "observed",
    "observed_distribution",
    "shrink",
    "cap",
    "deconvolve",
    "npmle",
    "npmle_bin_width",
    "abc",
    "shrink_auc",
    "simulate_leaderboard",
    "RHO0",
    "AUC_ENGINES",
    "AUC_SIMULATION_LIMIT",
    "auc_simulation_cost",
]

#: The paper's correlation with the reference classifier (Section 4.2, from Mania et al.).
RHO0 = 0.6


@dataclass(frozen=True)
class SotaEstimate:
    """An estimate of ``theta_SOTA`` from a leaderboard.

    Attributes
    ----------
    method : str
        ``naive``, ``observed``, ``shrink``, ``crop``, ``deconvolve`` or ``abc``.
    m : int
        Teams used (above chance).
    n : int
        Test-set size.
    sample_max : float
        ``max(Theta_hat)``.
    estimate : float or None
        The SOTA estimate; None when the method has no solution.
    weight : float or None
        The shrinkage weight ``w`` (shrink) or the crop point ``c`` (crop).
    expected_max : float or None
        ``E max(Theta_hat')`` under the fitted ``Theta'``.
    ci_low, ci_high : float or None
        95% interval of the simulated maximum (naive: of the single
        classifier; deconvolve: bootstrap; abc: credible interval).
    teams_above : int or None
        Teams whose score is above the estimate.
    below_chance : int
        Teams at or below chance, excluded.
    excluded : int
        Teams excluded by Eq. 8 in the fitted model.
    solved : bool
        False when no solution exists; ``reason`` says why.
    reason : str or None
    details : dict
        Method-specific numbers (replications, seed, acceptance rate, ...).
    """

    method: str
    m: int
    n: int
    sample_max: float
    estimate: float | None
    weight: float | None = None
    expected_max: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    teams_above: int | None = None
    below_chance: int = 0
    excluded: int = 0
    solved: bool = True
    reason: str | None = None
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The CLI's JSON keys (plus method, reason and details)."""
        d = asdict(self)
        return {
            k: d[k]
            for k in (
                "m",
                "sample_max",
                "estimate",
                "weight",
                "expected_max",
                "ci_low",
                "ci_high",
                "teams_above",
                "method",
                "below_chance",
                "excluded",
                "reason",
                "details",
            )
        }


def prepare(scores, n: int, chance: float) -> tuple[np.ndarray, int]:
    """Scores above chance (as floats) and the number excluded."""
    s = np.asarray(scores, dtype=float).ravel()
    if s.size == 0:
        raise ValueError("scores must hold at least one team, got an empty leaderboard")
    if not np.all(np.isfinite(s)) or s.min() < 0 or s.max() > 1:
        raise ValueError("scores must be numbers in [0, 1]")
    check_int("n", n, low=1)
    keep = s > chance
    if not keep.any():
        raise ValueError(f"no team is above chance ({chance:g})")
    return s[keep], int((~keep).sum())


def _chance(classes: int) -> float:
    return 1.0 / check_int("classes", classes, low=2)


def naive(scores, n: int, *, classes: int = 2, alpha: float = 0.05) -> SotaEstimate:
    """1. No multiplicity: the sample maximum and its exact (Clopper-Pearson) interval."""
    s, below = prepare(scores, n, _chance(classes))
    mx = float(s.max())
    lo, hi = clopper_pearson(int(round(mx * n)), n, alpha)
    inside = int(np.sum((s >= lo) & (s <= hi)))
    return SotaEstimate(
        "naive",
        s.size,
        n,
        mx,
        mx,
        ci_low=lo,
        ci_high=hi,
        teams_above=0,
        below_chance=below,
        details={"teams_inside_interval": inside},
    )


def _fit_dist(
    values: np.ndarray, n: int, rho: float, y0: str = "random", tail: float = 1e-12, start=None, engine="exact"
):
    """Max distribution with P(theta) = empirical distribution of ``values``; Eq. 8 exclusions.

    ``engine``: ``"exact"`` (:func:`sotalib.multiplicity._depmax.dependent_max_distribution`;
    ``start`` is a guess of the window's first count, checked by the engine) or
    ``"normal"`` (:func:`sotalib.multiplicity._depmax_normal.normal_max_distribution`).
    """
    theta0 = float(values.max())
    ok = feasible(values, theta0, rho)
    v = values[ok]
    if engine == "normal":
        return normal_max_distribution(n, v.size, v, rho=rho, theta0=theta0, tail=tail), int((~ok).sum())
    d = dependent_max_distribution(n, v.size, v, rho=rho, theta0=theta0, y0=y0, tail=tail, start=start)
    return d, int((~ok).sum())


def _model_details(engine: str) -> dict:
    """What ``details`` says about the model and, for the approximation, its accuracy."""
    if engine == "normal":
        return {"model": "dependent, normal approximation", "engine": "normal", "accuracy": ACCURACY}
    return {"model": "dependent, exact", "engine": "exact"}


def _start_hint(fits: dict, p: float, n: int) -> int | None:
    """The window start of the fit nearest to parameter ``p``, lowered by two standard deviations of its maximum."""
    if not fits:
        return None
    q = min(fits, key=lambda q: abs(q - p))
    d = fits[q][0]
    return max(0, d.lo - int(2 * d.sd() * n) - 2)


def observed_distribution(
    scores, n: int, *, classes: int = 2, rho: float = RHO0, engine: str = "auto"
) -> MaxDistribution:
    """Distribution of ``max(Theta_hat')`` with ``Theta' = Theta_hat`` (Section 5.1.1).

    ``engine``: ``"exact"``, ``"normal"`` (the large-``n`` approximation) or ``"auto"``.
    """
    s, _ = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho)
    engine = choose_engine(engine, n, s, rho)
    return _fit_dist(s, n, rho, engine=engine)[0]


def observed(
    scores, n: int, *, classes: int = 2, rho: float = RHO0, alpha: float = 0.05, engine: str = "auto"
) -> SotaEstimate:
    """2. ``Theta' = Theta_hat``: E max and interval if the observed scores were true (Table 2, row 2).

    ``engine``: ``"exact"``, ``"normal"`` (the large-``n`` approximation) or ``"auto"``.
    """
    s, below = prepare(scores, n, _chance(classes))
    rho = check_probability("rho", rho)
    engine = choose_engine(engine, n, s, rho)
    d, excl = _fit_dist(s, n, rho, engine=engine)
    lo, hi = d.interval(alpha)
    mx = float(s.max())
    return SotaEstimate(
        "observed",
        s.size,
        n,
        mx,
        mx,
        weight=1.0,
        expected_max=d.mean(),
        ci_low=lo,
        ci_high=hi,
        teams_above=0,
        below_chance=below,
        excluded=excl,
        details={"rho": rho, **_model_details(engine)},
    )


def _two(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with the fewest decimals (at least 4) that tell them apart."""
    for d in range(4, 13):
        fa, fb = f"{a:.{d}f}", f"{b:.{d}f}"
        if fa != fb:
            break
    return fa, fb


#: Accuracies closer than this count as equal when matching E max to the observed maximum
#: (the exact mean of one classifier equals its accuracy up to rounding).
_MATCH_TOL = 1e-9


def _solve(
    transform,
    lo_param: float,
    hi_param: float,
    s: np.ndarray,
    n: int,
    rho: float,
    target: str,
    alpha: float,
    what: str,
    slope: float = 1.0,
    engine: str = "auto",
):
    """Find the parameter where E max (or the upper bound) of the transformed leaderboard equals max(s).

    ``slope`` approximates d max(Theta') / d parameter; it only narrows the
    first bracket (each evaluation is an exact distribution and costs seconds
    on a Kaggle-sized leaderboard), never the answer.

    Returns ``(parameter, (distribution, excluded))`` -- the fit at the
    solution, reused by the caller -- or ``(None, reason)``.
    """
    mx = float(s.max())
    half = 0.5 / n
    memo: dict = {}
    fits: dict = {}

    def stat(p):
        if p not in memo:
            fits[p] = _fit_dist(transform(p), n, rho, start=_start_hint(fits, p, n), engine=engine)
            d = fits[p][0]
            memo[p] = d.mean() if target == "expected" else d.quantile(1 - alpha / 2)
        return memo[p]

    f_hi = stat(hi_param)
    if target == "expected":
        if f_hi < mx - _MATCH_TOL:
            e, o = _two(f_hi, mx)
            return None, (
                f"no {what} solves E max(Theta_hat') = max(Theta_hat): even without shrinking, "
                f"E max = {e} < observed maximum {o}; the top score is an outlier, "
                "not an effect of multiplicity"
            )
        if f_hi <= mx:  # equal up to rounding: the model at the end of the range is one classifier
            excl = fits[hi_param][1]
            if s.size > 1 and excl == s.size - 1:
                return None, (
                    f"no {what} solves E max(Theta_hat') = max(Theta_hat): Eq. 8 excludes every team but the top "
                    f"one ({excl:,} of {s.size:,}), so the model holds a single classifier whose E max is the "
                    "observed maximum itself; the top score is an outlier, not an effect of multiplicity"
                )
            return hi_param, fits.get(hi_param)  # one team: nothing to shrink
        a = lo_param
        guess = hi_param - 1.5 * (f_hi - mx) / slope
        if lo_param < guess < hi_param and stat(guess) < mx:
            a = guess  # E max increases with the parameter: the fit at its lowest value is not needed
        else:
            f_lo = stat(lo_param)
            if f_lo > mx:
                e, o = _two(f_lo, mx)
                return None, (
                    f"no {what} solves E max(Theta_hat') = max(Theta_hat): even at its lowest value, "
                    f"E max = {e} > observed maximum {o}"
                )
        p = brentq(lambda p: stat(p) - mx, a, hi_param, xtol=1e-8)
    else:
        # the upper bound is a step function of the parameter: find where it first reaches max(s)
        if f_hi < mx - half:
            return None, (
                f"no {what} puts the upper {100 * (1 - alpha):g}% bound at max(Theta_hat): even without "
                f"shrinking it is {f_hi:.4f} < {mx:.4f}; the top score is an outlier"
            )
        f_lo = stat(lo_param)
        if f_lo >= mx - half:
            return None, f"no {what}: even at its lowest value the upper bound {f_lo:.4f} exceeds {mx:.4f}"
        # the quantile is a step function; it reaches max(s) exactly when
        # F(x_max - 1) < 1 - alpha/2, and F(x_max - 1) is continuous and decreasing
        # in the parameter: solve F(x_max - 1) = 1 - alpha/2 and step just past the root
        x_max = int(round(mx * n))
        level = 1 - alpha / 2
        cmemo: dict = {}

        def cdf_below(p):
            if p not in cmemo:
                fits[p] = _fit_dist(transform(p), n, rho, start=_start_hint(fits, p, n), engine=engine)
                cmemo[p] = float(fits[p][0].cdf_at(x_max - 1))
            return cmemo[p]

        a = lo_param
        guess = hi_param - 1.5 * (f_hi - mx) / slope
        if lo_param < guess < hi_param and cdf_below(guess) > level:
            a = guess
        root = brentq(lambda p: cdf_below(p) - level, a, hi_param, xtol=1e-10)
        p = min(root + 1e-9, hi_param)
        while cdf_below(p) >= level and p < hi_param:
            p = min(p + 1e-9, hi_param)
    return p, fits.get(p)


def _unsolved(method: str, s: np.ndarray, n: int, below: int, reason: str, details: dict) -> SotaEstimate:
    """The answer when no parameter solves the estimator's equation: ``solved=False`` and the reason why."""
    return SotaEstimate(
        method, s.size, n, float(s.max()), None, below_chance=below, solved=False, reason=reason, details=details
    )


def _finish(method, p, s, n, rho, alpha, below, transform, estimate, target, fit=None, engine="exact"):
    d, excl = fit if fit is not None else _fit_dist(transform(p), n, rho, engine=engine)
    lo, hi = d.interval(alpha)
    return SotaEstimate(
        method,
        s.size,
        n,
        float(s.max()),
        float(estimate),
        weight=float(p),
        expected_max=d.mean(),
        ci_low=lo,
        ci_high=hi,
        teams_above=int(np.sum(s > estimate)),
        below_chance=below,
        excluded=excl,
        details={"target": target, "rho": rho, **_model_details(engine)},
    )


def shrink(
    scores,
    n: int,
    *,
    classes: int = 2,
    rho: float = RHO0,
    target: str = "expected",
    alpha: float = 0.05,
    engine: str = "auto",
) -> SotaEstimate:
    """3. Shrinkage toward chance (Eq. 9), ``w`` solved numerically.

    ``theta'_j = w theta_hat_j + (1 - w)/classes``; ``target="expected"`` solves
    ``E max(Theta_hat') = max(Theta_hat)`` (Table 2, row 3), ``"upper"`` puts
    the upper ``1 - alpha/2`` quantile there (row 4).  The estimate is
    ``max(Theta') = w max(Theta_hat) + (1 - w)/classes``.  ``engine``:
    ``"exact"``, ``"normal"`` (the large-``n`` approximation of
    :mod:`sotalib.multiplicity._depmax_normal`) or ``"auto"`` (exact unless
    its work is large).
    """
    chance = _chance(classes)
    s, below = prepare(scores, n, chance)
    rho = check_probability("rho", rho)
    target = check_choice("target", target, ("expected", "upper"))
    engine = choose_engine(engine, n, s, rho)

    def transform(w):
        return w * s + (1 - w) * chance

    w, fit = _solve(
        transform,
        0.0,
        1.0,
        s,
        n,
        rho,
        target,
        alpha,
        "shrinkage weight w in [0, 1]",
        slope=float(s.max()) - chance,
        engine=engine,
    )
    if w is None:
        return _unsolved("shrink", s, n, below, fit, {"target": target, "rho": rho, **_model_details(engine)})
    est = w * s.max() + (1 - w) * chance
    return _finish("shrink", w, s, n, rho, alpha, below, transform, est, target, fit, engine)


def cap(
    scores,
    n: int,
    *,
    classes: int = 2,
    rho: float = RHO0,
    target: str = "expected",
    alpha: float = 0.05,
    engine: str = "auto",
) -> SotaEstimate:
    """4. A cap at ``c``: ``theta'_j = min(theta_hat_j, c)``, ``c`` solved numerically.

    Not the paper's cropping (:func:`sotalib.multiplicity.crop`): capped teams stay
    on the simulated board at ``c``, where cropping drops them and resamples.
    ``engine`` as in :func:`shrink`.
    """
    chance = _chance(classes)
    s, below = prepare(scores, n, chance)
    rho = check_probability("rho", rho)
    target = check_choice("target", target, ("expected", "upper"))
    engine = choose_engine(engine, n, s, rho)

    def transform(c):
        return np.minimum(s, c)

    c, fit = _solve(transform, float(s.min()), float(s.max()), s, n, rho, target, alpha, "crop point c", engine=engine)
    if c is None:
        reason = fit.replace("shrinking", "capping")
        return _unsolved("cap", s, n, below, reason, {"target": target, "rho": rho, **_model_details(engine)})
    return _finish("cap", c, s, n, rho, alpha, below, transform, c, target, fit, engine)


# ---------------------------------------------------------------- deconvolution
def npmle(counts, n: int, *, grid_size: int = 400, iters: int = 3000, tol: float = 1e-10, bin_width: int | None = None):
    """Kiefer-Wolfowitz NPMLE of ``G`` for ``X_j ~ B(n, theta_j)``, ``theta_j ~ G``, by EM on a grid.

    Returns ``(grid, weights)``.  The grid spans the range of ``X/n`` padded by
    four binomial standard deviations.  Under the dependent model each
    ``X_j`` is still ``B(n, theta_j)`` marginally, so this is a composite
    likelihood there.

    ``bin_width``: counts are pooled into bins of this many counts, each
    bin's likelihood taken at its mean count (default :func:`npmle_bin_width`:
    no pooling unless the board has more than 500 distinct counts).  At large
    ``n`` a board's thousands of distinct counts then cost as few likelihood
    rows as a Kaggle board's; pooling within a sixth of a binomial standard
    deviation widens each count's likelihood by under half a percent.
    """
    from scipy.stats import binom

    x = np.asarray(counts, dtype=np.int64)
    ux, cnt = np.unique(x, return_counts=True)
    p_lo, p_hi = ux.min() / n, ux.max() / n
    pad = 4 * math.sqrt(max(p_hi * (1 - p_hi), 1e-4) / n)
    grid = np.linspace(max(p_lo - pad, 1e-6), min(p_hi + pad, 1 - 1e-6), grid_size)
    if bin_width is None:
        bin_width = npmle_bin_width(x, n)
    if bin_width > 1:
        starts = np.flatnonzero(np.diff(ux // bin_width, prepend=-1))
        tot = np.add.reduceat(cnt, starts)
        ux = np.round(np.add.reduceat(ux * cnt, starts) / tot).astype(np.int64)
        cnt = tot
    lik = binom.pmf(ux[:, None], n, grid[None, :])  # (distinct counts, grid)
    lik /= lik.max(axis=1, keepdims=True)
    wts = np.full(grid_size, 1.0 / grid_size)
    frac = cnt / cnt.sum()
    for _ in range(iters):
        mix = lik @ wts
        new = wts * (lik.T @ (frac / mix))
        if np.abs(new - wts).max() < tol:
            wts = new
            break
        wts = new
    return grid, wts / wts.sum()


def npmle_bin_width(counts, n: int) -> int:
    """Counts pooled per likelihood row of :func:`npmle`: 1 for at most 500 distinct counts, else a sixth
    of the smallest binomial standard deviation over their range (at least 1)."""
    ux = np.unique(np.asarray(counts, dtype=np.int64))
    if ux.size <= 500:
        return 1
    p_edge = min(max(ux[0] / n, 1e-12), max(1 - ux[-1] / n, 1e-12))
    return max(1, int(math.sqrt(n * p_edge * (1 - p_edge)) / 6))


def _expected_max_of_draws(grid, wts, m: int) -> float:
    """``E max`` of ``m`` iid draws from the discrete distribution (grid, wts)."""
    cdf = np.minimum(np.cumsum(wts), 1.0)
    prev = np.concatenate([[0.0], cdf[:-1]])
    pm = np.exp(m * np.log(np.maximum(cdf, 1e-300))) - np.exp(m * np.log(np.maximum(prev, 1e-300)))
    return float(np.dot(grid, pm))


def deconvolve(
    scores,
    n: int,
    *,
    classes: int = 2,
    reps: int = 200,
    rng=None,
    alpha: float = 0.05,
    grid_size: int = 400,
    show: bool | None = None,
) -> SotaEstimate:
    """6. Empirical Bayes by deconvolution (beyond the paper).

    Fits the Kiefer-Wolfowitz NPMLE ``G_hat`` (:func:`npmle`) and reports
    ``theta_SOTA = E max`` of ``m`` draws from ``G_hat``; the interval is the
    percentile interval of a nonparametric bootstrap over teams (``reps``
    replications drawn from ``rng``: an int seed, a
    :class:`numpy.random.Generator` or None; ``details["seed"]`` records an
    int seed).  ``show``: progress bar of the bootstrap (None: when stderr is a terminal).
    """
    s, below = prepare(scores, n, _chance(classes))
    reps = check_int("reps", reps, low=0)
    x = np.round(s * n).astype(np.int64)
    width = npmle_bin_width(x, n)
    grid, w = npmle(x, n, grid_size=grid_size, bin_width=width)
    est = _expected_max_of_draws(grid, w, s.size)
    lo = hi = None
    boots = []
    seed = seed_record(rng)
    rng = as_generator(rng)
    if reps >= 2:
        for _ in progress(range(reps), total=reps, desc="bootstrap", show=show):
            xb = rng.choice(x, x.size, replace=True)
            g, wb = npmle(xb, n, grid_size=grid_size, iters=1000, bin_width=width)
            boots.append(_expected_max_of_draws(g, wb, s.size))
        lo, hi = (float(v) for v in np.quantile(boots, [alpha / 2, 1 - alpha / 2], method="inverted_cdf"))
    return SotaEstimate(
        "deconvolve",
        s.size,
        n,
        float(s.max()),
        est,
        ci_low=lo,
        ci_high=hi,
        teams_above=int(np.sum(s > est)),
        below_chance=below,
        details={
            "reps": reps,
            "seed": seed,
            "grid_size": grid_size,
            "atoms": int(np.sum(w > 1e-6)),
            "count_bin_width": width,
        },
    )


# ------------------------------------------------------------------------- ABC
def abc(
    scores,
    n: int,
    *,
    classes: int = 2,
    rho: float = 0.0,
    proposals: int = 20000,
    accept: float = 0.01,
    rng=None,
    alpha: float = 0.05,
    top: int = 20,
    show: bool | None = None,
) -> SotaEstimate:
    """7. Approximate Bayesian computation posterior for ``max theta`` (Section 5.3.2).

    Prior (weakly informative, on the logit scale): ``theta_j = expit(mu +
    sigma z_j)`` with ``mu ~ N(logit(median theta_hat), 1)``, ``sigma ~
    |N(0, 1)|``.  For each of ``proposals`` draws the leaderboard is simulated
    (``X_j ~ B(n, theta_j)``, or the dependent model with ``rho > 0``) and
    compared with the observed one on the summary ``(max, mean of the top
    ``top`` scores)``; the ``accept`` fraction closest (Euclidean distance,
    tolerance ``eps`` = that quantile) is kept, and their ``max theta`` form the
    posterior.  Reports posterior mean, equal-tailed credible interval,
    ``eps`` and the acceptance rate.  ``rng`` is an int seed
    (``numpy.random.default_rng(rng)``), a :class:`numpy.random.Generator` or
    None; ``details["seed"]`` records an int seed.  ``show``: progress bar
    (None: when stderr is a terminal).
    """
    s, below = prepare(scores, n, _chance(classes))
    proposals = check_int("proposals", proposals, low=100)
    accept = check_real("accept", accept, low=0.0, high=1.0, low_open=True)
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
    for i in progress(range(proposals), total=proposals, desc="ABC proposals", show=show):
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


# ------------------------------------------------------------------------- AUC
#: Largest simulation that ``shrink_auc(engine="auto")`` runs: scores drawn per evaluation,
#: ``m reps n_pos`` for independent classifiers (``rho = 0``, the multinomial method) and ``m reps n``
#: for correlated ones.  1e8 scores take 5-13 s per evaluation on one core (50-130 ns a score); the
#: limit keeps the simulation (and its digits) for every board of the book and the tests, the largest
#: being the Melanoma reconstruction (3,050 teams, 136 positives, 200 reps: 8.3e7).  Larger boards use
#: the normal approximation, whose bias (at most 0.07 sd of the maximum at 600 positives, 0.18 sd at
#: 100, less on larger test sets) is about the simulation's own standard error at 200 replications
#: (0.07 sd), at a thousandth of the cost.
AUC_SIMULATION_LIMIT = 1e8

AUC_ENGINES = ("auto", "simulate", "normal")


def auc_simulation_cost(m: int, n: int, prevalence: float, rho: float, reps: int) -> float:
    """Scores the simulation of the maximum AUC draws per evaluation (what ``engine="auto"`` weighs).

    ``m reps n_pos`` for independent classifiers (only the positives' scores
    are drawn, the negatives come as multinomial counts) and ``m reps n`` for
    correlated ones (every score is drawn).
    """
    from ._auc_model import n_positives

    n_pos, _ = n_positives(n, prevalence)
    return float(m) * reps * (n_pos if rho == 0.0 else n)


def shrink_auc(
    aucs,
    n: int,
    prevalence: float,
    *,
    rho: float = 0.0,
    target: str = "expected",
    reps: int = 200,
    rng=None,
    alpha: float = 0.05,
    show: bool | None = None,
    engine: str = "auto",
) -> SotaEstimate:
    """6. Shrinkage for an AUC leaderboard (Section 5.2.3): toward 0.5.

    ``AUC'_j = w AUC_hat_j + (1 - w)/2`` with ``w`` solved so that the
    expected maximum empirical AUC (or, with ``target="upper"``, its upper
    ``1 - alpha/2`` quantile) equals the observed maximum.

    Two engines compute the distribution of the maximum AUC:

    * ``"simulate"``: the AUC chapter's Monte Carlo
      (:func:`sotalib.multiplicity._auc.expected_max_auc`, binormal scores,
      ``round(n pi)`` positives) with ``reps`` replications and common random
      numbers: every evaluation uses the same int seed (``rng`` itself if it
      is an int; one draw from it if it is a :class:`numpy.random.Generator`;
      fresh entropy for None), so the equation is a deterministic function of
      ``w``; the seed and the Monte Carlo standard error are reported in
      ``details``.
    * ``"normal"``: the normal approximation of the empirical AUCs
      (:func:`sotalib.multiplicity._auc_normal.normal_max_auc`; the
      U-statistic projection of Hanley and McNeil 1982 and DeLong et al. 1988
      with one shared factor for the reference classifier and each AUC's
      skewness): deterministic, no random numbers (``rng`` is not used), well
      under a second per evaluation for thousands of teams at any ``n``.  Its
      error, measured against the simulation and stated in
      ``details["accuracy"]``, is at most 0.18 sd of the maximum at 100 to
      600 positives and up to 3,000 teams (3.3e-4 in AUC), and falls as the
      test set grows.
    * ``"auto"`` (default): the simulation when it draws at most
      :data:`AUC_SIMULATION_LIMIT` scores per evaluation
      (:func:`auc_simulation_cost`), else the normal approximation.

    ``details`` reports the ``engine`` used and the ``accuracy`` of its answer.
    """
    from ._auc_normal import NORMAL_AUC_ACCURACY, normal_max_auc
    from ._auc_simulate import expected_max_auc

    s, below = prepare(aucs, n, 0.5)
    prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    target = check_choice("target", target, ("expected", "upper"))
    reps = check_int("reps", reps, low=10)
    engine = check_choice("engine", engine, AUC_ENGINES)
    rho = check_real("rho", rho, low=0.0, high=1.0)
    if engine == "auto":
        cost = auc_simulation_cost(s.size, n, prevalence, rho, reps)
        engine = "simulate" if cost <= AUC_SIMULATION_LIMIT else "normal"
    simulate = engine == "simulate"
    seed = int_seed(rng) if simulate else None
    mx = float(s.max())
    memo: dict = {}

    def summ(w):
        if w not in memo:
            a = w * s + (1 - w) * 0.5
            if simulate:
                memo[w] = expected_max_auc(a, n, prevalence, reps=reps, rng=seed, alpha=alpha, rho=rho, show=show)
            else:
                memo[w] = normal_max_auc(a, n, prevalence, rho=rho, alpha=alpha)
        return memo[w]

    def stat(w):
        r = summ(w)
        return r.mean if target == "expected" else r.ci_high

    if simulate:
        details = {"target": target, "rho": rho, "reps": reps, "seed": seed}
    else:
        details = {"target": target, "rho": rho}
    details.update({"metric": "auc", "prevalence": prevalence, "engine": engine})

    def state_accuracy(r) -> None:
        if simulate:
            details["accuracy"] = (
                f"Monte Carlo with {reps} replications (seed {seed}): standard error of the expected maximum "
                f"{r.se_mean:.1e}"
            )
        elif min(r.n_pos, r.n_neg) < 100:
            details["accuracy"] = (
                f"{NORMAL_AUC_ACCURACY}; this test set has only {r.n_pos} positives and {r.n_neg} negatives, "
                "fewer than it was checked at: engine='simulate' is the reliable choice"
            )
        else:
            details["accuracy"] = NORMAL_AUC_ACCURACY

    def _no_solution(reason: str) -> SotaEstimate:
        state_accuracy(summ(1.0))
        return _unsolved("shrink", s, n, below, reason, details)

    f_hi = stat(1.0)
    what = "expected maximum AUC" if target == "expected" else f"upper {100 * (1 - alpha):g}% bound of the maximum AUC"
    if f_hi < mx:
        return _no_solution(
            f"no shrinkage weight w in [0, 1] makes the {what} reach the observed maximum "
            f"{mx:.4f}: even without shrinking it is {f_hi:.4f}; the top score is an outlier, "
            "not an effect of multiplicity"
        )
    a = 0.0
    guess = 1.0 - 1.5 * (f_hi - mx) / (mx - 0.5)
    if 0.0 < guess < 1.0 and stat(guess) < mx:
        a = guess
    elif stat(0.0) > mx:
        return _no_solution(f"no shrinkage weight w in [0, 1]: even at AUC 0.5 the {what} exceeds {mx:.4f}")
    w = brentq(lambda w: stat(w) - mx, a, 1.0, xtol=1e-6)
    r = summ(w)
    est = w * mx + (1 - w) * 0.5
    state_accuracy(r)
    if simulate:
        details["se_mean"] = r.se_mean
    return SotaEstimate(
        "shrink",
        s.size,
        n,
        mx,
        float(est),
        weight=float(w),
        expected_max=r.mean,
        ci_low=r.ci_low,
        ci_high=r.ci_high,
        teams_above=int(np.sum(s > est)),
        below_chance=below,
        details=details,
    )


def simulate_leaderboard(
    thetas, n: int, *, rho: float = RHO0, theta0: float | None = None, rng=None
) -> tuple[np.ndarray, int]:
    """One simulated leaderboard of classifiers with true accuracies ``thetas`` (Figures 8b, 8d, 9b).

    The dependent model of Section 4.3 with a random reference classifier:
    ``K_0 ~ B(n, theta0)`` correct predictions of the reference, then for each
    classifier ``X_j = B(K_0, p1_j) + B(n - K_0, p0_j)`` (Eqs. 6-7).  As in the
    estimators, ``theta0`` defaults to ``max(thetas)`` and classifiers that
    violate Eq. 8 are left out.  ``rng`` is an int seed, a
    :class:`numpy.random.Generator` or None.

    Returns
    -------
    accuracies : ndarray
        The simulated accuracies ``X_j / n`` of the feasible classifiers.
    excluded : int
        Number of classifiers left out by Eq. 8.
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


# ------------------------------------------------------------- the front door
def _check_perfect_score(scores, metric: str, method: str, rho: float) -> None:
    """A perfect top score where the model cannot take one: an error that says what to do."""
    s = np.asarray(scores, dtype=float).ravel()
    if s.size == 0 or not np.all(np.isfinite(s)) or s.max() != 1.0:
        return  # prepare() reports empty and non-finite leaderboards
    i = int(np.argmax(s))
    if metric == "auc":
        raise ValueError(
            f"scores: team {i + 1} has a perfect AUC of 1, which no binormal classifier reaches (Eq. 10); "
            "check that score (a leak? a tiny test set?) and leave it out to estimate the state of the art of the others"
        )
    if rho != 0.0 and method in ("shrink", "crop", "cap"):
        raise ValueError(
            f"scores: team {i + 1} has a perfect score of 1; with rho={rho:g} the dependent model takes the top "
            "score as the accuracy theta0 of the reference classifier, which must be below 1 (Eq. 6); use "
            "rho=0 (independent classifiers), or check that score (a leak? a tiny test set?) and leave it out"
        )


# -------------------------------------------------------------------- (estimators)
#: Estimators :func:`estimate_sota` offers for each metric.
METHODS = {"accuracy": ("shrink", "crop", "cap", "deconvolve", "abc"), "auc": ("shrink",)}


def estimate_sota(
    scores,
    n: int,
    *,
    metric: str = "accuracy",
    classes: int = 2,
    prevalence: float | None = None,
    rho: float = RHO0,
    method: str = "shrink",
    target: str = "expected",
    alpha: float = 0.05,
    rng=0,
    show: bool | None = None,
    engine: str = "auto",
) -> SotaEstimate:
    """Estimate the state of the art behind a leaderboard (Section 5; the ``sotalib sota`` command).

    The sample maximum of ``m`` teams overestimates the best true score
    ``theta_SOTA``.  The estimators:

    * ``"shrink"`` -- Eq. 9, ``theta'_j = w theta_hat_j + (1 - w)/classes``
      with ``w`` solved so that the expected maximum under the dependent,
      non-identical model (Eqs. 6-8) equals the observed maximum
      (``target="expected"``, Table 2 row 3) or its upper ``1 - alpha/2``
      bound does (``"upper"``, row 4); for ``metric="auc"`` toward 0.5 with
      the simulated maximum AUC (Section 5.2.3, :func:`shrink_auc`);
    * ``"crop"`` -- the paper's cropping (Appendix, Table 4; :func:`sotalib.multiplicity.crop`):
      the teams above a crop point ``c`` are dropped, the board is resampled
      from the scores below it, ``c`` is solved and snapped to the paper's grid;
    * ``"cap"`` -- ``theta'_j = min(theta_hat_j, c)``, capped teams kept at ``c``;
    * ``"deconvolve"`` -- empirical Bayes: ``E max`` of ``m`` draws from the
      nonparametric maximum-likelihood mixing distribution, with a
      bootstrap interval (beyond the paper; it uses the marginal binomial
      likelihood, which is the same for every ``rho``, so ``rho`` is not used);
    * ``"abc"`` -- approximate Bayesian computation (Section 5.3.2), simulating
      the dependent model with ``rho``.

    Parameters
    ----------
    scores : array of float
        One score per team (accuracy or AUC), each in ``[0, 1]``; teams at or
        below chance (``1/classes``, or 0.5 for the AUC) are left out and counted.
    n : int
        Test-set size (``>= 1``).
    metric : {"accuracy", "auc"}
        The leaderboard's metric.
    classes : int
        Number of classes (``>= 2``; chance accuracy is ``1/classes``).
    prevalence : float, optional
        Share of positives in ``(0, 1)``; required for ``metric="auc"``.
    rho : float
        Correlation ``rho_0`` with the reference classifier, in ``[0, 1]``;
        default 0.6 as in the paper.
    method : {"shrink", "crop", "cap", "deconvolve", "abc"}
        The estimator; only ``"shrink"`` for the AUC.
    target : {"expected", "upper"}
        What the shrink, crop and cap equations match to the observed maximum;
        ``deconvolve`` and ``abc`` estimate ``E max`` directly and accept only
        ``"expected"``.
    alpha : float
        Intervals are ``1 - alpha``, ``alpha`` in ``(0, 1)``.
    rng : int, numpy.random.Generator or None
        Randomness of the Monte Carlo estimators (deconvolve, abc, the AUC):
        an int seed (default 0, as on the command line), a Generator or None
        (fresh entropy).  The exact estimators ignore it.
    show : bool or None
        Progress bars of the Monte Carlo estimators (None: only when stderr
        is a terminal; the command line passes False with ``--json``).
    engine : {"auto", "exact", "normal", "simulate"}
        How the distribution of the maximum is computed.  Accuracy:
        ``"exact"`` (the exact model), ``"normal"`` (a normal approximation
        for large ``n``, :mod:`sotalib.multiplicity._depmax_normal`) or
        ``"auto"`` (exact unless its work would take minutes, at ``n >= 10^4``).
        AUC: ``"simulate"`` (Monte Carlo, exact in distribution), ``"normal"``
        or ``"auto"``.  The result's ``details`` name the engine used and,
        for an approximation, its accuracy.

    Returns
    -------
    SotaEstimate
        With ``solved=False`` and a ``reason`` when no shrinkage weight or
        crop point solves the equation (an answer, not an error).

    Raises
    ------
    ValueError
        If an argument is out of range or the combination is not available
        (the message names the parameter).

    Examples
    --------
    >>> import numpy as np
    >>> board = np.random.default_rng(0).binomial(3000, 0.9, 200) / 3000
    >>> est = estimate_sota(board, 3000, rho=0.0)
    >>> est.solved and est.estimate < est.sample_max
    True
    """
    metric = check_choice("metric", metric, ("accuracy", "auc"))
    n = check_int("n", n, low=1)
    classes = check_int("classes", classes, low=2)
    rho = check_probability("rho", rho)
    method = check_choice("method", method, METHODS["accuracy"])
    target = check_choice("target", target, ("expected", "upper"))
    alpha = check_alpha("alpha", alpha)
    check_rng(rng)
    engine = check_choice("engine", engine, ("auto", "exact", "normal", "simulate"))
    if metric == "accuracy" and engine == "simulate":
        raise ValueError(
            "engine 'simulate' is for metric='auc'; the accuracy's engines are 'auto', 'exact' and 'normal'"
        )
    if metric == "auc" and engine == "exact":
        raise ValueError(
            "engine 'exact' is for metric='accuracy'; the AUC's engines are 'auto', 'simulate' (Monte Carlo, "
            "exact in distribution) and 'normal'"
        )
    _check_perfect_score(scores, metric, method, rho)
    if metric == "auc":
        if prevalence is None:
            raise ValueError("prevalence must be given for metric='auc' (the share of positives, in (0, 1))")
        prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
        if method not in METHODS["auc"]:
            raise ValueError(f"method {method!r} is not available for metric='auc' (use 'shrink')")
        return shrink_auc(scores, n, prevalence, rho=rho, target=target, rng=rng, alpha=alpha, show=show, engine=engine)
    if method in ("deconvolve", "abc") and target != "expected":
        raise ValueError(
            f"target {target!r} is not supported by method {method!r}, which estimates the expected "
            "maximum itself; use target='expected', or method='shrink', method='crop' or method='cap' to match "
            "the upper bound"
        )
    if method == "shrink":
        return shrink(scores, n, classes=classes, rho=rho, target=target, alpha=alpha, engine=engine)
    if method == "crop":
        from ._crop import crop

        return crop(scores, n, classes=classes, rho=rho, target=target, alpha=alpha, engine=engine)
    if method == "cap":
        return cap(scores, n, classes=classes, rho=rho, target=target, alpha=alpha, engine=engine)
    if method == "deconvolve":
        return deconvolve(scores, n, classes=classes, rng=rng, alpha=alpha, show=show)
    return abc(scores, n, classes=classes, rho=rho, rng=rng, alpha=alpha, show=show)
