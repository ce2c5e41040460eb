"""The built book, shared by every test that reads it: built at most once per test run.

``make test`` runs pytest on every core (pytest-xdist); the tests that read the HTML live in several
modules and may land on different workers.  The first worker to ask builds the book under a file
lock and stamps it with the run's id; the others wait for the lock and reuse the build.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from sotalib.book.build import build


def _run_id() -> str:
    # the same for every worker of one pytest-xdist run; the process id for a plain run
    return os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"


@pytest.fixture(scope="session")
def built(root: Path) -> Path:
    """``_build/html`` of a build made in this test run (warnings are errors)."""
    out = root / "_build"
    out.mkdir(exist_ok=True)
    stamp = out / ".built-in-test-run"
    run = _run_id()
    with open(out / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = stamp.read_text() if stamp.exists() else ""
        if done == f"failed {run}":
            pytest.fail("the book build failed in this test run (warnings are errors): see the first failure")
        if done != f"ok {run}":
            code = build(root)
            stamp.write_text(f"{'ok' if code == 0 else 'failed'} {run}")
            assert code == 0, "the book build failed (warnings are errors): see the output above"
    return out / "html"
