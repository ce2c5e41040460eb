"""The common result of the book's distribution computations.

Every distribution of a sample maximum in the book -- exact or simulated --
is reported the same way: its mean, standard deviation and an equal-tailed
``1 - alpha`` interval (the ``alpha/2`` and ``1 - alpha/2`` quantiles, each the
smallest value ``v`` with ``F(v) >= q``).  Monte Carlo results also carry the
number of replications and the standard error of the mean.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .._distribution import DistributionSummary
from .._json import json_safe
from .._validate import check_probability

__all__ = ["Summary"]


@dataclass(frozen=True, repr=False)
class Summary(DistributionSummary):
    """Mean, standard deviation and equal-tailed interval of a distribution.

    Returned by :meth:`MaxDistribution.summary`, :func:`simulate_iid_max`
    and :func:`simulate_max`: every distribution of a maximum in the book,
    exact or simulated, is summarised the same way.  The fields are those of
    every distribution summary (``sotalib._distribution.DistributionSummary``).

    Attributes
    ----------
    mean, sd : float
        Expected value and standard deviation.
    ci_low, ci_high : float
        The ``alpha/2`` and ``1 - alpha/2`` quantiles.
    alpha : float
        The interval's level is ``1 - alpha``.
    engine : str
        ``"exact"``, ``"normal"`` or ``"simulate"`` (Monte Carlo).
    n_resamples : int or None
        Monte Carlo replications (None unless simulated).
    se_mean : float or None
        Standard error of the Monte Carlo mean, ``sd / sqrt(n_resamples)``.
    seed : int or None
        The int seed of a simulation, when known.
    """

    def to_dict(self) -> dict:
        """JSON-ready dictionary; Monte Carlo fields only when present."""
        d = asdict(self)
        for key in ("n_resamples", "se_mean", "seed"):
            if d[key] is None:
                d.pop(key)
        return json_safe(d)

    @classmethod
    def from_samples(cls, samples, alpha: float = 0.05, *, scale: float = 1.0) -> Summary:
        """Summary of Monte Carlo draws (multiplied by ``scale``).

        Quantiles follow the book's convention (smallest value whose empirical
        cdf reaches ``q``: numpy's ``inverted_cdf`` method).
        """
        alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
        s = np.asarray(samples, dtype=float) * scale
        if s.ndim != 1 or s.size < 2:
            raise ValueError(f"samples must be a 1-d array of at least 2 draws, got shape {s.shape}")
        sd = float(np.std(s, ddof=1))
        lo, hi = np.quantile(s, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
        return cls(
            mean=float(np.mean(s)),
            sd=sd,
            ci_low=float(lo),
            ci_high=float(hi),
            engine="simulate",
            n_resamples=int(s.size),
            se_mean=sd / math.sqrt(s.size),
            alpha=alpha,
        )
