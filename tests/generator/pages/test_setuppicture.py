"""The setup picture: cards per pile as the deal gives them, faces, labels in the page's language,
an accessible name and description, and a self-contained, repeatable SVG."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from lxml import etree

from patiencebook.engine.position import pile_ids
from patiencebook.engine.rules import pile_id
from patiencebook.engine.rules import Ruleset
from patiencebook.generator.languages import ui_strings
from patiencebook.generator.pages.setuppicture import SVG_NS, _text_width, setup_description, setup_svg
from patiencebook.generator.docbook.sources import load_document

ROOT = Path(__file__).resolve().parents[3]
RULES_DIR = ROOT / "rules"
#: Every game page of rules/ with its title, so that a game added there gets the general checks too.
GAMES = {page.id: page.title for page in load_document(RULES_DIR).pages if page.rules is not None}
NS = {"s": SVG_NS}
GERMAN_LABELS = {"stock": "Talon", "chooser": "Auswahlstapel", "foundation": "Zielstapel",
                 "tableau": "Tableau", "reserve": "Reserve", "waste": "Ablagestapel"}
#: Long labels, as Greek and Serbian pages give them: the text that most needs room.
GREEK_LABELS = {"stock": "Μάνα", "waste": "Στοίβα απόρριψης", "foundation": "Βάση", "tableau": "Ταμπλό",
                "reserve": "Ρεζέρβα", "freecell": "Ελεύθερο κελί", "chooser": "Στοίβα επιλογής"}
#: The width in pixels a page usually shows a picture at (pb-example.css: at most 42em).
SHOWN_PX = 640


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def german_ui() -> dict[str, str]:
    ui = dict(ui_strings("de"))
    data = json.loads((ROOT / "tests" / "data" / "setuppicture" / "ui-de.json").read_text(encoding="utf-8"))
    ui.update({k: v for k, v in data.items() if not k.startswith("_")})
    return ui


def picture(game: str, labels: dict[str, str] | None = None, ui: dict[str, str] | None = None,
            title: str | None = None) -> etree._Element:
    svg = setup_svg(ruleset(game), labels or {}, ui or ui_strings("en"), title or GAMES[game])
    # What a page gets is the serialised element: parse it back as a reader would.
    return etree.fromstring(etree.tostring(svg))


def pile(svg: etree._Element, pid: str) -> etree._Element:
    found = svg.xpath("s:g[@data-pile=$pid]", namespaces=NS, pid=pid)
    assert len(found) == 1, pid
    return found[0]


def card_faces(svg: etree._Element, pid: str) -> list[bool]:
    cards = pile(svg, pid).xpath("s:g[contains(@class, 'pb-setup-card')]", namespaces=NS)
    return ["pb-setup-face-up" in c.get("class").split() for c in cards]


def texts(svg: etree._Element, cls: str) -> list[str]:
    """Each text of class ``cls``; one broken into lines (``<tspan>``) is joined with a space."""
    return [" ".join(t.itertext()) for t in svg.xpath(f"s:text[@class='{cls}']", namespaces=NS)]


@pytest.mark.parametrize("game", GAMES)
def test_each_pile_is_drawn_once_with_as_many_cards_as_the_deal_gives_it(game):
    rules, svg = ruleset(game), picture(game)
    ids = [g.get("data-pile") for g in svg.xpath("s:g[@class='pb-setup-pile']", namespaces=NS)]
    assert ids == list(pile_ids(rules))
    for group in rules.piles:
        members = [pile_id(group, n) for n in range(1, group.count + 1)]
        expected = (rules.stock_size,) if group.role.value == "stock" else rules.dealt(group.id)
        assert tuple(len(card_faces(svg, pid)) for pid in members) == expected, group.id


def test_hamilton_stock_holds_24_face_down_cards_and_tableau_1_to_7_face_up():
    svg = picture("hamilton")
    assert card_faces(svg, "stock") == [False] * 24
    for n in range(1, 8):
        assert card_faces(svg, f"tableau{n}") == [True] * n
    counts = texts(svg, "pb-setup-count")
    assert counts == ["24 cards", "empty", "empty", "empty", "empty", "empty",
                      "1 card", "2 cards", "3 cards", "4 cards", "5 cards", "6 cards", "7 cards"]


def test_empty_piles_are_drawn_as_outlines():
    svg = picture("hamilton")
    for pid in ("chooser", "foundation1", "foundation4"):
        assert len(pile(svg, pid).xpath("s:rect[@class='pb-setup-empty']", namespaces=NS)) == 1
    assert not pile(svg, "tableau1").xpath("s:rect[@class='pb-setup-empty']", namespaces=NS)


def test_agnes_tableau_shows_only_the_top_card_of_each_pile_face_up():
    svg = picture("agnes")
    for n in range(1, 8):
        assert card_faces(svg, f"tableau{n}") == [False] * (n - 1) + [True]
    assert card_faces(svg, "foundation1") == [True] and card_faces(svg, "foundation2") == []


def test_eagle_wing_reserve_shows_13_cards_with_one_face_up_card_under_twelve_face_down():
    # The rules block deals the reserve one card face up, then twelve face down on it (eagle_wing.xml,
    # as AisleRiot's deal-cards-face-up then deal-cards on slot 10): the face-up card is the bottom one.
    faces = card_faces(picture("eagle_wing"), "reserve")
    assert faces == [True] + [False] * 12
    assert setup_description(ruleset("eagle_wing"), {}, ui_strings("en")).count(
        "Reserve: 13 cards (1 card face up, 12 cards face down).") == 1


def test_description_lists_each_pile_group_with_its_count_and_face_in_words():
    en = ui_strings("en")
    assert setup_description(ruleset("hamilton"), {}, en) == (
        "Stock: 24 cards, face down. Chooser: empty. Foundation: empty. "
        "Tableau: 1, 2, 3, 4, 5, 6, 7 cards, face up.")
    assert setup_description(ruleset("agnes"), {}, en) == (
        "Stock: 23 cards, face down. Foundation: 1, 0, 0, 0 cards, face up. "
        "Tableau: 1, 2, 3, 4, 5, 6, 7 cards, top card face up.")


def test_labels_and_counts_appear_in_german_when_given_german_labels_and_strings():
    svg = picture("hamilton", GERMAN_LABELS, german_ui(), "Hamilton")
    assert texts(svg, "pb-setup-label") == ["Talon", "Auswahlstapel", "Zielstapel", "Tableau"]
    assert "24 Karten" in texts(svg, "pb-setup-count") and "leer" in texts(svg, "pb-setup-count")
    assert svg.get("aria-label") == "Aufbau von Hamilton"
    desc = svg.find("s:desc", NS).text
    assert desc.startswith("Talon: 24 Karten, verdeckt. Auswahlstapel: leer.")
    assert "Stock" not in etree.tostring(svg, encoding="unicode")


def test_a_group_without_a_translated_label_keeps_its_english_label():
    svg = picture("eagle_wing", {"tableau": "Tableau"})
    assert texts(svg, "pb-setup-label") == ["Stock", "Waste", "Foundation", "Tableau", "Reserve", "Tableau"]


@pytest.mark.parametrize("game", GAMES)
def test_picture_is_an_accessible_image_named_after_the_game(game):
    svg = picture(game)
    name = f"Setup of {GAMES[game]}"
    assert svg.tag == f"{{{SVG_NS}}}svg"
    assert svg.get("role") == "img" and svg.get("aria-label") == name
    assert svg[0].tag == f"{{{SVG_NS}}}title" and svg[0].text == name
    assert svg[1].tag == f"{{{SVG_NS}}}desc" and svg[1].text == setup_description(ruleset(game), {}, ui_strings("en"))


@pytest.mark.parametrize("game", GAMES)
def test_picture_is_self_contained_with_no_script_link_or_font_to_load(game):
    svg = picture(game)
    local = {etree.QName(el).localname for el in svg.iter() if isinstance(el.tag, str)}
    assert local <= {"svg", "title", "desc", "g", "rect", "path", "text", "tspan"}
    for el in svg.iter():
        for name, value in el.attrib.items():
            assert "href" not in name and not name.startswith("on"), name
            assert "url(" not in value and "://" not in value.replace(SVG_NS, ""), (name, value)
    assert svg.get("font-family") == "sans-serif"


@pytest.mark.parametrize("game", GAMES)
def test_picture_scales_by_its_viewbox_and_text_stays_readable(game):
    svg = picture(game)
    assert svg.get("width") is None and svg.get("height") is None
    left, top, width, height = map(float, svg.get("viewBox").split())
    # At most a little taller than wide (Monte Carlo's square of piles, Osmosis's four rows of
    # foundations), so that at the width a page gives it the picture still fits a screen.
    assert height > 0 and height <= 1.15 * width
    sizes = [float(t.get("font-size")) for t in svg.xpath("s:text", namespaces=NS)]
    # 100 units per card width: text at least 0.15 of a card width, about 11 px at 720 px wide.
    assert sizes and min(sizes) >= 15
    for t in svg.xpath("s:text", namespaces=NS):
        x, y = float(t.get("x")), float(t.get("y"))
        assert left <= x <= left + width and top <= y <= top + height


def _boxes(svg: etree._Element) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for g in svg.xpath("s:g[@class='pb-setup-pile']", namespaces=NS):
        rects = g.xpath(".//s:rect", namespaces=NS)
        xs = [float(r.get("x")) for r in rects]
        ys = [float(r.get("y")) for r in rects]
        out[g.get("data-pile")] = (min(xs), min(ys), max(x + float(r.get("width")) for x, r in zip(xs, rects)),
                                   max(y + float(r.get("height")) for y, r in zip(ys, rects)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_drawn_pile_overlaps_another(game):
    boxes = _boxes(picture(game))
    for pid, (x0, y0, x1, y1) in boxes.items():
        for other, (a0, b0, a1, b1) in boxes.items():
            if other != pid:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (pid, other)


@pytest.mark.parametrize("game", GAMES)
def test_same_input_gives_the_same_bytes(game):
    one = etree.tostring(setup_svg(ruleset(game), GERMAN_LABELS, german_ui(), GAMES[game]))
    two = etree.tostring(setup_svg(ruleset(game), GERMAN_LABELS, german_ui(), GAMES[game]))
    assert one == two
    assert not re.search(rb"\d\.\d{2,}", one)  # coordinates are rounded, not float noise


def test_every_game_of_the_rules_folder_is_checked():
    assert {"hamilton", "agnes", "eagle_wing", "klondike", "freecell", "spider", "yukon", "golf", "canfield",
            "scorpion", "forty_thieves", "bakers_dozen", "gypsy", "beleaguered_castle", "spiderette",
            "whitehead", "odessa",
            "streets_and_alleys", "fortress", "kansas", "lady_jane", "giant", "cruel", "chessboard", "thumb_and_pouch", "jumbo", "will_o_the_wisp",
            "spider_three_decks"} <= set(GAMES)


def _text_boxes(svg: etree._Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each text's box (left, top, right, bottom, drawing units) from the same generous width estimate
    the picture uses, a line reaching 0.8 of its size above the baseline and 0.25 below."""
    boxes = []
    for t in svg.xpath("s:text", namespaces=NS):
        size = float(t.get("font-size"))
        spans = t.xpath("s:tspan", namespaces=NS) or [t]
        for span in spans:
            text = "".join(span.itertext())
            x, y = float(span.get("x")), float(span.get("y"))
            width = _text_width(text, size / 100, t.get("font-weight") == "bold") * 100
            left = x - width / 2 if t.get("text-anchor") == "middle" else x
            boxes.append((text, (left, y - 0.8 * size, left + width, y + 0.25 * size)))
    return boxes


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


