"""Applying one language's catalog to a document, block by block, as ``itstool -m`` merges a catalog.

A block with a usable translation gets its content replaced by the msgstr parsed as XML (inline
markup kept, ``<_:name-N/>`` placeholders filled with the nested blocks); any other block stays
English and is marked with the reason, so the page can say so (``lang="en"``).
"""

from __future__ import annotations

import copy
from html import escape
from pathlib import Path

from babel.messages.catalog import Catalog
from lxml import etree

from patiencebook.generator.docbook.document import (ATTR_FALLBACK, XML_LANG, Document, Page, Segment,
                                                     TranslatedDocument, TranslatedPage)
from patiencebook.generator.docbook.segment import NS_PLACEHOLDER
from patiencebook.generator.docbook.sources import plain_text, safe_parser, title_element

#: Gettext codes of the source language: translating into one of them changes nothing.
SOURCE_LANGUAGES = frozenset({"en", "C", "en_US"})

TRANSLATED = "translated"
FUZZY = "fuzzy"
UNTRANSLATED = "untranslated"


def lookup(catalog: Catalog | None, segment: Segment) -> tuple[str, str | None]:
    """The state of ``segment``'s unit in ``catalog`` and its usable msgstr.

    Returns:
        ``("translated", msgstr)`` for a non-fuzzy, non-empty singular msgstr; ``("fuzzy", None)``
        for a fuzzy unit; ``("untranslated", None)`` when the unit is missing or empty.
    """
    if catalog is None:
        return UNTRANSLATED, None
    message = catalog.get(segment.msgid, context=segment.msgctxt)
    if message is None or not isinstance(message.string, str) or not message.string:
        return UNTRANSLATED, None
    if message.fuzzy:
        return FUZZY, None
    return TRANSLATED, message.string


def _entity_decls(entities: dict[str, str]) -> str:
    decls = []
    for name, value in entities.items():
        value = value.replace("%", "&#37;")
        quote = "'" if '"' in value and "'" not in value else '"'
        if quote == '"':
            value = value.replace('"', "&#34;")
        decls.append(f"<!ENTITY {name} {quote}{value}{quote}>")
    return "".join(decls)


def parse_msgstr(msgstr: str, element: etree._Element, entities: dict[str, str] | None = None
                 ) -> etree._Element | None:
    """Parse a msgstr as the content of ``element``; ``None`` when it is not well-formed XML.

    The namespaces in scope at ``element`` and the ``_`` placeholder namespace are declared, and
    the entities of the element's own file (``entities``) are defined, as itstool does.
    """
    nsmap = dict(element.nsmap)
    nsmap["_"] = NS_PLACEHOLDER
    decls = "".join(
        f' xmlns="{escape(uri)}"' if prefix is None else f' xmlns:{prefix}="{escape(uri)}"'
        for prefix, uri in nsmap.items())
    doctype = f"<!DOCTYPE msgstr [{_entity_decls(entities)}]>" if entities else ""
    text = f"{doctype}<msgstr{decls}>{msgstr}</msgstr>"
    try:
        return etree.fromstring(text.encode("utf-8"), safe_parser())
    except etree.XMLSyntaxError:
        return None


def _excerpt(msgid: str, width: int = 50) -> str:
    """The start of ``msgid``, quoted, for a one-line message."""
    return repr(msgid if len(msgid) <= width else msgid[:width - 1] + "…")


def _has_child_elements(element: etree._Element) -> bool:
    return any(isinstance(child.tag, str) for child in element)


def _mark_fallback(element: etree._Element, reason: str) -> None:
    element.set(ATTR_FALLBACK, reason)
    element.set(XML_LANG, "en")


def _replace(old: etree._Element, new: etree._Element) -> None:
    new.tail = old.tail
    parent = old.getparent()
    if parent is not None:
        parent.replace(old, new)


def _signature(element: etree._Element) -> tuple[str, frozenset]:
    return element.tag, frozenset(element.attrib.items())


def restrict_markup(wrapper: etree._Element, source: etree._Element | None) -> list[str]:
    """Keep in a parsed msgstr only the markup its msgid has; show everything else as text.

    An element of ``wrapper`` (the msgstr parsed by :func:`parse_msgstr`) stays markup only when
    ``source`` (the msgid parsed the same way) has an element of the same name with exactly the
    same attributes; ``_:`` placeholders stay (they are checked elsewhere). Any other element
    (``<script>``, an ``onclick=``, a ``<ulink>`` whose ``url`` the msgid does not have),
    comment or processing instruction is replaced, in place, by its own XML text, so the reader
    sees it escaped and no browser runs it. Returns what was turned into text, one description
    per element (``"<script>"``).
    """
    allowed = set()
    if source is not None:
        allowed = {_signature(el) for el in source.iter() if isinstance(el.tag, str) and el is not source}
    shown: list[str] = []

    def walk(parent: etree._Element) -> None:
        for child in list(parent):
            if isinstance(child.tag, str) and (child.tag.startswith(f"{{{NS_PLACEHOLDER}}}")
                                               or _signature(child) in allowed):
                walk(child)
                continue
            text = etree.tostring(child, encoding="unicode", with_tail=False)
            if isinstance(child.tag, str):
                text = _without_inherited_namespaces(text, child)
                attrs = "".join(f' {etree.QName(k).localname}="{v}"' for k, v in child.attrib.items())
                shown.append(f"<{etree.QName(child).localname}{attrs}>")
            else:
                shown.append(text[:40])
            _to_text(child, text)

    walk(wrapper)
    return shown


