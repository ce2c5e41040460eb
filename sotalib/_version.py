"""The package version, from one source: the installed distribution's metadata (pyproject.toml)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sotalib")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"
