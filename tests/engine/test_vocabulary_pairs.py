"""The rules words added for Monte Carlo and Osmosis, one rule per test, on the games' own rulesets
and small positions (helpers of test_vocabulary: ``#`` marks a face-down card): pairs of
neighbours in a grid, a stock that closes the grid up, and foundations that take only the ranks the
foundation before them holds."""

from __future__ import annotations

import pytest

from patiencebook.engine.errors import RulesError
from patiencebook.engine.moves import Move
from patiencebook.engine.rules import (
    BuildPolicy, FillPolicy, MovePolicy, PileGroup, Ruleset, Scoring, StockAction, StockPolicy,
)
from patiencebook.engine.solver import SOLVED, _Keys, solve

from patiencebook.engine.cards import Rank

from .test_vocabulary import cards, code, position, ruleset


def grid(**piles: str):
    """A Monte Carlo position: the named tableau piles (``t7="Kh"``), the rest of the grid empty."""
    named = {f"tableau{k[1:]}": v for k, v in piles.items() if k.startswith("t")}
    named.update({k: v for k, v in piles.items() if not k.startswith("t")})
    return position("monte_carlo", named)


# -- pairs of neighbours (Monte Carlo) -------------------------------------------------------------

def test_a_pair_of_neighbours_leaves_for_the_foundation_placed_card_on_top():
    p = grid(t1="7h", t2="7s", t3="9d", foundation="Kc Kd")
    after = p.apply("tableau2>tableau1")
    assert cards(after, "tableau1") == "" and cards(after, "tableau2") == ""
    assert cards(after, "foundation") == "Kc Kd 7h 7s"
    assert after.score == 4


@pytest.mark.parametrize("a, b", [(1, 2), (1, 6), (1, 7), (13, 7), (13, 9), (13, 19), (25, 19), (5, 9)])
def test_cards_side_by_side_above_or_below_or_corner_to_corner_are_neighbours(a, b):
    p = grid(**{f"t{a}": "Qh", f"t{b}": "Qs"})
    assert code(p, f"tableau{a}>tableau{b}") is None
    assert code(p, f"tableau{b}>tableau{a}") is None


@pytest.mark.parametrize("a, b", [(5, 6), (10, 6), (10, 11), (1, 3), (1, 11), (3, 13), (5, 11)])
def test_rows_do_not_wrap_and_farther_cards_are_not_neighbours(a, b):
    p = grid(**{f"t{a}": "Qh", f"t{b}": "Qs"})
    assert code(p, f"tableau{a}>tableau{b}") == "not-neighbours"
    assert Move.drag(f"tableau{a}", f"tableau{b}") not in list(p.legal_moves)


def test_neighbours_of_other_ranks_are_not_a_pair_and_gaps_take_no_card():
    p = grid(t1="Qh", t2="Js")
    assert code(p, "tableau1>tableau2") == "not-a-pair"
    assert code(p, "tableau1>tableau6") == "empty-takes-none"
    assert list(p.legal_moves) == []  # gaps only after the last card, and no stock to fill them
    assert p.is_lost()


def test_the_grid_knows_corner_edge_and_middle_neighbours():
    tableau = ruleset("monte_carlo").pile("tableau")
    assert tableau.neighbours(1) == (2, 6, 7)
    assert tableau.neighbours(3) == (2, 4, 7, 8, 9)
    assert tableau.neighbours(13) == (7, 8, 9, 12, 14, 17, 18, 19)
    assert tableau.neighbours(25) == (19, 20, 24)


# -- closing up (Monte Carlo's stock) ---------------------------------------------------------------

def test_the_stock_closes_up_the_gaps_in_order_then_deals_into_the_last_piles():
    p = grid(t1="2c", t3="3c", t4="4c", t7="7c", stock="#Kd #Qd #Jd")
    after = p.apply("stock")
    assert [cards(after, f"tableau{n}") for n in range(1, 9)] == ["2c", "3c", "4c", "7c", "Jd", "Qd", "Kd", ""]
    assert cards(after, "stock") == ""