LANGUAGE_CASES = [("en", {}), ("de", GERMAN_LABELS), ("el", GREEK_LABELS), ("sr", {})]


@pytest.mark.parametrize("lang,labels", LANGUAGE_CASES, ids=[lang for lang, _ in LANGUAGE_CASES])
@pytest.mark.parametrize("game", GAMES)
def test_no_text_overlaps_another_text_or_a_pile_in_any_language(game, lang, labels):
    svg = picture(game, labels, ui_strings(lang))
    texts_ = _text_boxes(svg)
    piles = _boxes(svg)
    for n, (text, box) in enumerate(texts_):
        for other, other_box in texts_[n + 1:]:
            assert _apart(box, other_box), (text, other)
        for pid, pile_box in piles.items():
            assert _apart(box, pile_box), (text, pid)


@pytest.mark.parametrize("lang,labels", LANGUAGE_CASES, ids=[lang for lang, _ in LANGUAGE_CASES])
@pytest.mark.parametrize("game", GAMES)
def test_text_keeps_about_ten_pixels_when_shown_at_the_usual_width(game, lang, labels):
    # A wide table (Baker's Dozen: thirteen piles) is shown smaller, so its text is larger in card widths.
    # The tightest text is a one-word label over a single pile of a closed-up top row (German
    # "Ablagestapel" over Forty Thieves' waste, about 9.9 px); counts keep 10.5 px.
    svg = picture(game, labels, ui_strings(lang))
    width = float(svg.get("viewBox").split()[2])
    for t in svg.xpath("s:text", namespaces=NS):
        px = float(t.get("font-size")) * SHOWN_PX / width
        assert px >= (10.5 if t.get("class") == "pb-setup-count" else 9.5), "".join(t.itertext())


