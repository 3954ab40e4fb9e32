"""Rules blocks with variants and the words added for the ten new games: what each variant replaces,
and one clear error with file and line for each way of getting the new words wrong."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from lxml import etree

from patiencebook.engine.cards import Rank, Suit
from patiencebook.engine.deals import deal_order
from patiencebook.engine.position import Position
from patiencebook.engine.rules import Accepts, Deck, Face, KingsRule, Match, MoveLimit, StockRequires
from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.rulesblock import find_rules_element, load_rules, load_variants
from patiencebook.generator.docbook.sources import load_document

REPO = Path(__file__).resolve().parents[3]
RULES = REPO / "rules"


@lru_cache(maxsize=None)
def page(game: str):
    return load_document(RULES).page(game)


def block(path: Path) -> etree._Element:
    tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    return find_rules_element(tree.getroot(), path)


def variants_of(game: str) -> dict:
    path = RULES / f"{game}.xml"
    return load_variants(block(path), path)


def edited(tmp_path: Path, game: str, old: str, new: str) -> tuple[Path, str]:
    """A copy of ``rules/GAME.xml`` in ``tmp_path`` with ``old`` (found once) replaced by ``new``."""
    text = (RULES / f"{game}.xml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / f"{game}.xml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line_of(text: str, marker: str) -> int:
    """The 1-based line of ``text`` holding ``marker`` (which must occur once)."""
    assert text.count(marker) == 1, marker
    return text[:text.index(marker)].count("\n") + 1


def load_error(path: Path, variants: bool = False) -> SourceError:
    with pytest.raises(SourceError) as info:
        (load_variants if variants else load_rules)(block(path), path)
    return info.value


# -- variants of the real pages --------------------------------------------------------------------

def test_klondike_variants_are_listed_main_block_first_in_source_order():
    assert list(variants_of("klondike")) == ["single-card-deals", "three-card-deals", "no-redeals",
                                             "unlimited-redeals"]


def test_each_ruleset_knows_its_variant_id():
    for vid, rules in variants_of("klondike").items():
        assert rules.variant == vid and rules.game == "klondike"
    spider = page("spider")
    assert spider.rules.variant == "four-suits"
    assert spider.variants["four-suits"] == spider.rules
    assert page("freecell").rules.variant is None
    assert page("freecell").variants == {}


@pytest.mark.parametrize("vid, cards, redeals", [
    ("single-card-deals", 1, 2), ("three-card-deals", 3, None), ("no-redeals", 1, 0), ("unlimited-redeals", 1, None),
])
def test_klondike_variant_replaces_only_the_stock(vid, cards, redeals):
    variants = variants_of("klondike")
    main, rules = variants["single-card-deals"], variants[vid]
    assert (rules.stock.cards, rules.stock.redeals) == (cards, redeals)
    assert (rules.deck, rules.piles, rules.deal, rules.scoring, rules.end) == (
        main.deck, main.piles, main.deal, main.scoring, main.end)


@pytest.mark.parametrize("vid, deck", [
    ("four-suits", Deck(decks=2)),
    ("two-suits", Deck(decks=4, suits=(Suit.HEARTS, Suit.SPADES))),
    ("one-suit", Deck(decks=8, suits=(Suit.SPADES,))),
])
def test_spider_variant_replaces_only_the_deck(vid, deck):
    variants = variants_of("spider")
    main, rules = variants["four-suits"], variants[vid]
    assert rules.deck == deck and rules.deck.size == 104
    assert (rules.stock, rules.piles, rules.deal, rules.scoring) == (main.stock, main.piles, main.deal, main.scoring)


def test_three_card_deals_variant_turns_three_cards_per_click_and_redeals_without_limit():
    rules = variants_of("klondike")["three-card-deals"]
    p = Position.initial(rules, deal_order(rules, 1))
    order = deal_order(rules, 1)
    p = p.apply("stock")
    assert [c for c, _ in p.pile("waste")] == order[28:31]
    for _ in range(7):
        p = p.apply("stock")
    assert len(p.pile("stock")) == 0 and len(p.pile("waste")) == 24
    for redeal in range(1, 6):
        p = p.apply("stock")
        assert p.redeals_used == redeal and len(p.pile("stock")) == 24
        for _ in range(8):
            p = p.apply("stock")


def test_one_suit_spider_deals_only_spades():
    rules = variants_of("spider")["one-suit"]
    p = Position.initial(rules, deal_order(rules, 2))
    assert {c.suit for c in p.cards()} == {Suit.SPADES} and len(p.cards()) == 104


# -- the new words as loaded ---------------------------------------------------------------------

def test_new_words_load_into_the_model():
    scorpion = page("scorpion").rules
    assert scorpion.deal[0].face == (Face.DOWN,) * 4 + (Face.UP,) * 3
    assert scorpion.scoring.per_face_down == -3 and scorpion.scoring.start == 36
    bakers = page("bakers_dozen").rules
    assert bakers.deal[0].kings is KingsRule.BOTTOM
    spider = page("spider").rules
    assert spider.stock.requires is StockRequires.NO_EMPTY_PILE
    golf = page("golf").rules
    assert golf.pile("waste").build.closed_on is Rank.KING
    canfield = page("canfield").rules
    assert canfield.pile("foundation").move.keeps_base
    assert page("freecell").rules.pile("tableau").move.max_cards \
        is MoveLimit.FREE_CELLS_AND_EMPTY_TABLEAU


def test_negative_points_per_face_down_card_are_accepted(tmp_path):
    path, _ = edited(tmp_path, "scorpion", 'per-face-down="-3"', 'per-face-down="-10"')
    assert load_rules(block(path), path).scoring.per_face_down == -10


def test_negative_points_per_link_are_refused(tmp_path):
    path, text = edited(tmp_path, "scorpion", 'per-link="1"', 'per-link="-1"')
    error = load_error(path)
    assert (error.file, error.line) == (str(path), line_of(text, 'per-link="-1"'))
    assert error.message == "pb:scoring: bad number '-1' for 'per-link'; expected a whole number of at least 0"


# -- errors in variants ----------------------------------------------------------------------------

def test_block_with_variants_but_no_variant_attribute_is_an_error(tmp_path):
    path, text = edited(tmp_path, "klondike", ' variant="single-card-deals"', "")
    error = load_error(path)
    # lxml gives an element the line where its start tag ends.
    assert (error.file, error.line) == (str(path), line_of(text, 'game="klondike">'))
    assert error.message == ('pb:rules: a block with pb:variant elements names its own variant: '
                             'add variant="..." (the id of the rules it states)')
    assert str(error).startswith(f"{path}:{error.line}: pb:rules: ")


def test_variant_id_used_twice_is_an_error_at_the_second(tmp_path):
    path, text = edited(tmp_path, "klondike", '<pb:variant id="unlimited-redeals">',
                        '<pb:variant id="no-redeals"><!-- again -->')
    error = load_error(path, variants=True)
    assert (error.file, error.line) == (str(path), line_of(text, "<!-- again -->"))
    assert error.message == "pb:variant: the variant id 'no-redeals' is used twice"


def test_variant_id_of_the_main_block_used_again_is_an_error(tmp_path):
    path, text = edited(tmp_path, "klondike", '<pb:variant id="three-card-deals">',
                        '<pb:variant id="single-card-deals">')
    error = load_error(path, variants=True)
    assert error.line == line_of(text, '<pb:variant id="single-card-deals">')
    assert error.message == "pb:variant: the variant id 'single-card-deals' is used twice"


def test_variant_pile_must_replace_a_pile_of_the_block(tmp_path):
    path, text = edited(tmp_path, "spider", '<pb:deck decks="8" suits="s"/>',
                        '<pb:pile id="x" role="tableau" count="1" label="X"/>')
    error = load_error(path, variants=True)
    assert error.line == line_of(text, '<pb:pile id="x"')
    assert error.message == ("pb:pile: the variant's pile 'x' replaces no pile of the block; "
                             "piles: stock, foundation, tableau")


def test_bad_value_in_a_variant_pile_names_its_line(tmp_path):
    path, text = edited(tmp_path, "giant", '<pb:build direction="down" match="same-suit" accepts="run"/>',
                        '<pb:build direction="down" match="same-suite" accepts="run"/>')
    error = load_error(path, variants=True)
    assert error.line == line_of(text, 'match="same-suite"')
    assert error.message.startswith("pb:build: unknown value 'same-suite' for 'match'")


def test_giant_same_suit_variant_replaces_only_its_piles_builds():
    variants = variants_of("giant")
    main, same = variants["alternate-colours"], variants["same-suit"]
    assert list(variants) == ["alternate-colours", "same-suit"]
    assert [g.id for g in same.piles] == [g.id for g in main.piles]
    assert same.pile("tableau").build.match is Match.SAME_SUIT
    assert same.pile("tableau").move.match is Match.SAME_SUIT
    assert main.pile("tableau").build.match is Match.ALTERNATE_COLOUR
    assert same.pile("foundation").build.accepts is Accepts.RUN
    assert main.pile("foundation").build.accepts is Accepts.SINGLE
    assert same.pile("reserve") == main.pile("reserve") and same.pile("stock") == main.pile("stock")
    assert (same.deck, same.deal, same.stock, same.scoring) == (main.deck, main.deal, main.stock, main.scoring)


def test_variant_without_id_is_an_error(tmp_path):
    path, text = edited(tmp_path, "spider", '<pb:variant id="one-suit">', "<pb:variant>")
    error = load_error(path, variants=True)
    assert error.line == line_of(text, "<pb:variant>")
    assert error.message.startswith("pb:variant: missing attribute 'id'")


def test_bad_value_inside_a_variant_names_its_line(tmp_path):
    path, text = edited(tmp_path, "klondike", 'cards="3" redeals="unlimited"', 'cards="3" redeals="always"')
    error = load_error(path, variants=True)
    assert error.line == line_of(text, 'redeals="always"')
    assert error.message == ("pb:stock: bad number 'always' for 'redeals'; "
                             "expected a whole number of at least 0, or unlimited")


# -- errors in the new words ---------------------------------------------------------------------

def test_face_list_of_the_wrong_length_names_the_step(tmp_path):
    path, text = edited(tmp_path, "scorpion", 'face="down down down down up up up"', 'face="down down up"')
    error = load_error(path)
    assert (error.file, error.line) == (str(path), line_of(text, 'face="down down up"'))
    assert error.message == ("pb:step: the deal step for 'tableau' gives 3 faces; "
                             "give 1 (every pile) or 7 (one per pile)")


def test_face_list_with_an_unknown_word(tmp_path):
    path, text = edited(tmp_path, "scorpion", 'face="down down down down up up up"',
                        'face="down down down down up up sideways"')
    error = load_error(path)
    assert error.line == line_of(text, "sideways")
    assert error.message == ("pb:step: unknown value 'down down down down up up sideways' for 'face'; "
                             "allowed: up, down, top-up")


def test_unknown_max_word_is_an_error(tmp_path):
    path, text = edited(tmp_path, "freecell", 'max="free-cells-and-empty-tableau"', 'max="empty-piles"')
    error = load_error(path)
    assert error.line == line_of(text, 'max="empty-piles"')
    assert error.message == ("pb:move: bad value 'empty-piles' for 'max'; "
                             "expected a whole number of at least 1, or free-cells-and-empty-tableau, free-cells")


def test_free_cell_limit_needs_free_cells(tmp_path):
    path, text = edited(tmp_path, "forty_thieves", 'max="free-cells-and-empty-tableau"', 'max="free-cells"')
    error = load_error(path)
    assert error.line == line_of(text, '<pb:pile id="tableau"')
    assert error.message == "pb:pile: the move policy of 'tableau' is limited by empty free cells, but the game has none"


def test_unknown_autoplay_rule_names_all_cards(tmp_path):
    path, text = edited(tmp_path, "freecell", 'rule="low-cards"', 'rule="every-card"')
    error = load_error(path)
    assert error.line == line_of(text, 'rule="every-card"')
    assert error.message == "pb:autoplay: unknown value 'every-card' for 'rule'; allowed: low-cards, all-cards"


def test_closed_on_needs_a_rank_letter(tmp_path):
    path, text = edited(tmp_path, "golf", 'closed-on="K"', 'closed-on="X"')
    error = load_error(path)
    assert error.line == line_of(text, 'closed-on="X"')
    assert error.message == ("pb:build: bad value 'X' for 'closed-on'; "
                             "expected a rank letter from A 2 3 4 5 6 7 8 9 T J Q K")


def test_unknown_kings_word_is_an_error(tmp_path):
    path, text = edited(tmp_path, "bakers_dozen", 'kings="bottom"', 'kings="top"')
    error = load_error(path)
    assert error.line == line_of(text, 'kings="top"')
    assert error.message == "pb:step: unknown value 'top' for 'kings'; allowed: as-dealt, bottom"


def test_deal_step_rank_needs_a_rank_letter_and_every_card_of_the_rank(tmp_path):
    path, text = edited(tmp_path, "beleaguered_castle", 'rank="A"', 'rank="ace of clubs"')
    error = load_error(path)
    assert error.line == line_of(text, 'rank="ace of clubs"')
    assert error.message == ("pb:step: bad value 'ace of clubs' for 'rank'; "
                             "expected a rank letter from A 2 3 4 5 6 7 8 9 T J Q K")
    (tmp_path / "second").mkdir()
    path, text = edited(tmp_path / "second", "beleaguered_castle", 'cards="1" face="up" rank="A"',
                        'cards="2" face="up" rank="A"')
    error = load_error(path)
    assert error.line == line_of(text, 'cards="2" face="up" rank="A"')
    assert "must deal the deck's 4 such cards, not 8" in error.message


def test_requires_no_empty_pile_only_with_deal_to_each(tmp_path):
    path, text = edited(tmp_path, "klondike", 'cards="1" redeals="2"/>',
                        'cards="1" redeals="2" requires="no-empty-pile"/>')
    error = load_error(path)
    assert error.line == line_of(text, 'requires="no-empty-pile"')
    assert error.message == "pb:stock: only stock action 'deal-to-each' can require no empty pile"


def test_keeps_base_needs_a_foundation_base_and_names_the_pile(tmp_path):
    path, _ = edited(tmp_path, "freecell", '<pb:move unit="top"/>\n      <pb:fill rule="any"/>',
                     '<pb:move unit="top" keeps-base="yes"/>\n      <pb:fill rule="any"/>')
    # FreeCell's foundations start from the Ace, so a base exists: the block loads.
    assert load_rules(block(path), path).pile("freecell").move.keeps_base
    path, text = edited(tmp_path, "scorpion", '<pb:move unit="face-up"/>', '<pb:move unit="face-up" keeps-base="yes"/>')
    error = load_error(path)
    assert error.line == line_of(text, '<pb:pile id="tableau"')
    assert error.message == ("pb:pile: the move policy of 'tableau' keeps the base rank, "
                             "but no foundation defines a base")


def test_face_up_unit_takes_no_match(tmp_path):
    path, text = edited(tmp_path, "yukon", '<pb:move unit="face-up"/>', '<pb:move unit="face-up" match="same-suit"/>')
    error = load_error(path)
    assert error.line == line_of(text, 'unit="face-up" match')
    assert error.message == "pb:move: a move of unit 'face-up' takes no match; only 'run' does"


def test_double_click_to_a_free_cell_needs_free_cells(tmp_path):
    path, text = edited(tmp_path, "yukon", 'double-click="card-to-foundation"', 'double-click="card-to-freecell"')
    error = load_error(path)
    assert error.line == line_of(text, 'double-click="card-to-freecell"')
    assert error.message == "pb:pile: pile 'tableau': double-click 'card-to-freecell' needs a freecell pile"


def test_triple_peaks_words_load_into_the_model():
    rules = page("triple_peaks").rules
    assert rules.pile("tableau").covered_by[0] == (4, 5) and rules.pile("tableau").covered_by[27] == ()
    assert rules.stock.discard == "discard"
    sc = rules.scoring
    assert (sc.per_run_card, sc.per_stock_deal, sc.per_peak, sc.last_peak, sc.running) == (1, -5, 15, 30, True)


@pytest.mark.parametrize("old, new, message", [
    ('<pb:cover pile="18" by="27 28"/>', '<pb:cover pile="29" by="27 28"/>',
     "pb:cover: pile 29 is not a pile of the group, which has 28"),
    ('<pb:cover pile="18" by="27 28"/>', '<pb:cover pile="17" by="27 28"/>',
     "pb:cover: pile 17 is named by two pb:cover elements; give its covering piles once"),
    ('<pb:cover pile="18" by="27 28"/>', '<pb:cover pile="18" by="18 28"/>',
     "pb:cover: pile 18 cannot lie over pile 18: it is the pile itself"),
    ('<pb:cover pile="18" by="27 28"/>', '<pb:cover pile="18" by="27 x"/>',
     "pb:cover: bad number '27 x' for 'by'; expected whole numbers of at least 1, separated by spaces"),
    ('discard="discard"', 'discard="nowhere"',
     "pb:stock: the discard of the stock policy names an unknown pile 'nowhere'; piles: stock, discard, waste, "
     "tableau"),
    ('per-stock-deal="-5"', 'per-stock-deal="-5" per-card="1"',
     "pb:scoring: a score added up move by move (per-run-card, per-stock-deal, per-peak, last-peak) takes no "
     "term worked out from the position"),
])
def test_triple_peaks_words_that_do_not_fit_name_their_line(tmp_path, old, new, message):
    path, text = edited(tmp_path, "triple_peaks", old, new)
    error = load_error(path)
    assert error.line == line_of(text, new.split()[-1] if "pb:cover" not in new else new)
    assert error.message == message


# -- words added for Cruel -------------------------------------------------------------------------

def test_cruel_deal_steps_read_rank_and_from():
    rules = page("cruel").rules
    assert (rules.deal[0].rank, rules.deal[0].source.value) == (Rank.ACE, "top")
    assert (rules.deal[1].rank, rules.deal[1].source.value) == (None, "bottom")
    assert rules.stock.action.value == "redeal-tableau" and rules.stock.redeals is None


def test_bad_deal_step_rank_names_its_line(tmp_path):
    path, text = edited(tmp_path, "cruel", 'rank="A"', 'rank="X"')
    error = load_error(path)
    assert error.line == line_of(text, 'rank="X"')
    assert error.message == "pb:step: bad value 'X' for 'rank'; expected a rank letter from A 2 3 4 5 6 7 8 9 T J Q K"


def test_bad_deal_step_from_names_its_line(tmp_path):
    path, text = edited(tmp_path, "cruel", 'from="bottom"', 'from="end"')
    error = load_error(path)
    assert error.line == line_of(text, 'from="end"')
    assert error.message == "pb:step: unknown value 'end' for 'from'; allowed: top, bottom"


def test_redeal_tableau_with_a_limit_names_its_line(tmp_path):
    path, text = edited(tmp_path, "cruel", 'redeals="unlimited"', 'redeals="2"')
    error = load_error(path)
    assert error.line == line_of(text, 'redeals="2"')
    assert error.message == "pb:stock: stock action 'redeal-tableau' redeals without a limit: give redeals 'unlimited'"
