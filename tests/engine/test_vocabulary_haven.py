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
