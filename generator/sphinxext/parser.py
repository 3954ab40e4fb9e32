"""A Sphinx source parser for translated DocBook pages (DocBook 4 as AisleRiot writes it).

Each source file holds one page root (``sect1``, ``chapter``, ``legalnotice``...) as written by
:mod:`patiencebook.generator.site.build`, or the book's index page in our build namespace. Section ids
come from the English anchors (``model.ATTR_ANCHOR``), never from translated titles; blocks that fell
back to English become :mod:`.nodes` fallback nodes. Unknown elements keep their text and warn.
"""

from __future__ import annotations

import copy
import json
import re
from html import escape
from typing import Callable, Iterable

from docutils import nodes
from lxml import etree
from sphinx import addnodes
from sphinx.parsers import Parser
from sphinx.util import logging

from patiencebook.generator.docbook.document import (ATTR_ANCHOR, ATTR_FALLBACK, ATTR_STEP, NS_BUILD, NS_RULES,
                                                     TAG_BOARD, TAG_SETUP_PICTURE, TAG_TRACE, XML_LANG)
from patiencebook.generator.docbook.elements import SECTION_ELEMENTS
from patiencebook.generator.sphinxext.nodes import (example_caption, example_step, example_widget, fallback_block,
                                                    INTERFACE_CLASS, lang_block, lang_inline,
                                                    fallback_inline)

logger = logging.getLogger(__name__)

DOCBOOK5_NS = "http://docbook.org/ns/docbook"
#: Attributes the build adds to a page root written for this parser.
ATTR_SLUG = f"{{{NS_BUILD}}}slug"
ATTR_KIND = f"{{{NS_BUILD}}}kind"
ATTR_FILE = f"{{{NS_BUILD}}}file"
ATTR_LINE = f"{{{NS_BUILD}}}line"
ATTR_TITLE = f"{{{NS_BUILD}}}title"
#: Our own elements: the index page, its page groups and entries, and a nested page's place.
TAG_INDEX = f"{{{NS_BUILD}}}index"
TAG_ABSTRACT = f"{{{NS_BUILD}}}abstract"
TAG_GROUP = f"{{{NS_BUILD}}}group"
TAG_PAGE = f"{{{NS_BUILD}}}page"
TAG_PAGEREF = f"{{{NS_BUILD}}}pageref"
#: Added to pages by the build: an example's trace (JSON text), a step's number in it, a setup picture
#: (holding an inline SVG) and the live board (JSON text), as generator/pages/widgets.py writes them.
SVG_NS = "http://www.w3.org/2000/svg"
#: Classes of raw HTML that must not reach the search index (Sphinx skips "no-search" nodes). The
#: raw HTML's own outer element carries the same class, so the search page's excerpts, taken from the
#: page's text in the browser, leave it out too (static/pb-search.js).
NO_SEARCH = ["no-search"]
_NO_SEARCH_CLASS = " ".join(NO_SEARCH)

#: Elements rendered as sections (the one table: patiencebook.generator.docbook.elements).
SECTION_TAGS = frozenset(SECTION_ELEMENTS)
INFO_TAGS = frozenset({"info", "bookinfo", "chapterinfo", "sectioninfo", "sect1info", "sect2info",
                       "sect3info", "sect4info", "sect5info", "articleinfo", "titleabbrev", "subtitle"})
#: Known elements that carry no visible text in help pages.
SILENT_TAGS = frozenset({"indexterm", "remark", "comment", "colspec", "spanspec", "beginpage"})
LITERAL_TAGS = frozenset({"literal", "command", "filename", "option", "userinput", "computeroutput",
                          "varname", "envar", "systemitem", "code", "prompt", "constant", "function",
                          "parameter", "classname", "markup", "tag", "sgmltag", "token", "type",
                          "methodname", "property", "uri"})
EMPHASIS_TAGS = frozenset({"emphasis", "citetitle", "firstterm", "foreignphrase", "replaceable",
                           "wordasword", "glossterm"})
GUI_TAGS = frozenset({"guilabel", "guimenu", "guimenuitem", "guisubmenu", "guibutton", "guiicon",
                      "interface", "mousebutton"})
PLAIN_INLINE_TAGS = frozenset({"phrase", "acronym", "abbrev", "citation", "personname", "firstname",
                               "surname", "othername", "orgname", "author", "holder", "year",
                               "trademark", "productnumber", "lineannotation", "date", "shortcut"})
APPLICATION_TAGS = frozenset({"application", "productname"})
ADMONITIONS = {"note": nodes.note, "tip": nodes.tip, "warning": nodes.warning,
               "caution": nodes.caution, "important": nodes.important}
VERBATIM_TAGS = frozenset({"screen", "programlisting", "literallayout", "synopsis", "address"})
INLINE_TAGS = (LITERAL_TAGS | EMPHASIS_TAGS | GUI_TAGS | PLAIN_INLINE_TAGS | APPLICATION_TAGS
               | {"menuchoice", "keycombo", "keycap", "ulink", "link", "xref", "email", "quote",
                  "superscript", "subscript", "footnote", "footnoteref", "inlinemediaobject",
                  "inlinegraphic", "anchor", "indexterm", "remark", "olink", "keysym", "accel"})

_SPACE = re.compile(r"[ \t\n\r]+")  # XML white space only: a no-break space stays


