"""What each unit of a catalog is, for the rule comparison: its role, the names in it, its page's model.

A title or an option's name, a strategy hint, credits and the legal notice are read as what they are
(:class:`~.statements.UnitContext`); game names are masked so that "Thirteen" is no number; the
page's rules model (its own rules block or the embedded model it borrows) is the third witness.
"""

from __future__ import annotations

from babel.messages.catalog import Catalog

from patiencebook.generator.docbook.document import Document, Page, Segment
from patiencebook.generator.docbook.sources import local_name, plain_text

from .facts import UNLIMITED
from .glossary import plain_message
from .statements import ModelFacts, UnitContext

#: Elements whose text is a heading or a name, not a rule statement.
TITLE_ELEMENTS = frozenset({"title", "titleabbrev", "subtitle", "term", "refname", "refpurpose"})
#: Elements inside which nothing is a rule: credits, legal text, front matter.
OTHER_ELEMENTS = frozenset({"legalnotice", "bookinfo", "articleinfo", "info", "author", "authorgroup",
                            "othercredit", "copyright", "publisher", "address", "affiliation", "revhistory",
                            "abstract"})
#: Section titles (lower case, English) whose paragraphs give advice rather than rules.
STRATEGY_TITLES = frozenset({"strategy", "strategies", "hints", "hint", "tips"})
_SECTIONS = frozenset({"sect1", "sect2", "sect3", "sect4", "section", "simplesect"})
_MATCH_WORDS = {"same-suit": "suit", "same-colour": "colour", "alternate-colour": "alternate"}


def segment_role(segment: Segment, page: Page | None, sections: dict | None = None) -> str:
    """``"title"``, ``"strategy"``, ``"other"`` or ``"rule"`` for one segment (see :class:`UnitContext`).

    ``sections`` keeps, from one call to the next, whether a section element is a strategy section
    (callers that read many segments of one document pass the same dict)."""
    if segment.msgctxt == "_" or segment.msgid == "translator-credits":
        return "other"
    if page is not None and page.kind in ("legal", "book"):
        return "other"
    element = segment.element
    if element is None:
        return "rule"
    if local_name(element) in TITLE_ELEMENTS:
        return "title"
    if local_name(element) == "entry":
        row = element.getparent()
        entries = [e for e in row if local_name(e) == "entry"] if row is not None else []
        if entries and entries[0] is element and len(entries) > 1:
            return "title"  # the label column of a Setup table
    node = element
    while node is not None:
        name = local_name(node)
        if name in OTHER_ELEMENTS:
            return "other"
        if name in _SECTIONS:
            strategy = sections.get(node) if sections is not None else None
            if strategy is None:
                strategy = _strategy_section(node)
                if sections is not None:
                    sections[node] = strategy
            if strategy:
                return "strategy"
        node = node.getparent()
    return "rule"


def _strategy_section(section) -> bool:
    """Whether a section's title names advice (see :data:`STRATEGY_TITLES`)."""
    title = next((c for c in section if local_name(c) == "title"), None)
    return title is not None and plain_text(title).strip().lower() in STRATEGY_TITLES


def model_facts(page: Page | None) -> ModelFacts | None:
    """The page's rules model as the comparison weighs it, or ``None`` without one."""
    rules = getattr(page, "rules", None)
    if rules is None:
        return None
    def redeals_of(ruleset):
        if ruleset.stock is None:
            return 0
        return UNLIMITED if ruleset.stock.redeals is None else ruleset.stock.redeals
    counts = {redeals_of(r) for r in [rules, *page.variants.values()]}
    builds = []
    for group in rules.piles:
        if group.build is None or group.build.direction.value not in ("up", "down"):
            continue
        builds.append((group.role.value, group.build.direction.value, _MATCH_WORDS.get(group.build.match.value)))
    return ModelFacts(redeals=counts.pop() if len(counts) == 1 else None, builds=tuple(dict.fromkeys(builds)))


