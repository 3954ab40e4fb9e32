"""What the generator's worker processes share: how they treat signals.

Site builds (generator/site/workers.py), the solver (generator/solving.py) and the checks
(generator/check/workers.py) each run a pool of forked workers; this module stays light, so that
starting one imports nothing more.
"""

from __future__ import annotations

import signal


def worker_signals() -> None:
    """Workers die quietly on SIGTERM (the parent's handler would raise in them) and ignore Ctrl-C."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["worker_signals"]
