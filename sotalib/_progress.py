"""Progress bars for long work: on stderr, only when someone is watching.

Long computations (simulations in blocks, enumerations, bootstraps) wrap their
outer loop in :func:`progress`.  A bar appears on stderr when ``show`` is
True, or, with the default ``show=None``, when stderr is an interactive
terminal; it never appears when stderr is piped or redirected, so scripts, the
test suite and ``--json`` output stay clean.  The command line passes
``show=False`` with ``--json``.  No global state: each call decides for itself.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

__all__ = ["progress", "wants_progress"]

T = TypeVar("T")


def wants_progress(show: bool | None = None) -> bool:
    """Whether to draw a bar: ``show`` if given, else whether stderr is a terminal."""
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
