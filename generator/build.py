"""Builds the translated help site: one Sphinx build per language, languages in parallel processes.

The site is built in a folder inside the output folder (``.patiencebook-build-*``) and swapped in
only when every language succeeded, so a failed build leaves the previous site's pages exactly as
they were; nothing is written outside the output folder.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import io
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Callable

from lxml import etree

from patiencebook.generator.board import find_pyodide, install_board_assets, page_boards, pyodide_missing
from patiencebook.generator.buildcache import (
    CACHE_DIR, clear_state, code_digest, copy_tree, digest, files_digest, read_state, tree_digest,
    write_if_changed, write_state)
from patiencebook.generator.errors import BuildError, CatalogError, LanguageError, PatienceBookError
from patiencebook.generator.languages import derived_languages, get_language, source_language, ui_strings
from patiencebook.generator import project
from patiencebook.generator.enginemodels import attach_engine_models
from patiencebook.generator.figures import figure_for, figure_sentence, load_figures
from patiencebook.generator.examples import check_examples
from patiencebook.generator.model import NS_BUILD, Document, Page, TranslatedDocument, TranslatedPage
from patiencebook.generator.pagewidgets import add_widgets
from patiencebook.generator.progress import Progress, games_without_model, summary_table
from patiencebook.generator.sphinxext.parser import (
    ATTR_FILE, ATTR_KIND, ATTR_LINE, ATTR_SLUG, ATTR_TITLE, TAG_ABSTRACT, TAG_GROUP, TAG_INDEX, TAG_PAGE,
    TAG_PAGEREF, local_name)

#: Page kinds in the order the index page lists them; other kinds follow in reading order.
GROUP_ORDER = ("chapter", "game", "definitions", "legal")
#: The extension every language build enables.
EXTENSION = "patiencebook.generator.sphinxext"
# The site's icon (our own drawing), in every language's _static folder.
FAVICON = Path(__file__).resolve().parent / "sphinxext" / "static" / "favicon.svg"


@dataclass(frozen=True, slots=True)
class LanguageReport:
    """What one language's build produced.

    Attributes:
        lang: gettext code; ``bcp47``: its HTML tag.
        total: translatable blocks in the book; ``translated``: shown in the language;
            ``fuzzy``/``untranslated``: shown in English, and why.
        warnings: Sphinx and parser warnings of this language, one line each.
        seconds: wall time of this language's build (in its worker process).
        findings: translator-check findings shown on the language's report page (for ``en``, those
            of the sources against the rules model), rendered-page findings included.
        rendered: the rendered-page findings (check ``rendered``), one line each, also in ``warnings``.
        check_seconds: of ``seconds``, the time spent in the checks and the report page.
        pages: HTML pages of the language (the index and report pages included).
        reused: the pages were taken unchanged from the last build (nothing they are made from
            changed); ``seconds`` is then that build's time.
    """

    lang: str
    bcp47: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    findings: int = 0
    rendered: tuple[str, ...] = ()
    check_seconds: float = 0.0
    pages: int = 0
    reused: bool = False

    @property
    def coverage(self) -> float:
        """``translated / total``, 0.0 to 1.0 (1.0 for an empty book)."""
        return 1.0 if self.total == 0 else self.translated / self.total

    def summary(self) -> str:
        """One line: ``de: 1234/1500 blocks translated (82.3 %), 10 fuzzy, 256 untranslated``."""
        return (f"{self.lang}: {self.translated}/{self.total} blocks translated ({self.coverage * 100:.1f} %), "
                f"{self.fuzzy} fuzzy, {self.untranslated} untranslated")


@dataclass(frozen=True, slots=True)
class BuildReport:
    """The result of :func:`build_site`: the output folder, one report per language (in build
    order), wall time in seconds, site-level warnings, and which game pages have an engine model."""

    out: Path
    languages: tuple[LanguageReport, ...]
    seconds: float
    warnings: tuple[str, ...] = field(default=())
    #: slugs of the game pages with no engine model (no rules block, none in the embedded rules)
    without_model: tuple[str, ...] = ()
    #: slugs of the game pages that took their engine model from the embedded rules
    models: tuple[str, ...] = ()

    def language(self, lang: str) -> LanguageReport:
        """The report of gettext code ``lang``; raises ``KeyError`` when it was not built."""
        for report in self.languages:
            if report.lang == lang:
                return report
        raise KeyError(lang)

    @property
    def all_warnings(self) -> tuple[str, ...]:
        """Site-level warnings followed by every language's warnings."""
        return self.warnings + tuple(w for report in self.languages for w in report.warnings)


@dataclass(frozen=True, slots=True)
class _Task:
    lang: str
    sources: str
    book_file: str
    catalog: str | None          # the catalog of lang, or of its base language when derived
    derive: bool                 # catalog is the base language's; derive lang's from it
    workdir: str
    site_langs: tuple[str, ...]
    catalogs: str | None = None  # the catalogs folder, for the checks of the report page
    domain: str = "help"         # the gettext domain of its catalogs
    report: bool = True          # write the translation report page
    board: bool = False          # the site gets the Pyodide runtime: game pages get a live board
    cache: str = ""              # this language's cache folder (see buildcache)
    previous: str | None = None  # this language's folder in the site being replaced, if any
    frame: str = ""              # digest of what needs a fresh Sphinx build when it changes
    inputs: str = ""             # digest of the sources and this language's catalog
    fresh: bool = False          # ignore the cache


# With the fork start method, workers inherit the document the parent loaded (lxml trees do not
# pickle); otherwise each worker loads it itself.
_SHARED: dict[str, Document] = {}
# Set while languages build: where workers put their progress updates for the parent.
_PROGRESS = None


