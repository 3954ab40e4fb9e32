"""The translation report page of each language's site, and the checks of the rendered HTML pages.

The report (``report.html``, the same URL in every language) is written as a DocBook page, so it is
rendered, escaped and given the language switcher like every other page; findings of the rendered
pages are only known after Sphinx has written them and are put into the finished page afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Iterable

from lxml import etree

from patiencebook.generator.check.findings import SEVERITIES, Finding
from patiencebook.generator.docbook.document import TranslatedDocument

#: The report page's slug (``report.html``) and page kind.
REPORT_SLUG = "report"
REPORT_KIND = "report"
#: Check name of the findings about the rendered HTML.
RENDERED_CHECK = "rendered"
#: ``role`` of the paragraph that the rendered-page findings replace (``class="pb-role-..."`` in HTML).
RENDERED_ROLE = "rendered-findings"
#: Classes the fallback nodes write (generator/sphinxext/nodes.py).
FALLBACK_CLASS = "pb-fallback"
FALLBACK_MARK_CLASS = "pb-fallback-mark"
#: The class of an element holding our interface strings in English on another language's page
#: (the setup picture, an example's controls and moves, a figure, the board): they are counted on
#: the report page, not page text missing its mark.
INTERFACE_CLASS = "pb-interface"
REASONS = ("fuzzy", "untranslated")
# libxml2's HTML parser predates HTML 5: unknown-tag complaints (<nav>, <section>...) are not faults.
_IGNORED_HTML_ERRORS = ("HTML_UNKNOWN_TAG",)


@dataclass(frozen=True, slots=True)
class PageCounts:
    """What the translation step counted on one page: ``slug`` and its fuzzy and untranslated blocks."""

    slug: str
    title: str
    file: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int


def page_counts(translated: TranslatedDocument) -> list[PageCounts]:
    """Per-page counts of ``translated``: the front page (slug ``index``) first, then pages in reading order."""
    out = []
    if translated.front is not None:
        front = translated.front
        out.append(PageCounts("index", translated.title, Path(front.page.file).name, front.total,
                              front.translated, front.fuzzy, front.untranslated))
    for tpage in translated.pages:
        out.append(PageCounts(tpage.page.slug, tpage.title, Path(tpage.page.file).name, tpage.total,
                              tpage.translated, tpage.fuzzy, tpage.untranslated))
    return out


def language_findings(sources: Path, catalogs: Path | None, lang: str, catalog_lang: str | None, *,
                      document=None, catalog=None, domain: str = "help") -> list[Finding]:
    """The checker's findings for one site language, those at least :data:`REPORTED_CONFIDENCE` sure.

    ``catalog_lang`` is the code of the catalog the language is built from (its base language for a
    derived one such as ``sr@latin``), or ``None`` for the source language: then the findings are
    those of the English sources against the rules model. ``document`` and ``catalog`` (the
    catalog of ``catalog_lang``) save reading them again when the caller has them; ``domain`` is the
    gettext domain of the catalogs in ``catalogs``. Raises what
    :func:`patiencebook.generator.check.run.run_checks` raises.
    """
    from patiencebook.generator.check.run import REPORTED_CONFIDENCE, SOURCE_LANG, run_checks

    if catalog_lang is None or catalogs is None:
        findings, _ = run_checks(Path(sources), None, min_confidence=REPORTED_CONFIDENCE)
        return [f for f in findings if f.lang == SOURCE_LANG]
    from patiencebook.generator.catalogs import discover_catalogs

    findings, _ = run_checks(Path(sources), discover_catalogs(Path(catalogs), domain), langs=[catalog_lang],
                             document=document,
                             loaded={catalog_lang: catalog} if catalog is not None else None,
                             source_checks=False, min_confidence=REPORTED_CONFIDENCE)
    return [f for f in findings if f.lang == catalog_lang]


def report_tree(translated: TranslatedDocument, findings: Iterable[Finding], ui: dict[str, str],
                derived_from: str | None = None,
                interface: tuple[int, int, int, int] | None = None) -> etree._Element:
    """The report page as a DocBook ``sect1``: coverage table (the whole book, then each page not
    fully translated) with, given ``interface`` = ``(own, own total, Sphinx's, Sphinx total)``,
    how many interface strings are in the language; then findings by page and severity.

    Finding texts become element text (lxml escapes them; Sphinx escapes them again as HTML text),
    so markup in a msgstr is shown, never interpreted. The last section holds a paragraph with role
    :data:`RENDERED_ROLE` saying "no findings"; :func:`insert_rendered_findings` replaces it.
    """
    counts = page_counts(translated)
    root = etree.Element("sect1", id="pb-translation-report")
    _text(root, "title", ui["report_title"])
    coverage = _coverage(root, counts, ui)
    if interface is not None:
        own, own_total, sphinx, sphinx_total = interface
        _text(coverage, "para", ui["report_interface"].format(own=own, own_total=own_total, sphinx=sphinx,
                                                              sphinx_total=sphinx_total)).set("role", "pb-interface")
    findings = list(findings)
    section = etree.SubElement(root, "sect2", id="pb-report-findings")
    _text(section, "title", ui["report_source_findings"] if translated.lang == "en" else ui["report_findings"])
    if derived_from:
        _text(section, "para", ui["report_derived"].format(base=derived_from))
    if not findings:
        _text(section, "para", ui["report_no_findings"])
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.file, []).append(finding)
    titles: dict[str, str] = {}
    for count in counts:
        titles.setdefault(count.file, count.title)  # a file holding several pages: its first
    order = {c.file: i for i, c in enumerate(counts)}
    for number, file in enumerate(sorted(by_file, key=lambda f: (order.get(f, len(order)), f)), 1):
        page = etree.SubElement(section, "sect3", id=f"pb-report-page-{number}")
        _text(page, "title", f"{titles[file]} ({file})" if file in titles else file)
        for severity in SEVERITIES:
            group = [f for f in by_file[file] if f.severity == severity]
            if group:
                _findings_table(page, group, ui[f"severity_{severity}"], ui)
    rendered = etree.SubElement(root, "sect2", id="pb-report-rendered")
    _text(rendered, "title", ui["report_rendered"])
    _text(rendered, "para", ui["report_no_findings"]).set("role", RENDERED_ROLE)
    return root


def _text(parent: etree._Element, tag: str, text: str) -> etree._Element:
    element = etree.SubElement(parent, tag)
    element.text = text
    return element


def _table(parent: etree._Element, title: str | None, heads: list[str]) -> etree._Element:
    table = etree.SubElement(parent, "table" if title else "informaltable")
    if title:
        _text(table, "title", title)
    group = etree.SubElement(table, "tgroup", cols=str(len(heads)))
    row = etree.SubElement(etree.SubElement(group, "thead"), "row")
    for head in heads:
        _text(row, "entry", head)
    return etree.SubElement(group, "tbody")


def _coverage(root: etree._Element, counts: list[PageCounts], ui: dict[str, str]) -> etree._Element:
    section = etree.SubElement(root, "sect2", id="pb-report-coverage")
    _text(section, "title", ui["report_coverage"])
    body = _table(section, None, [ui["report_page"], ui["report_blocks"], ui["report_translated"],
                                  ui["report_fuzzy"], ui["report_untranslated"]])
    totals = [sum(getattr(c, name) for c in counts) for name in ("total", "translated", "fuzzy", "untranslated")]
    # Fully translated pages are left out: in a large book they would bury the ones needing work.
    for label, numbers in [(ui["report_all_pages"], totals)] + [
            (c.title, [c.total, c.translated, c.fuzzy, c.untranslated]) for c in counts if c.translated < c.total]:
        row = etree.SubElement(body, "row")
        _text(row, "entry", label)
        for number in numbers:
            _text(row, "entry", str(number))
    return section


def _findings_table(parent: etree._Element, findings: list[Finding], title: str, ui: dict[str, str]) -> None:
    body = _table(parent, title, [ui["report_check"], ui["report_message"], ui["report_english"],
                                  ui["report_translation"], ui["report_where"]])
    for finding in findings:
        row = etree.SubElement(body, "row")
        _text(row, "entry", finding.check)
        _text(row, "entry", finding.message)
        # Without a span (an untranslated or fuzzy unit) the English column shows the msgid.
        english = finding.source.text if finding.source is not None else _shorten(finding.msgid)
        translation = finding.translation.text if finding.translation is not None else ""
        for text in (english, translation):
            entry = etree.SubElement(row, "entry")
            if text:
                _text(entry, "literal", text)
        _text(row, "entry", _where(finding, ui))


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _where(finding: Finding, ui: dict[str, str]) -> str:
    where = f"{finding.file}:{finding.line}" if finding.line else finding.file
    others = [p for p in finding.pages if p != finding.file]
    if others:
        where += f" ({ui['report_also_on'].format(pages=', '.join(others))})"
    return where


# -- rendered pages ------------------------------------------------------------------------------


def check_rendered_html(html: str | bytes, page: str, lang: str,
                        expected: dict[str, int] | None = None) -> list[Finding]:
    """Findings (check :data:`RENDERED_CHECK`, severity ``warning``) of one rendered page.

    Args:
        html: the page's HTML.
        page: its file name (``"sultan.html"``), used as the findings' file.
        lang: gettext code of the page's language; for ``"en"`` only well-formedness is checked.
        expected: fallback blocks by reason (``{"fuzzy": 0, "untranslated": 2}``) in the page's
            written source (:func:`expected_marks`), or ``None`` to skip the comparison.

    Checks that lxml's HTML parser reports no error (HTML 5 element names aside), that every
    element with ``lang="en"`` in the page's main content is a fallback element with its visible
    mark (:data:`FALLBACK_MARK_CLASS`: the first child of a block, the next sibling of an inline)
    or holds our interface strings (:data:`INTERFACE_CLASS`, the mark itself),
    and that the fallback elements of each reason (titles repeated in a table of contents aside)
    number the ``expected`` ones.
    """
    import lxml.html

    data = html.encode("utf-8") if isinstance(html, str) else html
    parser = lxml.html.HTMLParser(encoding="utf-8", recover=True)
    findings: list[Finding] = []

    def warn(message: str, line: int | None = None) -> None:
        findings.append(Finding(lang, page, line, "", RENDERED_CHECK, "warning", message, pages=(page,)))

    try:
        tree = lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as error:
        warn(f"the page cannot be parsed as HTML: {error}")
        return findings
    for entry in parser.error_log:
        if entry.type_name not in _IGNORED_HTML_ERRORS:
            warn(f"HTML parser error: {entry.message.strip()}", entry.line)
    if lang == "en":
        return findings
    main = tree.xpath('//*[@role="main"]') or [tree]
    marked = {reason: 0 for reason in REASONS}
    for element in main[0].iter():
        if not isinstance(element.tag, str) or element.get("lang") != "en":
            continue
        classes = (element.get("class") or "").split()
        if INTERFACE_CLASS in classes or FALLBACK_MARK_CLASS in classes:
            continue  # our interface strings in English, counted on the report page, not page text
        mark = _mark_of(element)
        if FALLBACK_CLASS not in classes or mark is None:
            text = " ".join("".join(element.itertext()).split())[:80]
            warn(f"<{element.tag}> is shown in English without the visible fallback mark: {text!r}",
                 element.sourceline)
        if FALLBACK_CLASS in classes and not _in_toctree(element):
            for reason in REASONS:
                if f"pb-{reason}" in classes:
                    marked[reason] += 1
    for reason in REASONS:
        wanted = (expected or {}).get(reason)
        if wanted is not None and marked[reason] != wanted:
            warn(f"{wanted} {reason} block(s) in the page's source, {marked[reason]} marked as such on the page")
    return findings


def _in_toctree(element) -> bool:
    # A page title that fell back is marked again wherever a table of contents lists the page.
    return any("toctree-wrapper" in (a.get("class") or "").split() for a in element.iterancestors())


def _mark_of(element) -> object | None:
    def is_mark(node) -> bool:
        return node is not None and isinstance(node.tag, str) and \
            FALLBACK_MARK_CLASS in (node.get("class") or "").split()

    first = next(iter(element), None)
    if element.tag == "div" and is_mark(first):
        return first
    after = element.getnext()
    if is_mark(after):
        return after
    return first if is_mark(first) else None


def expected_marks(srcdir: Path) -> dict[str, dict[str, int]]:
    """Per page slug, the fallback elements by reason in the DocBook sources written for Sphinx.

    ``{"sultan": {"fuzzy": 0, "untranslated": 1}, ...}`` from each ``srcdir/<slug>.xml``: elements
    carrying the fallback attribute, those inside elements the parser does not show (``indexterm``,
    ``bookinfo``...) aside. This can be fewer than the blocks translation counted: a block nested in
    a block that fell back is counted too, but shown inside the enclosing mark.
    """
    from patiencebook.generator.docbook.document import ATTR_FALLBACK
    from patiencebook.generator.sphinxext.parser import INFO_TAGS, SILENT_TAGS, local_name

    hidden = SILENT_TAGS | INFO_TAGS
    out = {}
    for path in sorted(Path(srcdir).glob("*.xml")):
        counts = {reason: 0 for reason in REASONS}
        root = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
        for element in root.iter():
            reason = element.get(ATTR_FALLBACK) if isinstance(element.tag, str) else None
            if reason not in counts:
                continue
            if any(local_name(e) in hidden for e in (element, *element.iterancestors()) if isinstance(e.tag, str)):
                continue
            counts[reason] += 1
        out[path.stem] = counts
    return out


def check_rendered_site(outdir: Path, lang: str, expected: dict[str, dict[str, int]]) -> list[Finding]:
    """:func:`check_rendered_html` over every page of one language's built site (``outdir``), the
    report page and Sphinx's search page aside; each page is compared with ``expected[slug]``
    (:func:`expected_marks` of the sources Sphinx read)."""
    findings = []
    for path in sorted(Path(outdir).glob("*.html")):
        slug = path.stem
        if slug in (REPORT_SLUG, "search", "genindex"):
            continue
        findings += check_rendered_html(path.read_bytes(), path.name, lang, expected.get(slug))
    return findings


def insert_rendered_findings(report_html: Path, findings: list[Finding], ui: dict[str, str]) -> bool:
    """Put ``findings`` into the built report page in place of its "no findings" paragraph.

    Leaves the page unchanged when there are none. Returns False when the paragraph is not found
    (the page was not written by :func:`report_tree`).
    """
    text = report_html.read_text(encoding="utf-8")
    start = text.find(f'class="pb-role-{RENDERED_ROLE}"')
    if start < 0:
        return False
    if not findings:
        return True
    start = text.rfind("<p", 0, start)
    end = text.find("</p>", start) + len("</p>")
    rows = "\n".join(
        f'<tr><td>{escape(f.check)}</td><td>{escape(f.message)}</td>'
        f'<td>{escape(f"{f.file}:{f.line}" if f.line else f.file)}</td></tr>' for f in findings)
    table = (f'<table class="docutils align-default pb-rendered-findings">\n<thead><tr>'
             f'<th class="head">{escape(ui["report_check"])}</th><th class="head">{escape(ui["report_message"])}</th>'
             f'<th class="head">{escape(ui["report_where"])}</th></tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>')
    report_html.write_text(text[:start] + table + text[end:], encoding="utf-8")
    return True


__all__ = ["FALLBACK_CLASS", "FALLBACK_MARK_CLASS", "PageCounts", "RENDERED_CHECK", "RENDERED_ROLE", "REPORT_KIND",
           "REPORT_SLUG", "check_rendered_html", "check_rendered_site", "expected_marks", "insert_rendered_findings",
           "language_findings", "page_counts", "report_tree"]
