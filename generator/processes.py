"""What the generator's worker processes share: how they treat signals.

Site builds (generator/site/workers.py), the solver (generator/solving.py) and the checks
(generator/check/workers.py, generator/check/readahead.py) each run forked worker processes; this
module stays light, so that starting one imports nothing more.
"""

from __future__ import annotations

import contextlib
import signal
from typing import Iterator

#: The signals a command answers (Ctrl-C, and SIGTERM as a service manager or ``kill`` sends it).
_ANSWERED = (signal.SIGINT, signal.SIGTERM)


def worker_signals() -> None:
    """Workers die quietly on SIGTERM (the parent's handler would raise in them) and ignore Ctrl-C;
    signals held back while they were forked (:func:`signals_held`) reach them from now on."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _ANSWERED)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM are held back in this thread: workers forked in it start
    with them held until :func:`worker_signals` has set their own handlers, so one that arrives as a
    worker starts cannot run this process's handler in it (a traceback, where the worker should die
    quietly or ignore it). This process gets any that arrived when the block ends. Where the
    platform cannot hold signals back, the block runs as it is."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _ANSWERED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


__all__ = ["signals_held", "worker_signals"]
