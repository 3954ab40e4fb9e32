"""Reading a DocBook help tree (an AisleRiot-style ``index.docbook`` plus one file per page) into the model.

Parsing is closed to the outside world: no network, no DTD, no external entities, XInclude only for
files inside the source folder. The book is split into pages, sections get stable URL anchors, and
the pages are segmented for translation (:mod:`patiencebook.generator.docbook.segment`).
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.document import ATTR_ANCHOR, ATTR_VARIANT, NS_RULES, Document, Page
from patiencebook.generator.docbook.elements import ANCHORED_SECTIONS, BOOK_PAGE_ELEMENTS

#: XInclude namespaces libxml2 understands: the 2001 Recommendation and the 2003 draft AisleRiot uses.
XINCLUDE_NAMESPACES = ("http://www.w3.org/2001/XInclude", "http://www.w3.org/2003/XInclude")

#: DocBook elements that open a section of a page and therefore get an anchor (see .elements).
SECTION_TAGS = ANCHORED_SECTIONS
#: Elements written directly in the book file that become pages of their own.
BOOK_PAGE_TAGS = BOOK_PAGE_ELEMENTS

_INFO_TAGS = ("info", "bookinfo", "chapterinfo", "sectioninfo", "sect1info", "sect2info", "articleinfo")

#: The largest source file read (bytes); a DocBook page of the help is a few tens of KiB.
MAX_SOURCE_BYTES = 16 * 1024 * 1024
#: The most files a book may load through XInclude (each inclusion counts, the same file again too).
MAX_INCLUDED_FILES = 5000

# An external (SYSTEM or PUBLIC) entity declaration, general or parameter, in an internal subset.
_EXTERNAL_ENTITY = re.compile(
    r"<!ENTITY\s+(%\s+)?([^\s\"'>]+)\s+(SYSTEM|PUBLIC)\b")


@dataclass(frozen=True, eq=False, slots=True)
class SourceFile:
    """One parsed source file before XIncludes are replaced.

    Attributes:
        path: the file (absolute).
        root: its root element; once the book is assembled this element sits inside the book tree.
        entities: the general entities declared in the file's internal subset, name to literal value
            (as written, references unexpanded), in declaration order. Used to parse msgstrs the way
            itstool does, with the same entities defined.
        doctype_name: the name in the file's DOCTYPE (``"refentry"`` in AisleRiot's pages), or ``None``;
            informative only, never trusted.
    """

    path: Path
    root: etree._Element
    entities: dict[str, str] = field(default_factory=dict)
    doctype_name: str | None = None


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


_DECLARED_ENCODING = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def _as_text(data: bytes) -> str:
    """The file as text for a look at its internal subset: by its byte-order mark, else by the
    encoding its XML declaration names, else UTF-8 (undecodable bytes replaced)."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"),
                       (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(codec, errors="replace")
    match = _DECLARED_ENCODING.match(data)
    if match:
        try:
            return data.decode(match.group(1).decode("ascii"), errors="replace")
        except LookupError:
            pass
    return data.decode("utf-8", errors="replace")


def _check_internal_subset(path: Path, data: bytes) -> None:
    """Reject external entity declarations before the parser ever sees them (SourceError with the line)."""
    text = _as_text(data)
    start = text.find("<!DOCTYPE")
    if start < 0:
        return
    bracket = text.find("[", start)
    close = text.find(">", start)
    if bracket < 0 or (close >= 0 and close < bracket):
        return  # no internal subset
    end = text.find("]>", bracket)
    subset_end = len(text) if end < 0 else end
    match = _EXTERNAL_ENTITY.search(text, bracket, subset_end)
    if match:
        kind = "parameter entity" if match.group(1) else "entity"
        raise SourceError(
            f"external {kind} '{match.group(2)}' ({match.group(3)}) is not allowed; "
            "only entities with a literal value can be declared",
            path, _line_of(text, match.start()))


class _NothingResolver(etree.Resolver):
    """Answers every request for an external resource with nothing.

    libxml2 asks for the external DTD when an internal subset declares parameter entities (as
    AisleRiot's book file does); the DOCTYPE is not trusted, so the answer is always empty.
    """

    def resolve(self, url, pubid, context):  # noqa: D102 - lxml's resolver protocol
        return self.resolve_string("", context)


def safe_parser() -> etree.XMLParser:
    """A new lxml parser that never loads anything: no network, no DTD, no external entity.

    Entities declared in the document's own internal subset (AisleRiot's ``&app;``) are expanded
    (``resolve_entities="internal"``); line numbers are kept.
    """
    parser = etree.XMLParser(
        resolve_entities="internal", no_network=True, load_dtd=False, dtd_validation=False,
        attribute_defaults=False, huge_tree=False, remove_blank_text=False, collect_ids=False)
    parser.resolvers.add(_NothingResolver())
    return parser


def parse_xml(path: Path, data: bytes | None = None) -> etree._ElementTree:
    """Parse one XML file safely and return its tree, line numbers kept.

    Args:
        path: the file; read unless ``data`` is given (then only used in messages and as base URL).
        data: the file's bytes, if already read.

    Raises:
        SourceError: the file cannot be read, is larger than :data:`MAX_SOURCE_BYTES`, is not
            well-formed (``file:line`` and the parser's message), or declares an external entity.
    """
    if data is None:
        data = read_bounded(path, MAX_SOURCE_BYTES, SourceError)
    _check_internal_subset(path, data)
    parser = safe_parser()
    try:
        root = etree.fromstring(data, parser, base_url=str(path))
    except etree.XMLSyntaxError as error:
        # error.msg is this parse's own message; the error log can hold older entries.
        message = re.sub(r", line \d+, column \d+$", "", (error.msg or "syntax error").strip())
        raise SourceError(f"malformed XML: {message}", path, error.lineno or None) from None
    if root is None:
        raise SourceError("no root element", path)
    tree = root.getroottree()
    dtd = tree.docinfo.internalDTD
    if dtd is not None:
        for entity in dtd.iterentities():
            if entity.system_url:
                raise SourceError(f"external entity '{entity.name}' is not allowed", path)
    return tree


def read_bounded(path: Path, limit: int, error_class=SourceError) -> bytes:
    """The bytes of ``path``, refusing a file larger than ``limit`` bytes before reading it.

    Raises ``error_class`` (a :class:`~patiencebook.generator.errors.PatienceBookError`) naming
    the file when it cannot be read or is too large."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise error_class(f"cannot read file: {error.strerror or error}", path) from None
    if len(data) > limit:
        raise error_class(f"file is larger than {limit // (1024 * 1024)} MiB, the most a file may be", path)
    return data


def _entities_of(tree: etree._ElementTree) -> dict[str, str]:
    dtd = tree.docinfo.internalDTD
    if dtd is None:
        return {}
    return {e.name: (e.orig if e.orig is not None else (e.content or "")) for e in dtd.iterentities()}


class _Loader:
    """Parses the book file and, recursively, every file it XIncludes, confined to one folder."""

    def __init__(self, source_dir: Path):
        self.source_dir = source_dir.resolve()
        self.files: list[SourceFile] = []
        self.file_of_root: dict[etree._Element, SourceFile] = {}

    def load(self, path: Path, chain: tuple[Path, ...] = (), included_at: tuple[Path, int | None] | None = None
             ) -> SourceFile:
        if len(self.files) >= MAX_INCLUDED_FILES:
            where = included_at or (path, None)
            raise SourceError(f"the book loads more than {MAX_INCLUDED_FILES} files through XInclude; "
                              "is a file included over and over?", where[0], where[1])
        tree = parse_xml(path)
        root = tree.getroot()
        source = SourceFile(path, root, _entities_of(tree), tree.docinfo.internalDTD.name
                            if tree.docinfo.internalDTD is not None else None)
        self.files.append(source)
        self.file_of_root[root] = source
        self._resolve_includes(source, chain + (path,))
        return source

    def _resolve_includes(self, source: SourceFile, chain: tuple[Path, ...]) -> None:
        # Collected first (the tree changes as they are replaced), in document order, so that
        # pages keep the order in which the book includes them.
        tags = [f"{{{ns}}}include" for ns in XINCLUDE_NAMESPACES]
        includes = list(source.root.iter(*tags))
        for include in includes:
            self._resolve_one(source, include, chain)

    def _target(self, source: SourceFile, include: etree._Element) -> Path:
        href = include.get("href")
        line = include.sourceline
        if not href:
            raise SourceError("XInclude without href", source.path, line)
        if include.get("xpointer") is not None:
            raise SourceError(f"XInclude of '{href}' uses xpointer, which is not supported",
                              source.path, line)
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", href) or href.startswith(("/", "\\")):
            raise SourceError(f"XInclude of '{href}' points outside the source folder", source.path, line)
        target = (source.path.parent / href).resolve()
        if not target.is_relative_to(self.source_dir):
            raise SourceError(f"XInclude of '{href}' points outside the source folder", source.path, line)
        if not target.is_file():
            raise SourceError(f"XInclude of '{href}': no such file", source.path, line)
        return target

    def _resolve_one(self, source: SourceFile, include: etree._Element, chain: tuple[Path, ...]) -> None:
        target = self._target(source, include)
        parse = include.get("parse", "xml")
        parent = include.getparent()
        if parent is None:
            raise SourceError("an XInclude cannot be the root element", source.path, include.sourceline)
        if parse == "text":
            data = read_bounded(target, MAX_SOURCE_BYTES, SourceError)
            try:
                text = data.decode(include.get("encoding", "utf-8"))
            except (LookupError, UnicodeDecodeError) as error:
                raise SourceError(f"XInclude of '{include.get('href')}': {error}",
                                  source.path, include.sourceline) from None
            _replace_with_text(include, text)
            return
        if parse != "xml":
            raise SourceError(f"XInclude parse='{parse}' is not supported", source.path, include.sourceline)
        if target in chain:
            raise SourceError(f"XInclude of '{include.get('href')}' includes itself", source.path,
                              include.sourceline)
        included = self.load(target, chain, (source.path, include.sourceline))
        included.root.tail = include.tail
        parent.replace(include, included.root)


def _replace_with_text(element: etree._Element, text: str) -> None:
    parent = element.getparent()
    joined = text + (element.tail or "")
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + joined
    else:
        parent.text = (parent.text or "") + joined
    parent.remove(element)


def local_name(element: etree._Element) -> str:
    """The local name of an element (``"sect1"`` for ``{ns}sect1``); ``""`` for comments and PIs."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def plain_text(element: etree._Element | None) -> str:
    """The text of ``element`` with markup dropped and whitespace runs collapsed to one space."""
    if element is None:
        return ""
    return " ".join("".join(element.itertext()).split())


def title_element(element: etree._Element) -> etree._Element | None:
    """The ``title`` child of a DocBook element, or the title inside its ``*info`` child, or ``None``."""
    for child in element:
        if child.tag == "title":
            return child
    for child in element:
        if child.tag in _INFO_TAGS:
            for grandchild in child:
                if grandchild.tag == "title":
                    return grandchild
    return None


def slugify(text: str, default: str = "section") -> str:
    """An ASCII URL fragment for ``text``: ``"Foundation Piles"`` gives ``"foundation-piles"``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or default


def _page_kind(root: etree._Element, path: Path) -> str:
    tag = local_name(root)
    if tag == "legalnotice":
        return "legal"
    if tag == "glossary" or path.stem == "definitions" or root.get("id") in ("glossary", "definitions"):
        return "definitions"
    if tag == "sect1":
        return "game"
    return "chapter"


def own_elements(root: etree._Element, other_roots: set) -> list[etree._Element]:
    """Elements of ``root`` (itself included) that are not inside a nested page root."""
    out = []
    stack = [root]
    while stack:
        element = stack.pop()
        out.append(element)
        for child in reversed(element):
            if isinstance(child.tag, str) and child not in other_roots:
                stack.append(child)
    return out


def _assign_anchors(page: Page, elements: list[etree._Element]) -> None:
    """Give each section among ``elements`` (the page's own, see :func:`own_elements`) its anchor."""
    sections = [el for el in elements if local_name(el) in SECTION_TAGS and el.tag == local_name(el)]
    used = {el.get("id") for el in sections if el.get("id")}
    for element in sections:
        ident = element.get("id")
        if ident:
            element.set(ATTR_ANCHOR, ident)
            continue
        base = slugify(plain_text(title_element(element)))
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        element.set(ATTR_ANCHOR, anchor)


def _load_rules(page: Page, elements: list[etree._Element]) -> None:
    """Load the page's rules block and variants; ``elements`` are the page's own (see :func:`own_elements`)."""
    block = next((child for child in page.root
                  if isinstance(child.tag, str) and child.tag.startswith(f"{{{NS_RULES}}}")), None)
    marked = [el for el in elements if el.get(ATTR_VARIANT) is not None
              and not el.tag.startswith(f"{{{NS_RULES}}}")]
    if block is None:
        if marked:
            raise SourceError(f"{etree.QName(marked[0]).localname}: pb:variant={marked[0].get(ATTR_VARIANT)!r} on a page "
                              f"without a rules block", page.file, marked[0].sourceline)
        return
    try:
        rulesblock = importlib.import_module("patiencebook.generator.docbook.rulesblock")
    except ModuleNotFoundError as error:  # a tree without the rules-block reader still loads
        if error.name != "patiencebook.generator.docbook.rulesblock":
            raise
        return
    page.rules = rulesblock.load_rules(block, page.file)
    page.variants = rulesblock.load_variants(block, page.file)
    for el in marked:
        if el.get(ATTR_VARIANT) not in page.variants:
            known = ", ".join(sorted(page.variants)) or "none"
            raise SourceError(f"{etree.QName(el).localname}: pb:variant={el.get(ATTR_VARIANT)!r} names no variant of the "
                              f"rules block; variants: {known}", page.file, el.sourceline)


def load_document(source_dir: Path, book_file: str = "index.docbook", *, segments: bool = True) -> Document:
    """Read a DocBook help tree into a :class:`~patiencebook.generator.docbook.document.Document`.

    The book file and every file it XIncludes (only files inside ``source_dir``) are parsed without
    network, DTD or external entities; entities declared in a file's own internal subset are
    expanded. Each XIncluded file's root becomes a page (slug = file stem), and so does each
    ``chapter`` written directly in the book file (slug = its id). Sections get
    :data:`~patiencebook.generator.docbook.document.ATTR_ANCHOR`; pages with a rules block get ``rules``;
    the document is segmented as itstool segments it.

    Args:
        source_dir: folder holding the book file and its pages (``help/C`` in AisleRiot).
        book_file: the book file's name inside ``source_dir``.
        segments: False leaves ``segments`` empty, for a caller that wants the pages and their
            rules only (the embedded models).

    Returns:
        The document; ``pages`` in reading order (legal notices last), ``segments`` in itstool order.

    Raises:
        SourceError: a file is missing, unreadable, malformed or unsafe, an XInclude leaves the
            source folder, or two pages would get the same slug.
    """
    source_dir = Path(source_dir)
    book_path = (source_dir / book_file)
    if not source_dir.is_dir():
        raise SourceError("not a folder: the sources are a folder holding index.docbook" if source_dir.exists()
                          else "no such source folder", source_dir)
    if not book_path.is_file():
        raise SourceError(f"no book file '{book_file}' in the source folder", source_dir)
    loader = _Loader(source_dir)
    book_source = loader.load(book_path.resolve())
    book = book_source.root

    page_roots: list[tuple[etree._Element, Path, str]] = []  # (root, file, slug)
    for source in loader.files[1:]:
        page_roots.append((source.root, source.path, source.path.stem))
    for child in book:
        if isinstance(child.tag, str) and child.tag in BOOK_PAGE_TAGS and child not in loader.file_of_root:
            slug = child.get("id") or slugify(plain_text(title_element(child)), "chapter")
            page_roots.append((child, book_source.path, slug))

    # Document order of the page roots alone (a map of every element would cost more than the sort).
    order = {el: i for i, el in enumerate(book.iter(*{item[0].tag for item in page_roots}))}
    page_roots.sort(key=lambda item: order.get(item[0], 0))
    roots = {item[0] for item in page_roots}
    info = next((child for child in book if child.tag in _INFO_TAGS), None)

    pages: list[Page] = []
    seen: dict[str, Path] = {}
    for root, path, slug in page_roots:
        if slug in seen:
            raise SourceError(f"two pages would be named '{slug}' (also {seen[slug].name})", path,
                              root.sourceline)
        seen[slug] = path
        title = plain_text(title_element(root))
        pages.append(Page(slug=slug, id=root.get("id"), title=title, kind=_page_kind(root, path),
                          file=path, root=root))
    # A legal notice sits inside the book's info; readers meet it last, not first.
    pages.sort(key=lambda p: p.kind == "legal")
    for page in pages:
        # Anchors change attributes only, so the page's own elements are the same for both.
        elements = own_elements(page.root, roots - {page.root})
        _assign_anchors(page, elements)
        _load_rules(page, elements)

    front = None
    if info is not None:
        front = Page(slug="index", id=book.get("id"), title=plain_text(title_element(book)),
                     kind="book", file=book_source.path, root=info)
    document = Document(source_dir=source_dir.resolve(), book_file=book_source.path,
                        title=plain_text(title_element(book)), book=book, pages=pages, segments=[],
                        files=list(loader.files), front=front)

    if segments:
        from patiencebook.generator.docbook.segment import segment_document
        segment_document(document)
    return document


__all__ = ["SourceFile", "load_document", "parse_xml", "safe_parser", "local_name", "plain_text", "title_element",
           "slugify", "XINCLUDE_NAMESPACES"]
