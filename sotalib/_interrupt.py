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

import threading

__all__ = ["interruptible", "ABANDONED"]

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