def _page_of(document: Document) -> dict[int, Page]:
    out = {}
    for page in [*document.pages, *([document.front] if getattr(document, "front", None) else [])]:
        for segment in page.segments:
            out.setdefault(id(segment), page)
    return out


def game_names(document: Document) -> dict[str, str]:
    """English game names (the titles of game pages, as plain text) -> the msgid of their title."""
    names = {}
    for page in document.pages:
        if page.kind != "game":
            continue
        for segment in page.segments:
            if segment.element is not None and local_name(segment.element) == "title" \
                    and segment.element.getparent() is page.root:
                names[page.title] = segment.msgid
                break
    return names


def masked_names(document: Document, names: dict[str, str] | None = None) -> tuple[str, ...]:
    """The English game names that are no rule facts in any unit of ``document`` (its
    :func:`game_names`, or ``names`` when the caller has them), longest first as
    :attr:`UnitContext.names` holds them."""
    return tuple(sorted(game_names(document) if names is None else names, key=len, reverse=True))


def catalog_contexts(document: Document, catalog: Catalog | None = None,
                     lexicon: str | None = None) -> dict[tuple[str | None, str], UnitContext]:
    """A :class:`UnitContext` for each (msgctxt, msgid) of ``document``.

    ``catalog`` gives the translated game names to mask in the msgstrs (without it, only the
    English names are masked); ``lexicon`` is the translation's lexicon key for every unit. A
    message used on several pages takes the role and model of its first use.
    """
    pages = _page_of(document)
    names = game_names(document)
    english = masked_names(document, names)
    translated: list[str] = []
    if catalog is not None:
        for msgid in names.values():
            message = catalog.get(msgid)
            if message is not None and message.string and not message.fuzzy:
                text = message.string if isinstance(message.string, str) else message.string[0]
                translated.append(plain_message(text))
    # Longest first (a name inside a longer one is masked with it), then by text: the same order in
    # every run, as the memo of the fact checks keys on it (facts.use_fact_memo).
    translated_names = tuple(sorted(set(translated), key=lambda name: (-len(name), name)))
    models: dict[int, ModelFacts | None] = {}
    sections: dict = {}  # section element -> whether it gives advice (see segment_role)
    out: dict[tuple[str | None, str], UnitContext] = {}
    for segment in document.segments:
        key = (segment.msgctxt, segment.msgid)
        if key in out:
            continue
        page = pages.get(id(segment))
        if page is not None and id(page) not in models:
            models[id(page)] = model_facts(page)
        model = models.get(id(page)) if page is not None else None
        out[key] = UnitContext(role=segment_role(segment, page, sections), names=english,
                               translated_names=translated_names, lexicon=lexicon, model=model)
    return out


def checked_contexts(document: Document, catalog: Catalog, lang: str, catalogs=None, glossary=None) -> dict:
    """The contexts ``patiencebook check`` gives the units of ``catalog`` (language ``lang``, in
    the catalogs folder ``catalogs``): :func:`catalog_contexts` with the rule facts read through the
    terms the catalog's glossary agrees on (:func:`~.terminology.agreed_terms`). A language without
    a lexicon gets the contexts without a lexicon of its own. ``glossary`` is the catalog's
    glossary when the caller has loaded it already (:func:`~.terminology.load_glossary`)."""
    from pathlib import Path

    from patiencebook.generator.errors import LanguageError

    from .facts import lexicon_key
    from .terminology import agreed_terms, load_glossary

    code = lang.split("_")[0].split("@")[0]
    try:
        if glossary is None:
            glossary = load_glossary(document, catalog, lang, Path(catalogs) if catalogs is not None else None)
        lexicon = lexicon_key(code, agreed_terms(glossary, lang))
    except LanguageError:
        lexicon = None
    return catalog_contexts(document, catalog, lexicon)


__all__ = ["OTHER_ELEMENTS", "STRATEGY_TITLES", "TITLE_ELEMENTS", "catalog_contexts", "checked_contexts", "game_names",
           "masked_names", "model_facts", "segment_role"]
