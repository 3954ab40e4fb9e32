"""A picture of a game's setup, drawn from the rules model: every pile where the layout puts it,
holding as many cards as the opening deal gives it, face up or face down, with no particular cards.

The result is one self-contained SVG element (no scripts, fonts, links or styles from outside) with
an accessible name and a description in words, for the Setup section of a game's page.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from lxml import etree

from patiencebook.engine.plurals import plural_category
from patiencebook.engine.rules import PileGroup, Ruleset, pile_id
from patiencebook.generator.pages.layout import (CARD_HEIGHT, CARD_WIDTH, FAN_FACE_DOWN, FAN_FACE_UP, FAN_RIGHT, GAP,
                                                 pile_layout, start_faces)

__all__ = ["SVG_NS", "setup_svg", "setup_description"]

SVG_NS = "http://www.w3.org/2000/svg"

# Drawing units per layout unit. Whole numbers keep the markup short, and user units of about a pixel
# keep browsers' minimum font size settings from enlarging the text.
_SCALE = 100

_FELT = "#25663f"
_FELT_EDGE = "#1a4a2d"
_FACE = "#fffdf7"
_FACE_EDGE = "#55595c"
_FACE_MARK = "#b3b7ba"
_FACE_FRAME = "#e2ded2"
_BACK = "#2b5797"
_BACK_EDGE = "#142f5a"
_BACK_LINE = "#a9c2ea"
_EMPTY_FILL = "#1d5533"
_EMPTY_LINE = "#cfe6d6"
_LABEL = "#ffffff"
_CAPTION = "#e6f2ea"

_RADIUS = 0.08
_LABEL_SIZE = 0.3
_CAPTION_SIZE = 0.25
_MIN_SIZE = 0.15
#: The width in pixels a picture is usually shown at (the text column; pb-example.css caps it at 42em).
#: A wide table (Baker's Dozen's thirteen piles) is drawn smaller, so its text gets bigger in card widths
#: to keep about these pixel sizes.
_SHOWN_WIDTH = 640.0
_LABEL_PX = 14.5
_CAPTION_PX = 12.0
#: A caption or label that would come out smaller than this at the shown width is broken into two
#: lines at a space ("κανένα φύλλο", "без карата" under a narrow pile).
_WRAP_PX = 10.5
#: The least text size in pixels the picture is shown with (WCAG's readable minimum for small print):
#: the SVG carries the width that gives it (``--pb-min-width``), and a narrow screen scrolls the
#: picture sideways rather than shrink it below (pb-example.css).
_READABLE_PX = 11.0
#: Line height, and how far glyphs reach above and below the baseline, in font sizes (generous, for
#: accents on capitals and descenders).
_LINE = 1.15
_ASCENT = 0.8
_DESCENT = 0.25
#: Space between a caption and the label of the row below it.
_TEXT_GAP = 0.12
#: A pile that does not fan shows its thickness: each card under the top one peeks out a little.
_STACK_STEP = 0.012
_STACK_MAX = 0.16
_STACK_CHANGE = 0.05
_PAD = 0.2


def _num(value: float) -> str:
    text = f"{value * _SCALE:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _el(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    # Keyword names cannot hold "-": write them with "_" and turn them back here.
    return etree.SubElement(parent, f"{{{SVG_NS}}}{tag}", {k.replace("_", "-"): v for k, v in attrs.items()})


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif face at ``size`` (layout units);
    no font metrics are at hand, and an overestimate only makes text a little smaller."""
    width = 0.0
    for ch in text:
        if ch in " .,:;'|!il()[]":
            width += 0.3
        elif ch in "mwMWШЖМЩЮΜΩΨ":
            width += 0.88
        elif ch.isupper():
            # Greek and Cyrillic capitals (П, Δ, Ж) run wider than Latin ones in common sans faces.
            width += 0.7 if ch.isascii() else 0.75
        elif ch.isdigit() or ch.isascii():
            width += 0.56
        else:
            width += 0.6
    return width * size * (1.06 if bold else 1.0)


def _fit(text: str, size: float, room: float, bold: bool = False) -> float:
    width = _text_width(text, size, bold)
    if width <= room:
        return size
    return max(_MIN_SIZE, size * room / width)


