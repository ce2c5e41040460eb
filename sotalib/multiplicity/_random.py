"""Helpers for the ``rng`` argument (SPEC 7) shared inside this subpackage.

``rng`` is an int seed, a :class:`numpy.random.Generator` or None; an int
gives exactly the stream the earlier ``seed=int`` gave.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._rng import as_generator


def seed_record(rng) -> int | None:
    """The int seed to report in results (None for a Generator or fresh entropy)."""
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return int(rng)
    return None


def spawn(rng, k: int) -> list:
    """``k`` independent streams from ``rng``, each acceptable to ``numpy.random.default_rng``.

    An int gives ``SeedSequence(rng).spawn(k)`` (the streams of ``seed=rng``
    in earlier versions); a Generator spawns ``k`` child generators; None
    spawns from fresh entropy.
    """
    if isinstance(rng, np.random.Generator):
        return rng.spawn(k)
    if rng is not None:
        as_generator(rng)  # validates: a non-negative int
        rng = int(rng)
    return np.random.SeedSequence(rng).spawn(k)


def fixed_seed(rng) -> int:
    """One int seed for common random numbers across repeated simulations.

    An int is returned as it is (so results equal those of ``seed=rng``); a
    Generator (or None: fresh entropy) gives one draw, used as the seed of
    every repetition.
    """
    record = seed_record(rng)
    if record is not None:
        as_generator(record)  # validates: non-negative
        return record
    return int(as_generator(rng).integers(0, 2**63 - 1))
