"""Rules words added for Odessa, Kansas and Lady Jane, one rule per test, on the games' own rulesets
and small positions (built as in test_vocabulary.py: cards bottom to top, ``#`` face down)."""

from __future__ import annotations

from patiencebook.engine.cards import Rank
from patiencebook.engine.moves import Move

from tests.engine.test_vocabulary import cards, code, position, ruleset  # noqa: F401 - shared helpers


# -- a face-up group landing reversed on a foundation (Odessa) ----------------------------------

def test_odessa_run_in_suit_goes_to_a_foundation_top_card_first():
    p = position("odessa", {"tableau1": "#9c Kd 5h 4h 3h", "foundation1": "Ah 2h"})
    assert code(p, "tableau1:3>foundation1") is None
    after = p.apply("tableau1:3>foundation1")
    assert cards(after, "foundation1") == "Ah 2h 3h 4h 5h"
    assert cards(after, "tableau1") == "#9c Kd"
    assert after.score == 5


def test_odessa_group_out_of_suit_order_is_refused_on_a_foundation_but_not_on_the_tableau():
    p = position("odessa", {"tableau1": "Kd 5h 4s 3h", "tableau2": "6h", "foundation1": "Ah 2h"})
    assert code(p, "tableau1:2>foundation1") == "not-a-run"
    assert code(p, "tableau1:3>foundation1") == "not-a-run"
    assert code(p, "tableau1:3>tableau2") is None
    to_foundation = sorted(m.count for m in p.legal_moves if m.target == "foundation1")
    assert to_foundation == [1]


def test_odessa_run_lengths_offered_to_a_foundation_stop_at_the_first_card_that_does_not_follow():
    p = position("odessa", {"tableau1": "7h 6c 5h 4h 3h", "foundation1": "Ah 2h"})
    counts = sorted(m.count for m in p.legal_moves if m.source == "tableau1" and m.target == "foundation1")
    assert counts == [1, 2, 3]


def test_yukon_foundation_still_takes_one_card_at_a_time():
    p = position("yukon", {"tableau1": "Kd 4h 3h", "foundation1": "Ah 2h"})
    assert code(p, "tableau1:2>foundation1") == "one-at-a-time"


# -- fill otherwise="waste" (Kansas) ------------------------------------------------------------

def test_kansas_empty_tableau_is_refilled_from_the_reserve_while_it_holds_cards():
    p = position("kansas", {"tableau1": "5c", "tableau2": "6d", "tableau3": "Kh", "reserve": "#9s #4h Jc",
                            "foundation1": "3h"}, base=Rank.THREE)
    after = p.apply("tableau1>tableau2")
    assert cards(after, "tableau1") == "Jc"
    assert cards(after, "reserve") == "#9s 4h"


def test_kansas_empty_tableau_takes_only_the_top_card_of_the_waste_once_the_reserve_is_empty():
    p = position("kansas", {"tableau1": "", "tableau2": "6d", "tableau3": "6h 5c", "waste": "2s 9d",
                            "foundation1": "3h"}, base=Rank.THREE)
    assert code(p, "waste>tableau1") is None
    assert code(p, "tableau3>tableau1") == "empty-takes-waste"
    assert code(p, "tableau3:2>tableau1") == "empty-takes-waste"
    assert {(m.source, m.count) for m in p.legal_moves if m.target == "tableau1"} == {("waste", 1)}
    assert cards(p.apply("waste>tableau1"), "tableau1") == "9d"


def test_a_fill_from_the_waste_needs_a_waste():
    import dataclasses

    import pytest

    from patiencebook.engine.errors import RulesError
    from patiencebook.engine.rules import FillPolicy

    rules = ruleset("kansas")
    piles = tuple(dataclasses.replace(g, fill=FillPolicy("waste")) if g.id == "tableau" else g
                  for g in rules.piles if g.id != "waste")
    stock = dataclasses.replace(rules.stock, action="none", target=None)
    with pytest.raises(RulesError, match="filled from the waste, but the game has no waste"):
        dataclasses.replace(rules, piles=piles, stock=stock)


# -- fill="below-base" and a stock with a rest pile (Lady Jane) ---------------------------------

def test_lady_jane_empty_tableau_takes_a_card_one_rank_below_the_base():
    p = position("lady_jane", {"tableau1": "", "tableau2": "Kd Qs", "reserve1": "Jh", "reserve2": "9c",
                               "foundation1": "Tc"}, base=Rank.TEN)
    assert code(p, "reserve2>tableau1") is None
    assert code(p, "reserve1>tableau1") == "empty-takes-base"
    assert p.reason(Move.parse("reserve1>tableau1")).params["rank"] == "9"
    assert {m.source for m in p.legal_moves if m.target == "tableau1"} == {"reserve2"}


def test_lady_jane_empty_tableau_takes_a_king_when_the_base_is_the_ace():
    p = position("lady_jane", {"tableau1": "", "reserve1": "Kh", "reserve2": "Qc", "foundation1": "As"},
                 base=Rank.ACE)
    assert code(p, "reserve1>tableau1") is None
    assert code(p, "reserve2>tableau1") == "empty-takes-base"


def test_stock_with_a_rest_pile_deals_rounds_then_one_card_to_the_waste_and_turns_the_last_one_up():
    from patiencebook.engine.game import Game

    p = Game.deal(ruleset("lady_jane"), 1).position
    assert len(p.pile("stock")) == 16
    p = p.apply("stock").apply("stock")
    assert len(p.pile("stock")) == 2 and all(len(p.pile(f"reserve{n}")) == 3 for n in range(1, 8))
    p = p.apply("stock")
    assert cards(p, "waste") == "2h" and cards(p, "stock") == "7s"
    assert code(p, "stock") == "stock-last-card"
    p.validate()
    after = p.apply("stock>tableau3")
    assert cards(after, "stock") == "" and code(after, "stock") == "stock-empty"
    after.validate()


def test_only_a_deal_to_each_stock_takes_a_rest_pile():
    import pytest

    from patiencebook.engine.errors import RulesError
    from patiencebook.engine.rules import StockPolicy

    with pytest.raises(RulesError, match="only stock action 'deal-to-each'"):
        StockPolicy("stock", "deal-to-waste", target="waste", rest="waste")


def test_lady_jane_stock_clicks_deal_seven_twice():
    assert ruleset("lady_jane").stock_deals() == (7, 7)


def test_a_stock_without_a_rest_pile_writes_no_rest_key_and_lady_jane_reads_back():
    from patiencebook.engine.rulesdata import ruleset_from_data, ruleset_to_data

    assert "rest" not in ruleset_to_data(ruleset("kansas"))["stock"]
    data = ruleset_to_data(ruleset("lady_jane"))
    assert data["stock"]["rest"] == "waste"
    assert ruleset_from_data(data) == ruleset("lady_jane")
