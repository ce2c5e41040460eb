"""The one randomness argument of sotalib: ``rng`` (SPEC 7 of the Scientific Python project).

Every function that draws random numbers takes ``rng``: an int seed, a
:class:`numpy.random.Generator`, or None (fresh entropy from the operating
system).  An int gives the same stream as ``numpy.random.default_rng(int)``,
so results seeded with an int are reproducible across versions of sotalib
that keep the algorithm.  The helpers here are the only place that
interprets ``rng``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["as_generator", "check_rng", "int_seed", "seed_record", "spawn"]


def _is_int(rng) -> bool:
    return isinstance(rng, numbers.Integral) and not isinstance(rng, bool)


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
    if _is_int(rng):
        if int(rng) < 0:
            raise ValueError(f"{name} must be a non-negative integer seed or a numpy.random.Generator, got {rng}")
        return np.random.default_rng(int(rng))
    raise ValueError(f"{name} must be an integer seed, a numpy.random.Generator or None, got {type(rng).__name__}")


def check_rng(rng, name: str = "rng"):
    """``rng`` itself, after checking it is an int >= 0, a Generator or None (ValueError naming ``name``).

    For functions that use ``rng`` only on some paths: a bad seed is an error on every path.
    """
    if rng is None or isinstance(rng, np.random.Generator):
        return rng
    as_generator(rng, name)
    return rng


def seed_record(rng) -> int | None:
    """The int seed to report in a result: ``rng`` itself if it is an int, else None."""
    return int(rng) if _is_int(rng) else None


def int_seed(rng, name: str = "rng") -> int:
    """One int seed from which a computation derives all its streams (``default_rng([seed, ...])``).

    An int is returned as it is (checked non-negative), so results equal those
    of the former ``seed=int``; a Generator gives one draw; None gives fresh
    entropy.
    """
    if _is_int(rng):
        as_generator(rng, name)  # validates: non-negative
        return int(rng)
    return int(as_generator(rng, name).integers(0, 2**63 - 1))


def spawn(rng, k: int, name: str = "rng") -> list:
    """``k`` independent streams from ``rng``, each acceptable to ``numpy.random.default_rng``.

    An int gives ``SeedSequence(rng).spawn(k)`` (the streams of the former
    ``seed=rng``); a Generator spawns ``k`` child generators; None spawns from
    fresh entropy.
    """
    if isinstance(rng, np.random.Generator):
        return rng.spawn(k)
    if rng is not None:
        as_generator(rng, name)  # validates: a non-negative int
        rng = int(rng)
    return np.random.SeedSequence(rng).spawn(k)
