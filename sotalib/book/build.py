"""Build the Jupyter Book (``make book`` and ``tests/test_book.py`` share this).

Jupyter Book's execution cache keys on the text of the cells only, so a change
to :mod:`sotalib` or to the installed packages would leave stale outputs in a
cached build.  Before each build we fingerprint the library sources and the
environment; when the fingerprint differs from the one stored beside the
cache, the cache is deleted and every notebook is executed again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

#: The repository root: the book is built from a checkout (``make book`` runs in it).
ROOT = Path.cwd()
#: The installed sotalib package, whose sources the execution cache depends on.
PACKAGE = Path(__file__).resolve().parent.parent


def fingerprint(root: Path = ROOT) -> str:
    """Hash of everything a notebook's output may depend on besides its cells."""
    h = hashlib.sha256()
    files = sorted(
        p
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    for path in files:
        h.update(str(path.relative_to(PACKAGE)).encode())
        h.update(path.read_bytes())
    for path in (root / "pyproject.toml", root / "requirements.lock"):
        if path.exists():
            h.update(path.name.encode())
            h.update(path.read_bytes())
    dists = sorted(
        f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions()
    )
    h.update("\n".join(dists).encode())
    h.update(sys.version.encode())
    return h.hexdigest()


def invalidate_stale_cache(root: Path = ROOT) -> bool:
    """Delete the execution cache if the library or environment changed.

    Returns True when the cache was removed.
    """
    build = root / "_build"
    cache = build / ".jupyter_cache"
    stamp = build / ".sotalib-fingerprint"
    current = fingerprint(root)
    stale = not stamp.exists() or stamp.read_text() != current
    if stale and cache.exists():
        shutil.rmtree(cache)
    build.mkdir(exist_ok=True)
    stamp.write_text(current)
    return stale


def build(root: Path = ROOT, *, extra_args: tuple[str, ...] = ()) -> int:
    """Execute every notebook and build the HTML book, warnings as errors."""
    invalidate_stale_cache(root)
    # The kernel must use matplotlib's inline backend (glued figures are PNG outputs).
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env.setdefault("NUMBA_CACHE_DIR", str(root / "_build" / "numba-cache"))
    env.setdefault("PYTHONHASHSEED", "0")
    exe = Path(sys.executable).parent / "jupyter-book"
    cmd = [
        str(exe),
        "build",
        str(root),
        "--all",
        "--warningiserror",
        "--keep-going",
        *extra_args,
    ]
    return subprocess.call(cmd, cwd=root, env=env)


if __name__ == "__main__":  # pragma: no cover - exercised by make book
    sys.exit(build(extra_args=tuple(sys.argv[1:])))