def build_site(sources: Path, catalogs: Path | None, out: Path, langs: list[str] | None = None,
               jobs: int | None = None, book_file: str = "index.docbook",
               echo: bool = True, report: bool = True, progress: str | Progress = "auto",
               fresh: bool = False) -> BuildReport:
    """Render the help in every language into ``out/<lang>/`` plus a root ``out/index.html``.

    Args:
        sources: folder holding ``book_file`` (``index.docbook``) and the pages it XIncludes.
        catalogs: folder of catalogs (``<lang>/LC_MESSAGES/help.po``, ``<lang>/<lang>.po`` and the
            other layouts of :func:`~patiencebook.generator.catalogs.discover_catalogs`, whose
            warnings become site warnings), a ``CatalogFolder`` it returned (for another domain), or
            ``None``: then only the source language can be built.
        out: the site folder; replaced as a whole when the build succeeds. When it fails, the
            site's pages are untouched; only its build cache (``out/.patiencebook-cache``, used in
            place) may have been begun on, and the languages whose cache was touched are built
            afresh next time.
        langs: gettext codes to build; default ``en``, every catalog found, and the languages
            derived from them (``sr@latin`` when ``sr`` exists).
        jobs: parallel worker processes (default: the number of CPUs, at most one per language).
        book_file: the book file's name inside ``sources``.
        echo: show progress (see ``progress``) and warnings on stderr, and at the end a summary
            table (pages, coverage, warnings per language) and the game pages without an engine
            model on stdout.
        report: give each language a translation report page (``<lang>/report.html``, linked from
            its index page) with the translator checks' findings; the checks of the rendered pages
            run either way.
        progress: a :data:`~patiencebook.generator.progress.MODES` name or a
            :class:`~patiencebook.generator.progress.Progress` (used even when ``echo`` is off).
        fresh: build everything again, ignoring what the site keeps of its last build
            (:mod:`patiencebook.generator.buildcache`). Otherwise a language whose sources and
            catalog did not change is reused as it is, and one whose catalog changed has only its
            changed pages read and written again.

    Game pages without a rules block get the engine model of the embedded rules (``rules/``) of
    the same game, when there is one (:func:`~patiencebook.generator.enginemodels.attach_engine_models`).

    Returns:
        A :class:`BuildReport`; page URLs are ``out/<lang>/<slug>.html``, the same in every language.

    Raises:
        SourceError / CatalogError: a source or catalog is bad (file and line).
        LanguageError: a requested language is unknown or has no catalog.
        BuildError: Sphinx failed, or the site could not be swapped in.
    """
    started = time.perf_counter()
    sources = Path(sources).resolve()
    out = Path(out).resolve()
    site_warnings: list[str] = []
    found: dict[str, Path] = {}
    check_out_folder(out, [sources] + ([Path(catalogs).resolve()] if catalogs is not None else []))
    if catalogs is not None:
        from patiencebook.generator.catalogs import discover_catalogs

        if not Path(catalogs).is_dir():
            raise CatalogError("no such catalogs folder", catalogs)
        discovered = discover_catalogs(catalogs)
        found = {lang: Path(path) for lang, path in discovered.catalogs.items()}
        site_warnings += [str(warning) for warning in discovered.warnings]
    source = source_language()
    if langs is None:
        wanted = [source]
        for lang in sorted(found):
            try:
                get_language(lang)
            except LanguageError:
                site_warnings.append(f"{found[lang]}: catalog for language '{lang}' skipped: not in the "
                                     "language table (generator/data/languages.json)")
                continue
            wanted.append(lang)
        wanted += derived_languages([lang for lang in wanted])
    else:
        wanted = list(dict.fromkeys(langs))
    tasks_langs = _plan(wanted, found, source, catalogs)

    # Fail on a bad source before starting any worker; forked workers reuse this document.
    from patiencebook.generator.sources import load_document

    _SHARED.clear()
    document = _SHARED[str(sources)] = load_document(sources, book_file)
    models = attach_engine_models(document)
    check_examples(document.pages)
    import sphinx.application  # noqa: F401 - imported once here, inherited by forked workers

    was_site = (out / SITE_MARKER).is_file()
    created = not out.exists()
    lock = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = _lock(out)
        _remove_stale_workdirs(out)
        workdir = Path(tempfile.mkdtemp(prefix=BUILD_PREFIX, dir=out))
        (workdir / _OWNER).write_text(str(os.getpid()), encoding="ascii")
    except OSError as error:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise BuildError(f"cannot create the output folder: {error.strerror}", error.filename or out) from None
    except BuildError:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise
    shown = progress if isinstance(progress, Progress) else Progress(progress if echo else "none")
    try:
        site = workdir / "site"
        site.mkdir()
        site_langs = tuple(lang for lang, _, _ in tasks_langs)
        catalogs_dir = str(Path(catalogs).resolve()) if catalogs is not None else None
        pyodide = find_pyodide()
        if pyodide is None and any(page.rules is not None for page in document.pages):
            site_warnings.append(pyodide_missing())
        # The cache is used where it lies, in --out (Sphinx keeps its environment only while the
        # source folder stays put); the swap leaves it there.
        cache_root = out / CACHE_DIR
        if fresh or not was_site or not cache_root.is_dir() or cache_root.is_symlink():
            remove_path(cache_root)
        frame_base = digest(code_digest(), str(sources), book_file, site_langs, report, pyodide is not None,
                            [page.slug for page in document.pages], [str(f) for f in models.values()])
        source_files = _source_files(document, models)
        tasks, reused, kept = [], [], set()
        for lang, catalog, derive in tasks_langs:
            previous = out / lang if was_site and (out / lang).is_dir() else None
            task = _Task(lang, str(sources), book_file, str(catalog) if catalog else None, derive, str(workdir),
                         site_langs, catalogs_dir, getattr(catalogs, "domain", None) or "help", report,
                         pyodide is not None, cache=str(cache_root / lang),
                         previous=str(previous) if previous else None, frame=digest(frame_base, lang, derive),
                         inputs=_inputs_digest(source_files, catalog), fresh=fresh)
            state = None if fresh or previous is None else read_state(cache_root / lang)
            if (state is not None and state.get("frame") == task.frame and state.get("inputs") == task.inputs
                    and state.get("outputs") == tree_digest(previous)):
                report_ = _report_from_state(state, lang)
            else:
                report_ = None
            if report_ is not None:
                kept.add(lang)  # its folder in --out stays as it is
                reused.append(report_)
                shown.finished(lang, reused[-1].pages, reused[-1].seconds, reused=True)
            else:
                tasks.append(task)
        built = _run(tasks, jobs, shown) if tasks else []
        by_lang = {r.lang: r for r in reused + built}
        reports = [by_lang[lang] for lang in site_langs]
        shown.close()
        if echo:
            for report_ in reports:
                for warning in report_.warnings:
                    print(f"{report_.lang}: {warning}", file=sys.stderr)
            for warning in site_warnings:
                print(f"patiencebook: warning: {warning}", file=sys.stderr)
        if pyodide is not None:
            install_board_assets(site, pyodide, previous=out if was_site else None)
        (site / SITE_MARKER).write_text("A help site built by patiencebook; `patiencebook build` may replace "
                                        "this folder as a whole.\n", encoding="utf-8")
        (site / "index.html").write_text(root_index_html(document.title, reports), encoding="utf-8")
        for folder in cache_root.glob("*"):
            if folder.name not in site_langs:
                shutil.rmtree(folder, ignore_errors=True)  # a language no longer built
        _swap_in(site, out, workdir, keep=kept)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)  # nothing but this build's files was there
        elif not was_site:
            shutil.rmtree(out / CACHE_DIR, ignore_errors=True)  # an empty folder stays empty
        raise
    finally:
        _SHARED.clear()
        if lock is not None:
            shutil.rmtree(workdir, ignore_errors=True)
            os.close(lock)
            lock = None
    shutil.rmtree(workdir, ignore_errors=True)
    result = BuildReport(out=out, languages=tuple(reports), seconds=time.perf_counter() - started,
                         warnings=tuple(site_warnings), without_model=tuple(
                             page.slug for page in document.pages if page.kind == "game" and page.rules is None),
                         models=tuple(sorted(models)))
    if echo:
        lines = [summary_table(result.languages, result.seconds)]
        if models:
            lines.append(f"{len(models)} game page{'s' if len(models) != 1 else ''} use{'s' if len(models) == 1 else ''} "
                         f"the engine model of the embedded rules: {', '.join(sorted(models))}")
        if any(page.kind == "game" for page in document.pages):
            lines.append(games_without_model(sorted(result.without_model)))
        lines.append(f"site: {out}")
        try:
            print("\n".join(lines), flush=True)
        except OSError:
            pass  # a closed or full standard output: the site is built all the same
    return result


