"""The rules blocks of the game pages: loading, exact errors for bad blocks, and agreement with the prose."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from patiencebook.engine.cards import Rank
from patiencebook.engine.rules import (Accepts, Base, Deck, DoubleClick, Face, FillRule, Match, MoveUnit, Reveal, Role,
                                       StockAction)
from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.rulesblock import find_rules_element, load_rules

REPO = Path(__file__).resolve().parents[3]
RULES = REPO / "rules"
BAD = REPO / "tests" / "data" / "rules"
GAMES = ("agnes", "eagle_wing", "hamilton")


def parse(path: Path) -> etree._ElementTree:
    return etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))


def rules_of(name: str, folder: Path = RULES):
    path = folder / f"{name}.xml"
    root = parse(path).getroot()
    return load_rules(find_rules_element(root, path), path)


def text_of(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def section(root: etree._Element, title: str) -> etree._Element:
    for sect in root.iter("sect2"):
        if text_of(sect.find("title")) == title:
            return sect
    raise AssertionError(f"no sect2 titled {title!r}")


def setup_rows(root: etree._Element) -> list[tuple[str, str]]:
    rows = section(root, "Setup").findall("informaltable/tgroup/tbody/row")
    return [(text_of(r[0]), text_of(r[1])) for r in rows]


# -- the three games ---------------------------------------------------------------------------

def test_hamilton_deals_seven_face_up_tableau_piles_of_one_to_seven_cards():
    rules = rules_of("hamilton")
    tableau = rules.pile("tableau")
    assert tableau.count == 7
    assert rules.dealt("tableau") == (1, 2, 3, 4, 5, 6, 7)
    assert [s.face for s in rules.deal] == [Face.UP]
    assert rules.stock_size == 24


def test_hamilton_chooser_offers_three_cards_and_the_start_card_is_the_base():
    rules = rules_of("hamilton")
    assert rules.chooser is not None and rules.chooser.offers == 3
    assert rules.chooser.accept_to == "foundation" and rules.chooser.source == "stock"
    assert rules.base is Base.START_CARD
    assert rules.pile("chooser").double_click is DoubleClick.CARD_TO_FOUNDATION


def test_hamilton_last_stock_deal_gives_two_cards():
    rules = rules_of("hamilton")
    assert rules.stock.action is StockAction.DEAL_TO_EACH and rules.stock.redeals == 0
    assert rules.stock_deals() == (7, 7, 7, 2)


def test_hamilton_tableau_builds_down_in_colour_runs_in_suit_and_stops_at_the_start_rank():
    rules = rules_of("hamilton")
    t = rules.pile("tableau")
    assert (t.build.direction.value, t.build.match, t.build.wrap) == ("down", Match.SAME_COLOUR, True)
    assert t.build.stop_at_base and t.build.accepts is Accepts.RUN
    assert t.move.unit is MoveUnit.RUN and t.move.match is Match.SAME_SUIT and t.move.stop_at_base
    assert t.fill.rule is FillRule.ANY
    assert t.double_click is DoubleClick.RUN_TO_FOUNDATION
    from patiencebook.engine.cards import Card
    assert t.build.allows(Card.parse("Ad"), Card.parse("Kh"), base_rank=Rank.SIX)
    assert not t.build.allows(Card.parse("Ad"), Card.parse("Kh"), base_rank=Rank.ACE)


def test_hamilton_foundation_cards_stay_in_play_and_take_runs():
    f = rules_of("hamilton").pile("foundation")
    assert f.count == 4 and f.move.unit is MoveUnit.TOP and f.build.accepts is Accepts.RUN
    assert f.fill.rule is FillRule.BASE_RANK and f.build.wrap


def test_games_never_lost_except_eagle_wing():
    assert rules_of("hamilton").end.lost == "never"
    assert rules_of("agnes").end.lost == "never"
    assert rules_of("eagle_wing").end.lost == "no-useful-move"


def test_agnes_deals_the_base_card_to_the_first_foundation():
    rules = rules_of("agnes")
    assert rules.base is Base.BASE_CARD
    assert rules.dealt("foundation") == (1, 0, 0, 0)
    assert rules.dealt("tableau") == (1, 2, 3, 4, 5, 6, 7)
    assert rules.deal[0].face is Face.TOP_UP
    assert rules.stock_size == 23 and rules.stock_deals() == (7, 7, 7, 2)


def test_agnes_tableau_builds_down_in_colour_and_empty_piles_wait_for_the_deal():
    t = rules_of("agnes").pile("tableau")
    assert t.build.match is Match.SAME_COLOUR and t.build.direction.value == "down" and t.build.wrap
    assert not t.build.stop_at_base and t.move.stop_at_base
    assert t.fill.rule is FillRule.NONE and t.reveal is Reveal.AUTO


def test_agnes_foundations_take_single_cards_and_double_click_autoplays():
    f = rules_of("agnes").pile("foundation")
    assert f.build.accepts is Accepts.SINGLE and f.move.unit is MoveUnit.TOP
    assert f.double_click is DoubleClick.AUTOPLAY


def test_eagle_wing_reserve_holds_thirteen_cards_with_only_the_bottom_one_face_up():
    rules = rules_of("eagle_wing")
    assert rules.dealt("reserve") == (13,)
    steps = [(s.pile, s.cards, s.face) for s in rules.deal if s.pile == "reserve"]
    assert steps == [("reserve", (1,), Face.UP), ("reserve", (12,), Face.DOWN)]
    assert rules.pile("reserve").double_click is DoubleClick.NONE


def test_eagle_wing_tableau_holds_three_cards_and_refills_from_the_reserve():
    t = rules_of("eagle_wing").pile("tableau")
    assert t.count == 8 and t.capacity == 3
    assert t.build.match is Match.SAME_SUIT and t.build.accepts is Accepts.SINGLE
    assert (t.fill.rule, t.fill.source, t.fill.otherwise) == (FillRule.AUTO, "reserve", FillRule.ANY)


def test_eagle_wing_has_two_redeals_so_three_passes():
    rules = rules_of("eagle_wing")
    assert rules.stock.action is StockAction.DEAL_TO_WASTE and rules.stock.cards == 1
    assert rules.stock.redeals == 2 and rules.stock.passes == 3
    assert rules.stock_size == 30


def test_eagle_wing_foundation_cards_are_out_of_play():
    assert rules_of("eagle_wing").pile("foundation").move.unit is MoveUnit.NONE


# -- prose and rules block agree ---------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_scoring_section_states_the_rules_block_maximum(game):
    root = parse(RULES / f"{game}.xml").getroot()
    last = section(root, "Scoring").findall("para")[-1]
    found = re.fullmatch(r"Maximum possible score: (\d+)", text_of(last))
    assert found, text_of(last)
    assert int(found.group(1)) == rules_of(game).scoring.maximum == 52


@pytest.mark.parametrize("game", GAMES)
def test_setup_table_rows_are_the_rules_block_piles_in_order(game):
    root = parse(RULES / f"{game}.xml").getroot()
    rows = setup_rows(root)
    assert rows[0][0] == "Type of Deck"
    rules = rules_of(game)
    assert [label for label, _ in rows[1:]] == [g.label for g in rules.piles]
    assert [Role(label.lower()) for label, _ in rows[1:]] == list(rules.roles)


@pytest.mark.parametrize("game", GAMES)
def test_setup_stock_row_states_the_stock_size(game):
    rows = dict(setup_rows(parse(RULES / f"{game}.xml").getroot()))
    assert f"The {rules_of(game).stock_size} cards" in rows["Stock"]


def test_rules_text_states_the_last_deal_and_the_redeals():
    hamilton = text_of(section(parse(RULES / "hamilton.xml").getroot(), "Rules"))
    agnes = text_of(section(parse(RULES / "agnes.xml").getroot(), "Rules"))
    eagle = parse(RULES / "eagle_wing.xml").getroot()
    for text in (hamilton, agnes):
        assert "The fourth and last deal gives only two cards" in text
    assert "Two redeals." in dict(setup_rows(eagle))["Stock"]
    assert "three times" in text_of(section(eagle, "Rules"))


def test_each_page_has_its_block_right_after_the_title():
    for game in GAMES:
        root = parse(RULES / f"{game}.xml").getroot()
        children = [el for el in root if isinstance(el.tag, str)]
        assert children[0].tag == "title" and children[1] is find_rules_element(root)
        assert root.get("id") == game


# -- bad blocks --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, line, message", [
    ("unknown_parameter", 16,
     "pb:pile: unknown attribute 'colour'; allowed: id, role, count, label, capacity, reveal, double-click, slots, "
     "columns"),
    ("unknown_value", 17,
     "pb:build: unknown value 'sideways' for 'direction'; allowed: up, down, up-or-down, none, same, any"),
    ("bad_number", 16, "pb:pile: bad number 'seven' for 'count'; expected a whole number of at least 1"),
    ("missing_attribute", 25,
     "pb:stock: missing attribute 'redeals' (expected a whole number of at least 0, or unlimited)"),
    ("unknown_element", 27,
     "pb:rules: unknown element 'pb:timer'; allowed here: "
     "pb:deck, pb:pile, pb:deal, pb:stock, pb:chooser, pb:autoplay, pb:scoring, pb:end, pb:hook, pb:variant"),
    ("unknown_pile", 23, "pb:step: a deal step names an unknown pile 'foundations'; piles: stock, foundation, tableau"),
    ("wrong_maximum", 26, "pb:scoring: the maximum score 51 does not match the deck: 1 x 52 cards = 52"),
    ("translatable", 7,
     "pb:rules: missing attribute 'its:translate' with value 'no' (xmlns:its=\"http://www.w3.org/2005/11/its\"); "
     "it keeps the block out of catalogs"),
])
def test_bad_rules_block_is_one_error_with_file_line_and_allowed_values(name, line, message):
    path = BAD / f"{name}.xml"
    with pytest.raises(SourceError) as info:
        rules_of(name, BAD)
    assert (info.value.file, info.value.line, info.value.message) == (str(path), line, message)
    assert str(info.value) == f"{path}:{line}: {message}"


def test_valid_fixture_loads():
    assert rules_of("valid_minimal", BAD).game == "fixture"


@pytest.mark.parametrize("deck, message", [
    ('<pb:deck decks="1" joker="1"/>', "pb:deck: unknown attribute 'joker'; allowed: decks, suits, ranks, jokers"),
    ('<pb:deck decks="1" jokers="5"/>', "pb:deck: bad number '5' for 'jokers'; expected a whole number from 0 to 4"),
    ('<pb:deck decks="1" jokers="two"/>',
     "pb:deck: bad number 'two' for 'jokers'; expected a whole number from 0 to 4"),
])
def test_deck_attributes_are_checked_and_listed_in_the_error(tmp_path, deck, message):
    source = (BAD / "valid_minimal.xml").read_text(encoding="utf-8")
    (tmp_path / "deck.xml").write_text(source.replace('<pb:deck decks="1"/>', deck), encoding="utf-8")
    with pytest.raises(SourceError) as info:
        rules_of("deck", tmp_path)
    assert (info.value.line, info.value.message) == (7, message)


def test_deck_without_jokers_attribute_has_none():
    assert rules_of("valid_minimal", BAD).deck.jokers == 0


def test_two_decks_with_two_jokers_load_deal_and_round_trip():
    from collections import Counter

    from patiencebook.engine.cards import JOKER
    from patiencebook.engine.deals import deal_order
    from patiencebook.engine.notation import parse_position, position_from_json, position_to_json, position_to_text
    from patiencebook.engine.position import Position

    rules = rules_of("jokers_double", BAD)
    assert rules.deck == Deck(decks=2, jokers=2)
    assert rules.deck.size == 106 and rules.stock_size == 106 - 28 - 1
    for seed in range(1, 9):
        position = Position.initial(rules, deal_order(rules, seed))
        assert [len(position.pile(f"tableau{n}")) for n in range(1, 8)] == [1, 2, 3, 4, 5, 6, 7]
        assert len(position.pile("foundation1")) == 1 and len(position.pile("stock")) == 77
        assert Counter(position.cards()) == Counter(rules.cards()) and Counter(position.cards())[JOKER] == 2
        assert parse_position(position_to_text(position), rules) == position
        assert position_from_json(position_to_json(position), rules) == position
    # A joker dealt to the foundation sets no base rank; the next base card will.
    cards = [card for card in deal_order(rules, 1) if not card.is_joker]
    position = Position.initial(rules, cards[:28] + [JOKER, JOKER] + cards[28:])
    assert position.pile("foundation1") == ((JOKER, True),) and position.base_rank is None
    assert "\nbase: -\n" in position_to_text(position)
    assert parse_position(position_to_text(position), rules) == position
    assert position_from_json(position_to_json(position), rules) == position


def test_page_without_rules_block_has_none():
    root = etree.fromstring(b"<sect1 id='x'><title>X</title><para>No rules.</para></sect1>")
    assert find_rules_element(root) is None


def test_second_rules_block_is_an_error():
    xml = (b"<sect1 xmlns:pb='urn:x-patiencebook:rules:1'><title>X</title>\n<pb:rules/>\n"
           b"<sect2><pb:rules/></sect2></sect1>")
    with pytest.raises(SourceError, match=r"^page.xml:3: pb:rules: a page may hold one rules block"):
        find_rules_element(etree.fromstring(xml), Path("page.xml"))


def test_nested_rules_block_is_an_error():
    xml = b"<sect1 xmlns:pb='urn:x-patiencebook:rules:1'><title>X</title>\n<sect2><pb:rules/></sect2></sect1>"
    with pytest.raises(SourceError, match="must be a direct child of the page's sect1 element"):
        find_rules_element(etree.fromstring(xml), Path("page.xml"))


def test_load_rules_refuses_an_element_that_is_not_a_rules_block():
    with pytest.raises(SourceError, match="expected the rules block pb:rules"):
        load_rules(etree.fromstring(b"<para/>"), Path("page.xml"))


# -- catalogs ----------------------------------------------------------------------------------

def test_itstool_keeps_rules_blocks_out_of_the_catalog(tmp_path):
    itstool = shutil.which("itstool")
    if itstool is None:
        pytest.skip("itstool is not installed (Debian package itstool)")
    files = ["index.docbook", "legal.xml", "agnes.xml", "eagle_wing.xml", "hamilton.xml", "definitions.xml"]
    pot = tmp_path / "help.pot"
    subprocess.run([itstool, "-o", str(pot), *[str(RULES / f) for f in files]], check=True, cwd=tmp_path)
    text = pot.read_text(encoding="utf-8")
    assert 'msgid "Maximum possible score: 52"' in text
    for word in ("same-suit", "deal-to-each", "pb:", "urn:x-patiencebook", "base-card"):
        assert word not in text


def test_schema_description_lists_every_element_and_allowed_value():
    from patiencebook.generator.docbook.rulesblock import SCHEMA, describe_schema
    text = describe_schema()
    for name in SCHEMA:
        assert f"\npb:{name}\n" in f"\n{text}"
    assert "@direction (required): one of up, down, up-or-down, none" in text
    assert "@redeals (required): a whole number of at least 0, or unlimited" in text
    assert "@jokers (optional, default 0): a whole number from 0 to 4" in text


def test_comments_inside_the_block_are_ignored_but_text_is_refused(tmp_path):
    source = (BAD / "valid_minimal.xml").read_text(encoding="utf-8")
    commented = tmp_path / "commented.xml"
    commented.write_text(source.replace('<pb:deck decks="1"/>', '<!-- one deck --><pb:deck decks="1"/>'),
                         encoding="utf-8")
    assert rules_of("commented", tmp_path).deck.size == 52
    texty = tmp_path / "texty.xml"
    texty.write_text(source.replace('<pb:deck decks="1"/>', '<pb:deck decks="1"/> two decks'), encoding="utf-8")
    with pytest.raises(SourceError, match=r"texty.xml:7: pb:rules: unexpected text 'two decks'"):
        rules_of("texty", tmp_path)
