"""Numba's ``njit`` with a cache that never writes into the installed package.

Numba caches compiled functions beside their source, in the package's own
``__pycache__``; on a read-only installation (a container running as a
non-root user) it then looks for a user-wide directory and, finding none,
raises "cannot cache function ... no locator available".  Here every
compiled function of sotalib is cached in one directory outside the
package:

1. ``NUMBA_CACHE_DIR`` if the user set it (Numba's own convention);
2. else ``$XDG_CACHE_HOME/sotalib/numba`` (``~/.cache/sotalib/numba``);
3. else a directory in the system's temporary directory;
4. else nothing is cached: functions compile on first use, nothing fails.

Numba's global configuration is left alone, so other packages' caches are
not moved.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numba
from numba.core import caching

__all__ = ["njit", "cache_dir"]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    """The directory sotalib's compiled functions are cached in (None: no cache)."""
    configured = getattr(numba.config, "CACHE_DIR", "")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    candidates = [Path(xdg) if xdg else Path.home() / ".cache"]
    uid = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    candidates = [c / "sotalib" / "numba" for c in candidates]
    candidates.append(Path(tempfile.gettempdir()) / f"sotalib-numba-{uid}")
    for path in candidates:
        if _writable(path):
            return path
    return None


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator pointing into :func:`cache_dir`."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(str(cache_dir()), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if cache_dir() is None:
            return None
        return super().from_function(py_func, py_file)


class _Impl(caching.CompileResultCacheImpl):
    _locator_classes = [_Locator]


class _Cache(caching.FunctionCache):
    _impl_class = _Impl


def njit(*args, cache: bool = True, **kwargs):
    """``numba.njit`` whose ``cache=True`` caches outside the package (see the module docstring).

    Used as ``@njit`` or ``@njit(parallel=True, ...)``, like ``numba.njit``.
    """
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return njit(cache=cache)(args[0])

    def decorate(func):
        dispatcher = numba.njit(*args, cache=False, **kwargs)(func)
        if cache:
            try:
                dispatcher._cache = _Cache(func)
            except (RuntimeError, OSError, AttributeError):  # no usable cache: compile on each run
                pass
        return dispatcher

    return decorate
