"""Lazy attribute loading for packages (PEP 562), as in SPEC 1 of the Scientific Python project.

A package's ``__init__`` declares which private module defines each public
name; the module is imported when one of its names is first used.  So
``import sotalib`` costs almost nothing, and ``sotalib.check_report`` loads
the consistency machinery but not the AUC simulator.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence


def attach(
    package: str, names: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """Return ``__getattr__``, ``__dir__`` and ``__all__`` for ``package``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : mapping
        Relative module name (``"._maxdist"`` or ``".multiplicity"``) to the
        public names it defines.  A module name without names stands for
        itself (a subpackage exposed as an attribute).
    """
    where: dict[str, str] = {}
    for module, attrs in names.items():
        for attr in attrs:
            if attr in where:
                raise ValueError(f"{package}: {attr!r} is declared twice")
            where[attr] = module
    public = sorted(where)

    def __getattr__(name: str) -> object:
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

    return __getattr__, __dir__, public
