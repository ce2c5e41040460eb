"""Progress bars for long work: on stderr, only when someone is watching.

Long computations (simulations in blocks, enumerations, bootstraps) wrap their
outer loop in :func:`progress`.  A bar appears on stderr when ``show`` is
True, or, with the default ``show=None``, when stderr is an interactive
terminal; it never appears when stderr is piped or redirected, so scripts, the
test suite and ``--json`` output stay clean.  The command line passes
``show=False`` with ``--json``.  No global state: each call decides for itself,
or, deep inside an engine that has no ``progress`` argument of its own, asks the
front door's choice, which :func:`showing` holds for the duration of a call.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

__all__ = ["progress", "showing", "wants_progress"]

T = TypeVar("T")

#: The ``progress`` a front door was given, for the engines it calls (None: not set, or "when a terminal").
_SHOW: ContextVar[bool | None] = ContextVar("sotalib_progress", default=None)


@contextmanager
def showing(show: bool | None) -> Iterator[None]:
    """Within the block, :func:`wants_progress` without an argument answers ``show`` (None: a terminal)."""
    token = _SHOW.set(show)
    try:
        yield
    finally:
        _SHOW.reset(token)


def wants_progress(show: bool | None = None) -> bool:
    """Whether to draw a bar: ``show`` if given, else the caller's (:func:`showing`), else whether stderr is a terminal."""
    if show is None:
        show = _SHOW.get()
    if show is not None:
        return bool(show)
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stderr
        return False


def progress(
    iterable: Iterable[T], *, total: int | None = None, desc: str = "", show: bool | None = None
) -> Iterator[T]:
    """Iterate over ``iterable``, drawing a tqdm bar on stderr when :func:`wants_progress`.

    Parameters
    ----------
    iterable : iterable
        The work, one item per step (for example, blocks of replications).
    total : int, optional
        Number of steps, when ``iterable`` has no ``len``.
    desc : str
        Label shown before the bar.
    show : bool or None
        True or False forces the bar on or off; None (default) draws it only
        when stderr is an interactive terminal.
    """
    if not wants_progress(show):
        yield from iterable
        return
    from tqdm.auto import tqdm

    # mininterval keeps the bar cheap; delay hides it for work that ends within two seconds.
    yield from tqdm(iterable, total=total, desc=desc, file=sys.stderr, mininterval=0.5, delay=2.0, leave=False)
