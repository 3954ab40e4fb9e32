"""Runs every translator check over a source tree and its catalogs and places the findings in the sources.

A message used by several pages is checked once per language and reported once, naming every page.
"""

from __future__ import annotations

import functools
import gc
import importlib
import os
from pathlib import Path
from typing import Callable, Iterable

from babel.messages.catalog import Catalog, Message

from patiencebook.generator.catalogs import find_catalogs, read_catalog
from patiencebook.generator.check.context import checked_contexts
from patiencebook.generator.check.findings import SEVERITIES, Finding
from patiencebook.generator.check.health import (Problem, check_gettext, check_matches, check_units, skipped_checks)
from patiencebook.generator.check.markup import check_markup
from patiencebook.generator.check.model import check_page
from patiencebook.generator.check.workers import check_each
from patiencebook.generator.errors import CatalogError, LanguageError, PatienceBookError
from patiencebook.generator.catalogs.pot import pot_catalog
from patiencebook.generator.gamenames import closest_names, game_key
from patiencebook.generator.docbook.enginemodels import attach_engine_models
from patiencebook.generator.docbook.document import Document
from patiencebook.generator.docbook.sources import load_document

#: Check names of this package; the rule-fact checks add their own (``facts.CHECKS`` when given).
CHECKS = ("untranslated", "fuzzy", "obsolete", "stale", "gettext", "markup", "model-pile", "model-score",
          "model-redeal", "model-build", "facts", "derived-copy")
#: Names the rule-fact checks are documented to use (generator/check/findings.py).
FACT_CHECKS = ("number", "rank", "pile", "suit-colour", "suit-name", "direction", "step", "face", "redeal",
               "at-a-time", "side", "position", "comparator", "in-play", "negation", "only", "must", "sentence",
               "terminology")
#: Cross-message checks of generator/check/terminology.py.
TERM_CHECKS = ("terminology", "false-friend")
#: The language of findings about the English sources themselves.
SOURCE_LANG = "en"
#: The confidence from which reports show a finding unless asked otherwise (``--min-confidence``):
#: below it a rule finding is information, such as a count a translation leaves to a paraphrase.
REPORTED_CONFIDENCE = 0.5


def _facts():
    """``check_facts`` of the rule-fact checks, or ``None`` while that module is not there."""
    try:
        module = importlib.import_module("patiencebook.generator.check.facts")
    except ModuleNotFoundError as error:
        if error.name != "patiencebook.generator.check.facts":
            raise
        return None
    return getattr(module, "check_facts", None)


def _facts_for(lang: str):
    """``(check_facts bound to a language it knows, a note or None)`` for catalog language ``lang``.

    A regional code or one with a modifier falls back to its language (``en_GB`` to ``en``,
    ``sr@latin`` to ``sr``); a language without a fact lexicon has its numbers compared with CLDR's
    number words (see :func:`~.lexicon.load_lexicon`), or in digits only where CLDR has none, which
    the note says; a lexicon that cannot be read gives no rule-fact checks. The note is said once
    in an ``info`` finding rather than failing the run.
    """
    facts = _facts()
    if facts is None:
        return None, None
    from patiencebook.generator.check.lexicon import load_lexicon

    error = None
    usable = []
    for code in dict.fromkeys((lang, lang.split("_", 1)[0], lang.split("_", 1)[0].split("@", 1)[0])):
        try:
            facts("", "x", code)  # loads the lexicon; an empty msgid has no facts
        except LanguageError as problem:
            error = error or problem.message
            continue
        usable.append(code)
        if load_lexicon(code).number_words:
            break
    if not usable:
        return None, f"rule-fact checks skipped: {error}"
    # The first code whose lexicon knows number words (pt_BR reads as pt), else the first that loads.
    code = next((c for c in usable if load_lexicon(c).number_words), usable[0])
    note = None
    if not load_lexicon(code).number_words:
        note = (f"number words not compared: CLDR spells out no numbers in {code!r} and there is no "
                f"lexicon for it; numbers in digits are compared")
    return (lambda msgid, msgstr, _lang, context=None, _code=code: facts(msgid, msgstr, _code, context)), note


