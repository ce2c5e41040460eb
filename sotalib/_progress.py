"""Progress bars for long work: on stderr, only when someone is watching.

Long computations (simulations in blocks, enumerations, bootstraps) wrap their
outer loop in :func:`progress`.  A bar appears on stderr when ``show`` is
True, or, with the default ``show=None``, when stderr is an interactive
terminal; it never appears when stderr is piped or redirected, so scripts, the
test suite and ``--json`` output stay clean.  The command line passes
``show=False`` with ``--json``.  No global state: each call decides for itself,
or, deep inside an engine that has no ``progress`` argument of its own, asks the
front door's choice, which :func:`showing` holds for the duration of a call.
Long work announces its expected duration the same way (:func:`announce`), to
whoever listens (:func:`announcing`): the command line, which prints it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

__all__ = ["announce", "announcing", "progress", "showing", "wants_progress"]

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


#: Who hears of long work before it starts (the command line, which states its cost on stderr), or None.
_LISTENER: ContextVar[Callable[..., None] | None] = ContextVar("sotalib_listener", default=None)


@contextmanager
def announcing(listener: Callable[..., None]) -> Iterator[None]:
    """Within the block, :func:`announce` calls ``listener(seconds, **facts)``.

    The command line states the cost of a long run this way: the library
    knows how long its chosen engine takes, and announces it once every
    argument has been checked, so that an error comes first.  The listener
    may raise to stop the work before it starts.
    """
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def announce(seconds: float, **facts: object) -> None:
    """Tell the listener (:func:`announcing`), if any, that work expected to take ``seconds`` starts now.

    ``facts`` say what the work is (``work=``, a short name, and the numbers
    a statement of its cost needs).
    """
    listener = _LISTENER.get()
    if listener is not None:
        listener(seconds, **facts)


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
