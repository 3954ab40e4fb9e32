"""One language's Sphinx project: the translated document written as Sphinx sources (one page per
DocBook page, the index tree, images) and its ``conf.py``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable, Sequence

from lxml import etree

from patiencebook.generator import project
from patiencebook.generator.site.cache import write_if_changed
from patiencebook.generator.errors import BuildError
from patiencebook.generator.languages import Language, ui_string_tag, ui_strings
from patiencebook.generator.pages.figures import figure_for, figure_sentence, load_figures
from patiencebook.generator.docbook.examples import check_examples
from patiencebook.generator.docbook.document import NS_BUILD, Document, Page, TranslatedDocument, TranslatedPage
from patiencebook.generator.pages.widgets import add_widgets
from patiencebook.generator.sphinxext.parser import (ATTR_FILE, ATTR_KIND, ATTR_LINE, ATTR_SLUG, ATTR_TITLE,
                                                     TAG_ABSTRACT, TAG_GROUP, TAG_INDEX, TAG_PAGE, TAG_PAGEREF,
                                                     local_name)


#: Page kinds in the order the index page lists them; other kinds follow in reading order.
GROUP_ORDER = ("chapter", "game", "definitions", "legal")


#: The extension every language build enables.
EXTENSION = "patiencebook.generator.sphinxext"


# The site's icon (our own drawing), in every language's _static folder.
FAVICON = Path(__file__).resolve().parent.parent / "sphinxext" / "static" / "favicon.svg"


def figures_file(document: Document) -> Path:
    """The solver figures the pages show: ``solved.json`` of the sources when they have one, else
    the embedded rules' (:mod:`patiencebook.generator.pages.figures`)."""
    from patiencebook.generator.pages.figures import FILE_NAME

    own = document.source_dir / FILE_NAME
    return own if own.is_file() else project.default_sources() / FILE_NAME


def source_document(document: Document, lang: str) -> TranslatedDocument:
    """``document`` as its own translation (every block counts as translated, nothing falls back)."""
    def whole(page) -> TranslatedPage:
        count = len(page.segments)
        return TranslatedPage(page=page, root=page.root, total=count, translated=count)

    return TranslatedDocument(document=document, lang=lang, title=document.title,
                              pages=[whole(page) for page in document.pages],
                              front=whole(document.front) if document.front is not None else None)


def write_sources(translated: TranslatedDocument, srcdir: Path, language: Language,
                  site_languages: Sequence[Language] = (), report: etree._Element | None = None,
                  board: Callable[[Page], Callable[[dict[str, str]], dict[str, Any]]] | None = None) -> list[str]:
    """Write ``srcdir/conf.py``, ``index.xml`` and ``<slug>.xml`` per page, and copy the images used;
    returns warnings about images that cannot be used (``FILE:LINE: …``).

    ``language`` is the language of ``translated`` and ``site_languages`` every language of the
    site (see :func:`conf_py`).

    A file that already holds what would be written is left as it is (with its modification time),
    so that Sphinx reads again only the pages that changed.

    Each game page (one with a rules block) gets its setup picture and its examples' traces
    (:func:`patiencebook.generator.pages.widgets.add_widgets`; an example that fails to replay raises
    :class:`SourceError`), and the live board's data when ``board`` gives it for the page.

    Pages that another page includes (the games inside the games chapter) are replaced there by a
    ``pageref`` element, so each page's content appears once, on its own page. ``report``, when
    given, is the translation report page (:func:`patiencebook.generator.check.sitereport.report_tree`):
    written as ``report.xml`` and listed last on the index page.
    """
    document = translated.document
    ui = ui_strings(language)
    warnings: list[str] = []
    roots = {page.slug: page.root for page in document.pages}
    nested = _nested_keys(document)
    replays = check_examples(document.pages) if any(page.rules is not None for page in document.pages) else {}
    figures = load_figures(figures_file(document)) if replays else []
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
                        variant_figures=variant_figures,
                        ui_lang=lambda key: ui_string_tag(language, key), page_lang=language.bcp47)
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
    write_if_changed(srcdir / "index.xml", etree.tostring(_index_tree(translated, ui, report is not None, language),
                                                          encoding="utf-8", xml_declaration=True))
    write_if_changed(srcdir / "conf.py", conf_py(translated, language, site_languages).encode("utf-8"))
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
            element.set("fileref", f"{NO_IMAGE}/{Path(ref).name}")
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
NO_IMAGE = "_no-image_"


def _index_tree(translated: TranslatedDocument, ui: dict[str, str], report: bool = False,
                language: Language | None = None) -> etree._Element:
    """The index page: book title, abstract, and every page grouped by kind (chapters, games...);
    with ``report``, a last group linking the translation report page. Games are listed by their
    title as the page shows it, in ``language``'s collation (``Adlerschwinge`` before ``Canfield``
    in German); the other groups keep the order of the sources."""
    from patiencebook.generator.languages import sort_key

    collate = sort_key(language)
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
        pages = [p for p in translated.pages if p.page.kind == kind]
        if kind == "game":
            pages.sort(key=lambda p: collate(p.title))
        slugs = [p.page.slug for p in pages]
        if slugs:
            group = etree.SubElement(index, TAG_GROUP, kind=kind, caption=ui.get(f"group_{kind}", kind))
            for slug in slugs:
                etree.SubElement(group, TAG_PAGE, slug=slug)
    if report:
        from patiencebook.generator.check.sitereport import REPORT_KIND, REPORT_SLUG

        group = etree.SubElement(index, TAG_GROUP, kind=REPORT_KIND, caption=ui.get("group_report", REPORT_KIND))
        etree.SubElement(group, TAG_PAGE, slug=REPORT_SLUG)
    return index


def conf_py(translated: TranslatedDocument, language: Language, site_languages: Sequence[Language] = ()) -> str:
    """The ``conf.py`` of ``translated``'s Sphinx project in ``language``, whose site holds
    ``site_languages`` (default: ``language`` alone). Both are written as they are, facts included
    (``patiencebook_language_table``), so the extension never looks them up again
    (:mod:`patiencebook.generator.sphinxext.settings`)."""
    site_languages = list(site_languages) or [language]
    table = {other.code: other.as_dict() for other in [language, *site_languages]}
    settings = {
        "project": translated.title,
        "extensions": [EXTENSION],
        "language": language.sphinx,
        "patiencebook_language": language.code,
        "patiencebook_languages": [other.code for other in site_languages],
        "patiencebook_language_table": table,
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
    lines = ["# Written by patiencebook.generator.site.build for one language build; not a source file."]
    lines += [f"{name} = {value!r}" for name, value in settings.items()]
    return "\n".join(lines) + "\n"