def local_name(element: etree._Element) -> str:
    """The DocBook name of ``element`` (namespace dropped for DocBook 5 and no-namespace elements)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return name if ns == DOCBOOK5_NS else tag
    return tag


def _safe_parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_comments=True, remove_pis=True)


class DocBookParser(Parser):
    """Parses one translated DocBook page (file type ``docbook``) into a docutils document.

    Takes the page language from the extension's settings
    (:func:`~patiencebook.generator.sphinxext.settings.page_language`). Unknown elements become their text with a warning at the source
    file:line given by the build's ``line``/``file`` attributes.
    """

    supported = ("docbook",)

    def parse(self, inputstring: str, document: nodes.document) -> None:
        """Fill ``document`` from the XML text ``inputstring``; malformed XML is an error-level log."""
        self.setup_parse(inputstring, document)
        env = document.settings.env
        try:
            root = etree.fromstring(inputstring.encode("utf-8"), _safe_parser())
        except etree.XMLSyntaxError as error:
            logger.error("not well-formed DocBook: %s", error, location=(env.docname, error.lineno))
            self.finish_parse()
            return
        _Converter(document, env).convert_root(root)
        self.finish_parse()


class _Converter:
    """Walks one page tree and appends docutils nodes to ``document``."""

    def __init__(self, document: nodes.document, env) -> None:
        from patiencebook.generator.languages import ui_strings
        from patiencebook.generator.sphinxext.settings import page_code, page_language

        self.document = document
        self.env = env
        self.docname = env.docname
        config = env.config
        self.language = page_language(config)
        self.ui = ui_strings(self.language)  # the source language's strings for a language the table lacks
        self.bcp47 = self.language.bcp47 if self.language else page_code(config).replace("_", "-")
        self.file = ""
        self.footnotes: list[nodes.footnote] = []
        self.labels: list[tuple[str, str, str | None]] = []  # (key, node id, title or None)
        self.used_ids: set[str] = set()

    # -- entry points ------------------------------------------------------------------------

    def convert_root(self, root: etree._Element) -> None:
        self.file = root.get(ATTR_FILE, "") or self.docname
        if root.tag == TAG_INDEX:
            top = self.index_page(root)
        else:
            top = self.page_section(root)
        if self.footnotes:
            top.extend(self.footnotes)
        for node in top.findall(nodes.Element):
            for ident in node["ids"]:
                # Known to docutils, so ids it makes up later (figures, footnotes) never collide.
                self.document.ids.setdefault(ident, node)
        self.document += top
        self.register_labels()

    def page_section(self, root: etree._Element) -> nodes.section:
        name = local_name(root)
        if name in SECTION_TAGS:
            return self.section(root, top=True)
        # A page whose root is not a section (a bare para, an abstract...): give it one.
        section = nodes.section()
        section["ids"] = [self.unique_id(root.get(ATTR_ANCHOR) or root.get("id") or root.get(ATTR_SLUG)
                                         or "page")]
        title_text = root.get(ATTR_TITLE) or root.get(ATTR_SLUG) or self.docname
        section += nodes.title(title_text, title_text)
        self.fill_blocks([root], section)
        return section

    def index_page(self, root: etree._Element) -> nodes.section:
        section = nodes.section(ids=[self.unique_id("index")])
        title = root.find("title")
        section += self.title_node(title) if title is not None else nodes.title(
            root.get(ATTR_TITLE, ""), root.get(ATTR_TITLE, ""))
        for child in root:
            if child.tag == TAG_ABSTRACT:
                abstract = nodes.container(classes=["pb-abstract"])
                self.fill_blocks(child, abstract)
                section += abstract
            elif child.tag == TAG_GROUP:
                slugs = [page.get("slug") for page in child if page.tag == TAG_PAGE and page.get("slug")]
                if not slugs:
                    continue
                toctree = addnodes.toctree()
                toctree["parent"] = self.docname
                toctree["entries"] = [(None, slug) for slug in slugs]
                toctree["includefiles"] = list(slugs)
                toctree["maxdepth"] = 1
                toctree["caption"] = child.get("caption") or None
                toctree["glob"] = False
                toctree["hidden"] = False
                toctree["includehidden"] = False
                toctree["numbered"] = 0
                toctree["titlesonly"] = True
                toctree["rawentries"] = []
                wrapper = nodes.compound(classes=["toctree-wrapper", f"pb-group-{child.get('kind', '')}"])
                wrapper += toctree
                section += wrapper
        return section

    # -- sections and titles -------------------------------------------------------------------

    def unique_id(self, wanted: str) -> str:
        ident = nodes.make_id(wanted) if not re.fullmatch(r"[A-Za-z][\w.:-]*", wanted) else wanted
        ident = ident or "section"
        candidate, n = ident, 1
        while candidate in self.used_ids or candidate in self.document.ids:
            n += 1
            candidate = f"{ident}-{n}"
        self.used_ids.add(candidate)
        return candidate

    def section(self, element: etree._Element, top: bool = False) -> nodes.section:
        anchor = element.get(ATTR_ANCHOR) or element.get("id")
        if not anchor:
            # No English anchor: a position-based id, stable across languages (never the title).
            anchor = f"section-{len(self.used_ids) + 1}"
        section = nodes.section()
        section["ids"] = [self.unique_id(anchor)]
        section.line = _line(element)
        title = next((c for c in element if local_name(c) == "title"), None)
        if title is None:
            for info in (c for c in element if local_name(c) in INFO_TAGS):
                title = next((c for c in info if local_name(c) == "title"), None)
                if title is not None:
                    break
        if title is not None:
            title_node = self.title_node(title)
        else:
            fallback = element.get(ATTR_TITLE) or (self.ui.get("legal_title") if local_name(element) == "legalnotice"
                                                    else "")
            title_node = nodes.title(fallback, fallback)
        section += title_node
        if element.get("id"):
            self.labels.append((element.get("id"), section["ids"][0], title_node.astext()))
        if anchor != element.get("id"):
            self.labels.append((anchor, section["ids"][0], title_node.astext()))
        body = [c for c in element if c is not title and local_name(c) not in INFO_TAGS]
        self.fill_children(element, body, section, skip_text=True)
        return section

    def title_node(self, title: etree._Element) -> nodes.title:
        node = nodes.title("", "", *self.inlines(title, strip=True))
        self.mark_inline(title, node)
        return node

    # -- block content ---------------------------------------------------------------------------

    def fill_blocks(self, element_or_list, parent: nodes.Element) -> None:
        """Append the content of an element that holds blocks (or a list of such elements)."""
        if isinstance(element_or_list, list):
            for element in element_or_list:
                self.fill_children(element, list(element), parent)
        else:
            self.fill_children(element_or_list, list(element_or_list), parent)

    def fill_children(self, element: etree._Element, children: list, parent: nodes.Element,
                      skip_text: bool = False) -> None:
        """Append ``children`` of ``element`` to ``parent``; loose text and inlines become paragraphs."""
        run: list[nodes.Node] = []
        pagerefs: list[str] = []

        def flush() -> None:
            if any(not isinstance(n, nodes.Text) or n.astext().strip() for n in run):
                paragraph = nodes.paragraph("", "", *_strip_run(run))
                parent.append(paragraph)
            run.clear()

        def flush_pages() -> None:
            if pagerefs:
                parent.append(self.page_list(pagerefs))
                pagerefs.clear()

        if element.text and not skip_text:
            run.append(nodes.Text(_SPACE.sub(" ", element.text)))
        for child in children:
            if not isinstance(child.tag, str):
                continue
            if child.tag == TAG_PAGEREF:
                flush()
                pagerefs.append(child.get("slug", ""))
            elif self.is_inline(child):
                flush_pages()
                run.extend(self.inline(child))
            else:
                flush()
                flush_pages()
                parent.extend(self.block(child))
            if child.tail and (not skip_text or child.tail.strip()):
                run.append(nodes.Text(_SPACE.sub(" ", child.tail)))
        flush()
        flush_pages()

    def is_inline(self, element: etree._Element) -> bool:
        name = local_name(element)
        if name in INLINE_TAGS:
            return True
        if name in SECTION_TAGS or name in BLOCK_HANDLERS or name in ADMONITIONS or name in VERBATIM_TAGS:
            return False
        if element.tag.startswith(f"{{{NS_RULES}}}") or element.tag.startswith(f"{{{NS_BUILD}}}"):
            return False
        # Unknown: inline when it sits in running text.
        parent = element.getparent()
        return parent is not None and local_name(parent) in ("para", "simpara", "title", "term", "entry")

    def block(self, element: etree._Element) -> list[nodes.Node]:
        """The docutils nodes for one block element, fallback-marked when it fell back to English."""
        name = local_name(element)
        tag = element.tag
        if tag == TAG_SETUP_PICTURE:
            return self.setup_picture(element)
        if tag == TAG_BOARD:
            return self.board(element)
        if tag.startswith(f"{{{NS_RULES}}}") or (tag.startswith(f"{{{NS_BUILD}}}")):
            return []  # the rules block and build markers are not prose
        if name in SILENT_TAGS or name in INFO_TAGS:
            return []
        if name in SECTION_TAGS:
            return [self.section(element)]
        if name in ADMONITIONS:
            result = [self.admonition(element)]
        elif name in VERBATIM_TAGS:
            result = [self.verbatim(element)]
        elif name in BLOCK_HANDLERS:
            result = BLOCK_HANDLERS[name](self, element)
        else:
            self.warn_unknown(element)
            text = _SPACE.sub(" ", "".join(element.itertext())).strip()
            result = [nodes.paragraph(text, text)] if text else []
        return self.mark_block(element, result)

    def mark_block(self, element: etree._Element, result: list[nodes.Node]) -> list[nodes.Node]:
        reason = element.get(ATTR_FALLBACK)
        if not reason or not result:
            return result
        wrapper = self.fallback(fallback_block, reason)
        wrapper.extend(result)
        return [wrapper]

    def mark_inline(self, element: etree._Element, node: nodes.Element) -> None:
        reason = element.get(ATTR_FALLBACK)
        if not reason:
            return
        wrapper = self.fallback(fallback_inline, reason)
        wrapper.extend(node.children)
        node.children = []
        node.append(wrapper)

    def mark_contents(self, element: etree._Element, node: nodes.Element) -> None:
        """Wrap the children of a structural node (table cell, list item) when ``element`` fell back."""
        reason = element.get(ATTR_FALLBACK)
        if not reason:
            return
        wrapper = self.fallback(fallback_block, reason)
        wrapper.extend(node.children)
        node.children = []
        node.append(wrapper)

    def ui_lang(self, key: str) -> str:
        """BCP 47 tag of the language our interface string ``key`` is shown in on this page."""
        from patiencebook.generator.languages import ui_string_tag

        return ui_string_tag(self.language, key) if self.language else self.bcp47

    def other_lang(self, key: str) -> str | None:
        """The tag of the language our interface string ``key`` is shown in when it is not the
        page's (English standing in for a wording we lack), else ``None``."""
        tag = self.ui_lang(key)
        return tag if tag != self.bcp47 else None

    def in_lang(self, content: list[nodes.Node], tag: str | None) -> list[nodes.Node]:
        """``content`` (blocks) marked as being in language ``tag``; unchanged when ``tag`` is None."""
        return [lang_block("", *content, lang=tag)] if tag and content else content

    def fallback(self, cls, reason: str) -> nodes.Element:
        key = "fuzzy" if reason == "fuzzy" else "untranslated"
        node = cls()
        node["reason"] = key
        node["label"] = self.ui.get(key, key)
        node["explanation"] = self.ui.get(f"{key}_title", "")
        # The mark is in English where we have no wording of it in this language yet.
        node["label_lang"] = self.ui_lang(key)
        node["classes"] = []
        return node

    def para(self, element: etree._Element) -> list[nodes.Node]:
        holder = nodes.container()
        self.fill_children(element, list(element), holder)
        if element.get("role"):
            for child in holder.children:
                child["classes"].append(f"pb-role-{element.get('role')}")
        # A paragraph the build wrote in another language than the page's (a solver figure in English
        # where we have no wording of it yet) says so; a fallback block already carries its mark.
        tag = element.get(XML_LANG)
        if tag and not element.get(ATTR_FALLBACK) and tag != self.bcp47:
            return self.in_lang(list(holder.children), tag)
        return list(holder.children)

    def formalpara(self, element: etree._Element) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        for child in element:
            if local_name(child) == "title":
                result.append(nodes.rubric("", "", *self.inlines(child, strip=True)))
            elif isinstance(child.tag, str):
                result.extend(self.block(child))
        return result

    def container(self, element: etree._Element, classes: Iterable[str] = ()) -> list[nodes.Node]:
        node = nodes.container(classes=list(classes) or [f"pb-{local_name(element)}"])
        title = next((c for c in element if local_name(c) == "title"), None)
        if title is not None:
            node += nodes.rubric("", "", *self.inlines(title, strip=True))
        self.fill_children(element, [c for c in element if c is not title], node)
        return [node]

    def admonition(self, element: etree._Element) -> nodes.Element:
        node = ADMONITIONS[local_name(element)]()
        title = next((c for c in element if local_name(c) == "title"), None)
        if title is not None:
            node += nodes.paragraph("", "", nodes.strong("", "", *self.inlines(title, strip=True)))
        self.fill_children(element, [c for c in element if c is not title], node)
        return node

    def verbatim(self, element: etree._Element) -> nodes.Element:
        text = "".join(element.itertext())
        if text.startswith("\n"):
            text = text[1:]
        node = nodes.literal_block(text, text.rstrip())
        node["language"] = "none"
        return node

    def titled_list(self, element: etree._Element, node: nodes.Element, item_tags: set[str]) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        for child in element:
            name = local_name(child)
            if name == "title":
                result.append(nodes.rubric("", "", *self.inlines(child, strip=True)))
            elif name in item_tags:
                item = nodes.list_item()
                if name == "member":
                    item += nodes.paragraph("", "", *self.inlines(child, strip=True))
                else:
                    self.fill_blocks(child, item)
                self.mark_contents(child, item)
                node += item
            elif isinstance(child.tag, str) and name not in SILENT_TAGS:
                result.extend(self.block(child))  # a paragraph before the items
        result.append(node)
        return result

    def itemizedlist(self, element: etree._Element) -> list[nodes.Node]:
        return self.titled_list(element, nodes.bullet_list(bullet="*"), {"listitem"})

    def orderedlist(self, element: etree._Element) -> list[nodes.Node]:
        node = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".")
        return self.titled_list(element, node, {"listitem", "step"})

    def simplelist(self, element: etree._Element) -> list[nodes.Node]:
        return self.titled_list(element, nodes.bullet_list(bullet="*"), {"member"})

    def variablelist(self, element: etree._Element) -> list[nodes.Node]:
        result: list[nodes.Node] = []
        dlist = nodes.definition_list()
        for child in element:
            name = local_name(child)
            if name == "title":
                result.append(nodes.rubric("", "", *self.inlines(child, strip=True)))
            elif name in ("varlistentry", "glossentry"):
                dlist += self.varlistentry(child)
            elif isinstance(child.tag, str) and name not in SILENT_TAGS:
                result.extend(self.block(child))
        result.append(dlist)
        return result

    def varlistentry(self, element: etree._Element) -> nodes.definition_list_item:
        item = nodes.definition_list_item()
        terms = [c for c in element if local_name(c) in ("term", "glossterm")]
        term = nodes.term()
        for i, term_element in enumerate(terms):
            if i:
                term += nodes.Text(", ")
            part = nodes.inline("", "", *self.inlines(term_element, strip=True))
            self.mark_inline(term_element, part)
            term.extend(part.children if not term_element.get(ATTR_FALLBACK) else [part])
        if element.get("id"):
            term["ids"] = [self.unique_id(element.get("id"))]
            self.labels.append((element.get("id"), term["ids"][0], term.astext()))
        item += term
        definition = nodes.definition()
        for child in element:
            if local_name(child) in ("listitem", "glossdef"):
                self.fill_blocks(child, definition)
                self.mark_contents(child, definition)
        item += definition
        return item

    def table(self, element: etree._Element) -> list[nodes.Node]:
        table = nodes.table(classes=["pb-table"])
        title = next((c for c in element if local_name(c) == "title"), None)
        if title is not None:
            table += self.title_node(title)
        for tgroup_element in (c for c in element if local_name(c) == "tgroup"):
            table += self.tgroup(tgroup_element, table)
        if not table.children or all(isinstance(c, nodes.title) for c in table.children):
            return []
        return [table]

    def tgroup(self, element: etree._Element, table: nodes.table) -> nodes.tgroup:
        rows_parts = [(local_name(c), c) for c in element if local_name(c) in ("thead", "tbody", "tfoot", "row")]
        all_rows = [r for name, part in rows_parts for r in ([part] if name == "row" else
                                                             [x for x in part if local_name(x) == "row"])]
        colnames = [c.get("colname") for c in element if local_name(c) == "colspec"]
        cols = int(element.get("cols") or 0) or max((len([e for e in r if local_name(e) == "entry"])
                                                     for r in all_rows), default=1)
        if cols == 2:
            table["classes"].append("pb-table-2col")
        tgroup = nodes.tgroup(cols=cols)
        for _ in range(cols):
            tgroup += nodes.colspec(colwidth=1)
        head = nodes.thead()
        body = nodes.tbody()
        for name, part in rows_parts:
            target = head if name == "thead" else body
            for row_element in ([part] if name == "row" else [x for x in part if local_name(x) == "row"]):
                target += self.row(row_element, colnames)
        if head.children:
            tgroup += head
        tgroup += body
        return tgroup

    def row(self, element: etree._Element, colnames: list[str | None]) -> nodes.row:
        row = nodes.row()
        for entry_element in (c for c in element if local_name(c) in ("entry", "entrytbl")):
            entry = nodes.entry()
            start, end = entry_element.get("namest"), entry_element.get("nameend")
            if start in colnames and end in colnames and colnames.index(end) > colnames.index(start):
                entry["morecols"] = colnames.index(end) - colnames.index(start)
            if (entry_element.get("morerows") or "").isdigit() and int(entry_element.get("morerows")):
                entry["morerows"] = int(entry_element.get("morerows"))
            self.fill_blocks(entry_element, entry)
            self.mark_contents(entry_element, entry)
            row += entry
        return row

    def figure(self, element: etree._Element) -> list[nodes.Node]:
        figure = nodes.figure()
        title = next((c for c in element if local_name(c) == "title"), None)
        for child in element:
            if local_name(child) in ("mediaobject", "graphic", "screenshot", "imageobject"):
                figure.extend(self.images(child))
            elif child is not title and isinstance(child.tag, str) and local_name(child) not in INFO_TAGS:
                figure.extend(self.block(child))
        if title is not None:
            figure += nodes.caption("", "", *self.inlines(title, strip=True))
        return [figure] if figure.children else []

    def mediaobject(self, element: etree._Element) -> list[nodes.Node]:
        images = self.images(element)
        caption = next((c for c in element if local_name(c) == "caption"), None)
        if caption is not None and images:
            figure = nodes.figure("", *images)
            holder = nodes.container()
            self.fill_blocks(caption, holder)
            figure += nodes.caption("", "", *[n for p in holder.children for n in p.children])
            return [figure]
        return images

    def images(self, element: etree._Element, inline: bool = False) -> list[nodes.Node]:
        """Image nodes for every ``imagedata``/``graphic`` under ``element``; alt from ``textobject``.

        An alt text that fell back to English has no room for a visible mark of its own: the image
        is shown inside the fallback mark instead (an inline one for ``inline`` images)."""
        textobjects = [t for t in element.iter() if local_name(t) == "textobject"]
        alt = " ".join(_SPACE.sub(" ", "".join(t.itertext())).strip() for t in textobjects)
        reason = next((e.get(ATTR_FALLBACK) for t in textobjects for e in t.iter()
                       if isinstance(e.tag, str) and e.get(ATTR_FALLBACK)), None)
        result: list[nodes.Node] = []
        for data in element.iter():
            if local_name(data) in ("imagedata", "graphic", "inlinegraphic") and data.get("fileref"):
                image = nodes.image(uri=data.get("fileref"))
                if alt:
                    image["alt"] = alt
                if data.get("width"):
                    image["width"] = data.get("width")
                result.append(image)
                break  # the first image object is the one shown; the others are alternatives
        if not result:
            self.warn(element, "media object without an image file")
        elif reason:
            wrapper = self.fallback(fallback_inline if inline else fallback_block, reason)
            wrapper.extend(result)
            return [wrapper]
        return result

    # -- examples, setup pictures and the live board ------------------------------------------

    def example(self, element: etree._Element) -> list[nodes.Node]:
        """An ``example``: the step-through widget when the build gave it a ``trace``, else a titled block."""
        trace_element = next((c for c in element if c.tag == TAG_TRACE), None)
        if trace_element is None:
            return self.container(element, ["pb-example"])
        trace = self.read_json(trace_element, "example trace")
        if trace is not None and not (isinstance(trace.get("steps"), list) and trace["steps"]
                                      and all(isinstance(step, dict) for step in trace["steps"])):
            self.warn(element, "example trace has no list of steps; shown without its board")
            trace = None
        if trace is None:
            return self.container(element, ["pb-example"])
        ui = trace.get("ui") if isinstance(trace.get("ui"), dict) else {}
        ident = self.unique_id(element.get("id") or f"example-{len(self.used_ids) + 1}")
        caption_id = self.unique_id(f"{ident}-caption")
        widget = example_widget(ids=[ident], caption_id=caption_id)
        title = next((c for c in element if local_name(c) == "title"), None)
        caption = example_caption("", "", *(self.inlines(title, strip=True) if title is not None else []),
                                  ids=[caption_id], label=str(ui.get("label", "")),
                                  label_lang=self.other_lang("example_label") or "")
        if title is not None:
            self.mark_inline(title, caption)
        widget += caption
        if element.get("id"):
            self.labels.append((element.get("id"), ident, caption.astext()))
        by_number = {step.get("n"): step for step in trace["steps"]}
        controls = nodes.raw("", self.example_controls(ident, caption_id, ui), format="html", classes=NO_SEARCH)
        for child in element:
            if not isinstance(child.tag, str) or child is title or child.tag == TAG_TRACE:
                continue
            if local_name(child) == "procedure":
                if controls is not None:
                    widget += controls
                    controls = None
                widget.extend(self.example_steps(child, by_number, ui))
            else:
                widget.extend(self.block(child))
        if controls is not None:
            widget += controls
        payload = _script_json(trace)
        widget += nodes.raw("", f'<script type="application/json" class="pb-trace">{payload}</script>',
                            format="html", classes=NO_SEARCH)
        return [widget]

    def example_controls(self, ident: str, caption_id: str, ui: dict) -> str:
        """The scripted part of an example (hidden until pb-example.js shows it): board, buttons, status."""
        icons = {"first": "\u21e4", "previous": "\u2190", "next": "\u2192", "last": "\u21e5"}  # ⇤ ← → ⇥
        buttons = "".join(
            f'<button type="button" class="pb-go pb-go-{go}" data-pb-go="{go}">'
            f'<span class="pb-go-icon" aria-hidden="true">{icon}</span> {escape(str(ui.get(go, go)))}</button>'
            for go, icon in icons.items())
        keys_id = f"{ident}-keys"
        tag = self.other_lang("example_controls")
        lang = f' lang="{escape(tag)}"' if tag else ""
        classes = f"pb-example-widget {_NO_SEARCH_CLASS} {INTERFACE_CLASS}" if tag else f"pb-example-widget {_NO_SEARCH_CLASS}"
        return (f'<div class="{classes}"{lang} hidden>'
                f'<div class="pb-example-board" tabindex="0" role="group" aria-labelledby="{caption_id}" '
                f'aria-describedby="{keys_id}"></div>'
                f'<div class="pb-example-controls" role="group" aria-label="{escape(str(ui.get("controls", "")))}">'
                f'{buttons}</div>'
                f'<p class="pb-example-status" aria-live="polite"></p>'
                f'<p class="pb-example-keys" id="{keys_id}">{escape(str(ui.get("keys", "")))}</p></div>\n')

    def example_steps(self, procedure: etree._Element, by_number: dict, ui: dict) -> list[nodes.Node]:
        """The ordered list of an example's steps: each says the move in words (from the trace), the
        refusal if the move is refused, then the step's own translated paragraphs."""
        result: list[nodes.Node] = []
        steps = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".", classes=["pb-example-steps"])
        number = 0
        for child in procedure:
            name = local_name(child)
            if name == "title":
                result.append(nodes.rubric("", "", *self.inlines(child, strip=True)))
                continue
            if name != "step":
                if isinstance(child.tag, str) and name not in SILENT_TAGS:
                    result.extend(self.block(child))
                continue
            number += 1
            marked = child.get(ATTR_STEP, "")
            n = int(marked) if marked.isdigit() else number
            item = example_step(step=n)
            data = by_number.get(n, {})
            if data.get("words"):
                item.extend(self.in_lang([nodes.paragraph(str(data["words"]), str(data["words"]),
                                                          classes=["pb-step-move"])], self.other_lang("play_do_move")))
            if data.get("refused"):
                template = str(ui.get("refused") or self.ui.get("example_refused") or "{reason}")
                text = template.replace("{reason}", str(data["refused"]))
                item.extend(self.in_lang([nodes.paragraph(text, text, classes=["pb-step-refused"])],
                                         self.other_lang("example_refused")))
            notes = nodes.container()
            self.fill_blocks(child, notes)
            self.mark_contents(child, notes)
            item.extend(notes.children)
            steps += item
        result.append(steps)
        return result

    def setup_picture(self, element: etree._Element) -> list[nodes.Node]:
        """The build's picture of a game's setup: its inline SVG as raw HTML in a figure."""
        svg = next((c for c in element if c.tag == f"{{{SVG_NS}}}svg"), None)
        if svg is None:
            self.warn(element, "setup picture without an inline <svg> element")
            return []
        title = next((c for c in element if local_name(c) == "title"), None)
        caption = ""
        if title is not None:
            text = _SPACE.sub(" ", "".join(title.itertext())).strip()
            caption = f"<figcaption>{escape(text)}</figcaption>" if text else ""
        # The picture's words (its title, description and pile labels) are no prose of the page.
        html = f'<figure class="pb-setup-picture {_NO_SEARCH_CLASS}">{_svg_markup(svg)}{caption}</figure>\n'
        return [nodes.raw("", html, format="html", classes=NO_SEARCH)]

    def board(self, element: etree._Element) -> list[nodes.Node]:
        """The live board: a section with id "play" holding the board JSON for pb-board.js."""
        payload = self.read_json(element, "board")
        if payload is None:
            return []
        ui = payload.get("ui") if isinstance(payload.get("ui"), dict) else {}
        title = str(ui.get("board_title") or self.ui.get("board_title") or "Play this deal")
        section = nodes.section(ids=[self.unique_id("play")], classes=["pb-play"])
        tag = self.other_lang("board_title")
        section += nodes.title(title, "", lang_inline(title, title, lang=tag)) if tag else nodes.title(title, title)
        lang = f' lang="{escape(tag)}"' if tag else ""
        classes = f"pb-board {_NO_SEARCH_CLASS} {INTERFACE_CLASS}" if tag else f"pb-board {_NO_SEARCH_CLASS}"
        html = (f'<div class="{classes}"{lang} data-pb-board><script type="application/json" class="pb-board-data">'
                f'{_script_json(payload)}</script></div>\n')
        section += nodes.raw("", html, format="html", classes=NO_SEARCH)
        return [section]

    def read_json(self, element: etree._Element, what: str) -> dict | None:
        """The JSON object in ``element``'s text, or None (with a warning naming file:line) if it is not one."""
        # Elements the build adds have no source line: name the line of the nearest one that has.
        located = next((e for e in element.iterancestors() if _line(e)), element) if not _line(element) else element
        try:
            data = json.loads("".join(element.itertext()))
        except ValueError as error:
            self.warn(located, f"{what} is not valid JSON: {error}")
            return None
        if not isinstance(data, dict):
            self.warn(located, f"{what} must be a JSON object")
            return None
        return data

    def blockquote(self, element: etree._Element) -> list[nodes.Node]:
        quote = nodes.block_quote()
        attribution = next((c for c in element if local_name(c) == "attribution"), None)
        self.fill_children(element, [c for c in element if c is not attribution], quote)
        if attribution is not None:
            quote += nodes.attribution("", "", *self.inlines(attribution, strip=True))
        return [quote]

    def bridgehead(self, element: etree._Element) -> list[nodes.Node]:
        return [nodes.rubric("", "", *self.inlines(element, strip=True))]

    def anchor_block(self, element: etree._Element) -> list[nodes.Node]:
        return self.anchor(element)

    def page_list(self, slugs: list[str]) -> nodes.bullet_list:
        """Links to other pages (the pages a chapter includes), each titled in the page's language."""
        blist = nodes.bullet_list(bullet="*", classes=["pb-pages"])
        for slug in slugs:
            ref = addnodes.pending_xref("", nodes.inline(slug, slug), refdomain="std", reftype="doc",
                                        reftarget="/" + slug, refexplicit=False, refwarn=True,
                                        refdoc=self.docname)
            blist += nodes.list_item("", nodes.paragraph("", "", ref))
        return blist

    # -- inline content --------------------------------------------------------------------------

    def inlines(self, element: etree._Element, strip: bool = False) -> list[nodes.Node]:
        """The inline content of ``element`` (text, inline children and their tails)."""
        result: list[nodes.Node] = []
        if element.text:
            result.append(nodes.Text(_SPACE.sub(" ", element.text)))
        for child in element:
            if isinstance(child.tag, str):
                if self.is_inline(child) or local_name(child) not in BLOCK_HANDLERS:
                    result.extend(self.inline(child))
                else:
                    # A block inside running text (a list inside a title): keep its text.
                    self.warn(child, f"block element <{local_name(child)}> inside inline text; only its text is kept")
                    text = _SPACE.sub(" ", "".join(child.itertext()))
                    result.append(nodes.Text(text))
            if child.tail:
                result.append(nodes.Text(_SPACE.sub(" ", child.tail)))
        return _strip_run(result) if strip else result

    def inline(self, element: etree._Element) -> list[nodes.Node]:
        name = local_name(element)
        tag = element.tag
        if tag.startswith(f"{{{NS_RULES}}}") or tag.startswith(f"{{{NS_BUILD}}}") or name in SILENT_TAGS:
            return []
        content = lambda: self.inlines(element)  # noqa: E731 - not every element wants its children
        if name == "emphasis":
            role = (element.get("role") or "").lower()
            cls = nodes.strong if role in ("bold", "strong") else nodes.emphasis
            result: list[nodes.Node] = [cls("", "", *content())]
        elif name in EMPHASIS_TAGS:
            result = [nodes.emphasis("", "", *content())]
        elif name in LITERAL_TAGS:
            result = [nodes.literal("", "", *content())]
        elif name in ("keycap", "keysym"):
            result = [nodes.literal("", "", *content(), classes=["kbd"])]
        elif name == "keycombo":
            keys = [self.inline(c) for c in element if isinstance(c.tag, str)]
            result = _join(keys, "+")
        elif name in GUI_TAGS:
            result = [nodes.inline("", "", *content(), classes=["guilabel"])]
        elif name == "menuchoice":
            parts = [self.inlines(c) for c in element if isinstance(c.tag, str) and local_name(c) != "shortcut"]
            result = [nodes.inline("", "", *_join(parts, " \N{TRIANGULAR BULLET} "), classes=["menuselection"])]
        elif name in APPLICATION_TAGS:
            result = [nodes.inline("", "", *content(), classes=["pb-application"])]
        elif name in PLAIN_INLINE_TAGS:
            result = content()
            if name == "trademark":
                result.append(nodes.Text("\N{TRADE MARK SIGN}"))
        elif name == "ulink":
            url = element.get("url", "")
            children = self.inlines(element, strip=True) or [nodes.Text(url)]
            if _browsable(url):
                result = [nodes.reference("", "", *children, refuri=url)]
            else:
                # help:, ghelp: and similar desktop-help URIs open nothing in a browser: keep the text.
                result = [nodes.inline("", "", *children, classes=["pb-unlinked"])]
        elif name == "email":
            address = "".join(element.itertext()).strip()
            result = [nodes.reference(address, address, refuri=f"mailto:{address}")]
        elif name == "link" or name == "olink":
            target = element.get("linkend")
            url = element.get("{http://www.w3.org/1999/xlink}href") or element.get("url")
            children = self.inlines(element, strip=True)
            if target:
                result = [addnodes.pending_xref("", nodes.inline("", "", *children), refdomain="std",
                                                reftype="ref", reftarget=target, refexplicit=True,
                                                refwarn=True, refdoc=self.docname)]
            elif url:
                result = [nodes.reference("", "", *(children or [nodes.Text(url)]), refuri=url)]
            else:
                result = children
        elif name == "xref":
            target = element.get("linkend", "")
            result = [addnodes.pending_xref("", nodes.inline(target, target), refdomain="std", reftype="ref",
                                            reftarget=target, refexplicit=False, refwarn=True,
                                            refdoc=self.docname)]
        elif name == "quote":
            result = [nodes.Text(self.ui.get("quote_open", "\N{LEFT DOUBLE QUOTATION MARK}")), *content(),
                      nodes.Text(self.ui.get("quote_close", "\N{RIGHT DOUBLE QUOTATION MARK}"))]
        elif name == "superscript":
            result = [nodes.superscript("", "", *content())]
        elif name == "subscript":
            result = [nodes.subscript("", "", *content())]
        elif name == "footnote":
            result = self.footnote(element)
        elif name in ("inlinemediaobject", "inlinegraphic"):
            result = self.images(element, inline=True)
        elif name == "anchor":
            result = self.anchor(element)
        elif name in ("footnoteref", "accel"):
            result = content()
        else:
            self.warn_unknown(element)
            result = [nodes.Text(_SPACE.sub(" ", "".join(element.itertext())))]
        if element.get(ATTR_FALLBACK) and result:
            wrapper = self.fallback(fallback_inline, element.get(ATTR_FALLBACK))
            wrapper.extend(result)
            result = [wrapper]
        return result

    def anchor(self, element: etree._Element) -> list[nodes.Node]:
        ident = element.get("id")
        if not ident:
            return []
        target = nodes.target("", "", ids=[self.unique_id(ident)])
        self.labels.append((ident, target["ids"][0], None))
        return [target]

    def footnote(self, element: etree._Element) -> list[nodes.Node]:
        number = len(self.footnotes) + 1
        footnote_id = self.unique_id(f"footnote-{number}")
        ref_id = self.unique_id(f"footnote-ref-{number}")
        footnote = nodes.footnote(ids=[footnote_id], backrefs=[ref_id])
        footnote += nodes.label(str(number), str(number))
        self.fill_blocks(element, footnote)
        self.mark_contents(element, footnote)
        self.footnotes.append(footnote)
        reference = nodes.footnote_reference(str(number), str(number), ids=[ref_id], refid=footnote_id)
        return [reference]

    # -- labels and warnings --------------------------------------------------------------------

    def register_labels(self) -> None:
        """Make every DocBook id of this page a cross-reference target for ``xref``/``link``."""
        std = _standard_domain(self.env)
        for key, node_id, title in self.labels:
            std.anonlabels[key] = (self.docname, node_id)
            if title is not None:
                std.labels[key] = (self.docname, node_id, title)

    def warn_unknown(self, element: etree._Element) -> None:
        self.warn(element, f"unknown DocBook element <{local_name(element)}>; only its text is shown")

    def warn(self, element: etree._Element, message: str) -> None:
        logger.warning(message, location=f"{self.file}:{_line(element)}" if _line(element) else self.file,
                       type="patiencebook", subtype="docbook")