def _report_from_state(state: dict, lang: str) -> LanguageReport | None:
    """The report a cache state holds for ``lang``, marked reused; ``None`` when it is not a whole,
    well-typed report (the language is then built again)."""
    data = state.get("report")
    if not isinstance(data, dict) or data.get("lang") != lang:
        return None
    fields = LanguageReport.__dataclass_fields__
    try:
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields}
        report = LanguageReport(**{**values, "reused": True})
    except (TypeError, ValueError):
        return None
    numbers = (report.total, report.translated, report.fuzzy, report.untranslated, report.findings, report.pages)
    texts = (report.warnings, report.rendered)
    if not all(isinstance(n, int) and n >= 0 for n in numbers) or not isinstance(report.bcp47, str) \
            or not all(isinstance(t, tuple) and all(isinstance(w, str) for w in t) for t in texts) \
            or not isinstance(report.seconds, (int, float)) or not isinstance(report.check_seconds, (int, float)):
        return None
    return report


def remove_path(path: Path) -> None:
    """Remove ``path`` whatever it is (folder, file, link); nothing when it does not exist."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            shutil.rmtree(path, ignore_errors=True)


def _lock(out: Path) -> int | None:
    """Lock the folder ``out`` for this build (``flock`` on the folder itself, released when the
    returned descriptor is closed or the process ends); :class:`BuildError` when another build
    holds it. ``None`` where the platform has no ``flock``."""
    try:
        import fcntl
    except ImportError:  # not on this platform: builds are not locked against each other
        return None
    descriptor = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise BuildError("another build is writing to this folder; wait for it to finish", out) from None
    return descriptor


def _source_files(document: Document, models: dict[str, Path]) -> list[Path]:
    """Every file the pages are made from: the book's files, their images, the embedded rules used
    (with their solver figures)."""
    files = sorted(p for p in document.source_dir.rglob("*") if p.is_file())
    extra = set(models.values())
    figures = _figures_file(document)
    if figures.is_file():
        extra.add(figures)
    return files + sorted(extra - set(files))


def _figures_file(document: Document) -> Path:
    """The solver figures the pages show: ``solved.json`` of the sources when they have one, else
    the embedded rules' (:mod:`patiencebook.generator.figures`)."""
    from patiencebook.generator.figures import FILE_NAME

    own = document.source_dir / FILE_NAME
    return own if own.is_file() else project.default_sources() / FILE_NAME


def _inputs_digest(source_files: list[Path], catalog: Path | None) -> str:
    try:
        return files_digest(source_files + ([Path(catalog).resolve()] if catalog else []))
    except OSError as error:
        raise BuildError(f"cannot read an input file: {error.strerror}", error.filename) from None


def _plan(wanted: list[str], found: dict[str, Path], source: str,
          catalogs: Path | None) -> list[tuple[str, Path | None, bool]]:
    """(lang, catalog, derive) for each wanted language; raises LanguageError when one cannot be built."""
    from patiencebook.generator.languages import resolve_language

    # A code as users write it (de_DE, sr-Latn) names the catalog language it means.
    available = [source, *found, *derived_languages(list(found))]
    plan = []
    for code in wanted:
        try:
            language = resolve_language(code, available)
        except LanguageError:
            language = get_language(code)  # a known language without a catalog is refused below
        if any(lang == language.code for lang, _, _ in plan):
            continue
        if language.code == source:
            plan.append((language.code, None, False))
        elif language.code in found:
            plan.append((language.code, found[language.code], False))
        elif language.derived_from and language.derived_from in found:
            plan.append((language.code, found[language.derived_from], True))
        else:
            where = f" in {catalogs}" if catalogs is not None else " (no catalog folder given)"
            base = f" or '{language.derived_from}'" if language.derived_from else ""
            raise LanguageError(f"no catalog for '{language.code}'{base}{where}")
    return plan