def test_wide_table_gets_larger_text_than_a_seven_pile_table():
    def label(game: str) -> tuple[float, float]:
        """First label's font size in drawing units and in pixels at the usual width."""
        svg = picture(game)
        size = float(svg.xpath("s:text[@class='pb-setup-label']", namespaces=NS)[0].get("font-size"))
        return size, size * SHOWN_PX / float(svg.get("viewBox").split()[2])
    assert label("bakers_dozen")[0] > label("klondike")[0] == 30
    assert label("bakers_dozen")[1] >= 14


def test_a_count_too_long_for_its_pile_is_broken_into_two_lines():
    # "κανένα φύλλο" (no cards) under one of Baker's Dozen's foundations, a thirteen-pile table.
    svg = picture("bakers_dozen", GREEK_LABELS, ui_strings("el"))
    counts = svg.xpath("s:text[@class='pb-setup-count']", namespaces=NS)
    empty = [t for t in counts if "".join(t.itertext()) == "κανέναφύλλο"]
    assert len(empty) == 4
    for t in empty:
        spans = t.xpath("s:tspan", namespaces=NS)
        assert [s_.text for s_ in spans] == ["κανένα", "φύλλο"]
        assert float(spans[1].get("y")) > float(spans[0].get("y"))
    # A count that fits stays one line.
    assert all(not t.xpath("s:tspan", namespaces=NS) for t in counts if t not in empty)


