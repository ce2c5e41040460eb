"""Deprecation shims: a renamed function or argument keeps working for one minor version, with a warning.

The warning is a :class:`DeprecationWarning` that names the new spelling and
the version that removes the old one, as NumPy and SciPy do.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "REMOVED_IN",
    "REMOVED_IN_NEXT",
    "deprecated_alias",
    "keyword_only_since",
    "renamed_arguments",
    "warn_deprecated",
]

#: Names deprecated in 0.6.0 or before go in this version.
REMOVED_IN = "0.7.0"
#: Names deprecated after 0.6.0 (the one minor version they keep working for).
REMOVED_IN_NEXT = "0.8.0"

F = TypeVar("F", bound=Callable[..., Any])


def warn_deprecated(old: str, new: str, *, stacklevel: int = 3, removed_in: str = REMOVED_IN) -> None:
    """Warn that ``old`` is deprecated in favour of ``new`` (removed in ``removed_in``)."""
    warnings.warn(
        f"{old} is deprecated and will be removed in sotalib {removed_in}; use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def deprecated_alias(func: F, old_name: str, *, module: str | None = None) -> F:
    """``func`` under its former name ``old_name``, warning on every call."""
    new = f"{module}.{func.__name__}" if module else func.__name__

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        warn_deprecated(f"{old_name}()", f"{new}()")
        return func(*args, **kwargs)

    wrapper.__name__ = old_name
    wrapper.__qualname__ = old_name
    wrapper.__doc__ = f"Deprecated alias of :func:`{new}` (removed in {REMOVED_IN})."
    return wrapper  # type: ignore[return-value]


def renamed_arguments(*, removed_in: str = REMOVED_IN, **renames: str) -> Callable[[F], F]:
    """Accept former keyword names, ``@renamed_arguments(old="new")``, with a warning.

    Giving both spellings is an error naming both.  A renaming that also
    changes the meaning (a z value that became a level) is not a rename: write
    that conversion in the function.
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise ValueError(f"give {new} only ({old} is its deprecated spelling)")
                    warn_deprecated(f"{func.__name__}({old}=...)", f"{new}=", removed_in=removed_in)
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def keyword_only_since(*names: str) -> Callable[[F], F]:
    """Accept the options ``names``, now keyword-only, at their former positions after the data, with a warning.

    ``@keyword_only_since("n_resamples", "rng")`` on ``f(n, m, *, n_resamples, rng)`` lets a former call
    ``f(n, m, 100, 1)`` keep working for one minor version; the signature (and ``inspect.signature``) is the
    new one.
    """

    def decorate(func: F) -> F:
        params = inspect.signature(func).parameters.values()
        positional = sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > positional:
                extra = args[positional:]
                if len(extra) > len(names):
                    raise TypeError(f"{func.__name__}() takes {positional} positional arguments, got {len(args)}")
                given = names[: len(extra)]
                for name, value in zip(given, extra):
                    if name in kwargs:
                        raise TypeError(f"{func.__name__}() got multiple values for argument {name!r}")
                    kwargs[name] = value
                warn_deprecated(
                    f"{func.__name__}() with {', '.join(given)} given by position",
                    "keywords: " + ", ".join(f"{name}=..." for name in given),
                )
                args = args[:positional]
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
