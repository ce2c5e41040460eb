"""Ctrl-C during compiled code: long kernels run in a worker thread while the main thread waits.

Python raises ``KeyboardInterrupt`` in the main thread, and only between
bytecodes: a compiled Numba kernel that runs for minutes in the main thread
holds it off until it returns.  :func:`interruptible` runs such a kernel
(compiled with ``nogil=True``) in a worker thread while the main thread waits
in short steps, so Ctrl-C is raised at once.  The abandoned worker cannot be
stopped; it is recorded in :data:`ABANDONED`, and the command line, after its
one line ``interrupted``, ends the process without waiting for it
(:func:`sotalib.cli.main`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

__all__ = ["interruptible", "ABANDONED", "SigintGuard"]

#: Worker threads left running by an interrupt (the command line ends the process without them).
ABANDONED: list[threading.Thread] = []


def interruptible(func, *args, **kwargs):
    """``func(*args, **kwargs)``, interruptible by Ctrl-C even while ``func`` runs compiled code.

    ``func`` must release the GIL (``njit(nogil=True)``).  In the main thread
    it runs in a daemon worker thread, the main thread waiting in steps of
    0.05 s; elsewhere (a thread of its own already) it is called directly.
    Its result is returned and its exception raised as if called directly.
    """
    if threading.current_thread() is not threading.main_thread():
        return func(*args, **kwargs)
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = func(*args, **kwargs)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="sotalib-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        ABANDONED.append(worker)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


class SigintGuard:
    """Ctrl-C for the command line: the interrupt is raised as usual, and the process ends even where it is lost.

    Within the ``with`` block (in the main thread) SIGINT raises
    ``KeyboardInterrupt`` as Python's own handler does, records that it came
    (:attr:`received`), and starts a timer: if the process has not left the
    block ``grace`` seconds later -- the interrupt was swallowed, as by
    Numba while it compiles a kernel for the first time, and the work goes
    on -- ``on_force()`` runs and the process ends with exit code 130.
    Leaving the block cancels the timer and restores the previous handler.
    """

    def __init__(self, grace: float, on_force) -> None:
        self.grace = grace
        self.on_force = on_force
        self.received: float | None = None
        self._timer: threading.Timer | None = None
        self._previous: Any = None
        self._hook: Any = None

    def __enter__(self) -> SigintGuard:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
            self._hook = sys.unraisablehook
            sys.unraisablehook = self._unraisable
        return self

    def _unraisable(self, unraisable) -> None:
        """Print an exception Python cannot raise, unless it is the interrupt.

        Ctrl-C inside a ctypes callback of LLVM is lost there: the timer ends the process with one line.
        """
        if self.received is not None and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        self._hook(unraisable)

    def _handler(self, _signum, _frame) -> None:
        if self.received is None:
            self.received = time.monotonic()
            self._timer = threading.Timer(self.grace, self._force)
            self._timer.daemon = True
            self._timer.start()
        raise KeyboardInterrupt

    def _force(self) -> None:
        try:
            self.on_force()
        finally:
            os._exit(130)

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            sys.unraisablehook = self._hook