def test_a_row_moves_down_when_the_text_above_it_needs_more_room():
    english, greek = picture("bakers_dozen"), picture("bakers_dozen", GREEK_LABELS, ui_strings("el"))
    def tableau_top(svg):
        return min(float(r.get("y")) for r in pile(svg, "tableau1").xpath(".//s:rect", namespaces=NS))
    def foundation_top(svg):
        return min(float(r.get("y")) for r in pile(svg, "foundation1").xpath(".//s:rect", namespaces=NS))
    assert foundation_top(greek) == foundation_top(english)
    assert tableau_top(greek) > tableau_top(english)


def test_freecell_picture_shows_four_free_cells_and_four_foundations_above_eight_tableau_piles():
    svg = picture("freecell")
    boxes = _boxes(svg)
    top = [pid for pid in boxes if pid.startswith(("freecell", "foundation"))]
    assert len(top) == 8 and len([pid for pid in boxes if pid.startswith("tableau")]) == 8
    assert max(boxes[pid][3] for pid in top) < min(boxes[f"tableau{n}"][1] for n in range(1, 9))
    assert texts(svg, "pb-setup-label") == ["Free Cell", "Foundation", "Tableau"]
    assert texts(svg, "pb-setup-count") == ["empty"] * 8 + ["7 cards"] * 4 + ["6 cards"] * 4


def test_serbian_counts_take_the_plural_form_of_their_number():
    # setup_cards as a plural template, picked by CLDR's Serbian rule: one (21), few (2-4), other.
    from patiencebook.generator.pages.setuppicture import _amount
    ui = ui_strings("sr")
    assert [_amount(n, ui) for n in (0, 1, 2, 5, 21, 24)] == [
        ui["setup_empty"], "1 карта", "2 карте", "5 карата", "21 карта", "24 карте"]
    assert _amount(7, ui_strings("en")) == "7 cards"