_BROWSABLE = re.compile(r"^(?:https?|ftp|mailto):|^[^:/?#]*(?:[/?#]|$)", re.IGNORECASE)


def _browsable(url: str) -> bool:
    """True for web and mail URLs and relative references; False for ``help:``-style URIs."""
    return bool(_BROWSABLE.match(url))


def _script_json(data: dict) -> str:
    """``data`` as JSON safe inside an HTML ``<script>``: every ``<`` (so ``</script>`` and ``<!--``)
    is written as the JSON escape ``\\u003c``, which reads back as the same text."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _svg_markup(svg: etree._Element) -> str:
    """An inline SVG element as HTML text, without our build attributes or unused namespace declarations."""
    svg = copy.deepcopy(svg)
    for node in svg.iter():
        if isinstance(node.tag, str):
            for name in [a for a in node.attrib if a.startswith(f"{{{NS_BUILD}}}")]:
                del node.attrib[name]
    svg.tail = None
    etree.cleanup_namespaces(svg)
    return etree.tostring(svg, encoding="unicode")


def _line(element: etree._Element) -> int | None:
    value = element.get(ATTR_LINE)
    if value and value.isdigit():
        return int(value)
    return None


def _strip_run(run: list[nodes.Node]) -> list[nodes.Node]:
    """Drop leading whitespace of the first text and trailing whitespace of the last."""
    result = list(run)
    while result and isinstance(result[0], nodes.Text) and not result[0].astext().strip():
        result.pop(0)
    while result and isinstance(result[-1], nodes.Text) and not result[-1].astext().strip():
        result.pop()
    if result and isinstance(result[0], nodes.Text):
        result[0] = nodes.Text(result[0].astext().lstrip())
    if result and isinstance(result[-1], nodes.Text):
        result[-1] = nodes.Text(result[-1].astext().rstrip())
    return result


def _join(parts: list[list[nodes.Node]], separator: str) -> list[nodes.Node]:
    result: list[nodes.Node] = []
    for i, part in enumerate(parts):
        if i:
            result.append(nodes.Text(separator))
        result.extend(_strip_run(part))
    return result


def _standard_domain(env):
    domains = getattr(env, "domains", None)
    if domains is not None and hasattr(domains, "standard_domain"):
        return domains.standard_domain
    return env.get_domain("std")


BLOCK_HANDLERS: dict[str, Callable[[_Converter, etree._Element], list[nodes.Node]]] = {
    "para": _Converter.para,
    "simpara": _Converter.para,
    "formalpara": _Converter.formalpara,
    "itemizedlist": _Converter.itemizedlist,
    "orderedlist": _Converter.orderedlist,
    "procedure": _Converter.orderedlist,
    "substeps": _Converter.orderedlist,
    "stepalternatives": lambda self, el: self.titled_list(el, nodes.bullet_list(bullet="*"), {"step"}),
    "simplelist": _Converter.simplelist,
    "variablelist": _Converter.variablelist,
    "glosslist": _Converter.variablelist,
    "informaltable": _Converter.table,
    "table": _Converter.table,
    "figure": _Converter.figure,
    "informalfigure": _Converter.figure,
    "mediaobject": _Converter.mediaobject,
    "screenshot": lambda self, el: self.container(el, ["pb-screenshot"]),
    "abstract": lambda self, el: self.container(el, ["pb-abstract"]),
    "sidebar": lambda self, el: self.container(el, ["pb-sidebar"]),
    "example": _Converter.example,
    "informalexample": lambda self, el: self.container(el, ["pb-example"]),
    "blockquote": _Converter.blockquote,
    "epigraph": _Converter.blockquote,
    "bridgehead": _Converter.bridgehead,
    "anchor": _Converter.anchor_block,
}
