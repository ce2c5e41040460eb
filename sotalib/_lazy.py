"""Lazy attribute loading for packages (PEP 562), as in SPEC 1 of the Scientific Python project.

A package's ``__init__`` declares which private module defines each public
name; the module is imported when one of its names is first used.  So
``import sotalib`` costs almost nothing, and ``sotalib.check_report`` loads
the consistency machinery but not the AUC simulator.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence

from ._deprecate import REMOVED_IN


def attach(
    package: str,
    names: Mapping[str, Sequence[str]],
    deprecated: Mapping[str, tuple[str, str] | tuple[str, str, str | None]] | None = None,
) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """Return ``__getattr__``, ``__dir__`` and ``__all__`` for ``package``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : mapping
        Relative module name (``"._max_iid"`` or ``".multiplicity"``) to the
        public names it defines.  A module name without names stands for
        itself (a subpackage exposed as an attribute).
    deprecated : mapping, optional
        Former public names, kept for one minor version: old name to
        ``(module, name)`` where the object now lives.  If ``name`` is public,
        the warning names it; otherwise the old name was an internal that is
        no longer public.  A third element overrides what the warning names
        (a name relative to the package, or a full one);
        None there means the object is a wrapper that warns itself when
        called (a renamed function with its old signature), so the look-up
        does not warn.  Deprecated names are not in ``__all__``.
    """
    deprecated = dict(deprecated or {})
    where: dict[str, str] = {}
    for module, attrs in names.items():
        for attr in attrs:
            if attr in where:
                raise ValueError(f"{package}: {attr!r} is declared twice")
            where[attr] = module
    public = sorted(where)

    def __getattr__(name: str) -> object:
        if name in deprecated:
            module, attr, *says = deprecated[name]
            target = importlib.import_module(module, package)
            replacement = says[0] if says else ""
            if replacement is None:  # a wrapper that warns itself when called
                return getattr(target, attr)
            if replacement:  # the replacement: a full name, or one relative to the package
                new = replacement if replacement.startswith("sotalib") else f"{package}.{replacement}"
            elif attr in where:
                new = f"{package}.{attr}"
            elif attr in getattr(target, "__all__", ()) and not module.rsplit(".", 1)[-1].startswith("_"):
                new = f"{target.__name__}.{attr}"
            else:
                new = f"no replacement ({package}.{name} is internal and leaves the public API)"
            warnings.warn(
                f"{package}.{name} is deprecated and will be removed in sotalib {REMOVED_IN}; use {new}",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(target, attr)
        try:
            module = where[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        mod = importlib.import_module(module, package)
        value = mod if module.rsplit(".", 1)[-1] == name else getattr(mod, name)
        setattr(sys.modules[package], name, value)  # later look-ups skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(public) | set(vars(sys.modules[package])))

    __getattr__.deprecated = frozenset(deprecated)  # type: ignore[attr-defined]
    return __getattr__, __dir__, public
