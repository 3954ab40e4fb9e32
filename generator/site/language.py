"""One language's build, in a worker: translate the document, write the Sphinx sources, run Sphinx,
and gather the translator checks of the report page.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from lxml import etree

from patiencebook.generator.pages.board import BoardFiles, page_boards
from patiencebook.generator.site.cache import clear_state, copy_tree, digest, read_state, tree_digest, write_if_changed, write_state
from patiencebook.generator.errors import BuildError, PatienceBookError
from patiencebook.generator.languages import Language, ui_strings
from patiencebook.generator.docbook.enginemodels import attach_engine_models
from patiencebook.generator.docbook.document import Document, TranslatedDocument
from patiencebook.generator.site.output import remove_path
from patiencebook.generator.site.reports import LanguageReport
from patiencebook.generator.site.sphinxsources import NO_IMAGE, conf_py, source_document, write_sources


@dataclass(frozen=True, slots=True)
class Task:
    """One language's build, as the parent hands it to a worker (picklable)."""

    language: Language           # resolved once, from the code the user gave
    sources: str
    book_file: str
    catalog: str | None          # the catalog of lang, or of its base language when derived
    derive: bool                 # catalog is the base language's; derive lang's from it
    workdir: str
    site_languages: tuple[Language, ...]  # every language of the site, in switcher order
    catalogs: str | None = None  # the catalogs folder, for the checks of the report page
    domain: str = "help"         # the gettext domain of its catalogs
    report: bool = True          # write the translation report page
    board: bool = False          # the site gets the Pyodide runtime: game pages get a live board
    board_files: BoardFiles | None = None  # where the site keeps the runtime (pages/board.py)
    cache: str = ""              # this language's cache folder (see buildcache)
    previous: str | None = None  # this language's folder in the site being replaced, if any
    frame: str = ""              # digest of what needs a fresh Sphinx build when it changes
    inputs: str = ""             # digest of the sources and this language's catalog
    fresh: bool = False          # ignore the cache

    @property
    def lang(self) -> str:
        """The gettext code of :attr:`language` (``"sr@latin"``)."""
        return self.language.code


# With the fork start method, workers inherit the document the parent loaded (lxml trees do not
# pickle); otherwise each worker loads it itself.
SHARED_DOCUMENTS: dict[str, Document] = {}


# Set while languages build: where workers put their progress updates for the parent.
_PROGRESS = None


def use_progress_queue(queue) -> None:
    """Where the workers' progress updates go from now on (a queue the parent reads; ``None``: nowhere)."""
    global _PROGRESS
    _PROGRESS = queue


def _report_progress(lang: str, stage: str, done: int = 0, total: int | None = None, page: str = "") -> None:
    """Worker: tell the parent where ``lang``'s build is (see :class:`Progress.update`)."""
    if _PROGRESS is not None:
        _PROGRESS.put((lang, stage, done, total, page))


def preload_sphinx() -> None:
    """Import Sphinx and its built-in extensions before any language's interface translations are
    installed.

    Sphinx translates some strings when their module is first imported (the Python module index's
    name, written into objects.inv): imported while a language's translations are installed, they
    would keep that language for every later build in the process. Imported here, they stay lazy
    and each build shows its own language's. The parent calls this before it forks the workers
    (who then need not import Sphinx again), and each build calls it before Sphinx starts (a no-op
    then, unless the worker was not forked).
    """
    import importlib

    import sphinx.application
    import sphinx.locale

    sphinx.locale.translators.clear()  # whatever an earlier Sphinx run in this process installed
    for name in sphinx.application.builtin_extensions:
        try:
            importlib.import_module(name)
        except ImportError:
            continue  # Sphinx reports a missing extension itself when it loads it


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


def build_language_safely(task: Task) -> LanguageReport | _Failure:
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