def _run(tasks: list[_Task], jobs: int | None, progress: Progress) -> list[LanguageReport]:
    global _PROGRESS
    workers = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    # Workers inherit the queue (fork); with another start method they report no progress.
    _PROGRESS = context.SimpleQueue() if context.get_start_method() == "fork" else None
    # Pool's context exit terminates the workers, so an interrupted build leaves none running.
    with context.Pool(processes=workers, initializer=_worker_signals) as pool:
        listener = None
        if _PROGRESS is not None:
            listener = threading.Thread(target=_show_progress, args=(_PROGRESS, progress), daemon=True)
            listener.start()
        try:
            return _collect(pool, tasks, progress)
        finally:
            if listener is not None:
                _PROGRESS.put(None)
                listener.join()
            _PROGRESS = None


def _show_progress(queue, progress: Progress) -> None:
    """Parent thread: hand the workers' updates to ``progress`` until ``None`` arrives."""
    while (item := queue.get()) is not None:
        progress.update(*item)


def _report_progress(lang: str, stage: str, done: int = 0, total: int | None = None, page: str = "") -> None:
    """Worker: tell the parent where ``lang``'s build is (see :class:`Progress.update`)."""
    if _PROGRESS is not None:
        _PROGRESS.put((lang, stage, done, total, page))


def _collect(pool, tasks: list[_Task], progress: Progress) -> list[LanguageReport]:
    """Run ``tasks`` on ``pool``; the reports in task order, or the first error raised."""
    futures = [pool.apply_async(_build_language_safely, (task,)) for task in tasks]
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


