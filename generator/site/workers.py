"""The worker processes: one language build each, in parallel, their progress handed to the display.
"""

from __future__ import annotations

import multiprocessing
import os
import threading


from patiencebook.generator.errors import BuildError, PatienceBookError
from patiencebook.generator.processes import worker_signals
from patiencebook.generator.site.progress import Progress
from patiencebook.generator.site.language import Task, build_language_safely, use_progress_queue
from patiencebook.generator.site.reports import LanguageReport


def run_workers(tasks: list[Task], jobs: int | None, progress: Progress) -> list[LanguageReport]:
    """Build ``tasks`` in ``jobs`` worker processes (default: one per core, at most one per task),
    showing their progress on ``progress``; the reports in task order. Raises the first error a
    language raised (a :class:`PatienceBookError` as it was, anything else as a :class:`BuildError`)."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    # Workers inherit the queue (fork); with another start method they report no progress.
    queue = context.SimpleQueue() if context.get_start_method() == "fork" else None
    use_progress_queue(queue)
    # Pool's context exit terminates the workers, so an interrupted build leaves none running.
    with context.Pool(processes=workers, initializer=worker_signals) as pool:
        listener = None
        if queue is not None:
            listener = threading.Thread(target=_show_progress, args=(queue, progress), daemon=True)
            listener.start()
        try:
            return _collect(pool, tasks, progress)
        finally:
            if listener is not None:
                queue.put(None)
                listener.join()
            use_progress_queue(None)


def _show_progress(queue, progress: Progress) -> None:
    """Parent thread: hand the workers' updates to ``progress`` until ``None`` arrives."""
    while (item := queue.get()) is not None:
        progress.update(*item)


def _collect(pool, tasks: list[Task], progress: Progress) -> list[LanguageReport]:
    """Run ``tasks`` on ``pool``; the reports in task order, or the first error raised."""
    futures = [pool.apply_async(build_language_safely, (task,)) for task in tasks]
    reports = []
    error: BaseException | None = None
    for future in futures:
        try:
            result = future.get()
        except Exception as exc:  # keep the first error, let the others finish
            error = error or exc
            continue
        if isinstance(result, LanguageReport):
            reports.append(result)
            progress.finished(result.lang, result.pages, result.seconds)
        else:
            error = error or result.exception()
    if error is not None:
        if isinstance(error, PatienceBookError):
            raise error
        raise BuildError(f"a language build failed: {error}") from error
    return reports
