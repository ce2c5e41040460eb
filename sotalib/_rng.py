"""The one randomness argument of sotalib: ``rng`` (SPEC 7 of the Scientific Python project).

Every function that draws random numbers takes ``rng``: an int seed, a
:class:`numpy.random.Generator`, or None (fresh entropy from the operating
system).  An int gives the same stream as ``numpy.random.default_rng(int)``,
so results seeded with an int are reproducible across versions of sotalib
that keep the algorithm.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["as_generator", "RNGLike"]

#: What an ``rng`` argument may be.
RNGLike = "int | numpy.random.Generator | None"


def as_generator(rng, name: str = "rng") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``rng`` (int >= 0, Generator or None).

    Raises
    ------
    ValueError
        If ``rng`` is a negative int, a bool, or of another type (the message names ``name``).
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"{name} must be a non-negative integer seed or a numpy.random.Generator, got {rng}")
        return np.random.default_rng(int(rng))
    raise ValueError(f"{name} must be an integer seed, a numpy.random.Generator or None, got {type(rng).__name__}")
