"""The DocBook elements the project gives a meaning of its own, in one table each.

Read by the source reader (:mod:`.sources`: which sections get an anchor) and by the Sphinx
parser (:mod:`patiencebook.generator.sphinxext.parser`: which elements are rendered as sections).
"""

from __future__ import annotations

#: Elements that open a section, each with whether it gets an anchor of its own (an ``id`` for
#: links and the page's contents: the sectioning elements of a page) or is rendered as a section
#: only (front and back matter, reference sections, glossary divisions).
SECTION_ELEMENTS: dict[str, bool] = {
    "sect1": True, "sect2": True, "sect3": True, "sect4": True, "sect5": True, "section": True,
    "simplesect": True, "chapter": True, "appendix": True, "preface": True, "glossary": True,
    "legalnotice": False, "article": False, "partintro": False, "refsect1": False, "refsect2": False,
    "refsect3": False, "glossdiv": False,
}
#: The elements of :data:`SECTION_ELEMENTS` that get an anchor.
ANCHORED_SECTIONS = frozenset(name for name, anchored in SECTION_ELEMENTS.items() if anchored)
#: Elements written directly in the book file that become pages of their own.
BOOK_PAGE_ELEMENTS = frozenset({"chapter", "appendix", "preface", "glossary", "article", "reference"})

__all__ = ["ANCHORED_SECTIONS", "BOOK_PAGE_ELEMENTS", "SECTION_ELEMENTS"]