def _lines(text: str, size: float, room: float, wrap_below: float,
           bold: bool = False) -> tuple[tuple[str, ...], float]:
    """``text`` as one line, or two lines broken at the space that lets them be biggest when one line
    would have to shrink below ``wrap_below``; returns the lines and their font size (layout units)."""
    single = _fit(text, size, room, bold)
    if single >= wrap_below or " " not in text:
        return (text,), single
    best: tuple[tuple[str, ...], float] = ((text,), single)
    for i, ch in enumerate(text):
        if ch == " ":
            lines = (text[:i].rstrip(), text[i + 1:].lstrip())
            fitted = min(_fit(line, size, room, bold) for line in lines)
            if all(lines) and fitted > best[1]:
                best = (lines, fitted)
    return best


def _amount(count: int, ui: dict[str, str]) -> str:
    """The count of a pile in words: ``setup_empty``, ``setup_one_card``, or ``setup_cards``, which
    may be a plural template (CLDR categories of the language's ``plural_rules``, ``"=N"`` exact
    values), as the messages of play are (Serbian "2 карте", "5 карата", "21 карта")."""
    if count == 0:
        return ui["setup_empty"]
    if count == 1:
        return ui["setup_one_card"]
    template: Any = ui["setup_cards"]
    if isinstance(template, dict):
        rules = ui.get("plural_rules")
        category = plural_category(rules, count) if isinstance(rules, dict) else "other"
        template = template.get(f"={count}") or template.get(category) or template["other"]
    return template.format(count=count)


def _face_options(faces: tuple[bool, ...]) -> tuple[str, ...]:
    """The face words (ui keys) that describe a non-empty pile; a single face-up card is described by
    both "face up" and "top card face up", so that a tableau of 1, 2, 3 ... cards dealt top-up reads
    as one phrase."""
    if all(faces):
        return ("setup_face_up", "setup_top_up") if len(faces) == 1 else ("setup_face_up",)
    if not any(faces):
        return ("setup_face_down",)
    if faces[-1] and not any(faces[:-1]):
        return ("setup_top_up",)
    return ()


def _runs(faces: tuple[bool, ...], ui: dict[str, str]) -> str:
    """Mixed faces, bottom to top: "1 card face up, 12 cards face down"."""
    parts: list[str] = []
    start = 0
    for i in range(1, len(faces) + 1):
        if i == len(faces) or faces[i] != faces[start]:
            word = ui["setup_face_up"] if faces[start] else ui["setup_face_down"]
            parts.append(f"{_amount(i - start, ui)} {word}")
            start = i
    return ", ".join(parts)


def _group_words(piles: list[tuple[bool, ...]], ui: dict[str, str]) -> str:
    counts = [len(f) for f in piles]
    if not any(counts):
        return ui["setup_empty"]
    if len(counts) == 1:
        amount = _amount(counts[0], ui)
    else:
        amount = ui["setup_per_pile"].format(counts=", ".join(str(n) for n in counts))
    filled = [f for f in piles if f]
    common: set[str] | None = None
    for faces in filled:
        options = set(_face_options(faces))
        common = options if common is None else common & options
    for key in ("setup_face_up", "setup_face_down", "setup_top_up"):
        if common and key in common:
            return f"{amount}, {ui[key]}"
    if len(filled) == 1:
        return f"{amount} ({_runs(filled[0], ui)})"
    return f"{amount} ({'; '.join(_runs(f, ui) if f else ui['setup_empty'] for f in piles)})"


def setup_description(ruleset: Ruleset, labels: dict[str, str], ui: dict[str, str]) -> str:
    """Each pile group of ``ruleset`` with its cards after the deal, in words, one sentence per group:
    ``"Stock: 24 cards, face down. Tableau: 1, 2, 3, 4, 5, 6, 7 cards, face up."``.

    ``labels`` maps a group id to its label in the page's language (the group's English ``label`` when
    missing); ``ui`` holds the ``setup_*`` strings (:func:`~patiencebook.generator.languages.ui_strings`).
    Raises ``KeyError`` when a ``setup_*`` string is missing from ``ui``.
    """
    faces = start_faces(ruleset)
    sentences = []
    for group in ruleset.piles:
        piles = [faces[pid] for pid in _group_ids(group)]
        sentences.append(f"{_label(group, labels)}: {_group_words(piles, ui)}.")
    return " ".join(sentences)


