"""Catalogs checked in parallel: one worker process per catalog, at most one per core.

The checks of one catalog need nothing from those of another, so with several catalogs to check
each is checked in a worker process forked from the one that loaded the sources (the document,
its POT and the page models are inherited, not read again). The findings come back in the order
the catalogs were given, so a report does not depend on which worker ended first. The lemmas a
worker looked up and the rule-fact results it worked out are handed back to this process, which
keeps them on disk (see :mod:`~.cachefiles`); a worker's other memos end with it.

Catalogs are checked here, one after the other, where the platform cannot fork, where this
process runs other threads (a forked child would hold only this one), where one job is asked
for, and where the catalogs are small (:data:`PARALLEL_BYTES`): starting workers then costs more
than it saves.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Callable

from patiencebook.generator.check import lemmas
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.processes import worker_signals

#: Catalogs smaller than this all together (bytes on disk) are checked in this process.
PARALLEL_BYTES = 64 * 1024

# The work of the pool being run, inherited by its forked workers (a closure does not pickle).
_WORK: Callable[[str, Path], list] | None = None


def worker_count(paths: list[Path], jobs: int | None) -> int:
    """How many worker processes check the catalogs at ``paths`` (1: none, all in this process).

    ``jobs`` is the most asked for (``None``: one per core); never more than one per catalog or
    per core."""
    if jobs == 1 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if threading.active_count() > 1:
        return 1
    if sum(_size(path) for path in paths) < PARALLEL_BYTES:
        return 1
    cores = usable_cores()
    return max(1, min(jobs or cores, cores, len(paths)))


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity, as ``taskset`` sets it), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def check_each(work: Callable[[str, Path], list], catalogs: list[tuple[str, Path]], jobs: int | None) -> list[list]:
    """``[work(lang, path) for lang, path in catalogs]``, in that order, run in
    :func:`worker_count` worker processes when that is more than one.

    Raises the first error ``work`` raised: in one process, that of the first catalog in the order
    given that has one; with workers, that of the first catalog found to have one, the other
    workers stopped at once. A :class:`PatienceBookError` is raised as it was, anything else as the
    pool re-raises it; a worker process that died (killed, out of memory) is a
    :class:`PatienceBookError` naming the catalogs whose checks had not ended.
    """
    workers = worker_count([path for _, path in catalogs], jobs)
    if workers == 1:
        return [work(lang, path) for lang, path in catalogs]
    global _WORK
    _WORK = work
    lemmas.keep({})  # the lemma file read here once, not in each worker
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=worker_signals)
    outcomes: dict[int, tuple] = {}
    try:
        # The largest catalogs first, so that the small ones fill in at the end.
        order = sorted(range(len(catalogs)), key=lambda i: -_size(catalogs[i][1]))
        futures = {pool.submit(_one, *catalogs[i]): i for i in order}
        try:
            for future in as_completed(futures):
                outcome = outcomes[futures[future]] = future.result()
                if outcome[0] == "error":
                    break  # reported now, not after the other catalogs
        except BrokenProcessPool:
            unfinished = [lang for i, (lang, _) in enumerate(catalogs) if i not in outcomes]
            raise PatienceBookError(f"a worker process stopped before the checks of the {', '.join(unfinished)} "
                                    f"catalog{'s' if len(unfinished) > 1 else ''} ended (out of memory?); "
                                    "check again with --jobs 1") from None
    finally:
        if len(outcomes) < len(catalogs):
            # Interrupted, failed or done early: the workers stop now rather than finish their
            # catalogs (they ignore Ctrl-C; the pool has no public way to end them in this Python).
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        _WORK = None
    from patiencebook.generator.check.facts import keep_fact_memo

    for kind, value, found, facts_found in outcomes.values():
        lemmas.keep(found)
        keep_fact_memo(facts_found)
    errors = [value for kind, value, _, _ in outcomes.values() if kind == "error"]
    if errors:
        raise errors[0]
    return [outcomes[i][1] for i in range(len(catalogs))]


def _size(path: Path) -> int:
    """Bytes of the file at ``path``; 0 when it cannot be read (that is reported when it is read)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _one(lang: str, path: Path) -> tuple[str, object, dict, object]:
    """In a worker: ``("ok", findings, lemmas looked up, fact results worked out)``, or
    ``("error", the error, …)`` in its place (see :func:`~.facts.fact_memo_added`)."""
    from patiencebook.generator.check.facts import fact_memo_added

    try:
        outcome = ("ok", _WORK(lang, path))
    except PatienceBookError as error:
        outcome = ("error", error)
    return (*outcome, lemmas.added(), fact_memo_added())


__all__ = ["PARALLEL_BYTES", "check_each", "usable_cores", "worker_count"]
