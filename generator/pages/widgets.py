"""What the build adds to a game page before Sphinx renders it: the picture of the setup, the
traces of the examples and the live board, every text in the page's language (or, where it has no
wording of ours yet, in English marked so).

Works on a translated page tree (:class:`~patiencebook.generator.docbook.document.TranslatedPage`); the Sphinx
DocBook parser turns the added ``{NS_BUILD}`` elements into HTML.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from lxml import etree

from patiencebook.engine import Ruleset
from patiencebook.engine.rules import pile_id
from patiencebook.generator.docbook.examples import TAG_REPLAY, Replay, find_examples, trace
from patiencebook.generator.docbook.document import (ATTR_STEP, ATTR_VARIANT, TAG_BOARD, TAG_SETUP_PICTURE, TAG_TRACE,
                                                     XML_LANG,
                                                     TranslatedPage)
from patiencebook.generator.docbook.sources import own_elements

__all__ = ["pile_labels", "pile_names", "add_widgets"]


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _index_path(root: etree._Element, element: etree._Element) -> list[int]:
    path = []
    while element is not root:
        parent = element.getparent()
        path.append(parent.index(element))
        element = parent
    return path[::-1]


def _follow(root: etree._Element, path: list[int]) -> etree._Element | None:
    element = root
    for index in path:
        if index >= len(element):
            return None
        element = element[index]
    return element


def pile_labels(tpage: TranslatedPage) -> dict[str, str]:
    """Each pile group's label as the page shows it: group id -> the translated Setup-table label.

    A group's label (``label=`` in the rules block) is looked up among the first cells of the
    source page's tables; the cell at the same place in the translated tree gives the text shown
    (the English label when the cell fell back or is missing).
    """
    ruleset: Ruleset = tpage.page.rules
    cells: dict[str, etree._Element] = {}
    for row in tpage.page.root.iter("row"):
        entries = row.findall("entry")
        if entries:
            cells.setdefault(_text(entries[0]), entries[0])
    labels: dict[str, str] = {}
    for group in ruleset.piles:
        cell = cells.get(group.label)
        shown = _follow(tpage.root, _index_path(tpage.page.root, cell)) if cell is not None else None
        labels[group.id] = (_text(shown) if shown is not None else "") or group.label
    return labels


def pile_names(ruleset: Ruleset, labels: Mapping[str, str]) -> dict[str, str]:
    """Each pile id's name (:func:`~patiencebook.engine.rules.pile_id`): its group's label from
    ``labels`` (group id -> label; the rules' own label where it has none), numbered when the
    group has several piles (``{"tableau3": "Tableau 3"}``). The one place piles get names, for
    the examples, the live board and ``play``."""
    names: dict[str, str] = {}
    for g in ruleset.piles:
        label = labels.get(g.id, g.label)
        for n in range(1, g.count + 1):
            names[pile_id(g, n)] = label if g.count == 1 else f"{label} {n}"
    return names


def _setup_section(root: etree._Element, other_roots: set) -> etree._Element | None:
    sections = [el for el in own_elements(root, other_roots) if el.tag == "sect2"]
    for section in sections:
        if (section.get("id") or "").endswith("setup"):
            return section
    return next((s for s in sections if s.find(".//informaltable") is not None), None)


def _goal_section(root: etree._Element, other_roots: set) -> etree._Element | None:
    sections = [el for el in own_elements(root, other_roots) if el.tag == "sect2"]
    return next((s for s in sections if (s.get("id") or "").endswith("goal")), None)


def _mark_lang(element: etree._Element, ui_lang: Callable[[str], str] | None, key: str, page_lang: str) -> None:
    """Give ``element`` ``xml:lang`` when interface string ``key`` is not in the page's language."""
    tag = ui_lang(key) if ui_lang is not None else page_lang
    if tag and tag != page_lang:
        element.set(XML_LANG, tag)


def add_widgets(tpage: TranslatedPage, root: etree._Element, replays: Mapping[Any, Replay], lang: str,
                ui: Mapping[str, str], title: str, board: Callable[[dict[str, str]], dict[str, Any]] | None = None,
                other_roots: set | frozenset = frozenset(), figure: str | None = None,
                variant_figures: Mapping[str, str] | None = None,
                ui_lang: Callable[[str], str] | None = None, page_lang: str = "") -> None:
    """Add the setup picture, the example traces, the solver figure (when given) and (when ``board``
    is given) the live board's data to ``root`` in place.

    Args:
        tpage: a game page (``tpage.page.rules`` set) translated into ``lang``.
        root: the tree to change: a copy of ``tpage.root`` (never the source tree), not yet changed.
        replays: the page's examples as played, by :class:`~patiencebook.generator.docbook.examples.Example`
            (:func:`~patiencebook.generator.docbook.examples.check_examples`).
        lang: gettext code; ``ui`` the language's interface strings; ``title`` the page's title.
        board: called with the pile names, gives the live board's JSON data
            (:func:`patiencebook.generator.pages.board.board_payload`); ``None``: no board.
        other_roots: roots of pages nested in this one (their examples are not this page's).
        figure: the measured share of deals that can be won, as a sentence in ``lang``
            (:func:`patiencebook.generator.pages.figures.figure_sentence`); it ends the Goal section (or
            the Setup section when the page has no Goal section).
        variant_figures: variant id -> its figure as a sentence in ``lang``; each ends the elements
            marked ``pb:variant="ID"`` (:data:`~patiencebook.generator.docbook.document.ATTR_VARIANT`), such as
            the variant's item in the Options section.
        ui_lang: interface string key -> BCP 47 tag of the language ``ui`` gives it in
            (:func:`patiencebook.generator.languages.ui_string_tag`); where that is not ``page_lang``
            (English standing in for a wording the language lacks), the picture's words and the
            figures say so with ``lang`` (``xml:lang`` on a figure's paragraph). ``None``: all in
            the page's language.
        page_lang: BCP 47 tag of the page's language.
    """
    from patiencebook.generator.pages.layout import pile_layout
    from patiencebook.generator.pages.setuppicture import setup_svg

    page = tpage.page
    ruleset: Ruleset = page.rules
    labels = pile_labels(tpage)
    names = pile_names(ruleset, labels)
    layout = pile_layout(ruleset)

    section = _setup_section(root, set(other_roots))
    if section is not None:
        holder = etree.Element(TAG_SETUP_PICTURE)
        picture_lang = ui_lang("setup_picture") if ui_lang is not None else page_lang
        holder.append(setup_svg(ruleset, labels, dict(ui), title,
                                ui_lang=picture_lang if picture_lang != page_lang else None,
                                label_lang=page_lang or None))
        title_el = section.find("title")
        section.insert(section.index(title_el) + 1 if title_el is not None else 0, holder)

    if figure is not None:
        place = _goal_section(root, set(other_roots))
        if place is None:
            place = section
        if place is not None:
            para = etree.SubElement(place, "para", role="pb-solved")
            para.text = figure
            _mark_lang(para, ui_lang, "solved_figure", page_lang)
    for element in own_elements(root, set(other_roots)):
        sentence = (variant_figures or {}).get(element.get(ATTR_VARIANT) or "")
        if sentence is not None:
            para = etree.SubElement(element, "para", role="pb-solved")
            para.text = sentence
            _mark_lang(para, ui_lang, "solved_figure", page_lang)

    source_examples = find_examples(page, set(other_roots))
    shown = [el for el in own_elements(root, set(other_roots))
             if el.tag == "example" and el.find(TAG_REPLAY) is not None]
    for example, element in zip(source_examples, shown):
        steps = element.findall("procedure/step")
        notes = {}
        for n, step in enumerate(steps, 1):
            step.set(ATTR_STEP, str(n))
            note = " ".join(_text(child) for child in step if isinstance(child.tag, str))
            if note:
                notes[n] = note
        replay_el = element.find(TAG_REPLAY)
        element.remove(replay_el)
        data = trace(replays[example], lang, ui, names, notes, layout)
        holder = etree.SubElement(element, TAG_TRACE)
        holder.text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    if board is not None:
        holder = etree.SubElement(root, TAG_BOARD)
        holder.text = json.dumps(board(names), ensure_ascii=False, separators=(",", ":"))