def _group_ids(group: PileGroup) -> list[str]:
    return [pile_id(group, n) for n in range(1, group.count + 1)]


def _label(group: PileGroup, labels: dict[str, str]) -> str:
    return labels.get(group.id) or group.label


class _Box:
    """Bounds of what is drawn, to size the picture's viewBox."""

    def __init__(self) -> None:
        self.left = self.top = float("inf")
        self.right = self.bottom = float("-inf")

    def add(self, x: float, y: float, w: float, h: float) -> None:
        self.left, self.top = min(self.left, x), min(self.top, y)
        self.right, self.bottom = max(self.right, x + w), max(self.bottom, y + h)


def _card(parent: etree._Element, x: float, y: float, face_up: bool, covered: bool = False) -> None:
    """One card; a ``covered`` one (under another card of a stack) shows only its edge, so it gets no
    inner marks."""
    if covered:
        g = _el(parent, "g", **{"class": f"pb-setup-card pb-setup-face-{'up' if face_up else 'down'}"})
        _el(g, "rect", x=_num(x), y=_num(y), width=_num(CARD_WIDTH), height=_num(CARD_HEIGHT), rx=_num(_RADIUS),
            fill=_FACE if face_up else _BACK, stroke=_FACE_EDGE if face_up else _BACK_EDGE,
            stroke_width=_num(0.02))
    elif face_up:
        g = _el(parent, "g", **{"class": "pb-setup-card pb-setup-face-up"})
        _el(g, "rect", x=_num(x), y=_num(y), width=_num(CARD_WIDTH), height=_num(CARD_HEIGHT), rx=_num(_RADIUS),
            fill=_FACE, stroke=_FACE_EDGE, stroke_width=_num(0.02))
        # A corner index and a frame say "a card's face" without naming a card.
        _el(g, "rect", x=_num(x + 0.09), y=_num(y + 0.07), width=_num(0.12), height=_num(0.17), rx=_num(0.02),
            fill=_FACE_MARK)
        _el(g, "rect", x=_num(x + 0.25), y=_num(y + 0.32), width=_num(CARD_WIDTH - 0.5),
            height=_num(CARD_HEIGHT - 0.64), rx=_num(0.04), fill="none", stroke=_FACE_FRAME,
            stroke_width=_num(0.025))
    else:
        g = _el(parent, "g", **{"class": "pb-setup-card pb-setup-face-down"})
        _el(g, "rect", x=_num(x), y=_num(y), width=_num(CARD_WIDTH), height=_num(CARD_HEIGHT), rx=_num(_RADIUS),
            fill=_BACK, stroke=_BACK_EDGE, stroke_width=_num(0.02))
        _el(g, "rect", x=_num(x + 0.08), y=_num(y + 0.08), width=_num(CARD_WIDTH - 0.16),
            height=_num(CARD_HEIGHT - 0.16), rx=_num(0.05), fill="none", stroke=_BACK_LINE,
            stroke_width=_num(0.025))
        cx, cy = x + CARD_WIDTH / 2, y + CARD_HEIGHT / 2
        _el(g, "path", d=(f"M{_num(cx)} {_num(cy - 0.3)}L{_num(cx + 0.2)} {_num(cy)}"
                          f"L{_num(cx)} {_num(cy + 0.3)}L{_num(cx - 0.2)} {_num(cy)}Z"),
            fill="none", stroke=_BACK_LINE, stroke_width=_num(0.025))