def _worker_signals() -> None:
    """Workers die quietly on SIGTERM (the parent's handler would raise in them) and ignore Ctrl-C."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(frozen=True, slots=True)
class _Failure:
    """A user error raised in a worker, carried back with its file and line intact."""

    kind: str
    message: str
    file: str | None
    line: int | None

    def exception(self) -> PatienceBookError:
        from patiencebook.generator import errors

        cls = getattr(errors, self.kind, PatienceBookError)
        return cls(self.message, self.file, self.line)


def _build_language_safely(task: _Task) -> LanguageReport | _Failure:
    try:
        try:
            return _build_language(task)
        except (PatienceBookError, KeyboardInterrupt):
            raise
        except Exception:  # noqa: BLE001 - e.g. a damaged doctree in the cache: build afresh once
            if task.fresh:
                raise
            remove_path(Path(task.workdir) / "site" / task.lang)
            return _build_language(dataclasses.replace(task, fresh=True))
    except PatienceBookError as error:
        return _Failure(type(error).__name__, error.message, error.file, error.line)


def _build_language(task: _Task) -> LanguageReport:
    """Worker: translate the document into ``task.lang``, write Sphinx sources, run Sphinx."""
    started = time.perf_counter()
    import sphinx.locale
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    # A worker process may build several languages; Sphinx keeps its UI translators in a global.
    sphinx.locale.translators.clear()
    document = _SHARED.get(task.sources)
    if document is None:
        from patiencebook.generator.sources import load_document

        document = load_document(Path(task.sources), task.book_file)
        attach_engine_models(document)
    _report_progress(task.lang, "translating")
    translated, catalog = _translate(document, task)
    language = get_language(task.lang)
    work = Path(task.workdir)
    cache = Path(task.cache)
    srcdir, doctrees = cache / "src", cache / "doctrees"
    outdir = work / "site" / task.lang
    state = None if task.fresh else read_state(cache)
    clear_state(cache)  # written again only when this language's cache is whole
    titles = digest(translated.title, [(p.page.slug, p.title) for p in translated.pages])
    incremental = (state is not None and task.previous is not None and state.get("frame") == task.frame
                   and state.get("titles") == titles and srcdir.is_dir() and doctrees.is_dir()
                   and state.get("outputs") == tree_digest(Path(task.previous)))
    if not incremental:
        remove_path(cache)
    srcdir.mkdir(parents=True, exist_ok=True)
    check_started = time.perf_counter()
    # The checks run in a child process while Sphinx starts; the report page waits for them.
    checked = _start_checks(task, document, catalog, cache) if task.report else None
    if incremental:
        copy_tree(Path(task.previous), outdir)  # pages not read again keep theirs
    write_if_changed(srcdir / "conf.py", _conf_py(translated, task.site_langs).encode("utf-8"))

    warnings = io.StringIO()
    nocolor()
    try:
        # Sphinx registers nodes, roles and directives in docutils' globals; a worker process may
        # build several languages, so each build gets a fresh namespace, as sphinx-build does.
        with patch_docutils(srcdir), docutils_namespace():
            app = Sphinx(str(srcdir), str(srcdir), str(outdir), str(doctrees), "html", status=None,
                         warning=warnings, freshenv=not incremental, parallel=0)
            findings, check_problem, report_root = [], None, None
            if checked is not None:
                findings, check_problem = checked()
                report_root = _report_tree(translated, findings, task)
            check_seconds = time.perf_counter() - check_started
            image_warnings = write_sources(translated, srcdir, task.site_langs, report=report_root,
                                           board=page_boards(task.lang, ui_strings(task.lang), available=task.board))
            _connect_progress(app, task.lang, whole=not incremental)
            app.build(force_all=not incremental)
    except SphinxError as error:
        raise BuildError(f"Sphinx failed for '{task.lang}': {error}") from None
    if app.statuscode:
        raise BuildError(f"Sphinx failed for '{task.lang}' (status {app.statuscode}): "
                         f"{warnings.getvalue().strip()[:2000]}")
    # Images that cannot be used are reported with their source line (image_warnings), not by Sphinx.
    sphinx_lines = tuple(line for line in warnings.getvalue().splitlines()
                         if line.strip() and not (_NO_IMAGE in line and "image file not readable" in line))
    if incremental:
        _prune_search_index(outdir / "searchindex.js")
        # Sphinx warns only about the pages it read again; keep the others' warnings.
        sphinx_lines = tuple(dict.fromkeys(tuple(state.get("sphinx", ())) + sphinx_lines))
    pages = translated.pages + ([translated.front] if translated.front is not None else [])
    catalog_name = task.catalog or task.sources
    lines = tuple(f"{catalog_name}:{line}: {message}" if line else f"{catalog_name}: {message}"
                  for page in pages for line, message in page.problems) + tuple(image_warnings) + sphinx_lines
    copied_sources = outdir / "_sources"  # html_copy_source is off; Sphinx still makes the folder
    if copied_sources.is_dir() and not any(copied_sources.iterdir()):
        copied_sources.rmdir()
    check_started = time.perf_counter()
    _report_progress(task.lang, "checking pages")
    rendered = _rendered_findings(srcdir, outdir, language.code)
    rendered_lines = tuple(f"{f.file}:{f.line}: rendered: {f.message}" if f.line else f"{f.file}: rendered: {f.message}"
                           for f in rendered)
    lines += ((check_problem,) if check_problem else ()) + rendered_lines
    check_seconds += time.perf_counter() - check_started
    result = LanguageReport(
        lang=task.lang, bcp47=language.bcp47,
        total=sum(p.total for p in pages), translated=sum(p.translated for p in pages),
        fuzzy=sum(p.fuzzy for p in pages), untranslated=sum(p.untranslated for p in pages),
        warnings=lines, seconds=time.perf_counter() - started, findings=len(findings) + len(rendered),
        rendered=rendered_lines, check_seconds=check_seconds,
        pages=sum(1 for _ in outdir.glob("*.html")) - sum(1 for n in _SPHINX_PAGES if (outdir / n).is_file()))
    report_data = {f: getattr(result, f) for f in LanguageReport.__dataclass_fields__ if f != "reused"}
    write_state(cache, {"frame": task.frame, "inputs": task.inputs, "titles": titles, "sphinx": sphinx_lines,
                        "report": report_data, "outputs": tree_digest(outdir)})
    return result


def _prune_search_index(path: Path) -> None:
    """Drop the words no page holds any longer from Sphinx's search index (an incremental build
    leaves them with an empty list; a fresh build has no such entry). The file keeps Sphinx's
    form: ``Search.setIndex(`` + JSON with sorted keys and no spaces + ``)``."""
    prefix, suffix = "Search.setIndex(", ")"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return
    try:
        data = json.loads(text[len(prefix):-len(suffix)])
    except ValueError:
        return
    changed = False
    for key in ("terms", "titleterms"):
        table = data.get(key)
        if isinstance(table, dict):
            empty = [word for word, where in table.items() if where in ([], {})]
            for word in empty:
                del table[word]
            changed = changed or bool(empty)
    if changed:
        path.write_text(prefix + json.dumps(data, separators=(",", ":"), sort_keys=True) + suffix, encoding="utf-8")


#: Pages Sphinx adds to every language that are not pages of the book.
_SPHINX_PAGES = ("genindex.html", "search.html")


def _connect_progress(app, lang: str, whole: bool) -> None:
    """Report each page Sphinx reads and writes (Sphinx events ``env-before-read-docs``,
    ``doctree-read``, ``doctree-resolved``); ``whole``: every page read is also written."""
    counts = {"read": 0, "total": 0, "written": 0}

    def before_read(app, env, docnames):
        counts["total"] = len(docnames)

    def read(app, doctree):
        counts["read"] += 1
        _report_progress(lang, "reading", counts["read"], counts["total"], app.env.docname)

    def resolved(app, doctree, docname):
        counts["written"] += 1
        _report_progress(lang, "writing", counts["written"], counts["total"] if whole else None, docname)

    app.connect("env-before-read-docs", before_read)
    app.connect("doctree-read", read)
    app.connect("doctree-resolved", resolved)


def _start_checks(task: _Task, document: Document, catalog, cache: Path) -> Callable[[], tuple[list, str | None]]:
    """Start the checks of ``task.lang``'s report page; returns the function that waits for
    ``(findings, problem)`` (see :func:`_language_findings`).

    Where the platform can fork, the checks run in a child process (the worker goes on starting
    Sphinx meanwhile) and send their findings back through a pipe; elsewhere they run at once.
    The fact checks' results of the last build (same code, kept in ``cache/facts.json``) are
    reused. Raises :class:`BuildError` when the checks fail or the cache cannot be written.
    """
    _report_progress(task.lang, "checking")

    def run() -> tuple[list, str | None]:
        from patiencebook.generator.check.facts import save_fact_memo, use_fact_memo

        use_fact_memo(cache / "facts.json")
        try:
            result = _language_findings(task, document, catalog)
            save_fact_memo(cache / "facts.json")
        except OSError as error:
            raise BuildError(f"cannot write the build cache: {error.strerror}", error.filename) from None
        finally:
            use_fact_memo(None)
        return result

    if not hasattr(os, "fork"):
        result = run()
        return lambda: result
    import pickle

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run the checks, send the outcome, leave at once
        status = 0
        try:
            os.close(read_end)
            try:
                outcome = ("ok", run())
            except PatienceBookError as error:
                outcome = ("error", (type(error).__name__, error.message, error.file, error.line))
            except BaseException as error:  # noqa: BLE001 - reported in the worker
                outcome = ("error", ("BuildError", f"the checks of '{task.lang}' failed: {error!r}", None, None))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(pickle.dumps(outcome))
        except BaseException:  # noqa: BLE001 - nothing may escape the child
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)

    def wait() -> tuple[list, str | None]:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        if not data:
            raise BuildError(f"the checks of '{task.lang}' stopped without a result")
        kind, value = pickle.loads(data)  # from our own child process, through our own pipe
        if kind == "error":
            raise _Failure(*value).exception()
        return value

    return wait


def _language_findings(task: _Task, document: Document, catalog) -> tuple[list, str | None]:
    """The checker's findings for the report page of ``task.lang``, and a warning when it could not run.
    ``document`` and ``catalog`` (the catalog the language is built from, before any derivation)
    are those the build has read."""
    from patiencebook.generator.check.sitereport import language_findings

    if task.catalog is None:
        catalog_lang = None
    else:
        language = get_language(task.lang)
        catalog_lang = language.derived_from if task.derive else language.code
    try:
        return language_findings(Path(task.sources), Path(task.catalogs) if task.catalogs else None, task.lang,
                                 catalog_lang, document=document if catalog_lang else None,
                                 catalog=catalog, domain=task.domain), None
    except PatienceBookError as error:
        where = f"{error.file}:{error.line}: " if error.file and error.line else f"{error.file}: " if error.file else ""
        return [], f"{where}translator checks not run for the report page: {error.message}"


def _report_tree(translated: TranslatedDocument, findings: list, task: _Task) -> etree._Element:
    from patiencebook.generator.check.sitereport import report_tree

    derived_from = get_language(task.lang).derived_from if task.derive else None
    return report_tree(translated, findings, ui_strings(task.lang), derived_from=derived_from)


def _rendered_findings(srcdir: Path, outdir: Path, lang: str) -> list:
    """Check the pages Sphinx wrote from ``srcdir`` and put the findings on the report page
    (see :mod:`patiencebook.generator.check.sitereport`)."""
    from patiencebook.generator.check.sitereport import (
        REPORT_SLUG, check_rendered_site, expected_marks, insert_rendered_findings)

    found = check_rendered_site(outdir, lang, expected_marks(srcdir))
    report = outdir / f"{REPORT_SLUG}.html"
    if report.is_file():
        insert_rendered_findings(report, found, ui_strings(lang))
    return found


def _translate(document: Document, task: _Task) -> tuple[TranslatedDocument, Any]:
    """``document`` in ``task.lang``, and the catalog read for it (``None`` for the source language)."""
    if task.catalog is None:
        return source_document(document, task.lang), None
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.translate import translate

    read = read_catalog(Path(task.catalog))
    catalog = read
    if task.derive:
        from patiencebook.generator.transliterate import derive_catalog_for

        catalog = derive_catalog_for(task.lang, read)
    return translate(document, catalog, task.lang), read


def source_document(document: Document, lang: str) -> TranslatedDocument:
    """``document`` as its own translation (every block counts as translated, nothing falls back)."""
    def whole(page) -> TranslatedPage:
        count = len(page.segments)
        return TranslatedPage(page=page, root=page.root, total=count, translated=count)

    return TranslatedDocument(document=document, lang=lang, title=document.title,
                              pages=[whole(page) for page in document.pages],
                              front=whole(document.front) if document.front is not None else None)


def write_sources(translated: TranslatedDocument, srcdir: Path, site_langs: tuple[str, ...] | list[str] = (),
                  report: etree._Element | None = None,
                  board: Callable[[Page], Callable[[dict[str, str]], dict[str, Any]]] | None = None) -> list[str]:
    """Write ``srcdir/conf.py``, ``index.xml`` and ``<slug>.xml`` per page, and copy the images used;
    returns warnings about images that cannot be used (``FILE:LINE: …``).

    A file that already holds what would be written is left as it is (with its modification time),
    so that Sphinx reads again only the pages that changed.

    Each game page (one with a rules block) gets its setup picture and its examples' traces
    (:func:`patiencebook.generator.pagewidgets.add_widgets`; an example that fails to replay raises
    :class:`SourceError`), and the live board's data when ``board`` gives it for the page.

    Pages that another page includes (the games inside the games chapter) are replaced there by a
    ``pageref`` element, so each page's content appears once, on its own page. ``report``, when
    given, is the translation report page (:func:`patiencebook.generator.check.sitereport.report_tree`):
    written as ``report.xml`` and listed last on the index page.
    """
    document = translated.document
    language = get_language(translated.lang)
    ui = ui_strings(language.code)
    warnings: list[str] = []
    roots = {page.slug: page.root for page in document.pages}
    nested = _nested_keys(document)
    replays = check_examples(document.pages) if any(page.rules is not None for page in document.pages) else {}
    figures = load_figures(_figures_file(document)) if replays else []
    for tpage in translated.pages:
        page = tpage.page
        if page.slug == "index":
            raise BuildError("a page may not be named 'index' (the book's front page)", page.file,
                             page.root.sourceline)
        root = tpage.root if tpage.root is not roots.get(page.slug) else _copy(tpage.root)
        if page.rules is not None:
            figure = figure_for(figures, page.rules)
            variant_figures = {}
            for variant_id, ruleset in page.variants.items():
                measured = figure_for(figures, ruleset)
                if measured is not None and variant_id != page.rules.variant:
                    variant_figures[variant_id] = figure_sentence(measured, ui, language.babel)
            add_widgets(tpage, root, replays, translated.lang, ui, tpage.title,
                        board=board(page) if board is not None else None,
                        other_roots=set(roots.values()) - {page.root},
                        figure=figure_sentence(figure, ui, language.babel) if figure is not None else None,
                        variant_figures=variant_figures)
        for element in list(root.iter()):
            if element is not root and isinstance(element.tag, str) and _key(element) in nested.get(page.slug, {}):
                ref = etree.Element(TAG_PAGEREF, slug=nested[page.slug][_key(element)])
                ref.tail = element.tail
                element.getparent().replace(element, ref)
        _annotate(root, page.slug, page.kind, page.file, page.title)
        warnings += _copy_images(root, page.file, document.source_dir, srcdir)
        write_if_changed(srcdir / f"{page.slug}.xml", etree.tostring(root, encoding="utf-8", xml_declaration=True))
    if report is not None:
        from patiencebook.generator.check.sitereport import REPORT_KIND, REPORT_SLUG

        if any(p.page.slug == REPORT_SLUG for p in translated.pages):
            raise BuildError(f"a page may not be named '{REPORT_SLUG}' (the translation report)",
                             next(p.page.file for p in translated.pages if p.page.slug == REPORT_SLUG))
        _annotate(report, REPORT_SLUG, REPORT_KIND, document.source_dir / REPORT_SLUG, report.findtext("title") or "")
        write_if_changed(srcdir / f"{REPORT_SLUG}.xml", etree.tostring(report, encoding="utf-8", xml_declaration=True))
    write_if_changed(srcdir / "index.xml", etree.tostring(_index_tree(translated, ui, report is not None),
                                                          encoding="utf-8", xml_declaration=True))
    write_if_changed(srcdir / "conf.py", _conf_py(translated, site_langs).encode("utf-8"))
    return warnings


def _copy(root: etree._Element) -> etree._Element:
    import copy

    return copy.deepcopy(root)


def _key(element: etree._Element) -> tuple:
    return (element.tag, element.get("id"), element.sourceline)


def _nested_keys(document: Document) -> dict[str, dict[tuple, str]]:
    """For each page, the keys of the other pages' roots nested inside its source tree, to their slugs."""
    by_root = {page.root: page.slug for page in document.pages}
    nested: dict[str, dict[tuple, str]] = {}
    for page in document.pages:
        inner = {}
        for element in page.root.iterdescendants():
            if element in by_root:
                inner[_key(element)] = by_root[element]
        if inner:
            nested[page.slug] = inner
    return nested