def known_checks() -> tuple[str, ...]:
    """Every check name ``--check`` accepts (with ``model`` for all ``model-*`` checks)."""
    names = list(CHECKS) + list(FACT_CHECKS) + [n for n in TERM_CHECKS if n not in FACT_CHECKS] + ["model"]
    try:
        module = importlib.import_module("patiencebook.generator.check.facts")
        names += [n for n in getattr(module, "CHECKS", ()) if n not in names]
    except ModuleNotFoundError:
        pass
    return tuple(names)


class _Places:
    """Where each message is used in the sources: file names and lines, and which pages."""

    def __init__(self, document: Document):
        self.uses: dict[tuple[str | None, str], list[tuple[str, int]]] = {}
        for segment in document.segments:
            if segment.file is None:
                continue
            spot = (os.path.basename(segment.file), segment.line)
            uses = self.uses.setdefault((segment.msgctxt, segment.msgid), [])
            if spot not in uses:
                uses.append(spot)
        self.slugs: dict[str, set[str]] = {}
        for page in document.pages:
            # A page is named as a game is (generator/gamenames.py): by its id, file or title.
            self.slugs.setdefault(page.file.name, set()).update(
                game_key(n) for n in (page.slug, page.file.stem, page.title) if n)
        order = [Path(f.path).name for f in document.files]
        self.file_order = {name: i for i, name in enumerate(dict.fromkeys(order))}

    def finding(self, lang: str, problem: Problem, catalog_file: str) -> Finding:
        uses = self.uses.get((problem.context, problem.msgid)) or self.uses.get((None, problem.msgid))
        if uses:
            pages = tuple(dict.fromkeys(name for name, _ in uses))
            file, line = uses[0]
        elif problem.locations:
            pages = tuple(dict.fromkeys(Path(ref).name for ref, _ in problem.locations))
            file, line = Path(problem.locations[0][0]).name, problem.locations[0][1]
        else:
            pages, file, line = (catalog_file,), catalog_file, None
        return Finding(lang=lang, file=file, line=line, msgid=problem.msgid, check=problem.check,
                       severity=problem.severity, message=problem.message, source=problem.source,
                       translation=problem.translation, pages=pages, po_line=problem.po_line,
                       confidence=problem.confidence)


def _translation_problems(message: Message, lang: str, facts, contexts=None) -> list[Problem]:
    """Markup and rule-fact problems of one translated, confirmed unit; ``contexts`` maps
    (msgctxt, msgid) to the unit's :class:`~.statements.UnitContext`."""
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    context = (contexts or {}).get((message.context, msgid))
    out = []
    for msgstr in dict.fromkeys(s for s in strings if s):
        # The translator-credits unit (msgctxt "_") holds names and addresses, not markup.
        credits = message.context == "_" or msgid == "translator-credits"
        found = [] if credits else [(*f, 1.0) for f in check_markup(msgid, msgstr)]
        if facts is not None and not credits:
            found = found + list(facts(msgid, msgstr, lang, context) or ())
        for check, severity, text, source, translation, confidence in found:
            if severity not in SEVERITIES:
                raise PatienceBookError(f"check {check!r} reported the unknown severity {severity!r}")
            out.append(Problem(msgid, check, severity, text, source, translation, message.lineno,
                               tuple(message.locations), message.context, confidence))
    return out


def check_catalog(path: Path, lang: str, pot: Catalog, places: "_Places", *, facts=None,
                  catalog: Catalog | None = None, contexts=None) -> list[Finding]:
    """Every finding of one catalog: health, gettext validity, markup and rule facts.

    ``catalog`` is the catalog at ``path`` when the caller has read it already (it is not changed);
    ``contexts`` maps (msgctxt, msgid) to each unit's role, names, lexicon and page model (see
    :func:`~.context.catalog_contexts`). Units carrying ``# check: skip=NAMES`` lose the findings
    of those checks. Raises :class:`CatalogError` when the catalog cannot be read.
    """
    return [finding for _, finding in _ranked_findings(path, lang, pot, places, facts=facts, catalog=catalog,
                                                        contexts=contexts)]