def test_a_click_that_would_move_no_card_is_refused():
    full = grid(**{f"t{n}": "Ac" for n in range(1, 26)}, stock="#Kd")
    assert code(full, "stock") == "nothing-to-close-up"
    closed = grid(t1="2c", t2="3c")  # gaps only at the end and no stock left
    assert code(closed, "stock") == "nothing-to-close-up"
    gap_first = grid(t2="3c")  # a gap before a card: closing up moves it even with no stock
    assert code(gap_first, "stock") is None
    assert cards(gap_first.apply("stock"), "tableau1") == "3c"


# -- foundations that take the ranks of the one before (Osmosis) -----------------------------------

def osmosis(**piles: str):
    return position("osmosis", piles, base=Rank.JACK)


def test_the_first_foundation_takes_any_rank_of_its_suit():
    p = osmosis(foundation1="Jc", reserve1="2c", reserve2="9h", waste="Kc")
    assert code(p, "reserve1>foundation1") is None
    assert code(p, "waste>foundation1") is None
    assert code(p, "reserve2>foundation1") == "does-not-match"


def test_foundations_start_in_order_with_the_base_rank():
    p = osmosis(foundation1="Jc 4c", reserve1="Jh", reserve2="4h", reserve3="Js")
    assert code(p, "reserve2>foundation2") == "empty-takes-base"
    assert code(p, "reserve1>foundation3") == "rank-not-before"
    after = p.apply("reserve1>foundation2")
    assert code(after, "reserve3>foundation3") is None
    assert code(after, "reserve3>foundation4") == "rank-not-before"


def test_a_started_foundation_takes_only_ranks_the_one_before_holds():
    p = osmosis(foundation1="Jc 4c", foundation2="Jh", reserve1="4h", reserve2="8h")
    assert code(p, "reserve1>foundation2") is None
    assert code(p, "reserve2>foundation2") == "rank-not-before"
    assert [str(m) for m in p.legal_moves if m.kind.value == "drag"] == ["reserve1>foundation2"]


def test_a_double_click_sends_a_base_card_to_the_first_empty_foundation():
    p = osmosis(foundation1="Jc", foundation2="Jh", reserve1="Js")
    after = p.apply("dbl:reserve1")
    assert cards(after, "foundation3") == "Js" and cards(after, "foundation4") == ""


# -- the words' checks --------------------------------------------------------------------------------

def _piles(build: BuildPolicy, **tableau) -> tuple:
    return (PileGroup("stock", "stock", 1, "Stock", move=MovePolicy("none")),
            PileGroup("tableau", "tableau", 25, "Tableau", build=build, capacity=1, **tableau),
            PileGroup("foundation", "foundation", 1, "Foundation", build=BuildPolicy("none"),
                      move=MovePolicy("none")))


def test_a_pair_build_needs_its_foundation_and_single_cards():
    with pytest.raises(RulesError, match="direction 'same' makes pairs: it needs the foundation"):
        BuildPolicy("same")
    with pytest.raises(RulesError, match="direction 'same' makes pairs"):
        BuildPolicy("down", pair_to="foundation")
    with pytest.raises(RulesError, match="takes one card at a time"):
        BuildPolicy("same", pair_to="foundation", accepts="run")
    with pytest.raises(RulesError, match="takes one card at a time"):
        BuildPolicy("any", match="same-suit", previous_holds_rank=True, accepts="run")


def test_neighbours_need_a_grid_and_a_grid_fits_its_piles():
    with pytest.raises(RulesError, match="takes cards from its neighbours, so it needs a grid"):
        _piles(BuildPolicy("same", pair_to="foundation", neighbours=True))
    with pytest.raises(RulesError, match="too few for 30 columns"):
        _piles(BuildPolicy("same", pair_to="foundation"), columns=30)
    with pytest.raises(RulesError, match="columns of pile 'tableau' must be a whole number of at least 1"):
        _piles(BuildPolicy("same", pair_to="foundation"), columns=0)


