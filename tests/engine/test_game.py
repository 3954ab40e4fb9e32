"""Games: push, pop, undo and redo; hints; and the counts each English page states, compared with
what the engine deals and does (tableau cards and piles, stock size and deals, redeals, maximum score)."""

from __future__ import annotations

import re

import pytest
from lxml import etree

from patiencebook.engine.errors import IllegalMove
from patiencebook.engine.game import Game
from patiencebook.engine.moves import Move, MoveKind
from patiencebook.engine.position import Position

from .test_moves import make
from .test_position import RULES_DIR, ruleset, shuffled

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "twelve": 12, "twice": 2}


def test_push_pop_undo_and_redo_walk_the_history():
    game = Game(ruleset("agnes"), shuffled("agnes", 1))
    start = game.position
    first = game.push("stock")
    second = game.push(Move.stock())
    assert game.moves == (Move.stock(), Move.stock()) and game.can_undo and not game.can_redo
    assert game.pop() == Move.stock() and game.position == first
    assert game.undo() == Move.stock() and game.position == start
    assert game.redo() == Move.stock() and game.position == first
    assert game.redo() == Move.stock() and game.position == second
    with pytest.raises(IllegalMove, match="no move to redo"):
        game.redo()


def test_a_new_move_clears_the_redo_list():
    game = Game(ruleset("eagle_wing"), shuffled("eagle_wing", 2))
    game.push("stock")
    game.undo()
    assert game.can_redo
    game.push("stock")
    assert not game.can_redo


def test_an_illegal_push_leaves_the_game_unchanged():
    game = Game(ruleset("hamilton"), shuffled("hamilton", 3))
    with pytest.raises(IllegalMove, match="before the start card is chosen"):
        game.push("tableau7>tableau1")
    assert game.moves == () and game.position == game.initial
    with pytest.raises(IllegalMove, match="no move to undo"):
        game.pop()


def test_hints_put_foundation_moves_first_then_moves_that_uncover_a_card():
    p = make("agnes", base="8", foundation1="8c", tableau1="#2s 7d", tableau2="8h", tableau3="9c", tableau4="Kh")
    hints = [str(m) for m in p.hints()]
    assert hints[0] == "tableau3>foundation1"
    assert hints.index("tableau1>tableau2") < hints.index("stock")
    assert set(hints) == {str(m) for m in p.legal_moves}


def test_hints_rank_the_start_card_choice_before_another_offer():
    p = Position.initial(ruleset("hamilton"), shuffled("hamilton", 4)).apply("stock")
    assert str(p.hints()[0]) == "chooser>foundation1" and str(p.hints()[-1]) == "stock"


def test_double_clicks_are_listed_only_when_asked():
    p = make("agnes", base="8", foundation1="8c", tableau1="9c")
    from patiencebook.engine.moves import legal_moves
    plain = {str(m) for m in legal_moves(p)}
    both = {str(m) for m in legal_moves(p, double_clicks=True)}
    assert "dbl:tableau1" not in plain and {"dbl:tableau1", "dbl:foundation1"} <= both


# -- the pages' own counts -----------------------------------------------------------------------

def page_text(game: str) -> str:
    """The English prose of a game page, whitespace normalised, without its rules block."""
    root = etree.parse(str(RULES_DIR / f"{game}.xml")).getroot()
    for block in root.iter("{urn:x-patiencebook:rules:1}rules"):
        block.getparent().remove(block)
    return " ".join(" ".join(root.itertext()).split())


def stated(game: str, pattern: str) -> int:
    match = re.search(pattern, page_text(game))
    assert match, f"{game}: the page no longer says {pattern!r}"
    word = match.group(1).lower()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def deals_from_the_stock(p: Position) -> list[int]:
    out = []
    while p.is_legal(Move.stock()):
        before = len(p.pile("stock"))
        p = p.apply("stock")
        out.append(before - len(p.pile("stock")))
    return out


@pytest.mark.parametrize("game", ["hamilton", "agnes", "eagle_wing"])
def test_engine_matches_the_pages_maximum_score_and_deck(game):
    assert stated(game, r"Maximum possible score: (\d+)") == ruleset(game).scoring.maximum
    assert stated(game, r"Move all (\d+) cards to the foundations") == len(ruleset(game).cards())


@pytest.mark.parametrize("game", ["hamilton", "agnes"])
def test_engine_deals_the_tableau_the_pages_state(game):
    p = Position.initial(ruleset(game), shuffled(game, 5))
    piles = [len(p.pile(f"tableau{n}")) for n in range(1, 8)]
    assert stated(game, r"(\w+) piles[.,] (?:with )?\d+ cards") == len(piles)
    assert stated(game, r"piles[.,] (?:with )?(\d+) cards") == sum(piles) == 28
    assert piles == [1, 2, 3, 4, 5, 6, 7]


