"""Power of the consistency tests by simulation (Fazekas & Kovacs, Sections 5.2-5.3, Figs. 3 and 5).

The tests never raise a false alarm (type I error 0); their *power* -- the
probability of detecting a given kind of error -- depends on the problem and
is estimated here by Monte Carlo with :class:`numpy.random.Generator`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .._json import json_safe
from .._progress import progress as _progress
from .._result import Result
from .._rng import as_generator
from .._validate import check_int
from ._folds import kfold_configurations, stratified_folds
from ._intervals import score_intervals
from ._mos import check_mos_intervals
from ._single import check_single

__all__ = ["PowerPoint", "power_typo", "power_oversampling"]


@dataclass(frozen=True, repr=False)
class PowerPoint(Result):
    """Estimated power at one number of decimals: ``power`` +- ``se`` from ``n_resamples`` replications.

    Attributes
    ----------
    decimals : int
        Decimals of the simulated reports.
    power : float
        Share of the replications in which the error was detected.
    se : float
        Its binomial standard error.
    n_resamples : int
        Monte Carlo replications (the key ``reps`` of ``to_dict()``, as in the cached simulations).
    seed : int or None
        The int seed the simulation was given as ``rng`` (None for a Generator or fresh
        entropy): with it, ``rng=seed`` reproduces the point.
    """

    decimals: int
    power: float
    se: float
    n_resamples: int
    seed: int | None

    def to_dict(self) -> dict:
        """JSON-safe form with the keys of the cached simulations: decimals, power, se, reps, seed."""
        return json_safe(
            {
                "decimals": int(self.decimals),
                "power": float(self.power),
                "se": float(self.se),
                "reps": int(self.n_resamples),
                "seed": None if self.seed is None else int(self.seed),
            }
        )

    @classmethod
    def from_dict(cls, d: dict) -> PowerPoint:
        """The point ``to_dict()`` wrote (a cached simulation)."""
        return cls(d["decimals"], d["power"], d["se"], d["reps"], d["seed"])


def _seed_of(rng) -> int | None:
    """The int seed behind ``rng``, if it is one (recorded in :class:`PowerPoint`)."""
    return int(rng) if isinstance(rng, numbers.Integral) and not isinstance(rng, bool) else None


def _fmt(x: float, d: int) -> str:
    return f"{round(x * 10**d) / 10**d:.{d}f}"


def report_scores(values: dict[str, float], decimals: int) -> dict[str, str]:
    """Round float scores to ``decimals`` as an author would (from the float value)."""
    return {k: _fmt(v, decimals) for k, v in values.items()}


def power_typo(
    p: int,
    n: int,
    decimals: int,
    *,
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    theta_range: tuple[float, float] = (0.6, 0.95),
    progress: bool | None = None,
) -> PowerPoint:
    """Power of the single-test-set test against the smallest typo: the last digit of accuracy off by one.

    Each replication draws a true sensitivity and specificity uniformly from
    ``theta_range``, a confusion matrix tp ~ B(p, sens), tn ~ B(n, spec),
    reports acc, sens and spec rounded to ``decimals``, adds +-10^-decimals
    (random sign) to the accuracy and runs the single-test-set check.  The test
    never raises a false alarm, so its power is its whole quality.

    Parameters
    ----------
    p, n : int
        Positives and negatives of the test set.
    decimals : int
        Decimals of the simulated reports (1-8).
    n_resamples : int
        Monte Carlo replications.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed (reproducible, recorded in the result), a Generator, or None
        (fresh entropy).
    theta_range : (float, float)
        Range of the true sensitivity and specificity.
    progress : bool or None
        Progress bar over the replications (None: when stderr is a terminal).

    Returns
    -------
    PowerPoint
        The share of detected typos and its standard error.

    Raises
    ------
    ValueError
        ``p`` or ``n`` below 1, ``decimals`` outside 1-8, ``n_resamples`` below 1.

    References
    ----------
    Fazekas & Kovacs, Section 5.3 and Figure 5 (power against typos).

    Examples
    --------
    >>> from sotalib.consistency import power_typo
    >>> pt = power_typo(75, 304, 4, n_resamples=20, rng=1)
    >>> pt.n_resamples, 0 <= pt.power <= 1
    (20, True)
    """
    p, n = check_int("p", p, low=1), check_int("n", n, low=1)
    d = check_int("decimals", decimals, low=1, high=8)
    seed = _seed_of(rng)
    rng = as_generator(rng)
    hits = 0
    reps = check_int("n_resamples", n_resamples, low=1)
    for _ in _progress(range(reps), total=reps, desc="replications", show=progress):
        se_, sp_ = rng.uniform(*theta_range, size=2)
        tp, tn = int(rng.binomial(p, se_)), int(rng.binomial(n, sp_))
        acc = (tp + tn) / (p + n) + rng.choice([-1, 1]) * 10.0**-d
        acc = min(max(acc, 0.0), 1.0)
        scores = {"acc": _fmt(acc, d), "sens": _fmt(tp / p, d), "spec": _fmt(tn / n, d)}
        hits += not check_single(p, n, scores, decimals=d).consistent
    pw = hits / reps
    return PowerPoint(d, pw, math.sqrt(pw * (1 - pw) / reps), reps, seed)


def power_oversampling(
    decimals: int,
    *,
    n_resamples: int = 200,
    rng: int | np.random.Generator | None = None,
    p: int = 38,
    n: int = 262,
    p_oversampled: int = 262,
    k: int = 5,
    sens: float = 0.9139,
    spec: float = 0.9733,
    solver: str = "highs",
    progress: bool | None = None,
) -> PowerPoint:
    """Power of the Mean-of-Scores test against minority oversampling before k-fold cross-validation.

    Each replication evaluates on the oversampled data (``p_oversampled``
    positives, ``n`` negatives, stratified ``k`` folds): per fold
    tp_i ~ B(p_i, sens), tn_i ~ B(n_i, spec); the mean acc, sens, spec over
    the folds are rounded to ``decimals`` and tested by Mean of Scores against
    every fold configuration of the *stated* experiment (``p``, ``n``, ``k``,
    Algorithm 2, positives in every fold).  Detected = inconsistent with all.
    ``solver='highs'`` uses SciPy's in-process HiGHS for speed (every
    solution still verified exactly; 'cbc' gives the same verdicts, slower).

    Parameters
    ----------
    decimals : int
        Decimals of the simulated reports (1-8).
    n_resamples : int
        Monte Carlo replications.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed (reproducible, recorded in the result), a Generator, or None
        (fresh entropy).
    p, n, k : int
        The stated experiment: k-fold cross-validation of p positives and n negatives
        (default: the TPEHG study of the paper).
    p_oversampled : int
        Positives after oversampling.
    sens, spec : float
        True sensitivity and specificity of the simulated classifier.
    solver : {'highs', 'cbc'}
        The integer-program solver ('highs' is faster; the verdicts are the same).
    progress : bool or None
        Progress bar over the replications (None: when stderr is a terminal).

    Returns
    -------
    PowerPoint
        The share of detected oversampled reports and its standard error.

    Raises
    ------
    ValueError
        ``decimals`` outside 1-8, ``n_resamples`` below 1, or a bad experiment.

    References
    ----------
    Fazekas & Kovacs, Section 5.2 and Figure 3.

    Examples
    --------
    >>> from sotalib.consistency import power_oversampling
    >>> pt = power_oversampling(2, n_resamples=2, rng=1)
    >>> pt.decimals, pt.n_resamples, pt.seed
    (2, 2, 1)
    """
    d = check_int("decimals", decimals, low=1, high=8)
    seed = _seed_of(rng)
    rng = as_generator(rng)
    folds_os = stratified_folds(p_oversampled, n, k)
    configs = list(kfold_configurations(p, n, k, positives_in_every_fold=True, negatives_in_every_fold=True))
    hits = 0
    reps = check_int("n_resamples", n_resamples, low=1)
    for _ in _progress(range(reps), total=reps, desc="replications", show=progress):
        tps = [int(rng.binomial(a, sens)) for a, _ in folds_os]
        tns = [int(rng.binomial(b, spec)) for _, b in folds_os]
        vals = {
            "acc": float(np.mean([(t + u) / (a + b) for (a, b), t, u in zip(folds_os, tps, tns)])),
            "sens": float(np.mean([t / a for (a, _), t in zip(folds_os, tps)])),
            "spec": float(np.mean([u / b for (_, b), u in zip(folds_os, tns)])),
        }
        ivs = score_intervals(report_scores(vals, d), decimals=d)
        consistent = any(check_mos_intervals(c, ivs, solver=solver).consistent for c in configs)
        hits += not consistent
    pw = hits / reps
    return PowerPoint(d, pw, math.sqrt(pw * (1 - pw) / reps), reps, seed)
