"""Catalogs checked in parallel: one worker process per catalog, at most one per core.

The checks of one catalog need nothing from those of another, so with several catalogs to check
each is checked in a worker process forked from the one that loaded the sources (the document,
its POT and the page models are inherited, not read again). The findings come back in the order
the catalogs were given, so a report does not depend on which worker ended first. Where the
catalogs do not share out evenly (three catalogs, two cores), the last is checked in two parts by
whichever workers are free first, so that no worker waits while another checks it whole: the
first part to start takes the checks of the whole catalog, and both take its units a few at a
time (:class:`UnitShare`), so that they end together whichever started first. The lemmas a
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
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Callable, Iterator

from patiencebook.generator.check import lemmas
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.processes import signals_held, worker_signals

#: Catalogs smaller than this all together (bytes on disk) are checked in this process.
PARALLEL_BYTES = 64 * 1024
#: The interpreter's switch interval (seconds) while this process does work of its own beside the
#: workers (``check_each(meanwhile=)``), so that the pool's threads are not kept waiting.
SWITCH_INTERVAL = 0.0005

# The work of the pool being run, inherited by its forked workers (a closure does not pickle).
_WORK: Callable[[str, Path], list] | None = None
# The units of each catalog checked in parts, by its index in the pool's catalogs; inherited too
# (a shared counter is handed to a process by forking it, not through a pipe).
_SHARES: dict[int, "UnitShare"] = {}


class UnitShare:
    """The units of one catalog, handed out :data:`CHUNK` at a time to the parts that check it,
    in whichever processes they run: each part asks for more when it is done with what it has,
    so the parts end within a few units of each other whenever each started. Made before the
    processes that use it are forked (it holds a counter in shared memory, with its lock)."""

    #: Units handed out at a time: on AisleRiot's catalogs about a millisecond of checks.
    CHUNK = 4

    def __init__(self, context) -> None:
        self._next = context.Value("q", 0)

    def units(self, count: int) -> Iterator[int]:
        """Indices (0 to ``count`` - 1) of the units this part checks, the next :data:`CHUNK`
        taken whenever the last are checked; they run out when every unit has been taken."""
        while True:
            with self._next.get_lock():
                start = self._next.value
                self._next.value = start + self.CHUNK
            if start >= count:
                return
            yield from range(start, min(start + self.CHUNK, count))


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


def check_each(work: Callable[..., list], catalogs: list[tuple[str, Path]], jobs: int | None, *,
               combine: Callable[[list], list] | None = None,
               meanwhile: Callable[[], object] | None = None) -> list[list]:
    """``[work(lang, path) for lang, path in catalogs]``, in that order, run in
    :func:`worker_count` worker processes when that is more than one.

    With ``combine``, a catalog may be checked in parts: where the catalogs left over once each
    worker has taken as many as the others (three catalogs, two workers: one) are at most half as
    many as the workers, each of them (the smallest) is checked in two parts,
    ``work(lang, path, part=(0, 2), units=…)`` and ``part=(1, 2)``, by whichever workers are free
    first, and ``combine([result of part 0, result of part 1])`` is its result. Otherwise the
    workers that end early would wait for the last catalog with nothing to do. ``units`` is
    :meth:`UnitShare.units` of the catalog: given the number of its units, the indices of those
    the part checks, which both parts take from as they go.

    Raises the first error ``work`` raised: in one process, that of the first catalog in the order
    given that has one; with workers, that of the first catalog found to have one, the other
    workers stopped at once. A :class:`PatienceBookError` is raised as it was, anything else as the
    pool re-raises it; a worker process that died (killed, out of memory) is a
    :class:`PatienceBookError` naming the catalogs whose checks had not ended.

    ``meanwhile`` is called once in this process, while the workers check (first, without them):
    work of this process's own that the catalogs' checks do not need.
    """
    workers = worker_count([path for _, path in catalogs], jobs)
    if workers == 1:
        if meanwhile is not None:
            meanwhile()
        return [work(lang, path) for lang, path in catalogs]
    global _WORK
    _WORK = work
    lemmas.read_file()  # here once, not in each worker
    # The largest catalogs first, so that the small ones (and the parts) fill in at the end.
    order = sorted(range(len(catalogs)), key=lambda i: -_size(catalogs[i][1]))
    split = set(_split(order, workers)) if combine is not None else set()
    tasks = [(i, None) for i in order if i not in split] + [(i, (k, 2)) for i in order if i in split for k in range(2)]
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=worker_signals)
    outcomes: dict[tuple, tuple] = {}
    try:
        _SHARES.update((i, UnitShare(context)) for i in split)
        with signals_held():  # the workers are forked at the first submit
            futures = {pool.submit(_one, *catalogs[i], part, i): (i, part) for i, part in tasks}
        if meanwhile is not None:
            # The pool's threads hand the catalogs to the workers meanwhile; each needs the
            # interpreter lock, which a busy thread yields only every switch interval (5 ms by
            # default): a shorter one starts the workers' checks sooner (7 ms on AisleRiot's help).
            was = sys.getswitchinterval()
            sys.setswitchinterval(min(was, SWITCH_INTERVAL))
            try:
                meanwhile()
            finally:
                sys.setswitchinterval(was)
        try:
            for future in as_completed(futures):
                outcome = outcomes[futures[future]] = future.result()
                if outcome[0] == "error":
                    break  # reported now, not after the other catalogs
        except BrokenProcessPool:
            unfinished = list(dict.fromkeys(catalogs[i][0] for i, part in tasks if (i, part) not in outcomes))
            raise PatienceBookError(f"a worker process stopped before the checks of the {', '.join(unfinished)} "
                                    f"catalog{'s' if len(unfinished) > 1 else ''} ended (out of memory?); "
                                    "check again with --jobs 1") from None
    finally:
        if len(outcomes) < len(tasks):
            # Interrupted, failed or done early: the workers stop now rather than finish their
            # catalogs (they ignore Ctrl-C; the pool has no public way to end them in this Python).
            processes = list((getattr(pool, "_processes", None) or {}).values())
            for process in processes:
                process.terminate()
            for process in processes:
                process.join()
            # A worker stopped while it wrote its result leaves half a message in the pool's result
            # pipe, which the pool's thread would wait on for ever: with every other writer gone,
            # closing this process's end of the pipe ends that wait.
            writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
            if writer is not None:
                writer.close()
        pool.shutdown(wait=True, cancel_futures=True)
        _WORK = None
        _SHARES.clear()
    from patiencebook.generator.check.facts import keep_fact_memo

    for kind, value, found, facts_found in outcomes.values():
        lemmas.keep(found)
        keep_fact_memo(facts_found)
    errors = [value for kind, value, _, _ in outcomes.values() if kind == "error"]
    if errors:
        raise errors[0]
    return [combine([outcomes[i, (k, 2)][1] for k in range(2)]) if i in split else outcomes[i, None][1]
            for i in range(len(catalogs))]


def split_catalogs(paths: list[Path], jobs: int | None) -> list[Path]:
    """The catalogs of ``paths`` that :func:`check_each` checks in two parts with ``jobs`` (the
    smallest of those left over; none in one process)."""
    workers = worker_count(paths, jobs)
    if workers == 1:
        return []
    order = sorted(range(len(paths)), key=lambda i: -_size(paths[i]))
    return [paths[i] for i in _split(order, workers)]


def _split(order: list[int], workers: int) -> list[int]:
    """The indices of ``order`` (catalogs, largest first) checked in two parts by ``workers``."""
    return order[len(order) - split_count(len(order), workers):]


def split_count(catalogs: int, workers: int) -> int:
    """How many of ``catalogs`` checked by ``workers`` processes are checked in two parts (see
    :func:`check_each`): those left over once each worker has taken as many as the others, when
    they are at most half as many as the workers; else none (a part costs the reading of the
    catalog and its glossary again, which pays only where workers would otherwise wait)."""
    left = catalogs % workers if catalogs > workers else 0
    return left if 2 * left <= workers else 0


def _size(path: Path) -> int:
    """Bytes of the file at ``path``; 0 when it cannot be read (that is reported when it is read)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _one(lang: str, path: Path, part: tuple[int, int] | None, index: int) -> tuple[str, object, dict, object]:
    """In a worker: ``("ok", findings, lemmas looked up, fact results worked out)``, or
    ``("error", the error, …)`` in its place (see :func:`~.facts.fact_memo_added`); with ``part``,
    the findings of that part of the catalog, whose units it takes from the catalog's
    :class:`UnitShare` (``index``: the catalog's place in the pool's list)."""
    from patiencebook.generator.check.facts import fact_memo_added

    try:
        outcome = ("ok", _WORK(lang, path) if part is None else
                   _WORK(lang, path, part=part, units=_SHARES[index].units))
    except PatienceBookError as error:
        outcome = ("error", error)
    return (*outcome, lemmas.added(), fact_memo_added())


__all__ = ["PARALLEL_BYTES", "SWITCH_INTERVAL", "UnitShare", "check_each", "split_catalogs", "split_count", "usable_cores", "worker_count"]
