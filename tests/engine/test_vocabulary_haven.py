"""The rules words added for Easthaven, Westhaven and King Albert, one rule per test, on the games'
own rulesets and small positions (helpers of test_vocabulary: ``#`` marks a face-down card)."""

from __future__ import annotations

from patiencebook.engine.moves import Move
from patiencebook.engine.rules import StockAction, StockPolicy, StockRequires
from patiencebook.engine.errors import RulesError

import pytest

from .test_vocabulary import cards, code, position

STOCK = " ".join(f"#{r}c" for r in "A23456789T")


# -- stock: requires no-king-for-empty-pile (Easthaven) ------------------------------------------

def easthaven(**piles: str):
    base = {f"tableau{n}": "#4h 9d" for n in range(1, 8)}
    base.update(stock=STOCK)
    base.update(piles)
    return position("easthaven", base)


def test_easthaven_stock_waits_for_a_king_that_could_fill_an_empty_pile():
    p = easthaven(tableau3="", tableau5="#4s Kh Qc")
    assert code(p, "stock") == "king-for-empty-pile"
    assert Move.stock() not in list(p.legal_moves)
    after = p.apply("tableau5:2>tableau3")
    assert cards(after, "tableau3") == "Kh Qc" and code(after, "stock") is None


def test_easthaven_king_at_the_bottom_of_its_pile_does_not_hold_the_stock():
    p = easthaven(tableau3="", tableau5="Kh Qc")
    assert code(p, "stock") is None


def test_easthaven_king_under_the_liftable_run_does_not_count():
    # Kh lies under 9s, which does not continue a run from it: the run at the top is 9s alone.
    p = easthaven(tableau3="", tableau5="#4s Kh 9s")
    assert code(p, "stock") is None


def test_easthaven_stock_deals_onto_empty_piles_when_no_king_can_fill_them():
    p = easthaven(tableau3="")
    after = p.apply("stock")
    # Tc is the top of the stock: the first pile gets it, the empty third pile the Eight.
    assert [cards(after, f"tableau{n}") for n in (1, 3)] == ["#4h 9d Tc", "8c"]


def test_easthaven_stock_deals_anyway_when_the_tableau_holds_fewer_cards_than_piles():
    empty = {f"tableau{n}": "" for n in range(1, 8)}
    p = position("easthaven", {**empty, "tableau1": "#4s Kh", "tableau2": "3d", "stock": STOCK})
    # Two piles hold cards (three cards for seven piles); Kh lies on a card, yet the stock deals.
    assert code(p, "stock") is None
    p = position("easthaven", {**empty, "tableau1": "#4s #5s #6s #7s #8s Kh", "tableau2": "3d", "stock": STOCK})
    assert code(p, "stock") == "king-for-empty-pile"


def test_no_king_for_empty_pile_needs_deal_to_each():
    with pytest.raises(RulesError, match="only stock action 'deal-to-each' can require no King"):
        StockPolicy(pile="stock", action=StockAction.DEAL_TO_WASTE, target="waste",
                    requires=StockRequires.NO_KING_FOR_EMPTY_PILE)


# -- move unit top-or-face-up (Westhaven) --------------------------------------------------------

def westhaven(**piles: str):
    """A Westhaven position whose other tableau piles each hold a lone black King, which takes
    nothing the tests use and goes nowhere."""
    base = {f"tableau{n}": "Kc" if n % 2 else "Ks" for n in range(1, 11)}
    base.update(piles)
    return position("westhaven", base)


def test_westhaven_moves_the_top_card_or_all_face_up_cards_and_nothing_between():
    p = westhaven(**{"tableau1": "#9c #2s 6c 5d 4c", "tableau2": "5h", "tableau3": "7h", "tableau4": ""})
    assert code(p, "tableau1:2>tableau4") == "top-or-all-face-up"
    assert code(p, "tableau1>tableau2") is None
    assert code(p, "tableau1:3>tableau3") is None
    assert code(p, "tableau1:4>tableau4") == "face-down"
    drags = {(m.source, m.target, m.count) for m in p.legal_moves if m.source == "tableau1"}
    assert drags == {("tableau1", "tableau2", 1), ("tableau1", "tableau3", 3),
                     ("tableau1", "tableau4", 1), ("tableau1", "tableau4", 3)}
    after = p.apply("tableau1:3>tableau3")
    assert cards(after, "tableau3") == "7h 6c 5d 4c" and cards(after, "tableau1") == "#9c 2s"


def test_top_or_face_up_lifts_cards_in_any_order():
    # A face-up group that is not a run still moves as a whole, its bottom card deciding.
    p = westhaven(**{"tableau1": "#9c 6c Qd", "tableau2": "7h"})
    assert code(p, "tableau1:2>tableau2") is None


def test_top_or_face_up_takes_no_stop_at_base():
    from patiencebook.engine.rules import MovePolicy, MoveUnit
    with pytest.raises(RulesError, match="'top-or-face-up' takes no stop-at-base"):
        MovePolicy(unit=MoveUnit.TOP_OR_FACE_UP, stop_at_base=True)


# -- lost: no-clearing-move (Westhaven) ----------------------------------------------------------

def test_westhaven_is_lost_when_only_part_of_a_group_could_move():
    # 4c could go alone onto 5h, but that only shifts the top of a group: no clearing move is left.
    p = westhaven(**{"tableau1": "#9c 6c 5d 4c", "tableau2": "Kh 5h", "tableau3": "#Ts Qs"})
    assert code(p, "tableau1>tableau2") is None
    assert p.is_lost()


def test_westhaven_is_not_lost_while_a_whole_group_or_the_waste_can_move():
    base = {"tableau1": "#9c 6c 5d 4c", "tableau2": "Kh 5h", "tableau3": "#Ts Qs"}
    assert not westhaven(**{**base, "tableau3": "#Ts 7h"}).is_lost()      # 6c 5d 4c onto 7h
    assert not westhaven(**{**base, "tableau4": "", "tableau3": "Qs"}).is_lost()  # into an empty pile
    assert not westhaven(**{**base, "waste": "Jh"}).is_lost()            # waste card onto Qs
    assert not westhaven(**{**base, "stock": "#2c"}).is_lost()           # the stock deals


def test_westhaven_whole_pile_into_an_empty_pile_does_not_keep_the_game_going():
    p = westhaven(**{"tableau1": "6c 5d 4c", "tableau2": "Kh 5h", "tableau3": "Qs", "tableau4": ""})
    assert code(p, "tableau1:3>tableau4") is None
    assert p.is_lost()