def _annotate(root: etree._Element, slug: str, kind: str, file: Path, title: str) -> None:
    root.set(ATTR_SLUG, slug)
    root.set(ATTR_KIND, kind)
    root.set(ATTR_FILE, str(file))
    root.set(ATTR_TITLE, title)
    for element in root.iter():
        # Warnings from the parser name the source line, not the line in the written file.
        if isinstance(element.tag, str) and element.sourceline and ATTR_LINE not in element.attrib:
            element.set(ATTR_LINE, str(element.sourceline))


def _copy_images(root: etree._Element, page_file: Path, source_dir: Path, srcdir: Path) -> list[str]:
    """Link the images the page uses into ``srcdir``; warnings (``FILE:LINE: …``) for images that
    are missing or lie outside the source folder, whose reference is then cut off so that nothing
    outside the sources can reach the site."""
    warnings = []
    for element in root.iter():
        if not isinstance(element.tag, str) or local_name(element) not in ("imagedata", "graphic", "inlinegraphic"):
            continue
        ref = element.get("fileref")
        if not ref or "://" in ref:
            continue
        image = (Path(page_file).parent / ref).resolve()
        if not image.is_relative_to(source_dir) or not image.is_file():
            line = element.get(ATTR_LINE) or element.sourceline or ""
            why = "lies outside the source folder" if not image.is_relative_to(source_dir) else "is missing"
            warnings.append(f"{page_file}:{line}: image {ref!r} {why}; the page shows its text instead")
            element.set("fileref", f"{_NO_IMAGE}/{Path(ref).name}")
            continue
        relative = image.relative_to(source_dir)
        target = srcdir / relative
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(image, target)  # no copy needed: the source is not changed during a build
            except OSError:
                shutil.copy2(image, target)
        element.set("fileref", relative.as_posix())
    return warnings


