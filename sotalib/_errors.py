"""Exceptions shared by the library and the command line (standard library only: the command line loads it early)."""

from __future__ import annotations

__all__ = ["NoSolutionError"]


class NoSolutionError(ValueError):
    """Valid input to which the question has no answer (the command line exits with code 3).

    A :class:`ValueError`, so that callers catching bad input catch it too;
    its message says why there is no answer and what would give one.
    """
