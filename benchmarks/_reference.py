"""mlscorecheck as a reference, in the benchmark's own environment.

mlscorecheck is never a dependency of sotalib or its tests: ``make bench-venv``
installs it into ``.bench-venv``, and each benchmark module that compares with
it starts one persistent worker there (:class:`ReferenceWorker`) and sends it
JSON requests, one per line.  A module gives only the body of the worker: a
function ``run(req)`` returning what the comparison needs; the prologue and the
request loop are shared here.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_PY = ROOT / ".bench-venv" / "bin" / "python"

# commands and replies use the original stdin/stdout; solver subprocesses (CBC) get /dev/null
_HEAD = r"""
import json, logging, os, sys
commands = os.fdopen(os.dup(0), "r")
replies = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
logging.disable(logging.CRITICAL)
"""

_LOOP = r"""
from importlib.metadata import version
print(json.dumps({"ready": version("mlscorecheck")}), file=replies, flush=True)
for line in commands:
    req = json.loads(line)
    try:
        out = {"inconsistency": run(req)}
    except Exception as exc:
        out = {"error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(out), file=replies, flush=True)
"""


class ReferenceWorker:
    """A persistent mlscorecheck worker running ``body`` (which defines ``run(req)``) in ``.bench-venv``.

    When the environment or the package is missing, ``proc`` is None and
    ``error`` says why (the benchmark table shows it instead of a ratio).
    """

    def __init__(self, body: str):
        self.proc, self.version, self.error = None, None, None
        if not BENCH_PY.exists():
            self.error = "mlscorecheck not installed (.bench-venv missing; run make bench-venv)"
            return
        try:
            self.proc = subprocess.Popen(
                [str(BENCH_PY), "-c", _HEAD + body + _LOOP],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            self.version = json.loads(self.proc.stdout.readline())["ready"]
        except Exception as exc:  # not importable: say so in the table
            self.error = f"mlscorecheck unavailable: {exc}"
            self.proc = None

    @property
    def note(self) -> str:
        """``vs mlscorecheck X.Y.Z``, or why there is no reference."""
        return f"vs mlscorecheck {self.version}" if self.version else (self.error or "")

    def call(self, **req):
        """One request; the worker's answer, or RuntimeError with its error."""
        if self.proc is None:
            raise RuntimeError(self.error)
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        if "error" in out:
            raise RuntimeError(out["error"])
        return out["inconsistency"]

    def thunk(self, **req):
        """A benchmark reference calling :meth:`call` with ``req``, or None without a worker."""
        return (lambda: self.call(**req)) if self.proc is not None else None