def _without_inherited_namespaces(text: str, element: etree._Element) -> str:
    """``text`` without the namespace declarations lxml adds for the namespaces of the wrapper."""
    for prefix, uri in (element.getparent().nsmap if element.getparent() is not None else {}).items():
        declaration = f' xmlns="{uri}"' if prefix is None else f' xmlns:{prefix}="{uri}"'
        text = text.replace(declaration, "", 1) if declaration in text.split(">", 1)[0] else text
    return text


def _to_text(node: etree._Element, text: str) -> None:
    """Replace ``node`` by ``text`` (plus its tail) in its parent's text flow."""
    parent = node.getparent()
    previous = node.getprevious()
    joined = text + (node.tail or "")
    if previous is not None:
        previous.tail = (previous.tail or "") + joined
    else:
        parent.text = (parent.text or "") + joined
    parent.remove(node)


class _PageMerger:
    """Merges one page: works on a deep copy of the page root, keyed by the original elements."""

    def __init__(self, page: Page, catalog: Catalog | None, entities_of):
        self.page = page
        self.catalog = catalog
        self.entities_of = entities_of
        self.root = copy.deepcopy(page.root)
        # Where each original element now lives in the copy (updated as blocks are replaced).
        self.current = dict(zip(page.root.iter(), self.root.iter()))
        self.segments = {s.element: s for s in page.segments if s.element is not None}
        self.status: dict[int, str] = {}
        self.problems: list[tuple[int | None, str]] = []

    def run(self) -> TranslatedPage:
        self._merge(self.page.root)
        if self.page.root in self.segments and self.current[self.page.root] is not self.root:
            self.root = self.current[self.page.root]
        self.root.tail = None
        # Blocks built from msgstrs carry their own copies of namespace declarations.
        etree.cleanup_namespaces(self.root)
        counts = {TRANSLATED: 0, FUZZY: 0, UNTRANSLATED: 0}
        for segment in self.page.segments:
            counts[self._final_status(segment)] += 1
        return TranslatedPage(page=self.page, root=self.root, total=len(self.page.segments),
                              translated=counts[TRANSLATED], fuzzy=counts[FUZZY],
                              untranslated=counts[UNTRANSLATED], problems=self.problems)

    def _po_line(self, segment: Segment) -> int | None:
        message = self.catalog.get(segment.msgid, context=segment.msgctxt) if self.catalog is not None else None
        return getattr(message, "lineno", None)

    def _final_status(self, segment: Segment) -> str:
        state = self.status.get(id(segment))
        if state is not None:
            return state
        # Never reached: inside a block shown in English (same reason) or dropped by its translator.
        for ancestor in segment.element.iterancestors():
            outer = self.segments.get(ancestor)
            if outer is not None and self.status.get(id(outer), TRANSLATED) != TRANSLATED:
                return self.status[id(outer)]
        return TRANSLATED

    def _merge(self, original: etree._Element) -> None:
        segment = self.segments.get(original)
        if segment is None:
            for child in original:
                if isinstance(child.tag, str):
                    self._merge(child)
            return
        new = self._render(segment)
        target = self.current[original]
        if new is None:
            _mark_fallback(target, self.status[id(segment)])
        else:
            _replace(target, new)
            self.current[original] = new

    def _render(self, segment: Segment) -> etree._Element | None:
        """The translated block for ``segment`` (not yet in the tree), or ``None`` to keep English."""
        state, msgstr = lookup(self.catalog, segment)
        if msgstr is None:
            self.status[id(segment)] = state
            return None
        original = segment.element
        wrapper = parse_msgstr(msgstr, original, self.entities_of(segment.file))
        problem = "msgstr is not well-formed XML" if wrapper is None else None
        holders = list(wrapper.iter(f"{{{NS_PLACEHOLDER}}}*")) if wrapper is not None else []
        resolved = []
        for holder in holders:
            name, _, number = etree.QName(holder).localname.rpartition("-")
            index = int(number) - 1 if number.isdigit() else -1
            if not 0 <= index < len(segment.placeholders) or \
                    etree.QName(segment.placeholders[index]).localname != name:
                wrapper = None  # a placeholder the msgid does not have: not a usable translation
                problem = f"msgstr uses placeholder <_:{etree.QName(holder).localname}/>, which its msgid lacks"
                break
            resolved.append((holder, segment.placeholders[index]))
        if wrapper is None:
            self.status[id(segment)] = UNTRANSLATED
            self.problems.append((self._po_line(segment), f"{problem}; the block is shown in English "
                                  f"(msgid {_excerpt(segment.msgid)})"))
            return None
        self.status[id(segment)] = TRANSLATED
        if _has_child_elements(wrapper) and len(holders) < sum(1 for _ in wrapper.iter()) - 1:
            source = parse_msgstr(segment.msgid, original, self.entities_of(segment.file))
            for what in restrict_markup(wrapper, source):
                self.problems.append((self._po_line(segment), f"msgstr has markup its msgid lacks, {what}; "
                                      f"shown as text (msgid {_excerpt(segment.msgid)})"))
        for holder, nested in resolved:
            _replace(holder, self._placeholder_content(nested))
        # A shallow copy of the block (tag, attributes, line) takes the parsed content.
        target = self.current[original]
        new = copy.deepcopy(target)
        for child in list(new):
            new.remove(child)
        new.text = wrapper.text
        for child in list(wrapper):
            new.append(child)
        return new

    def _placeholder_content(self, nested: etree._Element) -> etree._Element:
        inner = self.segments.get(nested)
        if _has_child_elements(nested) or inner is None:
            self._merge(nested)
            return copy.deepcopy(self.current[nested])
        new = self._render(inner)
        if new is None:
            new = copy.deepcopy(self.current[nested])
            _mark_fallback(new, self.status[id(inner)])
        return new


