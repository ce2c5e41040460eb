"""Chapters 2 and 3: the exact distribution of the sample maximum, and the large-n cases of issue 12.

The large-n cases run in a subprocess, once, so that their peak memory
(``ru_maxrss`` of that process) can be shown beside the time; the time then
includes the start of a Python process (about a second).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from sotalib.multiplicity import iid_max_distribution

from ._harness import Case

ROOT = Path(__file__).resolve().parent.parent


class PeakMemory:
    """A note that shows the peak memory of the last subprocess run (filled in when the case has run)."""

    def __init__(self, text: str, limit_mb: float | None = None):
        self.text = text
        self.limit_mb = limit_mb
        self.mb: float | None = None
        self.error: str | None = None
        self.stdout = ""

    def __str__(self) -> str:
        if self.error:
            return f"{self.text}; {self.error}"
        if self.mb is None:
            return self.text
        limit = (
            ""
            if self.limit_mb is None
            else f" (target < {self.limit_mb:,.0f} MB: {'yes' if self.mb < self.limit_mb else 'NO'})"
        )
        return f"{self.text}; peak memory {self.mb:,.0f} MB{limit}"

    def __len__(self) -> int:
        return len(str(self))


def in_subprocess(code: str, note: PeakMemory, timeout: float = 600.0, strict: bool = False) -> Callable[[], None]:
    """A case function running ``code`` in a fresh Python process and recording its peak memory in ``note``.

    The process's standard output is kept in ``note.stdout``.  A failure or a timeout is written
    into the note; with ``strict`` it also raises RuntimeError, so that a reference that fails is
    reported as failed rather than timed (the harness says "reference failed").
    """
    script = code + "\nimport resource\nprint('MAXRSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}

    def run() -> None:
        try:
            out = subprocess.run(
                [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout, env=env, check=True
            ).stdout
        except subprocess.TimeoutExpired:
            note.error = f"did not finish within {timeout:.0f} s"
            if strict:
                raise RuntimeError(note.error) from None
            return
        except subprocess.CalledProcessError as exc:
            note.error = f"failed: {exc.stderr.strip().splitlines()[-1] if exc.stderr.strip() else exc}"
            if strict:
                raise RuntimeError(note.error) from None
            return
        note.stdout = out
        kb = [line.split()[1] for line in out.splitlines() if line.startswith("MAXRSS")]
        note.mb = int(kb[-1]) / 1024 if kb else None

    return run


def _summary(n, m, theta):
    return lambda: iid_max_distribution(n, m, theta).summary()


def _maxdist_case(n: int, target: float | None) -> Case:
    note = PeakMemory(f"sotalib.summarize_max(n={n:,}, m=1,000, theta=0.9, rho=0.6): swap engine", limit_mb=1024)
    code = f'from sotalib.multiplicity import summarize_max\nsummarize_max({n}, 1000, 0.9, rho=0.6, engine="exact")'
    return Case(
        f"maxdist --rho 0.6 --n {n:,} --m 1000 --theta 0.9 (subprocess)",
        in_subprocess(code, note),
        target=target,
        repeat=1,
        warmup=False,
        note=note,
    )


def _engine(n: int, engine: str) -> Callable[[], object]:
    """The exact F and 1 - F of Table 1's dependent model (m = 1,000, theta = theta0 = 0.9, rho = 0.6) at ``n``."""

    def run():
        from sotalib.multiplicity import _max_dependent

        theta = np.array([0.9])
        k0s, pk0, p1, p0 = _max_dependent._kernel_inputs(n, theta, 0.6, 0.9, "random", 1e-20)
        return _max_dependent._exact_max(n, 1000, k0s, pk0, p1, p0, np.ones(1), engine=engine, thetas=theta)

    return run


CASES = [
    Case("iid max: n=3,000 m=1,000 theta=0.9 (Table 3 row 1)", _summary(3000, 1000, 0.9), target=0.05, repeat=5),
    Case("iid max: m = n = 10^6, theta=0.9", _summary(10**6, 10**6, 0.9), target=1.0, repeat=3),
    Case("iid max: m = n = 10^7, theta=1e-6", _summary(10**7, 10**7, 1e-6), target=1.0, repeat=3),
    Case(
        "dependent max: n=10^5, m=1,000, rho=0.6: swap engine vs per-K_0 Numba kernel",
        _engine(10**5, "swap"),
        target=None,
        repeat=1,
        reference=_engine(10**5, "numba"),
        reference_name="Numba kernel, a convolution per K_0",
        note="the same exact F and 1 - F (tests: 1e-12)",
    ),
    _maxdist_case(10**5, None),
    _maxdist_case(10**6, 30.0),
    _maxdist_case(10**7, None),
]
