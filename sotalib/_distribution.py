"""The one set of fields of every summary of a distribution: :class:`DistributionSummary`.

A distribution the library reports -- the best score of ``m`` classifiers,
the difference of two boards' maxima, a simulated or an exact maximum -- is
summarised by its mean, its standard deviation and an equal-tailed
``1 - alpha`` interval (the ``alpha/2`` and ``1 - alpha/2`` quantiles), with
how the numbers were computed (``engine``) and, for Monte Carlo, the number
of replications, the standard error of the mean and the seed.  Each result
inherits these fields under these names and adds its own.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from ._deprecate import warn_deprecated
from ._result import Result

__all__ = ["ENGINES", "DistributionSummary"]

#: The values of ``engine=`` and of the ``engine`` field: how a number is computed (the vocabulary).
ENGINES = ("auto", "exact", "normal", "simulate")


@dataclass(frozen=True, repr=False)
class DistributionSummary(Result):
    """Mean, standard deviation and equal-tailed interval of a distribution, and how they were computed.

    The base of :class:`~sotalib.multiplicity.MaxSummary`,
    :class:`~sotalib.multiplicity.MaxDifference` and
    :class:`~sotalib.multiplicity.Summary`.  The four numbers are positional;
    the rest are keyword-only, so that a subclass adds its own fields after
    them.

    Attributes
    ----------
    mean, sd : float
        Expected value and standard deviation.
    ci_low, ci_high : float
        The ``alpha/2`` and ``1 - alpha/2`` quantiles (the smallest value
        whose cdf reaches each level).
    alpha : float
        The interval's level is ``1 - alpha``.
    engine : str
        How the numbers were computed: ``"exact"``, ``"normal"`` (a stated
        approximation) or ``"simulate"`` (Monte Carlo).
    n_resamples : int or None
        Monte Carlo replications (None unless ``engine="simulate"``).
    se_mean : float or None
        Monte Carlo standard error of ``mean``, ``sd / sqrt(n_resamples)``
        (None unless simulated).
    seed : int or None
        The int seed of a simulation (None when not simulated, or when a
        Generator or None was given as ``rng``).
    """

    mean: float
    sd: float
    ci_low: float
    ci_high: float
    _: KW_ONLY
    alpha: float = 0.05
    engine: str = "exact"
    n_resamples: int | None = None
    se_mean: float | None = None
    seed: int | None = None

    @property
    def method(self) -> str:
        """Deprecated name of :attr:`engine`, with ``"mc"`` for ``"simulate"`` (removed in 0.7.0)."""
        name = type(self).__name__
        warn_deprecated(f"{name}.method", f"{name}.engine ('mc' is now 'simulate')")
        return "mc" if self.engine == "simulate" else self.engine

    @property
    def reps(self) -> int | None:
        """Deprecated name of :attr:`n_resamples` (removed in 0.7.0)."""
        name = type(self).__name__
        warn_deprecated(f"{name}.reps", f"{name}.n_resamples")
        return self.n_resamples