def _ranked_findings(path: Path, lang: str, pot: Catalog, places: "_Places", *, facts=None,
                     catalog: Catalog | None = None, contexts=None, part: tuple[int, int] = (0, 1),
                     units: Callable[[int], Iterable[int]] | None = None) -> list[tuple[tuple[int, int], Finding]]:
    """:func:`check_catalog` with each finding's rank: ``(0, 0)`` for the checks of the whole
    catalog, ``(1, i)`` for those of its i-th unit. ``part`` ``(k, n)`` checks part k of n
    (0-based): the markup and rule facts of the units ``units`` gives (called with the number of
    units, it gives their indices; default every n-th unit from the k-th on), and the checks of the
    whole catalog (health, gettext) in part 0 only, before its units. The findings of all parts,
    sorted by rank (stably, part 0 first), are those of the whole catalog in its order."""
    catalog = catalog if catalog is not None else read_catalog(path)
    k, n = part
    ranked = [((0, 0), p) for p in check_units(catalog, pot) + check_gettext(path, catalog)] if k == 0 else []
    messages = list(catalog)
    for i in (units(len(messages)) if units is not None else range(k, len(messages), n)):
        message = messages[i]
        if not message.id or message.fuzzy:
            continue
        ranked += [((1, i), p) for p in _translation_problems(message, lang, facts, contexts)]
    by_key: dict[tuple, Message] = {}
    for message in messages + list(catalog.obsolete.values()):
        if message.id:
            by_key[(message.context, message.id if isinstance(message.id, str) else message.id[0])] = message
    findings = []
    name = Path(path).name
    for rank, problem in ranked:
        unit = by_key.get((problem.context, problem.msgid))
        if unit is not None and check_matches(problem.check, skipped_checks(unit)):
            continue
        findings.append((rank, places.finding(lang, problem, name)))
    return findings


def _term_findings(document: Document, path: Path, lang: str, catalogs: Path, places: "_Places", *,
                   summaries: bool = False, catalog: Catalog | None = None, concepts=None) -> list[Finding]:
    """Terminology and false-friend findings of one catalog (see generator/check/terminology.py);
    the per-concept variant counts (``info``) only with ``summaries``, i.e. ``--check terminology``."""
    from patiencebook.generator.check.terminology import (check_false_friends, check_terminology, load_glossary)
    catalog = catalog if catalog is not None else read_catalog(path)
    if concepts is None:
        concepts = load_glossary(document, catalog, lang, catalogs)
    problems = check_terminology(concepts, catalog, lang)[0] + check_false_friends(concepts, catalog, lang)
    units = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    name = Path(path).name
    return [places.finding(lang, p, name) for p in problems
            if (summaries or p.msgid) and not ((u := units.get((p.context, p.msgid))) and check_matches(p.check, skipped_checks(u)))]


