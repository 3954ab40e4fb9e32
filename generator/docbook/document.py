"""The document model: a help book read from DocBook sources, split into pages and translatable segments.

Produced by :mod:`patiencebook.generator.docbook.sources` (reading) and :mod:`patiencebook.generator.docbook.segment`
(itstool-compatible segmentation); consumed by extraction, translation, rendering and checks.
Trees are lxml elements that keep their source line numbers (``element.sourceline``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from lxml import etree

#: XML namespace of the machine-readable rules block inside a rules source. DocBook tools and
#: itstool ignore it; it never reaches a catalog.
NS_RULES = "urn:x-patiencebook:rules:1"
#: XML namespace of attributes the generator adds to translated trees (never in sources).
NS_BUILD = "urn:x-patiencebook:build:1"
#: ``{NS_BUILD}fallback`` on a block element: the block is shown in English, and why
#: (``"untranslated"`` or ``"fuzzy"``). Such a block also carries ``xml:lang="en"``.
ATTR_FALLBACK = f"{{{NS_BUILD}}}fallback"
#: ``{NS_BUILD}anchor`` on a section element: its URL fragment, from the English source, the same
#: in every language.
ATTR_ANCHOR = f"{{{NS_BUILD}}}anchor"
#: ``pb:variant="ID"`` on a DocBook element of a game page (a ``listitem`` of its Options): the
#: element describes that rule variant of the page's rules block, and the build adds the variant's
#: solver figure to it.
ATTR_VARIANT = f"{{{NS_RULES}}}variant"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: ``{NS_BUILD}trace`` inside an ``example``: its text is the example's JSON trace
#: (:func:`patiencebook.generator.docbook.examples.trace`).
TAG_TRACE = f"{{{NS_BUILD}}}trace"
#: ``{NS_BUILD}step`` on each ``step`` of a traced example: its 1-based number in the trace.
ATTR_STEP = f"{{{NS_BUILD}}}step"
#: ``{NS_BUILD}setup-picture``, first in a game page's Setup section: holds the setup's ``svg``.
TAG_SETUP_PICTURE = f"{{{NS_BUILD}}}setup-picture"
#: ``{NS_BUILD}board``, last on a game page: its text is the live board's JSON data.
TAG_BOARD = f"{{{NS_BUILD}}}board"


@dataclass(eq=False, slots=True)
class Segment:
    """One occurrence of a translatable block, as itstool segments DocBook.

    Attributes:
        msgid: whitespace-normalised block content with inline markup kept (itstool's msgid).
        msgctxt: message context, ``None`` for ordinary blocks (``"_"`` for translator-credits).
        path: itstool's path comment, e.g. ``"sect2/title"`` (parent/element local names).
        file: the source file the block comes from.
        line: 1-based line of the block's start tag in ``file`` (0 for translator-credits).
        element: the block element inside its page tree (``None`` for translator-credits).
        comment: extracted comment for translators (``#.`` lines other than the path), or ``None``.
        placeholders: the nested blocks (and untranslatable elements) of ``element`` that the msgid
            stands for as ``<_:name-N/>``, in order (N is the 1-based position in this list).
        preserve_space: the block keeps its whitespace (``programlisting``, ``screen``...); the msgid
            is then not normalised and the POT unit is ``no-wrap``.
    """

    msgid: str
    msgctxt: str | None
    path: str
    file: Path
    line: int
    element: "etree._Element | None" = None
    comment: str | None = None
    placeholders: "list[etree._Element]" = field(default_factory=list)
    preserve_space: bool = False


@dataclass(eq=False, slots=True)
class Page:
    """One page of the help: a game (``sect1``), the definitions, a front-matter chapter, the legal notice.

    Attributes:
        slug: URL name of the page (``"hamilton"`` gives ``hamilton.html``), the same in every language.
        id: DocBook ``id`` of the page's root element, or ``None``.
        title: the English title as plain text.
        kind: ``"game"``, ``"definitions"``, ``"chapter"`` or ``"legal"`` (``"book"`` for
            ``Document.front``, which is not in ``Document.pages``).
        file: the source file the page's root element came from.
        root: the page's root element (with its XIncludes resolved); sections carry ``ATTR_ANCHOR``.
        segments: the page's translatable segments in document order.
        rules: the engine rules model loaded from the page's rules block, or ``None`` without one.
        variants: the rule variants the block states, variant id -> ruleset (``rules`` among them,
            under its own id); empty for a game without variants.
    """

    slug: str
    id: str | None
    title: str
    kind: str
    file: Path
    root: "etree._Element"
    segments: list[Segment] = field(default_factory=list)
    rules: Any = None
    variants: dict = field(default_factory=dict)


@dataclass(eq=False, slots=True)
class Document:
    """A whole help book.

    Attributes:
        source_dir: the folder holding the book file and its pages (XInclude is confined to it).
        book_file: the book file (``index.docbook`` in AisleRiot's tree).
        title: the book's English title as plain text.
        book: root element of the book, XIncludes resolved.
        pages: the pages in reading order.
        segments: every segment of every source file, in itstool's order (book file first, then the
            other files sorted by name, as GNOME's build gives them to itstool; within a file a
            nested block comes before the block holding it), for catalog extraction. Segments with
            ``element`` ``None`` (translator-credits, image references) belong to no page.
        files: every parsed source file (``sources.SourceFile``: path, root, internal entities), the
            book file first, then in the order they are included.
        front: the book's front matter (``bookinfo``: title, abstract...) as a page of kind ``"book"``
            with slug ``"index"``, or ``None``; not part of ``pages``.
    """

    source_dir: Path
    book_file: Path
    title: str
    book: "etree._Element"
    pages: list[Page]
    segments: list[Segment]
    files: list[Any] = field(default_factory=list)
    front: Page | None = None

    def page(self, slug: str) -> Page:
        """The page named ``slug``; raises ``KeyError`` when there is none."""
        for page in self.pages:
            if page.slug == slug:
                return page
        raise KeyError(slug)


@dataclass(eq=False, slots=True)
class TranslatedPage:
    """A page with one language's translations applied block by block.

    Attributes:
        page: the source page.
        root: a copy of ``page.root`` with each translated block's content replaced by its msgstr;
            blocks that fell back to English carry ``ATTR_FALLBACK`` and ``xml:lang="en"``. Pages
            nested in it (the games in their chapter) appear translated as well.
        total: number of translatable blocks on the page (its own, not those of nested pages).
        translated: blocks shown in the target language.
        fuzzy: blocks shown in English because their unit is fuzzy.
        untranslated: blocks shown in English because their unit is missing or empty.
        problems: translations that could not be used, as ``(po_line, message)``: a msgstr that is
            not well-formed XML or uses a placeholder its msgid lacks (the block is shown in English).
    """

    page: Page
    root: "etree._Element"
    total: int = 0
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    problems: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def title(self) -> str:
        """The page's title as shown (translated, or English where it fell back), as plain text."""
        for child in self.root:
            if child.tag == "title":
                return " ".join("".join(child.itertext()).split())
        return self.page.title


@dataclass(eq=False, slots=True)
class TranslatedDocument:
    """A whole book in one language: gettext code ``lang`` (``"de"``, ``"sr@latin"``, ``"en"``).

    ``front`` is ``document.front`` translated (the index page's title, abstract...), or ``None``.
    """

    document: Document
    lang: str
    title: str
    pages: list[TranslatedPage]
    front: TranslatedPage | None = None

    def page(self, slug: str) -> TranslatedPage:
        """The translated page named ``slug``; raises ``KeyError`` when there is none."""
        for page in self.pages:
            if page.page.slug == slug:
                return page
        raise KeyError(slug)

    @property
    def coverage(self) -> float:
        """Share of blocks shown in the target language, 0.0 to 1.0 (1.0 for an empty book)."""
        total = sum(p.total for p in self.pages)
        return 1.0 if total == 0 else sum(p.translated for p in self.pages) / total
