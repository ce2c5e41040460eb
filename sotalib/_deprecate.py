"""Deprecation shims: a renamed function or argument keeps working for one minor version, with a warning.

The warning is a :class:`DeprecationWarning` that names the new spelling and
the version that removes the old one, as NumPy and SciPy do.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["REMOVED_IN", "deprecated_alias", "renamed_arguments", "warn_deprecated"]

REMOVED_IN = "0.7.0"

F = TypeVar("F", bound=Callable[..., Any])


def warn_deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in sotalib {REMOVED_IN}; use {new}",
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


def renamed_arguments(**renames: str) -> Callable[[F], F]:
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
                    warn_deprecated(f"{func.__name__}({old}=...)", f"{new}=")
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
