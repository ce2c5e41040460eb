"""The estimators of :func:`~sotalib.multiplicity.estimate_sota` and the options each uses.

One table, read by :func:`estimate_sota` (which refuses an option the
chosen estimator does not use) and by the command line (its ``--method``
choices and the options it refuses per method).  Standard library only, so
that ``sotalib sota --help`` loads no NumPy.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["SOTA_METHODS", "SOTA_METHOD_OPTIONS"]

#: The estimators of :func:`estimate_sota` for each metric; the first is the default (read-only).
SOTA_METHODS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "accuracy": ("shrink", "crop", "cap", "deconvolve", "abc", "naive", "observed"),
        "auc": ("shrink",),
    }
)

#: For each estimator of an accuracy board, the options of :func:`estimate_sota` it uses beyond the
#: board, ``n``, ``classes`` and ``alpha``: ``rho`` (the dependence on a reference classifier), ``target``
#: (an equation solved for the expected maximum or the upper bound), ``engine`` (a distribution of the
#: maximum computed exactly or by the normal approximation) and ``n_resamples``, ``rng`` (Monte Carlo).
SOTA_METHOD_OPTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "shrink": ("rho", "target", "engine"),
        "crop": ("rho", "target", "engine"),
        "cap": ("rho", "target", "engine"),
        "deconvolve": ("n_resamples", "rng"),
        "abc": ("rho", "n_resamples", "rng"),
        "naive": (),
        "observed": ("rho", "engine"),
    }
)
