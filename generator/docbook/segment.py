"""Splitting DocBook files into translatable segments exactly as itstool does, so catalogs interchange with GNOME's.

The facts followed are those of itstool 2.0 with its built-in ``docbook.its`` rules (ITS 2.0 data
categories: translate, withinText, preserveSpace, localeFilter, externalResourceRef): each file is
segmented on its own; the DocBook rules apply only when the file's root is ``book``, ``article`` or
``chapter``, so in a ``sect1`` page every element is a block of its own.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from lxml import etree

from patiencebook.generator.docbook.document import NS_BUILD, NS_RULES, Document, Page, Segment
from patiencebook.generator.docbook.sources import own_elements

NS_ITS = "http://www.w3.org/2005/11/its"
NS_ITST = "http://itstool.org/extensions/"
#: Namespace of placeholder elements (``<_:emphasis-1/>``) in msgids and msgstrs.
NS_PLACEHOLDER = "http://itstool.org/extensions/blank/"
NS_XML = "http://www.w3.org/XML/1998/namespace"

#: msgctxt and msgid of the unit where translators credit themselves (one ``NAME <EMAIL>, YEARS`` a line).
CREDITS_CONTEXT = "_"
CREDITS_MSGID = "translator-credits"
CREDITS_COMMENT = "One line per translator: NAME <EMAIL>, YEAR1, YEAR2"
EXTERNAL_COMMENT = ("A reference to an external file such as an image. The md5 sum changes when the "
                    "file changes, telling you to update your localized copy. The msgstr is not used; "
                    "set it to anything once your copy is up to date.")

#: Roots for which the DocBook rules apply (itstool's ``itst:match`` selectors of docbook.its).
DOCBOOK_ROOTS = frozenset({"book", "article", "chapter"})

#: DocBook elements that are within text (inline) by default (docbook.its, withinTextRule "yes").
INLINE = frozenset("""
abbrev accel acronym action affiliation anchor application arg audiodata audioobject authorinitials
biblioref citation citebiblioid citerefentry citetitle city classname co code col colgroup collabname
command computeroutput constant constraint contrib country database date email emphasis envar
errorcode errorname errortext errortype exceptionname fax filename firstname firstterm footnoteref
foreignphrase funcdef funcparams function glossterm group guibutton guiicon guilabel guimenu
guimenuitem guisubmenu hardware holder honorific imagedata imageobject imageobjectco initializer
inlineequation inlinegraphic inlinemediaobject interface interfacename jobtitle keycap keycode
keycombo keysym keyword lhs lineage lineannotation link literal markup medialabel menuchoice
methodname methodparam modifier mousebutton nonterminal olink ooclass ooexception oointerface option
optional orgdiv orgname otheraddr othername package paramdef parameter personname phone phrase pob
postcode productname productnumber prompt property quote replaceable returnvalue revnumber revremark
rhs sbr sgmltag shortaffil shortcut state street structfield structname subscript superscript
surname symbol systemitem termdef textobject token trademark type ulink uri userinput varargs varname
videodata videoobject void wordasword xref year
""".split())
#: Always verbatim (docbook.its preserveSpaceRule).
VERBATIM = frozenset({"classsynopsisinfo", "funcsynopsisinfo", "literallayout", "programlisting",
                      "screen", "synopsis"})
_EXTERNAL = frozenset({"audiodata", "imagedata", "videodata"})


# The attribute and tag names read for every element, in Clark notation.
_ITS_WITHIN_TEXT = f"{{{NS_ITS}}}withinText"
_ITS_TRANSLATE = f"{{{NS_ITS}}}translate"
_ITS_LOCALE_FILTER_LIST = f"{{{NS_ITS}}}localeFilterList"
_ITS_LOCALE_FILTER_TYPE = f"{{{NS_ITS}}}localeFilterType"
_ITS_LOC_NOTE = f"{{{NS_ITS}}}locNote"
_ITS_UNTRANSLATED = (f"{{{NS_ITS}}}param", f"{{{NS_ITS}}}locNote")
_ITST_DROP = f"{{{NS_ITST}}}drop"
_ITST_CONTEXT = f"{{{NS_ITST}}}context"
_XML_SPACE = f"{{{NS_XML}}}space"
_RULES_PREFIX = f"{{{NS_RULES}}}"
_BUILD_PREFIX = f"{{{NS_BUILD}}}"


def _plain_tag(element: etree._Element) -> str | None:
    """The name of a no-namespace element (what docbook.its selectors match), else ``None``."""
    tag = element.tag
    if isinstance(tag, str) and not tag.startswith("{"):
        return tag
    return None


def _local(element: etree._Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _address_is_email(element: etree._Element) -> bool:
    children = [c for c in element if isinstance(c.tag, str)]
    return len(children) == 1 and any(c.tag == "email" for c in children)


class _Rules:
    """ITS data categories for one file: local attributes first, then docbook.its when it applies."""

    def __init__(self, root: etree._Element):
        self.docbook = _plain_tag(root) in DOCBOOK_ROOTS

    def within_text(self, element: etree._Element) -> str:
        value = element.get(_ITS_WITHIN_TEXT)
        if value is not None:
            return value if value in ("yes", "nested") else "no"
        if not self.docbook:
            return "no"
        result = "no"
        name = _plain_tag(element)
        parent = element.getparent()
        parent_name = _plain_tag(parent) if parent is not None else None
        # Later rules of docbook.its override earlier ones, so test them in the same order.
        if name in INLINE or (name in ("manvolnum", "refentrytitle") and parent_name == "citerefentry"):
            result = "yes"
        if name == "footnote":
            result = "nested"
        if name is not None and parent_name in ("confgroup", "biblioentry", "biblioset"):
            result = "no"
        if name is not None and parent_name in ("bibliomixed", "bibliomset"):
            result = "yes"
        if name is not None and parent_name == "glossentry":
            result = "no"
        if name is not None and self._in_inline_context(element):
            result = "yes"
        if name == "address" and _address_is_email(element):
            result = "yes"
        if name is not None and parent_name in ("bookinfo", "chapterinfo", "articleinfo"):
            result = "no"
        return result

    @staticmethod
    def _in_inline_context(element: etree._Element) -> bool:
        # //indexterm//* and //simplelist[@type='inline']/descendant-or-self::*
        if element.tag == "simplelist" and element.get("type") == "inline":
            return True
        for ancestor in element.iterancestors():
            if ancestor.tag == "indexterm":
                return True
            if ancestor.tag == "simplelist" and ancestor.get("type") == "inline":
                return True
        return False

    def translate(self, element: etree._Element, inherited: str) -> str:
        value = element.get(_ITS_TRANSLATE)
        if value is not None:
            return value
        if isinstance(element.tag, str) and element.tag.startswith(_RULES_PREFIX):
            return "no"  # the machine-readable rules block never reaches a catalog
        if element.tag in _ITS_UNTRANSLATED:
            return "no"
        if (self.docbook and element.tag == "releaseinfo" and element.get("role") == "CVS"
                and " ".join("".join(element.itertext()).split()) == "$Id$"):
            return "no"
        return inherited

    def preserve(self, element: etree._Element, inherited: bool) -> bool:
        # itstool asks whether any ancestor-or-self says xml:space="preserve" or is verbatim by
        # rule; an inner xml:space="default" does not switch it off again.
        if inherited or element.get(_XML_SPACE) == "preserve":
            return True
        if self.docbook:
            name = _plain_tag(element)
            if name in VERBATIM or (name == "address" and not _address_is_email(element)):
                return True
        return inherited

    def dropped(self, element: etree._Element, inherited: bool) -> bool:
        """Locale filter "none" (``//remark`` in docbook.its, or ``its:localeFilterList=""``)."""
        lst = element.get(_ITS_LOCALE_FILTER_LIST)
        typ = element.get(_ITS_LOCALE_FILTER_TYPE)
        if lst is not None or typ is not None:
            lst = "*" if lst is None else lst
            typ = "include" if typ is None else typ
            return (lst.strip() == "" and typ == "include") or (lst.strip() == "*" and typ == "exclude")
        if self.docbook and element.tag == "remark":
            return True
        return inherited


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attr(text: str) -> str:
    return _escape_text(text).replace('"', "&quot;")


def _qualified(element: etree._Element) -> str:
    prefix = element.prefix
    return f"{prefix}:{_local(element)}" if prefix else _local(element)


def _attr_name(element: etree._Element, key: str) -> str:
    if not key.startswith("{"):
        return key
    ns, local = key[1:].split("}", 1)
    if ns == NS_XML:
        return f"xml:{local}"
    for prefix, uri in element.nsmap.items():
        if uri == ns and prefix:
            return f"{prefix}:{local}"
    return local


class _Message:
    """A msgid under construction: escaped text, inline tags and placeholders."""

    def __init__(self, preserve: bool):
        self.parts: list[str] = []
        self.placeholders: list[etree._Element] = []
        self.empty = True
        self.preserve = preserve

    def text(self, text: str) -> None:
        self.parts.append(_escape_text(text))
        if self.empty and text and not text.isspace():  # some text that is not white space
            self.empty = False

    def entity(self, name: str) -> None:
        self.parts.append(f"&{name};")
        self.empty = False

    def placeholder(self, element: etree._Element) -> None:
        self.placeholders.append(element)
        self.parts.append(f"<_:{_local(element)}-{len(self.placeholders)}/>")

    def start(self, element: etree._Element) -> None:
        attrs = "".join(f' {_attr_name(element, k)}="{_escape_attr(v)}"'
                        for k, v in element.attrib.items() if not k.startswith(_BUILD_PREFIX))
        closed = element.text is None and len(element) == 0
        self.parts.append(f"<{_qualified(element)}{attrs}{'/>' if closed else '>'}")

    def end(self, element: etree._Element) -> None:
        if not (element.text is None and len(element) == 0):
            self.parts.append(f"</{_qualified(element)}>")

    def string(self) -> str:
        joined = "".join(self.parts)
        return joined if self.preserve else normalize_space(joined)


def normalize_space(text: str) -> str:
    """Collapse every run of whitespace to one space and trim, as itstool does to a msgid.

    Python's notion of whitespace (``str.split``) is used, which, like itstool's ``\\s``, includes
    non-breaking spaces.
    """
    return " ".join(text.split())


class _FileSegmenter:
    """Walks one source file the way itstool walks it and collects its segments in itstool's order."""

    def __init__(self, path: Path, root: etree._Element, stop: set, ref_name: str):
        self.path = path
        self.root = root
        self.stop = stop
        self.ref_name = ref_name
        self.rules = _Rules(root)
        self.segments: list[Segment] = []
        self.order: dict[int, int] = {}  # id(segment) -> document-order position of its element
        self._position = 0

    def run(self) -> list[Segment]:
        self._walk(self.root, None, "yes", False, False)
        return self.segments

    def _emit(self, segment: Segment, position: int) -> None:
        self.segments.append(segment)
        self.order[id(segment)] = position

    def _external(self, element: etree._Element, translate: str) -> None:
        if not self.rules.docbook or _plain_tag(element) not in _EXTERNAL or translate == "no":
            return
        ref = element.get("fileref")
        if ref is None:
            return
        try:
            digest = hashlib.md5((self.path.parent / ref).read_bytes()).hexdigest()
        except OSError:
            digest = "__failed__"
        self._emit(Segment(msgid=f"external ref='{ref}' md5='{digest}'", msgctxt=CREDITS_CONTEXT,
                           path=self._marker(element), file=self.path, line=element.sourceline or 0,
                           element=None, comment=EXTERNAL_COMMENT), self._position)

    def _marker(self, element: etree._Element) -> str:
        if element is self.root:
            return f"{self.ref_name}/{_local(element)}"
        return f"{_local(element.getparent())}/{_local(element)}"

    def _walk(self, element: etree._Element, msg: _Message | None, inherited_translate: str,
              inherited_preserve: bool, inherited_drop: bool) -> None:
        if isinstance(element, etree._Entity):
            if msg is not None:
                msg.entity(element.name)
            return
        if not isinstance(element.tag, str):
            return  # comments and processing instructions are not content
        self._position += 1
        position = self._position
        if element is not self.root and element in self.stop:
            # In its own file this is an xi:include element: a block of its own with no text.
            if msg is not None:
                msg.placeholders.append(element)
                msg.parts.append(f"<_:include-{len(msg.placeholders)}/>")
            return
        if element.get(_ITST_DROP) == "yes":
            return
        drop = self.rules.dropped(element, inherited_drop)
        if drop:
            return
        translate = self.rules.translate(element, inherited_translate)
        preserve = self.rules.preserve(element, inherited_preserve)
        inline = False
        unit = False
        if translate == "no":
            if msg is not None:
                msg.placeholder(element)
            msg = None
        else:
            unit = msg is None or self.rules.within_text(element) != "yes"
            if unit:
                if msg is not None:
                    msg.placeholder(element)
                msg = _Message(preserve)
            else:
                inline = True
                msg.start(element)
        self._external(element, translate)
        if msg is not None and element.text:
            msg.text(element.text)
        for child in element:
            self._walk(child, msg, translate, preserve, drop)
            if msg is not None and child.tail:
                msg.text(child.tail)
        if unit and not msg.empty:
            self._emit(Segment(
                msgid=msg.string(), msgctxt=element.get(_ITST_CONTEXT),
                path=self._marker(element), file=self.path, line=element.sourceline or 0,
                element=element, comment=element.get(_ITS_LOC_NOTE),
                placeholders=list(msg.placeholders), preserve_space=msg.preserve), position)
        elif inline:
            msg.end(element)


def segment_element(path: Path, root: etree._Element, stop: set | frozenset = frozenset(),
                    ref_name: str | None = None) -> list[Segment]:
    """Segment one file's tree as itstool would, returning its segments in itstool's (POT) order.

    itstool emits a block after the blocks nested in it, so ``<para>`` comes after its
    ``<_:emphasis-1/>`` when the emphasis is a block of its own.

    Args:
        path: the file the tree was read from (recorded in each segment).
        root: the file's root element.
        stop: elements inside ``root`` that came from other files through XInclude; each stands in
            for an ``xi:include`` element (an empty block, placeholder ``include``).
        ref_name: the file name used in the path comment of the root element (default: file name).
    """
    walker = _FileSegmenter(path, root, set(stop), ref_name or path.name)
    return walker.run()


def credits_segment(book_file: Path) -> Segment:
    """The ``translator-credits`` unit (msgctxt ``_``) itstool adds for a DocBook book with an info element."""
    return Segment(msgid=CREDITS_MSGID, msgctxt=CREDITS_CONTEXT, path="", file=book_file, line=0,
                   element=None, comment=CREDITS_COMMENT)


def itstool_file_order(document: Document) -> list:
    """The source files in the order GNOME's build hands them to itstool.

    The book file first, then every other file (legal notice included) sorted by its path inside
    the source folder, as the shipped AisleRiot catalogs show (``C/legal.xml`` units sit between
    ``C/lady_jane.xml`` and ``C/maze.xml``).
    """
    files = list(document.files)
    if not files:
        return []
    return [files[0]] + sorted(files[1:], key=lambda f: _relative(f.path, document.source_dir))


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def segment_document(document: Document) -> None:
    """Fill ``document.segments`` (itstool order) and each page's ``segments`` (document order).

    ``document.files`` must hold the parsed files (book first); the translator-credits unit comes
    first when the book file is a DocBook book with an info element, as itstool adds it.
    """
    roots = {f.root for f in document.files}
    source_name = document.source_dir.name
    segments: list[Segment] = []
    order: dict[int, tuple[int, int]] = {}
    ordered_files = itstool_file_order(document)
    if ordered_files:
        # itstool appends credits to /book/bookinfo, /article/articleinfo or /chapter/chapterinfo.
        book_root = ordered_files[0].root
        name = _plain_tag(book_root)
        if name in DOCBOOK_ROOTS and any(c.tag == f"{name}info" for c in book_root):
            segments.append(credits_segment(ordered_files[0].path))
    for file_index, source in enumerate(ordered_files):
        walker = _FileSegmenter(source.path, source.root, roots - {source.root},
                                f"{source_name}/{_relative(source.path, document.source_dir)}")
        for segment in walker.run():
            segments.append(segment)
            order[id(segment)] = (file_index, walker.order[id(segment)])
    document.segments = segments

    pages = list(document.pages) + ([document.front] if document.front is not None else [])
    page_roots = {p.root for p in pages}
    owner: dict[etree._Element, Page] = {}
    for page in pages:
        for element in own_elements(page.root, (page_roots | roots) - {page.root}):
            owner.setdefault(element, page)
    for page in pages:
        page.segments = []
    for segment in segments:
        if segment.element is None:
            continue
        page = owner.get(segment.element)
        if page is not None:
            page.segments.append(segment)
    for page in pages:
        page.segments.sort(key=lambda s: order[id(s)])