class _CatalogJob:
    """The checks of one catalog, given its language and path: what :func:`run_checks` runs for
    each catalog, in this process or a worker (see :func:`~.workers.check_each`)."""

    def __init__(self, document: Document, places: "_Places", pot: Catalog, catalogs: Path,
                 every_catalog: dict[str, Path], loaded: dict[str, Catalog], summaries: bool) -> None:
        self.document, self.places, self.pot, self.catalogs = document, places, pot, catalogs
        self.every_catalog, self.loaded, self.summaries = every_catalog, loaded, summaries

    def __call__(self, lang: str, path: Path, part: tuple[int, int] | None = None,
                 units: Callable[[int], Iterable[int]] | None = None) -> list:
        """Every finding of the catalog of ``lang`` at ``path``; with ``part`` ``(k, n)``, those of
        part k of n, each with its rank, for :meth:`combine`. The n parts share the work of the
        units' markup and rule-fact checks (those ``units`` gives, see :func:`_ranked_findings`);
        each reads the catalog and its glossary, and part 0 does the checks of the whole catalog
        first. Raises :class:`CatalogError` when the catalog cannot be read."""
        from patiencebook.generator.check.derivedcopy import derived_copy_problems
        from patiencebook.generator.check.terminology import load_glossary

        k, n = part or (0, 1)
        facts, note = _facts_for(lang)
        catalog = self.loaded.get(lang) or read_catalog(path)
        # The rule facts are read with the terms the catalog's glossary agrees on, the
        # terminology check's own glossary (generator/check/terminology.py).
        concepts = load_glossary(self.document, catalog, lang, self.catalogs)
        contexts = (checked_contexts(self.document, catalog, lang, self.catalogs, concepts)
                    if facts is not None else None)
        whole = []
        if k == 0:  # before the units: a part that shares them takes fewer while it does these
            whole = _term_findings(self.document, path, lang, self.catalogs, self.places,
                                   summaries=self.summaries, catalog=catalog, concepts=concepts)
            whole += [self.places.finding(lang, problem, Path(path).name)
                      for problem in derived_copy_problems(lang, catalog, self.every_catalog)]
            if note:
                whole.append(Finding(lang, Path(path).name, None, "", "facts", "info", note,
                                     pages=(Path(path).name,)))
        ranked = _ranked_findings(path, lang, self.pot, self.places, facts=facts, catalog=catalog,
                                  contexts=contexts, part=(k, n), units=units)
        ranked += [((2, 0), finding) for finding in whole]
        return ranked if part is not None else [finding for _, finding in ranked]

    @staticmethod
    def combine(parts: list[list]) -> list[Finding]:
        """The findings of a catalog from those of its parts (in part order), as one call gives them."""
        ranked = [item for found in parts for item in found]
        ranked.sort(key=lambda item: item[0])  # stable: within a rank, part 0 comes first
        return [finding for _, finding in ranked]