# The folder an image reference is moved into when the image cannot be used (it never exists).
_NO_IMAGE = "_no-image_"


def _index_tree(translated: TranslatedDocument, ui: dict[str, str], report: bool = False) -> etree._Element:
    """The index page: book title, abstract, and every page grouped by kind (chapters, games...);
    with ``report``, a last group linking the translation report page."""
    index = etree.Element(TAG_INDEX, nsmap={"pb": NS_BUILD})
    index.set(ATTR_TITLE, translated.title)
    front = translated.front
    front_root = _copy(front.root) if front is not None else None
    title = None
    if front_root is not None:
        _annotate(front_root, "index", "book", front.page.file, translated.title)
        title = next((c for c in front_root if local_name(c) == "title"), None)
    if title is None:
        title = etree.Element("title")
        title.text = translated.title
    index.append(title)
    if front_root is not None:
        for abstract in (c for c in front_root if local_name(c) == "abstract"):
            holder = etree.SubElement(index, TAG_ABSTRACT)
            for child in abstract:
                if isinstance(child.tag, str) and local_name(child) != "title":
                    holder.append(child)
    kinds = list(GROUP_ORDER) + [p.page.kind for p in translated.pages if p.page.kind not in GROUP_ORDER]
    for kind in dict.fromkeys(kinds):
        slugs = [p.page.slug for p in translated.pages if p.page.kind == kind]
        if slugs:
            group = etree.SubElement(index, TAG_GROUP, kind=kind, caption=ui.get(f"group_{kind}", kind))
            for slug in slugs:
                etree.SubElement(group, TAG_PAGE, slug=slug)
    if report:
        from patiencebook.generator.check.sitereport import REPORT_KIND, REPORT_SLUG

        group = etree.SubElement(index, TAG_GROUP, kind=REPORT_KIND, caption=ui.get("group_report", REPORT_KIND))
        etree.SubElement(group, TAG_PAGE, slug=REPORT_SLUG)
    return index


def _conf_py(translated: TranslatedDocument, site_langs) -> str:
    language = get_language(translated.lang)
    settings = {
        "project": translated.title,
        "extensions": [EXTENSION],
        "language": language.sphinx,
        "patiencebook_language": language.code,
        "patiencebook_languages": list(site_langs) or [language.code],
        "root_doc": "index",
        "html_theme": "alabaster",
        "html_theme_options": {"show_powered_by": False, "github_button": False, "github_banner": False,
                               "show_related": True,
                               "sidebar_collapse": True},
        "html_sidebars": {"**": ["relations.html", "searchbox.html"]},
        "html_title": translated.title,
        "html_copy_source": False,
        "html_show_sourcelink": False,
        "html_show_sphinx": False,
        "html_show_copyright": False,
        "html_use_index": False,
        "html_domain_indices": False,
        "html_last_updated_fmt": None,
        "html_search_language": language.sphinx,
        "gettext_auto_build": False,
        "locale_dirs": [],
        "smartquotes": False,
        "templates_path": [],
        "html_static_path": [],
        "html_favicon": str(FAVICON),
        "exclude_patterns": [],
    }
    lines = ["# Written by patiencebook.generator.build for one language build; not a source file."]
    lines += [f"{name} = {value!r}" for name, value in settings.items()]
    return "\n".join(lines) + "\n"