def test_hamilton_engine_matches_the_page_on_stock_and_choices():
    p = Position.initial(ruleset("hamilton"), shuffled("hamilton", 6))
    assert stated("hamilton", r"The (\d+) cards that are left") == len(p.pile("stock")) == 24
    refusals = 0
    while p.is_legal(Move.stock()):
        p = p.apply("stock")
        refusals += 1
    assert stated("hamilton", r"You can refuse at most (\w+) cards") == refusals - 1 == 2
    p = p.apply("dbl:chooser")
    assert stated("hamilton", r"the stock holds (\d+) cards") == len(p.pile("stock")) == 23
    deals = deals_from_the_stock(p)
    assert stated("hamilton", r"The first (\w+) deals give") == deals.count(7) == 3
    assert stated("hamilton", r"give (\w+) cards each") == deals[0] == 7
    assert stated("hamilton", r"last deal gives only (\w+) cards") == deals[-1] == 2


def test_agnes_engine_matches_the_page_on_stock_and_deals():
    p = Position.initial(ruleset("agnes"), shuffled("agnes", 7))
    assert stated("agnes", r"The (\d+) cards that are left") == len(p.pile("stock")) == 23
    assert stated("agnes", r"The stock holds (\d+) cards") == 23
    deals = deals_from_the_stock(p)
    assert stated("agnes", r"so there are (\w+) deals") == len(deals) == 4
    assert stated("agnes", r"last deal gives only (\w+) cards") == deals[-1] == 2
    assert "There is no redeal" in page_text("agnes")


def test_eagle_wing_engine_matches_the_page_on_stock_reserve_capacity_and_redeals():
    p = Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 8))
    assert stated("eagle_wing", r"The (\d+) cards that are left") == len(p.pile("stock")) == 30
    assert stated("eagle_wing", r"(\d+) cards: the bottom card is face up") == len(p.pile("reserve")) == 13
    assert stated("eagle_wing", r"the (\w+) cards on it are face down") == \
        sum(not up for _, up in p.pile("reserve")) == 12
    assert stated("eagle_wing", r"(\w+) piles, four on each side") == 8
    assert stated("eagle_wing", r"can hold at most (\w+) cards") == ruleset("eagle_wing").pile("tableau").capacity
    assert stated("eagle_wing", r"(\w+) redeals") == ruleset("eagle_wing").stock.redeals
    clicks = 0
    while p.is_legal(Move.stock()):
        p = p.apply("stock")
        clicks += 1
    assert p.redeals_used == stated("eagle_wing", r"You can redeal (\w+)") == 2
    passes = stated("eagle_wing", r"go through the stock (\w+) times")
    assert clicks == passes * 30 + (passes - 1)


def test_playing_hints_to_the_end_never_breaks_the_rules():
    for game in ("hamilton", "agnes", "eagle_wing"):
        g = Game(ruleset(game), shuffled(game, 9))
        for _ in range(300):
            hints = g.hints()
            if not hints or g.is_won() or g.is_lost():
                break
            g.push(hints[0])
        assert 0 <= g.score <= 52
        assert all(m.kind in (MoveKind.DRAG, MoveKind.STOCK) for m in g.moves)


def test_a_numbered_deal_starts_a_game_and_a_seed_only_saved_game_replays_it():
    from patiencebook.engine.notation import SavedGame, parse_saved_game
    game = Game.deal(ruleset("agnes"), 1234)
    game.push("stock")
    saved = SavedGame("agnes", None, 1234, game.moves)
    assert parse_saved_game(saved.to_text()) == saved
    assert saved.replay(ruleset("agnes")).position == game.position
    assert Game.deal(ruleset("agnes"), 1234).initial == game.initial


def test_game_deal_deals_again_when_the_first_shuffle_is_already_lost(monkeypatch):
    """AisleRiot shuffles again, from the same generator, while a new layout cannot be played."""
    from patiencebook.engine.deals import deal_order

    rs = ruleset("eagle_wing")
    refused = []

    def lost_first_time(self):
        if not refused:
            refused.append(self.pile("tableau1"))
            return True
        return False

    monkeypatch.setattr(Position, "is_lost", lost_first_time)
    game = Game.deal(rs, 5)
    first = []  # the first shuffle, recorded and refused
    deal_order(rs, 5, playable=lambda order: bool(first) or first.append(order))
    second = deal_order(rs, 5, playable=lambda order: order != first[0])
    assert refused and game.cards == tuple(second)
    assert game.cards != tuple(deal_order(rs, 5))