def _ruleset(piles, stock=None) -> Ruleset:
    return Ruleset(game="pairs", deck=ruleset("monte_carlo").deck, piles=piles,
                   deal=ruleset("monte_carlo").deal, scoring=Scoring(per_card=1, maximum=52), stock=stock)


def test_pairs_go_to_a_foundation_that_keeps_them_out_of_play():
    stock, tableau, foundation = _piles(BuildPolicy("same", pair_to="foundation", neighbours=True), columns=5)
    with pytest.raises(RulesError, match="names pile 'stock' of role 'stock'; it must be 'foundation'"):
        _ruleset((stock, PileGroup("tableau", "tableau", 25, "Tableau", columns=5, capacity=1,
                                   build=BuildPolicy("same", pair_to="stock")), foundation))
    open_foundation = PileGroup("foundation", "foundation", 1, "Foundation", build=BuildPolicy("up"))
    with pytest.raises(RulesError, match="takes pairs: its cards are out of play"):
        _ruleset((stock, tableau, open_foundation))


def test_a_closing_stock_needs_piles_of_one_card():
    stock, tableau, foundation = _piles(BuildPolicy("same", pair_to="foundation", neighbours=True), columns=5)
    loose = PileGroup("tableau", "tableau", 25, "Tableau", columns=5, fill=FillPolicy("none"),
                      build=BuildPolicy("same", pair_to="foundation", neighbours=True))
    with pytest.raises(RulesError, match="closes up piles of one card each"):
        _ruleset((stock, loose, foundation), StockPolicy("stock", StockAction.CONSOLIDATE, target="tableau"))
    assert _ruleset((stock, tableau, foundation),
                    StockPolicy("stock", StockAction.CONSOLIDATE, target="tableau")).stock.action is StockAction.CONSOLIDATE
    with pytest.raises(RulesError, match="only stock action 'deal-to-waste' can redeal"):
        StockPolicy("stock", StockAction.CONSOLIDATE, target="tableau", redeals=1)


def test_new_directions_relate_ranks_as_named():
    from patiencebook.engine.cards import Card
    same, any_rank = BuildPolicy("same", pair_to="f"), BuildPolicy("any", match="same-suit")
    assert same.allows(Card.parse("7h"), Card.parse("7s")) and not same.allows(Card.parse("7h"), Card.parse("8h"))
    assert any_rank.allows(Card.parse("7h"), Card.parse("Kh")) and not any_rank.allows(Card.parse("7h"), Card.parse("7s"))
    # Over a whole deck: onto the 7h, "same" takes exactly the other sevens, "any" in suit exactly
    # the other hearts, whatever their rank.
    deck = [Card.parse(r + s) for s in "cdhs" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")]
    onto = Card.parse("7h")
    others = [c for c in deck if c != onto]
    assert {str(c) for c in others if same.allows(onto, c)} == {"7c", "7d", "7s"}
    assert {str(c) for c in others if any_rank.allows(onto, c)} == {str(c) for c in others if str(c).endswith("h")}


# -- the solver keeps the places that matter -----------------------------------------------------------

def test_solver_keys_keep_grid_places_and_every_rank_of_a_foundation_before_another():
    a = grid(t1="7h", t2="7s", t3="9d")
    b = grid(t1="9d", t2="7s", t3="7h")  # the same cards in other places: other neighbours
    keys = _Keys(a)
    assert keys(a) != keys(b)
    c = osmosis(foundation1="Jc 4c", foundation2="Jh")
    d = osmosis(foundation1="Jc 9c 4c", foundation2="Jh")  # same top card, one rank more below it
    keys = _Keys(c)
    assert keys(c) != keys(d)


def test_solver_wins_a_small_grid_by_closing_up():
    # 7h and 7s are not neighbours until the stock closes the gap between them.
    rest = " ".join(str(c) for c in ruleset("monte_carlo").cards() if str(c) not in ("7h", "7s"))
    p = grid(t1="7h", t3="7s", foundation=rest)
    result = solve(p, 1000)
    assert result.status == SOLVED
    assert [str(m) for m in result.moves] == ["stock", "tableau2>tableau1"]