def root_index_html(title: str, reports: list[LanguageReport]) -> str:
    """The site's root page: every language, named in itself, with its coverage, linking to ``<lang>/``."""
    from babel.numbers import format_percent

    items = []
    for report in reports:
        language = get_language(report.lang)
        ui = ui_strings(language.code)
        # Rounded down to a tenth of a per cent, so an incomplete translation never reads 100 %.
        share = (report.translated * 1000 // report.total) / 1000 if report.total else 1.0
        percent = format_percent(share, locale=language.babel, decimal_quantization=False)
        coverage = escape(ui["coverage"].format(percent=percent))
        items.append(f'    <li><a href="{escape(language.code)}/index.html" hreflang="{language.bcp47}" '
                     f'lang="{language.bcp47}">{escape(language.display_name)}</a> '
                     f'<span class="coverage" lang="{language.bcp47}">{coverage}</span></li>')
    ui_en = ui_strings(source_language())
    return f"""<!DOCTYPE html>
<html lang="{get_language(source_language()).bcp47}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)}</title>
  <link rel="icon" type="image/svg+xml" href="{escape(reports[0].lang)}/_static/{FAVICON.name}">
  <style>
    body {{ font-family: Georgia, serif; max-width: 40em; margin: 2em auto; padding: 0 1em; color: #333; }}
    li {{ margin: 0.4em 0; font-size: 1.2em; }}
    .coverage {{ color: #777; font-size: 0.75em; margin-left: 0.5em; }}
  </style>
</head>
<body>
  <h1>{escape(title)}</h1>
  <nav aria-label="{escape(ui_en['languages'])}">
  <ul>
{chr(10).join(items)}
  </ul>
  </nav>
</body>
</html>
"""


#: A file in every built site: its presence is what allows a later build to replace the folder.
SITE_MARKER = ".patiencebook-site"
#: The name prefix of the folder, inside the output folder, where a build writes the new site.
BUILD_PREFIX = ".patiencebook-build-"
# In each build folder: the pid of the build that owns it.
_OWNER = ".owner"


def check_out_folder(out: Path, inputs: list[Path]) -> None:
    """Refuse an output folder that a build must not replace.

    ``out`` may be missing, an empty folder (leftovers of an interrupted build, which only ever
    writes below ``out``, do not count), or a site an earlier build wrote (it holds
    :data:`SITE_MARKER`). It may not be, hold, or lie inside one of ``inputs`` (the sources and
    catalogs folders). Raises :class:`BuildError` naming the folder and the reason.
    """
    for folder in inputs:
        if out == folder or out in folder.parents or folder in out.parents:
            raise BuildError(f"the output folder must be outside the input folder {folder}", out)
    if not out.exists() and not out.is_symlink():
        return
    if not out.is_dir() or out.is_symlink():
        raise BuildError("the output path exists and is not a folder; choose another --out", out)
    if (out / SITE_MARKER).is_file():
        return
    if all(p.name == CACHE_DIR or p.name.startswith(BUILD_PREFIX) for p in out.iterdir()):
        return
    raise BuildError(f"refusing to replace a folder that is not a site built by patiencebook (it has no "
                     f"{SITE_MARKER}); choose another --out or empty it first", out)


def _remove_stale_workdirs(out: Path) -> None:
    """Remove build folders inside ``out`` whose build process no longer runs."""
    for folder in out.glob(f"{BUILD_PREFIX}*"):
        try:
            pid = int((folder / _OWNER).read_text(encoding="ascii"))
            os.kill(pid, 0)
        except (ProcessLookupError, FileNotFoundError, ValueError):
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def _swap_in(site: Path, out: Path, workdir: Path, keep: set[str] | frozenset[str] = frozenset()) -> None:
    """Replace the contents of ``out`` by those of ``site`` (both on one file system).

    Each top-level entry (a language folder, the runtime, the root page) is exchanged in one step
    where Linux offers it (``renameat2(RENAME_EXCHANGE)``), else moved aside and replaced; entries
    of the old site that the new one lacks, other than those named in ``keep`` (languages reused
    as they are), are moved into ``workdir`` too, which the caller then removes. The build cache and the build folders stay. When a step fails the steps taken are
    undone and :class:`BuildError` is raised.
    """
    trash = workdir / "previous"
    trash.mkdir()
    names = sorted((p.name for p in site.iterdir()), key=lambda n: n == SITE_MARKER)  # the marker last
    undo: list[Callable[[], None]] = []
    try:
        for name in names:
            new, old = site / name, out / name
            if not old.exists() and not old.is_symlink():
                os.rename(new, old)
                undo.append(lambda new=new, old=old: os.rename(old, new))
            elif _exchange(new, old):
                undo.append(lambda new=new, old=old: _exchange(new, old))
            else:
                os.rename(old, trash / name)
                os.rename(new, old)
                undo.append(lambda new=new, old=old, name=name: (os.rename(old, new), os.rename(trash / name, old)))
        for entry in out.iterdir():
            if entry.name not in names and entry.name not in keep and entry.name != CACHE_DIR \
                    and not entry.name.startswith(BUILD_PREFIX):
                os.rename(entry, trash / entry.name)
                undo.append(lambda entry=entry: os.rename(trash / entry.name, entry))
    except OSError as error:
        for step in reversed(undo):
            try:
                step()
            except OSError:
                pass
        raise BuildError(f"cannot replace the site: {error.strerror or error}", out) from None


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False when unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return result == 0