def _build_language(task: Task) -> LanguageReport:
    """Worker: translate the document into ``task.lang``, write Sphinx sources, run Sphinx."""
    started = time.perf_counter()
    # A worker process may build several languages; Sphinx keeps its UI translators in a global:
    # start from none, with Sphinx's modules imported while none is installed.
    preload_sphinx()
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    document = SHARED_DOCUMENTS.get(task.sources)
    if document is None:
        from patiencebook.generator.docbook.sources import load_document

        document = load_document(Path(task.sources), task.book_file)
        attach_engine_models(document)
    _report_progress(task.lang, "translating")
    translated, catalog = _translate(document, task)
    language = task.language
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
    write_if_changed(srcdir / "conf.py", conf_py(translated, language, task.site_languages).encode("utf-8"))

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
            image_warnings = write_sources(translated, srcdir, language, task.site_languages, report=report_root,
                                           board=page_boards(language, ui_strings(language), available=task.board,
                                                             files=task.board_files))
            _connect_progress(app, task.lang, whole=not incremental)
            app.build(force_all=not incremental)
    except SphinxError as error:
        raise BuildError(f"Sphinx failed for '{task.lang}': {error}") from None
    if app.statuscode:
        raise BuildError(f"Sphinx failed for '{task.lang}' (status {app.statuscode}): "
                         f"{warnings.getvalue().strip()[:2000]}")
    # Images that cannot be used are reported with their source line (image_warnings), not by Sphinx.
    sphinx_lines = tuple(line for line in warnings.getvalue().splitlines()
                         if line.strip() and not (NO_IMAGE in line and "image file not readable" in line))
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
    rendered = _rendered_findings(srcdir, outdir, language)
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


def _start_checks(task: Task, document: Document, catalog, cache: Path) -> Callable[[], tuple[list, str | None]]:
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
            from patiencebook.generator.check import lemmas

            lemmas.save()  # the lemmas the checks looked up: this child ends without Python's exit handlers
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


def _language_findings(task: Task, document: Document, catalog) -> tuple[list, str | None]:
    """The checker's findings for the report page of ``task.lang``, and a warning when it could not run.
    ``document`` and ``catalog`` (the catalog the language is built from, before any derivation)
    are those the build has read."""
    from patiencebook.generator.check.sitereport import language_findings

    if task.catalog is None:
        catalog_lang = None
    else:
        language = task.language
        catalog_lang = language.derived_from if task.derive else language.code
    try:
        return language_findings(Path(task.sources), Path(task.catalogs) if task.catalogs else None, task.lang,
                                 catalog_lang, document=document if catalog_lang else None,
                                 catalog=catalog, domain=task.domain), None
    except PatienceBookError as error:
        where = f"{error.file}:{error.line}: " if error.file and error.line else f"{error.file}: " if error.file else ""
        return [], f"{where}translator checks not run for the report page: {error.message}"


def _report_tree(translated: TranslatedDocument, findings: list, task: Task) -> etree._Element:
    from patiencebook.generator.check.sitereport import report_tree

    from patiencebook.generator.languages import source_language, ui_coverage
    from patiencebook.generator.sphinxext.uicatalog import sphinx_coverage

    derived_from = task.language.derived_from if task.derive else None
    interface = (*ui_coverage(task.language), *sphinx_coverage(task.language.sphinx, source_language()))
    return report_tree(translated, findings, ui_strings(task.language), derived_from=derived_from,
                       interface=interface)


def _rendered_findings(srcdir: Path, outdir: Path, language: Language) -> list:
    """Check the pages Sphinx wrote from ``srcdir`` and put the findings on the report page
    (see :mod:`patiencebook.generator.check.sitereport`)."""
    from patiencebook.generator.check.sitereport import (REPORT_SLUG, check_rendered_site, expected_marks,
                                                         insert_rendered_findings)

    found = check_rendered_site(outdir, language.code, expected_marks(srcdir))
    report = outdir / f"{REPORT_SLUG}.html"
    if report.is_file():
        insert_rendered_findings(report, found, ui_strings(language))
    return found


def _translate(document: Document, task: Task) -> tuple[TranslatedDocument, Any]:
    """``document`` in ``task.lang``, and the catalog read for it (``None`` for the source language)."""
    if task.catalog is None:
        return source_document(document, task.lang), None
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.catalogs.translate import translate

    read = read_catalog(Path(task.catalog))
    catalog = read
    if task.derive:
        from patiencebook.generator.catalogs.transliterate import derive_catalog_for

        catalog = derive_catalog_for(task.language, read)
    return translate(document, catalog, task.lang), read
