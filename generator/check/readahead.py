"""What a check needs besides the sources, read ahead in a helper process while the sources load.

A check begins by loading the sources (the English DocBook) on one core: the worker processes that
check the catalogs are forked only after that (see :mod:`~.workers`), so another core waits. A
helper process forked at the start uses it: it builds the rules models of the embedded rules,
which game pages without a rules block of their own borrow (see
:mod:`patiencebook.generator.docbook.enginemodels`), and reads the catalogs that the workers will
check in two parts (each part would read them), and hands both over through a pipe; the workers
forked afterwards inherit them. On AisleRiot's help with three catalogs on two cores a first run
takes about 0.96 of the time it took without (see ``docs/checker-review.md``).

The models are waited for (this process would build them otherwise), the catalogs only briefly
(:data:`CATALOG_WAIT`). While this process waits it can do work of its own given to
:meth:`ReadAhead.meanwhile` (what each worker would otherwise do first), one task at a time until
the helper hands something over. A catalog the helper found broken is reported at once, before the
other catalogs are checked, with the error reading it gives. What the helper does not hand over in
time (a catalog it was late with, embedded rules that do not load, a helper that died) is worked out
again where it is needed, which reports any error as it would have without the helper.
"""

from __future__ import annotations

import multiprocessing
import pickle
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

from patiencebook.generator.processes import signals_held, worker_signals

#: The longest wait (seconds) for the embedded models before this process builds them itself.
WAIT = 60.0
#: The longest wait (seconds) for the catalogs: about what a worker takes to read one of
#: AisleRiot's; on a machine so busy that the helper is later, the workers read them.
CATALOG_WAIT = 0.025


class ReadAhead:
    """A helper process building the embedded rules models (when ``models``) and reading the
    catalogs at ``catalogs``, forked when made; :meth:`take_models` and :meth:`catalogs` take what
    it hands over, in that order, and :meth:`close` ends it (use it as a context manager)."""

    def __init__(self, catalogs: list[Path], models: bool) -> None:
        context = multiprocessing.get_context("fork")
        self._answers, sending = context.Pipe(duplex=False)
        self._process = context.Process(target=_read_ahead, args=(sending, list(catalogs), models), daemon=True)
        with signals_held():  # a Ctrl-C or SIGTERM as the helper starts is this process's alone
            self._process.start()
        sending.close()
        self._models_taken = self._done = False
        self._catalogs: dict[str, object] | None = None
        self._errors: dict[str, Exception] = {}
        self._tasks: Iterator[Callable[[], object]] = iter(())

    @classmethod
    def start(cls, catalogs: list[Path], models: bool) -> "ReadAhead | None":
        """A helper reading ahead ``catalogs`` and (with ``models``) the embedded models, or
        ``None`` when there is nothing to read or no core to spare: a platform that cannot fork, a
        process running other threads (a forked child would hold only this one), one usable core."""
        from .workers import usable_cores

        if not catalogs and not models:
            return None
        if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
            return None
        if usable_cores() < 2:
            return None
        return cls(catalogs, models)

    def meanwhile(self, tasks: Iterable[Callable[[], object]]) -> None:
        """Run ``tasks`` (callables taking nothing, which must not raise) one after the other
        whenever :meth:`take_models` or :meth:`catalogs` waits for the helper, each only while
        nothing has been handed over and the wait has time left; those left then are not run."""
        self._tasks = iter(tasks)

    def _next(self, wait: float = WAIT):
        """The next thing the helper handed over, or ``None`` when it handed nothing within ``wait``
        seconds (then nothing more is taken from it); the tasks of :meth:`meanwhile` run meanwhile."""
        if self._done:
            return None
        try:
            deadline = time.monotonic() + wait
            while not self._answers.poll(0) and time.monotonic() < deadline:
                task = next(self._tasks, None)
                if task is None:
                    break
                task()
            if not self._answers.poll(max(0.0, deadline - time.monotonic())):
                self._done = True
                return None
            return pickle.loads(self._answers.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):  # the helper died
            return None

    def take_models(self) -> None:
        """Make the embedded models the helper built this process's own (nothing when it built none)."""
        from patiencebook.generator.docbook.enginemodels import keep_models

        if self._models_taken:
            return
        self._models_taken = True
        found = self._next()
        if found is not None:
            keep_models(*found)

    def catalogs(self, wait: float | None = None) -> dict[str, object]:
        """The catalogs the helper read, Babel catalogs by path (as ``str``), if it hands them over
        within ``wait`` seconds (default :data:`CATALOG_WAIT`); those it could not read are left
        out (see :meth:`errors`)."""
        self._take_catalogs(wait)
        return self._catalogs

    def errors(self, wait: float | None = None) -> dict[str, Exception]:
        """The :class:`~patiencebook.generator.errors.CatalogError` of each catalog the helper
        found it could not read, by path (as ``str``), handed over with :meth:`catalogs`."""
        self._take_catalogs(wait)
        return self._errors

    def _take_catalogs(self, wait: float | None) -> None:
        if self._catalogs is None:
            self.take_models()  # handed over first
            found = self._next(CATALOG_WAIT if wait is None else wait)
            read, broken = found if isinstance(found, tuple) and len(found) == 2 else ({}, {})
            self._catalogs, self._errors = dict(read), dict(broken)

    def close(self) -> None:
        """End the helper (at once, if it is still reading) and wait for it."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._answers.close()

    def __enter__(self) -> "ReadAhead":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _read_ahead(sending, catalogs: list[Path], models: bool) -> None:
    """In the helper: hand over the embedded models and variants (or ``None``), then
    ``({path: catalog}, {path: CatalogError})`` of the catalogs read and of those that could not be."""
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.docbook.enginemodels import embedded_models, model_variants
    from patiencebook.generator.errors import CatalogError

    worker_signals()
    found = None
    if models:
        try:
            found = (embedded_models(), model_variants())
        except Exception:  # reported when the parent loads them itself
            found = None
    try:
        sending.send_bytes(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
        read, broken = {}, {}
        for path in catalogs:
            try:
                read[str(path)] = read_catalog(path)
            except CatalogError as error:  # reported by the parent at once, before any catalog is checked
                broken[str(path)] = error
            except Exception:  # reported when the catalog is read where it is checked
                continue
        sending.send_bytes(pickle.dumps((read, broken), protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:  # the parent no longer listens (it stopped on an error of its own)
        pass
    finally:
        sending.close()


__all__ = ["CATALOG_WAIT", "ReadAhead", "WAIT"]
