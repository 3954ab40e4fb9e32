"""Builds the translated help site: one Sphinx build per language, languages in parallel processes.

The site is built in a folder inside the output folder (``.patiencebook-build-*``) and swapped in
only when every language succeeded, so a failed build leaves the previous site's pages exactly as
they were; nothing is written outside the output folder.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Mapping

from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.generator.pages.board import (DEFAULT_DEAL, board_files, engine_zip_bytes, find_pyodide,
                                                install_board_assets, pyodide_missing)
from patiencebook.generator.pages.boardsnapshot import SnapshotJob
from patiencebook.generator.site.cache import CACHE_DIR, code_digest, digest, files_digest, read_state, tree_digest
from patiencebook.generator.errors import BuildError, CatalogError, LanguageError
from patiencebook.generator.languages import Language, derived_languages, get_language, source_language
from patiencebook.generator.docbook.enginemodels import attach_engine_models
from patiencebook.generator.docbook.examples import check_examples
from patiencebook.generator.docbook.document import Document
from patiencebook.generator.site.progress import Progress, games_without_model, summary_table
from patiencebook.generator.site.sphinxsources import figures_file
from patiencebook.generator.site.language import SHARED_DOCUMENTS, Task, preload_sphinx
from patiencebook.generator.project import SITE_MARKER
from patiencebook.generator.site.output import (BUILD_PREFIX, OWNER_FILE, lock_out_folder,
                                                remove_stale_workdirs, swap_in, check_out_folder, remove_path)
from patiencebook.generator.site.reports import BuildReport, LanguageReport, report_from_state, root_index_html
from patiencebook.generator.site.workers import run_workers


def build_site(sources: Path, catalogs: Path | None, out: Path, langs: list[str] | None = None,
               jobs: int | None = None, book_file: str = "index.docbook",
               echo: bool = True, report: bool = True, progress: str | Progress = "auto",
               fresh: bool = False, derived: str = "auto") -> BuildReport:
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
        progress: a :data:`~patiencebook.generator.site.progress.MODES` name or a
            :class:`~patiencebook.generator.site.progress.Progress` (used even when ``echo`` is off).
        fresh: build everything again, ignoring what the site keeps of its last build
            (:mod:`patiencebook.generator.site.cache`). Otherwise a language whose sources and
            catalog did not change is reused as it is, and one whose catalog changed has only its
            changed pages read and written again.
        derived: for a derived language with a hand-kept catalog beside its base (``sr@latin``
            beside ``sr``): ``auto`` (the hand-kept one only when it is complete and up to date),
            ``catalog`` or ``derive`` (:mod:`~patiencebook.generator.catalogs.derivedcopy`). The
            choice and its reason are in the report's ``notes``.

    Game pages without a rules block get the engine model of the embedded rules (``rules/``) of
    the same game, when there is one (:func:`~patiencebook.generator.docbook.enginemodels.attach_engine_models`).

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
    source_row = get_language(source)  # the root page's own language
    wanted = _wanted_languages(langs, found, source, site_warnings)
    notes: list[str] = []
    tasks_langs = plan_languages(wanted, found, source, catalogs, derived, notes)

    # Fail on a bad source before starting any worker; forked workers reuse this document.
    from patiencebook.generator.docbook.sources import load_document

    SHARED_DOCUMENTS.clear()
    document = SHARED_DOCUMENTS[str(sources)] = load_document(sources, book_file)
    models = attach_engine_models(document)
    check_examples(document.pages)
    preload_sphinx()  # imported once here, inherited by forked workers

    was_site = (out / SITE_MARKER).is_file()
    created = not out.exists()
    lock, workdir = _open_out_folder(out, created)
    shown = progress if isinstance(progress, Progress) else Progress(progress if echo else "none")
    try:
        site = workdir / "site"
        site.mkdir()
        site_languages = tuple(language for language, _, _ in tasks_langs)
        site_langs = tuple(language.code for language in site_languages)
        catalogs_dir = str(Path(catalogs).resolve()) if catalogs is not None else None
        pyodide = find_pyodide()
        if pyodide is None and any(page.rules is not None for page in document.pages):
            site_warnings.append(pyodide_missing())
        files = board_files(pyodide) if pyodide is not None else None
        if files is not None and not files.snapshot and any(page.rules is not None for page in document.pages):
            notes.append("Node.js not found, so the live board has no Python snapshot and starts Python in the "
                         "page, a few seconds slower; install Node.js (or set PATIENCEBOOK_NODE) to make one")
        # The Python snapshot (Node.js, seconds) is made while the languages build.
        snapshot = None
        if files is not None and files.snapshot:
            warmup = [{"ruleset": ruleset_to_data(page.rules), "deal": DEFAULT_DEAL}
                      for page in document.pages if page.rules is not None]
            snapshot = SnapshotJob(pyodide, engine_zip_bytes(), Path(files.snapshot).name, fallback=site / files.snapshot,
                                   warmup=warmup)
        # The cache is used where it lies, in --out (Sphinx keeps its environment only while the
        # source folder stays put); the swap leaves it there.
        cache_root = out / CACHE_DIR
        if fresh or not was_site or not cache_root.is_dir() or cache_root.is_symlink():
            remove_path(cache_root)
        frame_base = digest(code_digest(), str(sources), book_file, site_langs, report, pyodide is not None,
                            repr(files),
                            [page.slug for page in document.pages], [str(f) for f in models.values()])
        source_files = _source_files(document, models)
        tasks, reused = [], []
        for language, catalog, derive in tasks_langs:
            lang = language.code
            previous = out / lang if was_site and (out / lang).is_dir() else None
            task = Task(language, str(sources), book_file, str(catalog) if catalog else None, derive, str(workdir),
                        site_languages, catalogs_dir, getattr(catalogs, "domain", None) or "help", report,
                        pyodide is not None, board_files=files, cache=str(cache_root / lang),
                        previous=str(previous) if previous else None, frame=digest(frame_base, lang, derive),
                        inputs=_inputs_digest(source_files, catalog), fresh=fresh)
            kept_report = None if fresh or previous is None else _kept(task, cache_root / lang, previous)
            if kept_report is not None:
                reused.append(kept_report)
                shown.finished(lang, kept_report.pages, kept_report.seconds, reused=True)
            else:
                tasks.append(task)
        kept = {r.lang for r in reused}  # their folders in --out stay as they are
        built = run_workers(tasks, jobs, shown) if tasks else []
        by_lang = {r.lang: r for r in reused + built}
        reports = [by_lang[lang] for lang in site_langs]
        shown.close()
        if pyodide is not None:
            install_board_assets(site, pyodide, previous=out if was_site else None, files=files, snapshot=snapshot,
                                 notes=site_warnings)
        if echo:
            for report_ in reports:
                for warning in report_.warnings:
                    print(f"{report_.lang}: {warning}", file=sys.stderr)
            for warning in site_warnings:
                print(f"patiencebook: warning: {warning}", file=sys.stderr)
            for note in notes:
                print(f"patiencebook: note: {note}", file=sys.stderr)
        (site / SITE_MARKER).write_text("A help site built by patiencebook; `patiencebook build` may replace "
                                        "this folder as a whole.\n", encoding="utf-8")
        (site / "index.html").write_text(root_index_html(document.title, reports, site_languages, source_row),
                                         encoding="utf-8")
        for folder in cache_root.glob("*"):
            if folder.name not in site_langs:
                shutil.rmtree(folder, ignore_errors=True)  # a language no longer built
        swap_in(site, out, workdir, keep=kept)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)  # nothing but this build's files was there
        elif not was_site:
            shutil.rmtree(out / CACHE_DIR, ignore_errors=True)  # an empty folder stays empty
        raise
    finally:
        SHARED_DOCUMENTS.clear()
        if lock is not None:
            shutil.rmtree(workdir, ignore_errors=True)
            os.close(lock)
            lock = None
    shutil.rmtree(workdir, ignore_errors=True)
    result = BuildReport(out=out, languages=tuple(reports), seconds=time.perf_counter() - started,
                         warnings=tuple(site_warnings), notes=tuple(notes), without_model=tuple(
                             page.slug for page in document.pages if page.kind == "game" and page.rules is None),
                         models=tuple(sorted(models)))
    if echo:
        _print_summary(result, document)
    return result


def _wanted_languages(langs: list[str] | None, found: dict[str, Path], source: str,
                      site_warnings: list[str]) -> list[str]:
    """The codes to build: ``langs`` as given (each once), or the source language, every catalog of
    a language CLDR knows (the others are a site warning) and the languages derived from them."""
    if langs is not None:
        return list(dict.fromkeys(langs))
    skipped = unknown_catalogs(found)
    site_warnings += skipped.values()
    wanted = [source] + [lang for lang in sorted(found) if lang not in skipped]
    return wanted + derived_languages(list(wanted))


def unknown_catalogs(found: Mapping[str, Path]) -> dict[str, str]:
    """The catalogs of ``found`` (gettext code -> file) whose folder names no language CLDR knows,
    each with the warning a build of every catalog gives when it skips it:
    ``{"tlh": "locales/tlh/LC_MESSAGES/help.po: catalog for language 'tlh' skipped: ..."}``."""
    skipped = {}
    for lang, path in sorted(found.items()):
        try:
            get_language(lang)
        except LanguageError:
            skipped[lang] = (f"{path}: catalog for language '{lang}' skipped: '{lang}' is not a "
                             "language code CLDR knows")
    return skipped


def _open_out_folder(out: Path, created: bool) -> tuple[int | None, Path]:
    """Lock ``out`` (made when missing), clear stale build folders in it and make this build's
    folder: ``(lock, build folder)``. Raises :class:`BuildError`, removing ``out`` when this build
    ``created`` it."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = lock_out_folder(out)
        remove_stale_workdirs(out)
        workdir = Path(tempfile.mkdtemp(prefix=BUILD_PREFIX, dir=out))
        (workdir / OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
        return lock, workdir
    except OSError as error:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise BuildError(f"cannot create the output folder: {error.strerror}", error.filename or out) from None
    except BuildError:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise


def _kept(task: Task, cache: Path, previous: Path) -> LanguageReport | None:
    """The report of ``task``'s language as the previous build left it in ``previous``, when that
    build had the same frame and inputs and its pages are untouched; else ``None``."""
    state = read_state(cache)
    if (state is not None and state.get("frame") == task.frame and state.get("inputs") == task.inputs
            and state.get("outputs") == tree_digest(previous)):
        return report_from_state(state, task.lang)
    return None


def _print_summary(result: BuildReport, document: Document) -> None:
    """The table of the languages built, the game pages with and without an engine model, the site."""
    models = result.models
    lines = [summary_table(result.languages, result.seconds)]
    if models:
        lines.append(f"{len(models)} game page{'s' if len(models) != 1 else ''} use{'s' if len(models) == 1 else ''} "
                     f"the engine model of the embedded rules: {', '.join(models)}")
    if any(page.kind == "game" for page in document.pages):
        lines.append(games_without_model(sorted(result.without_model)))
    lines.append(f"site: {result.out}")
    try:
        print("\n".join(lines), flush=True)
    except OSError:
        pass  # a closed or full standard output: the site is built all the same


def _source_files(document: Document, models: dict[str, Path]) -> list[Path]:
    """Every file the pages are made from: the book's files, their images, the embedded rules used
    (with their solver figures)."""
    files = sorted(p for p in document.source_dir.rglob("*") if p.is_file())
    extra = set(models.values())
    figures = figures_file(document)
    if figures.is_file():
        extra.add(figures)
    return files + sorted(extra - set(files))




def _inputs_digest(source_files: list[Path], catalog: Path | None) -> str:
    try:
        return files_digest(source_files + ([Path(catalog).resolve()] if catalog else []))
    except OSError as error:
        raise BuildError(f"cannot read an input file: {error.strerror}", error.filename) from None


def plan_languages(wanted: list[str], found: dict[str, Path], source: str,
                   catalogs: Path | None, derived: str = "auto",
                   notes: list[str] | None = None) -> list[tuple[Language, Path | None, bool]]:
    """``(language, catalog, derive)`` for each wanted language, each once: the language resolved
    once from the code the user gave (``de_DE``, ``sr-Latn``) and carried from here on, the catalog
    it is built from and whether it is derived from that catalog's language.

    A derived language whose hand-kept catalog sits beside its base's (``sr@latin`` beside ``sr``)
    is built from one of them as ``derived`` says (:data:`~.derivedcopy.MODES`,
    :func:`~.derivedcopy.choose_catalog`); the choice and its reason are added to ``notes``.

    Raises:
        LanguageError: a language cannot be built.
        CatalogError: a catalog compared for that choice cannot be read.
    """
    from patiencebook.generator.catalogs.derivedcopy import choose_catalog
    from patiencebook.generator.languages import resolve_language

    # A code as users write it (de_DE, sr-Latn) names the catalog language it means.
    available = [source, *found, *derived_languages(list(found))]
    plan = []
    for code in wanted:
        try:
            language = resolve_language(code, available)
        except LanguageError:
            language = get_language(code)  # a known language without a catalog is refused below
        if any(planned.code == language.code for planned, _, _ in plan):
            continue
        if language.code == source:
            plan.append((language, None, False))
        elif language.code in found and language.derived_from and language.derived_from in found:
            choice = choose_catalog(language.code, language.derived_from, found[language.derived_from],
                                    found[language.code], language.derive or "", derived)
            if notes is not None:
                notes.append(choice.reason)
            plan.append((language, found[language.code if choice.kept else language.derived_from], not choice.kept))
        elif language.code in found:
            plan.append((language, found[language.code], False))
        elif language.derived_from and language.derived_from in found:
            plan.append((language, found[language.derived_from], True))
        else:
            where = f" in {catalogs}" if catalogs is not None else " (no catalog folder given)"
            base = f" or '{language.derived_from}'" if language.derived_from else ""
            raise LanguageError(f"no catalog for '{language.code}'{base}{where}")
    return plan