def _merge_shared(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per (lang, check, msgid, message), naming every page it was found on."""
    merged: dict[tuple, Finding] = {}
    for finding in findings:
        key = (finding.lang, finding.check, finding.msgid, finding.message)
        if key not in merged:
            merged[key] = finding
            continue
        first = merged[key]
        pages = tuple(dict.fromkeys(first.pages + finding.pages))
        merged[key] = Finding(first.lang, first.file, first.line, first.msgid, first.check, first.severity,
                              first.message, first.source, first.translation, pages, first.po_line,
                              first.confidence)
    return list(merged.values())


def _check_pages(pages: list[str], document: Document, places: "_Places", found: dict, loaded, sources: Path) -> None:
    """Make sure each of ``pages`` names a page: by id, file or title, or by the page's title in one
    of the catalogs ``found`` (``Adlerschwinge``), which is then added to ``places``' names of the
    page. Raises :class:`PatienceBookError` naming the closest pages otherwise."""
    all_slugs = set().union(*places.slugs.values()) if places.slugs else set()
    missing = [slug for slug in pages if game_key(slug) not in all_slugs]
    if not missing:
        return
    titles: dict[str, str] = {}  # translated title -> page file name
    for lang, path in found.items():
        try:
            catalog = (loaded or {}).get(lang) or read_catalog(path)
        except CatalogError:
            continue  # reported when the catalog is checked
        for page in document.pages:
            message = catalog.get(page.title) if page.title else None
            if message is not None and isinstance(message.string, str) and message.string and not message.fuzzy:
                titles[message.string] = page.file.name
    for title, name in titles.items():
        places.slugs.setdefault(name, set()).add(game_key(title))
    all_slugs = set().union(*places.slugs.values())
    for slug in missing:
        if game_key(slug) not in all_slugs:
            names = [p.slug for p in document.pages] + [p.title for p in document.pages if p.title] + list(titles)
            near = closest_names(slug, names)
            hint = f"; the closest: {', '.join(near)}" if near else ""
            raise PatienceBookError(f"no page '{slug}' in the sources{hint}", sources)


def _catalog_language(lang: str, found) -> tuple[str, str | None]:
    """``(code, derived from)`` for ``lang`` as users write it (``de_DE``, ``el_GR.UTF-8``,
    ``sr-Latn``): the code of the catalog in ``found`` it means, or of a language derived from one
    (then with the code of the language it is derived from, ``sr`` for ``sr@latin``);
    ``(lang, None)`` when it means none of them."""
    from patiencebook.generator.languages import derived_languages, resolve_language

    if lang in found:
        return lang, None
    try:
        language = resolve_language(lang, [*found, *derived_languages(list(found))])
    except LanguageError:
        return lang, None
    return language.code, language.derived_from


def _no_collections(function):
    """``function`` run with Python's cyclic garbage collector turned off, and turned on again
    afterwards if it was on. The checks make many small objects (words, facts, findings) and almost
    no reference cycles: a collection during a check of the three AisleRiot catalogs finds 2 to 35
    objects to free, yet each scans every young object (30 to 40 ms in each worker process).
    Reference counting still frees everything else at once; worker processes forked meanwhile
    inherit the setting."""
    @functools.wraps(function)
    def run(*args, **kwargs):
        was_on = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if was_on:
                gc.enable()
    return run


@_no_collections
def run_checks(sources: Path, catalogs: Path | None, *, langs: Iterable[str] | None = None,
               pages: Iterable[str] | None = None, checks: Iterable[str] | None = None,
               document: Document | None = None, loaded: dict[str, Catalog] | None = None,
               source_checks: bool = True, min_confidence: float = 0.0,
               jobs: int | None = None) -> tuple[list[Finding], dict[str, Path]]:
    """Check the sources in ``sources`` and every catalog in ``catalogs``.

    Args:
        sources: folder holding ``index.docbook`` and its pages.
        catalogs: folder of catalogs in either layout (see :func:`find_catalogs`), or ``None`` for
            the source-against-model check only.
        langs: check only these catalogs (gettext codes). Findings about the English sources
            (lang ``"en"``: the model checks) are kept whatever the languages.
        pages: keep only findings on these pages (slug or file stem, e.g. ``hamilton``).
        checks: keep only findings of these checks (a family name such as ``model`` selects all
            its checks).
        document: the document of ``sources`` when the caller has loaded it already.
        loaded: catalogs the caller has read already, by language (not changed).
        source_checks: run the checks of the English sources against their rules blocks (a game
            page without one is checked against the embedded model of the same game, if any).
        min_confidence: keep only findings at least this sure (0 to 1; see :attr:`Finding.confidence`).
        jobs: the most catalogs checked at once, each in a worker process (default: one per core;
            1 checks them one after the other here). See :mod:`~.workers` for when workers start,
            and :mod:`~.readahead` for the helper that reads ahead while the sources load.

    Returns:
        ``(findings, catalogs checked by language)``; findings ordered by page (document order),
        severity (:data:`SEVERITIES` order), line and language.

    Raises:
        SourceError, CatalogError: a source or catalog cannot be read.
        LanguageError: a language in ``langs`` has no catalog.
        PatienceBookError: an unknown page or check name.
    """
    langs = list(langs) if langs is not None else None  # read twice
    ahead = foreseen = None
    if document is None and catalogs is not None:
        # While the sources load, a helper builds the embedded models and reads the catalogs the
        # workers will check in parts (generator/check/readahead.py).
        from patiencebook.generator.check.readahead import ReadAhead
        from patiencebook.generator.check.workers import split_catalogs
        from patiencebook.generator.docbook.enginemodels import models_loaded

        paths = _paths_ahead(Path(catalogs), langs)
        split = split_catalogs(list(paths.values()), jobs)
        ahead = ReadAhead.start(split, not models_loaded())
        # While it waits for the helper, this process does what each worker would do first.
        foreseen = (list(paths), [code for code, path in paths.items() if path in split])
    try:
        return _run_checks(sources, catalogs, langs=langs, pages=pages, checks=checks, document=document,
                           loaded=loaded, source_checks=source_checks, min_confidence=min_confidence, jobs=jobs,
                           ahead=ahead, foreseen=foreseen)
    finally:
        if ahead is not None:
            ahead.close()


def _paths_ahead(catalogs: Path, langs) -> dict[str, Path]:
    """The catalogs in the folder ``catalogs`` that :func:`run_checks` will check for ``langs``,
    by language, as far as they can be told before anything is checked (none where that fails:
    the checks report why in their order)."""
    try:
        found = find_catalogs(catalogs)
    except (PatienceBookError, OSError):
        return {}
    if not langs:
        return dict(found)
    codes = [_catalog_language(lang, found)[0] for lang in dict.fromkeys(langs)]
    return {code: found[code] for code in dict.fromkeys(codes) if code in found}


def _run_checks(sources: Path, catalogs: Path | None, *, langs, pages, checks, document, loaded, source_checks,
                min_confidence, jobs, ahead, foreseen) -> tuple[list[Finding], dict[str, Path]]:
    """:func:`run_checks`, with what the helper ``ahead`` reads (or ``None``); ``foreseen`` is
    ``(languages to be checked, those checked in parts)`` as far as told before the sources load."""
    if document is None:
        document = load_document(Path(sources))
        if ahead is not None:
            from patiencebook.generator.check.groundwork import groundwork

            ahead.meanwhile(groundwork(document, *foreseen))
            ahead.take_models()
        attach_engine_models(document)
    places = _Places(document)
    langs = list(dict.fromkeys(langs or ()))
    pages = list(dict.fromkeys(pages or ()))
    checks = list(dict.fromkeys(checks or ()))
    known = known_checks()
    for name in checks:
        if name not in known and name != "*":
            raise PatienceBookError(f"unknown check '{name}'; checks: {', '.join(known)}")
    found: dict[str, Path] = {}
    if catalogs is not None:
        if not Path(catalogs).is_dir():
            raise CatalogError("no such catalogs folder", catalogs)
        found = find_catalogs(catalogs)  # a CatalogFolder keeps its domain and what it found
        every_catalog = dict(found)
        meant = dict(_catalog_language(lang, found) for lang in langs)
        langs = list(meant)
        for lang in langs:
            if lang not in found:
                base = meant[lang]
                if base is not None and base in found:
                    raise LanguageError(f"'{lang}' has no catalog of its own: it is derived from '{base}' when "
                                        f"the site is built; check '{base}'", catalogs)
                raise LanguageError(f"no catalog for language '{lang}' in the catalogs folder", catalogs)
        if langs:
            found = {lang: found[lang] for lang in langs}
    _check_pages(pages, document, places, found, loaded, Path(sources))
    findings: list[Finding] = []

    def check_sources() -> None:  # the English against the rules models; the catalogs' checks need none of it
        for page in document.pages if source_checks else ():
            for segment, problem in check_page(page):
                findings.append(Finding(SOURCE_LANG, Path(segment.file).name, segment.line, problem.msgid,
                                        problem.check, problem.severity, problem.message, problem.source,
                                        None, (Path(segment.file).name,)))

    if found:
        given = loaded or {}
        read = ahead.catalogs() if ahead is not None else {}
        errors = ahead.errors() if ahead is not None else {}
        broken = [errors[str(path)] for lang, path in found.items() if lang not in given and str(path) in errors]
        if broken:
            raise broken[0]  # found while the sources loaded: reported now, not after the other catalogs
        loaded = {**{lang: read[str(path)] for lang, path in found.items() if str(path) in read}, **given}
        job = _CatalogJob(document, places, pot_catalog(document), Path(catalogs), every_catalog, loaded,
                          "terminology" in checks)
        checked = check_each(job, list(found.items()), jobs, combine=job.combine, meanwhile=check_sources)
        for catalog_findings in checked:
            findings += catalog_findings
    else:
        check_sources()
    findings = _merge_shared(findings)
    if pages:
        wanted = {game_key(p) for p in pages}
        findings = [f for f in findings
                    if any(places.slugs.get(p, {game_key(Path(p).stem)}) & wanted for p in f.pages or (f.file,))]
    if checks:
        findings = [f for f in findings if check_matches(f.check, checks)]
    if min_confidence > 0:
        findings = [f for f in findings if f.confidence >= min_confidence]
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    far = len(places.file_order)
    findings.sort(key=lambda f: (places.file_order.get(f.file, far), f.file, rank.get(f.severity, 9),
                                 f.line or 0, f.lang, f.check))
    return findings, found


__all__ = ["CHECKS", "FACT_CHECKS", "REPORTED_CONFIDENCE", "SOURCE_LANG", "check_catalog", "known_checks", "run_checks"]