def _card_places(x: float, y: float, fan: str, faces: tuple[bool, ...]) -> list[tuple[float, float]]:
    """Top-left corner of each card, bottom to top."""
    places = []
    if fan in ("down", "right"):
        offset = 0.0
        for up in faces:
            places.append((x, y + offset) if fan == "down" else (x + offset, y))
            offset += (FAN_FACE_UP if up else FAN_FACE_DOWN) if fan == "down" else FAN_RIGHT
    else:
        # The top card lies at the pile's place, the ones under it peek out down and right; where the
        # face changes (Eagle Wing's reserve: a face-up card under face-down ones) the edge is wider.
        n = len(faces)
        changes = sum(1 for a, b in zip(faces, faces[1:]) if a != b)
        step = min(_STACK_STEP, (_STACK_MAX - changes * _STACK_CHANGE) / (n - 1)) if n > 1 else 0.0
        offset, offsets = 0.0, [0.0] * n
        for k in range(n - 2, -1, -1):
            offset += step + (_STACK_CHANGE if faces[k] != faces[k + 1] else 0.0)
            offsets[k] = offset
        places = [(x + d, y + d) for d in offsets]
    return places


def _text(parent: etree._Element, x: float, y: float, text: str | tuple[str, ...], size: float, fill: str,
          anchor: str = "start", bold: bool = False, cls: str = "") -> etree._Element:
    """One ``<text>``; several lines become ``<tspan>`` elements, one under the other."""
    attrs = {"x": _num(x), "y": _num(y), "font-size": _num(size), "fill": fill, "text-anchor": anchor}
    if bold:
        attrs["font-weight"] = "bold"
    if cls:
        attrs["class"] = cls
    el = _el(parent, "text", **attrs)
    if isinstance(text, str) or len(text) == 1:
        el.text = text if isinstance(text, str) else text[0]
        return el
    for n, line in enumerate(text):
        span = _el(el, "tspan", x=_num(x), y=_num(y + n * _LINE * size))
        span.text = line
    return el


def _caption_width(pile: dict, faces: tuple[bool, ...]) -> float:
    """The width a pile's count is centred under: its card, or the cards a right fan shows."""
    if pile["fan"] != "right" or len(faces) < 2:
        return CARD_WIDTH
    return min(pile["room"], CARD_WIDTH + (len(faces) - 1) * FAN_RIGHT)


def _runs_of(piles: list[dict]) -> Iterable[list[dict]]:
    """Neighbouring piles of one group in a row, left to right (a winged tableau gives two runs)."""
    run: list[dict] = []
    for pile in sorted(piles, key=lambda p: p["x"]):
        if run and run[-1]["group"] != pile["group"]:
            yield run
            run = []
        run.append(pile)
    if run:
        yield run


