"""Ctrl-C stops a command within a second or two: exit code 130, one line on stderr, no traceback.

Each run below spends minutes in compiled code (a Numba kernel, the worker threads
of a simulation); the test starts it as a user would (``python -m sotalib``), sends
SIGINT once the work has started, and requires the process to end promptly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")

LEADERBOARD = "TeamId,TeamName,Score\n" + "".join(f"{i},t{i},{0.80 + 0.002 * i:.4f}\n" for i in range(40))

#: Runs that take minutes, and where they spend them.
LONG_RUNS = {
    # Monte Carlo maximum: a compiled kernel on 8 worker threads
    "maxdist-mc": ["maxdist", "--n", "1000", "--m", "1000", "--theta", "0.9", "--engine", "simulate", "--reps", "1e8"],
    # the exact dependent model at n = 10^7: one parallel compiled kernel per distribution
    "sota-exact": ["sota", "--leaderboard", "{lb}", "--n", "1e7", "--engine", "exact"],
    # the simulated best AUC of 10^4 classifiers
    "auc-max": ["auc-max", "--auc", "0.9", "--n", "3000", "--m", "10000", "--prevalence", "0.3", "--reps", "1000"],
}
#: Seconds from the start to SIGINT: past the imports, inside the work.
START = 3.0
#: Seconds the command may take to end after SIGINT, on an idle machine (a loaded one stretches it by its
#: load per core: the test measures the program, not the machine's other work).
STOP = 2.0


def _stop_limit() -> float:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return STOP * max(1.0, load / (os.cpu_count() or 1))


def _started(pid: int) -> bool:
    """Whether the process has started its work: it has spent START seconds of CPU or wall time."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= START
    except OSError:
        return False


@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_ctrl_c_ends_a_long_run_at_once(name, tmp_path):
    lb = tmp_path / "lb.csv"
    lb.write_text(LEADERBOARD)
    argv = [a.format(lb=lb) for a in LONG_RUNS[name]]
    # runs of minutes: beyond the minute sotalib allows itself by default, which the user raises
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SOTALIB_TIME_LIMIT": "1h"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sotalib", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        begin = time.monotonic()
        while time.monotonic() - begin < START and not _started(proc.pid):
            time.sleep(0.05)
        assert proc.poll() is None, f"{name} ended before the interrupt: {proc.communicate()}"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if "note:" not in line]  # a cost note may come first
    assert lines == [f"sotalib {argv[0]}: interrupted"], err
    limit = _stop_limit()
    assert took < limit, f"{name} took {took:.1f} s to stop after Ctrl-C (allowed {limit:.1f} s)"
    assert out == ""


def _raise(exc: BaseException):
    def run(*_args, **_kwargs):
        raise exc

    return run


def test_an_interrupt_reported_as_a_system_error_is_an_interrupt(monkeypatch, capsys):
    # seen in CI: SIGINT while Numba unpickles a cached kernel reaches the command as two SystemErrors ("...
    # returned a result with an exception set"), the KeyboardInterrupt at the root of their causes
    import sotalib.cli as cli

    def run(*_args, **_kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the handler runs here
        except KeyboardInterrupt as interrupt:
            inner = SystemError("<function _numba_unpickle> returned a result with an exception set")
            inner.__cause__ = interrupt
            raise SystemError("CPUDispatcher(<function _max_on_grid>) returned a result with an exception set") from (
                inner
            )

    monkeypatch.setattr(cli, "_run", run)
    assert cli.main(["maxdist", "--n", "100", "--m", "3", "--theta", "0.8"]) == 130
    assert capsys.readouterr().err == "sotalib maxdist: interrupted\n"


def test_a_system_error_of_another_cause_is_not_called_an_interrupt(monkeypatch):
    import sotalib.cli as cli

    monkeypatch.setattr(cli, "_run", _raise(SystemError("a real fault")))  # no Ctrl-C: a fault
    with pytest.raises(SystemError, match="a real fault"):
        cli.main(["maxdist", "--n", "100", "--m", "3", "--theta", "0.8"])


def test_an_error_after_ctrl_c_is_the_interrupt(monkeypatch, capsys):
    # Numba, interrupted while it compiles, may swallow the KeyboardInterrupt and fail later with another error
    # ("RuntimeError: no compiled object yet for <Library ...>"): after Ctrl-C that is the interrupt, not a fault
    import sotalib.cli as cli

    def run(*_args, **_kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the handler runs here
        except KeyboardInterrupt:
            pass  # swallowed, as by the compiler
        raise RuntimeError("no compiled object yet for <Library '_bin_starts'>")

    monkeypatch.setattr(cli, "_run", run)
    assert cli.main(["maxdist", "--n", "100", "--m", "3", "--theta", "0.8"]) == 130
    assert capsys.readouterr().err == "sotalib maxdist: interrupted\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is given back


SWALLOWED = """
import time
from sotalib._interrupt import SigintGuard
with SigintGuard(0.5, lambda: print("forced", flush=True)):
    import os, signal
    begin = time.monotonic()
    while time.monotonic() - begin < 30:  # work that swallows the interrupt goes on
        try:
            if time.monotonic() - begin < 0.1:
                os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
        except KeyboardInterrupt:
            pass
print("not ended")
"""


def test_a_swallowed_interrupt_still_ends_the_process():
    begin = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", SWALLOWED], capture_output=True, text=True, timeout=60)
    took = time.monotonic() - begin
    assert proc.returncode == 130, proc
    assert proc.stdout == "forced\n"
    assert took < 20, took


def test_an_interrupt_python_cannot_raise_is_not_printed():
    # Ctrl-C inside a ctypes callback of LLVM reaches sys.unraisablehook; after Ctrl-C it is not printed
    from types import SimpleNamespace

    # private: the command line's SIGINT handler is the subject
    from sotalib._interrupt import SigintGuard

    seen = []
    previous = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        with SigintGuard(60, lambda: None) as guard:
            guard.received = time.monotonic()
            sys.unraisablehook(SimpleNamespace(exc_value=KeyboardInterrupt()))
            other = SimpleNamespace(exc_value=ValueError("a real fault"))
            sys.unraisablehook(other)
        assert seen == [other]
    finally:
        sys.unraisablehook = previous