def _identity(page: Page) -> TranslatedPage:
    total = len(page.segments)
    return TranslatedPage(page=page, root=copy.deepcopy(page.root), total=total, translated=total)


def translate(document: Document, catalog: Catalog | None, lang: str) -> TranslatedDocument:
    """Apply ``catalog`` (one language's PO, read by :func:`catalogs.read_catalog`) to ``document``.

    For each page (and the front matter) the root is deep-copied; each block whose unit has a
    non-fuzzy, non-empty msgstr that is well-formed XML gets that content, placeholders replaced
    by their nested blocks (translated in turn). Any other block keeps its English content and is
    marked with :data:`~patiencebook.generator.docbook.document.ATTR_FALLBACK` (``"fuzzy"`` or
    ``"untranslated"``, the latter also for a msgstr that is not well-formed) and
    ``xml:lang="en"``; blocks nested in it stay English too, as with ``itstool -m``.

    Args:
        document: a loaded document.
        catalog: the language's catalog, or ``None`` (every block falls back to English).
        lang: gettext code of the language (``"de"``, ``"sr@latin"``); a source-language code
            with no catalog returns an unmarked copy.

    Returns:
        The translated document: pages in the document's order with per-page counts, the
        translated book title, and the translated front matter.
    """
    entities = {f.path: f.entities for f in document.files}

    def entities_of(path: Path) -> dict[str, str]:
        return entities.get(path, {})

    if catalog is None and lang in SOURCE_LANGUAGES:
        pages = [_identity(page) for page in document.pages]
        front = _identity(document.front) if document.front is not None else None
        return TranslatedDocument(document=document, lang=lang, title=document.title, pages=pages,
                                  front=front)
    sources = list(document.pages) + ([document.front] if document.front is not None else [])
    mergers = [_PageMerger(page, catalog, entities_of) for page in sources]
    results = [merger.run() for merger in mergers]
    _nest_translated_pages(mergers, results)
    pages = results[:len(document.pages)]
    front = results[-1] if document.front is not None else None
    title = document.title
    if front is not None:
        title = plain_text(title_element_of_front(front.root)) or document.title
    return TranslatedDocument(document=document, lang=lang, title=title, pages=pages, front=front)


def _nest_translated_pages(mergers: list, results: list[TranslatedPage]) -> None:
    """Put each page's translated root in place of its English copy inside the pages that contain it."""
    roots = {merger.page.root: result for merger, result in zip(mergers, results)}

    def depth(merger) -> int:
        return sum(1 for ancestor in merger.page.root.iterancestors() if ancestor in roots)

    # Innermost pages first, so a chapter receives games that already hold their own nested pages.
    for merger, result in sorted(zip(mergers, results), key=lambda pair: -depth(pair[0])):
        for element in merger.page.root.iter():
            if element is merger.page.root or element not in roots:
                continue
            stale = merger.current.get(element)
            if stale is None or stale.getparent() is None:
                continue
            fresh = copy.deepcopy(roots[element].root)
            _replace(stale, fresh)
            merger.current[element] = fresh
        etree.cleanup_namespaces(result.root)


def title_element_of_front(info: etree._Element) -> etree._Element | None:
    """The ``title`` child of a book's info element (``bookinfo/title``), or ``None``."""
    for child in info:
        if child.tag == "title":
            return child
    return title_element(info)