def setup_svg(ruleset: Ruleset, labels: dict[str, str], ui: dict[str, str], title: str,
              ui_lang: str | None = None, label_lang: str | None = None) -> etree._Element:
    """The setup of ``ruleset`` as an ``<svg>`` element in the SVG namespace.

    ``labels``: group id -> label in the page's language (the Setup table's row keys from the catalog;
    a missing one falls back to the group's English ``label``); ``ui``: the page language's interface
    strings (``setup_picture``, ``setup_cards``, ``setup_one_card``, ``setup_empty``, ``setup_per_pile``,
    ``setup_face_up``, ``setup_face_down``, ``setup_top_up``); ``title``: the game's name as the page
    shows it, put into ``setup_picture`` ("Setup of {game}").

    Piles lie where :func:`~patiencebook.generator.pages.layout.pile_layout` puts them (a row lower down only
    when the text between the rows needs more room than the layout leaves); each holds one drawn
    card (class ``pb-setup-card`` plus ``pb-setup-face-up`` or ``pb-setup-face-down``) per card the
    opening deal gives it (the stock: the cards left over), an empty pile is a dashed outline
    (``pb-setup-empty``). A pile is a ``<g class="pb-setup-pile" data-pile=ID data-group=GROUP>``.
    Labels name each group above its piles, captions give each pile's count below it; text grows with
    the table's width, so that it stays about 12-15 px when the picture is shown about 640 px wide, and
    a caption or label too long for its room is broken into two ``<tspan>`` lines. The element has
    ``role="img"``, an ``aria-label`` and ``<title>`` (the name) and a ``<desc>``
    (:func:`setup_description`). Coordinates are 100 units per card width; there is a ``viewBox`` and
    no width or height, so the picture scales to the width it is given; its ``style`` sets
    ``--pb-min-width``, the width in CSS pixels at which its smallest text is 11 px, which the page
    style keeps as its least width. The same input gives the same
    bytes. Raises ``KeyError`` when a ``setup_*`` string is missing from ``ui``.

    ``ui_lang``: BCP 47 tag of the language of ``ui`` when it is not the page's (English standing in
    for a wording the page's language lacks): the ``<svg>`` gets ``lang`` and each group label, in
    the page's language, gets ``label_lang``.
    """
    layout = pile_layout(ruleset)
    faces = start_faces(ruleset)
    name = ui["setup_picture"].format(game=title)

    svg = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS})
    svg.set("role", "img")
    svg.set("aria-label", name)
    svg.set("class", "pb-setup-picture")
    svg.set("font-family", "sans-serif")
    if ui_lang:
        svg.set("lang", ui_lang)
        svg.set("class", "pb-setup-picture pb-interface")  # our strings in English: see check/sitereport.py
    _el(svg, "title").text = name
    _el(svg, "desc").text = setup_description(ruleset, labels, ui)
    background = _el(svg, "rect", fill=_FELT, stroke=_FELT_EDGE, stroke_width=_num(0.03), rx=_num(0.15))

    groups = {g.id: g for g in ruleset.piles}
    rows = sorted({p["row"] for p in layout["piles"]})
    # Text keeps about the same size in pixels however many piles the table is wide.
    shown = layout["width"] + 2 * _PAD
    label_size = max(_LABEL_SIZE, _LABEL_PX * shown / _SHOWN_WIDTH)
    caption_size = max(_CAPTION_SIZE, _CAPTION_PX * shown / _SHOWN_WIDTH)
    wrap_below = _WRAP_PX * shown / _SHOWN_WIDTH

    # What each row needs: the bottom of its cards, its group labels (one per run of piles, which may
    # use the room up to the next run of the row) and the count under each pile.
    bottoms: dict[int, float] = {}
    for pile in layout["piles"]:
        places = _card_places(pile["x"], pile["y"], pile["fan"], faces[pile["id"]] or (True,))
        bottom = max(cy + CARD_HEIGHT for _, cy in places)
        bottoms[pile["row"]] = max(bottoms.get(pile["row"], 0.0), bottom)
    labels_of: dict[int, list[tuple[float, float, tuple[str, ...], float]]] = {}
    labelled: set[str] = set()
    for row in rows:
        runs = list(_runs_of([p for p in layout["piles"] if p["row"] == row]))
        # A group whose piles lie in several rows (Triple Peaks) is named once, over its first row.
        runs = [run for run in runs if run[0]["group"] not in labelled or len(runs) > 1]
        labelled.update(run[0]["group"] for run in runs)
        for n, run in enumerate(runs):
            x = run[0]["x"]
            end = runs[n + 1][0]["x"] - 0.12 if n + 1 < len(runs) else layout["width"] - 0.1
            text = _label(groups[run[0]["group"]], labels)
            lines, size = _lines(text, label_size, end - x, wrap_below, bold=True)
            labels_of.setdefault(row, []).append((x, min(p["y"] for p in run), lines, size))
    captions: dict[str, tuple[tuple[str, ...], float]] = {}
    below: dict[int, float] = {}
    for pile in layout["piles"]:
        width = _caption_width(pile, faces[pile["id"]])
        # A count may use the room its neighbours in the row leave it (the nearer one counts, at least
        # the usual gap); neighbouring counts keep a clear space between them, so that "4 cards 4 cards"
        # reads as two.
        apart = [abs(p["x"] - pile["x"]) for p in layout["piles"] if p is not pile
                 and p["row"] == pile["row"] and abs(p["y"] - pile["y"]) < CARD_HEIGHT]
        room = max(width + GAP, min(apart)) if apart else width + GAP
        lines, size = _lines(_amount(len(faces[pile["id"]]), ui), caption_size, room - 0.14, wrap_below)
        captions[pile["id"]] = (lines, size)
        depth = 0.1 + _ASCENT * size + (len(lines) - 1) * _LINE * size + _DESCENT * size
        below[pile["row"]] = max(below.get(pile["row"], 0.0), depth)

    # A row moves down when the counts above it and its labels need more room than the layout's gap
    # between the rows; the rows keep their order and never come closer.
    shift: dict[int, float] = {}
    for n, row in enumerate(rows):
        shift[row] = 0.0 if n == 0 else shift[rows[n - 1]]
        if n:
            above = rows[n - 1]
            floor = bottoms[above] + shift[above] + below[above] + _TEXT_GAP
            for _, top, lines, size in labels_of.get(row, []):
                reach = 0.12 + (_ASCENT + (len(lines) - 1) * _LINE) * size
                shift[row] = max(shift[row], floor - (top - reach))
            # The cards themselves stay clear of the counts above them (rows that overlap on the table).
            top_of_cards = min(p["y"] for p in layout["piles"] if p["row"] == row)
            shift[row] = max(shift[row], floor - top_of_cards)

    box = _Box()
    box.add(0, 0, layout["width"], 0)
    for pile in layout["piles"]:
        pid, x, y = pile["id"], pile["x"], pile["y"] + shift[pile["row"]]
        g = _el(svg, "g", **{"class": "pb-setup-pile", "data-pile": pid, "data-group": pile["group"]})
        cards = faces[pid]
        if not cards:
            _el(g, "rect", **{"class": "pb-setup-empty"}, x=_num(x), y=_num(y), width=_num(CARD_WIDTH),
                height=_num(CARD_HEIGHT), rx=_num(_RADIUS), fill=_EMPTY_FILL, stroke=_EMPTY_LINE,
                stroke_width=_num(0.025), stroke_dasharray=f"{_num(0.08)} {_num(0.06)}")
            box.add(x, y, CARD_WIDTH, CARD_HEIGHT)
        stacked = pile["fan"] == "none"
        for k, ((cx, cy), up) in enumerate(zip(_card_places(x, y, pile["fan"], cards), cards)):
            _card(g, cx, cy, up, covered=stacked and k < len(cards) - 1)
            box.add(cx, cy, CARD_WIDTH, CARD_HEIGHT)

    # Group labels above each run of piles.
    for row in rows:
        for x, top, lines, size in labels_of.get(row, []):
            # The last line sits just above the piles, the first one above it.
            first = top + shift[row] - 0.12 - (len(lines) - 1) * _LINE * size
            label = _text(svg, x, first, lines, size, _LABEL, bold=True, cls="pb-setup-label")
            if ui_lang and label_lang:
                label.set("lang", label_lang)
            box.add(x, first - _ASCENT * size, max(_text_width(line, size, True) for line in lines),
                    (_ASCENT + _DESCENT + (len(lines) - 1) * _LINE) * size)

    # Counts under the piles, their first lines on one baseline per row.
    for row in rows:
        row_piles = [p for p in layout["piles"] if p["row"] == row]
        first = max(captions[p["id"]][1] for p in row_piles)
        baseline = bottoms[row] + shift[row] + 0.1 + _ASCENT * first
        for pile in row_piles:
            lines, size = captions[pile["id"]]
            centre = pile["x"] + _caption_width(pile, faces[pile["id"]]) / 2
            _text(svg, centre, baseline, lines, size, _CAPTION, anchor="middle", cls="pb-setup-count")
            wide = max(_text_width(line, size) for line in lines)
            box.add(centre - wide / 2, baseline - _ASCENT * size, wide,
                    (_ASCENT + _DESCENT + (len(lines) - 1) * _LINE) * size)

    left, top = min(box.left, 0.0) - _PAD, box.top - _PAD
    width, height = max(box.right, layout["width"]) + _PAD - left, box.bottom + _PAD - top
    svg.set("viewBox", f"{_num(left)} {_num(top)} {_num(width)} {_num(height)}")
    smallest = min([size for rows_of in labels_of.values() for _, _, _, size in rows_of]
                   + [size for _, size in captions.values()])
    svg.set("style", f"--pb-min-width: {math.ceil(_READABLE_PX * width / smallest)}px")
    background.set("x", _num(left))
    background.set("y", _num(top))
    background.set("width", _num(width))
    background.set("height", _num(height))
    return svg
