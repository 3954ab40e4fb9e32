"""The rules words added for Giant and Cruel: a variant's piles, the autoplay that also tries the
reserve, a deal step of one rank or from the bottom of the deck, the stock that redeals the tableau,
and the lost hook ``no-move-or-redeal-loop``; one rule per test, on the games' own rulesets."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine.cards import Rank
from patiencebook.engine.deals import deal_order
from patiencebook.engine.errors import RulesError
from patiencebook.engine.moves import Move
from patiencebook.engine.notation import parse_card
from patiencebook.engine.position import Position
from patiencebook.engine.rules import DealFrom, DealStep, Ruleset, StockAction, StockPolicy
from patiencebook.engine.rulesdata import ruleset_from_data, ruleset_to_data
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def position(game: str, piles: dict[str, str]) -> Position:
    """A position of ``game`` with only the given piles (cards bottom to top, ``#`` face down)."""
    return Position.from_piles(ruleset(game), {pid: [parse_card(t) for t in text.split()]
                                                for pid, text in piles.items()})


def cards(p: Position, pile: str) -> str:
    return " ".join(("" if up else "#") + str(c) for c, up in p.pile(pile))


def code(p: Position, move: str) -> str | None:
    reason = p.reason(Move.parse(move))
    return None if reason is None else reason.code


ACES = {"foundation1": "Ac", "foundation2": "Ad", "foundation3": "Ah", "foundation4": "As"}


# -- a deal step of one rank, and one from the bottom of the deck (Cruel) -----------------------

@pytest.mark.parametrize("deal", [1, 2, 42])
def test_cruel_aces_go_out_in_deck_order_and_the_rest_is_dealt_from_the_bottom(deal):
    rules = ruleset("cruel")
    order = deal_order(rules, deal)
    p = Position.initial(rules, order)
    aces = [c for c in order if c.rank is Rank.ACE]
    assert [p.pile(f"foundation{n}")[0][0] for n in range(1, 5)] == aces
    rest = [c for c in order if c.rank is not Rank.ACE][::-1]
    for n in range(12):
        assert [c for c, up in p.pile(f"tableau{n + 1}")] == rest[4 * n:4 * n + 4]
    assert all(up for pid in p.pile_ids for _, up in p.pile(pid))
    assert p.score == 0 and p.pile("stock") == ()


def test_a_rank_step_cannot_deal_more_cards_than_the_deck_has_of_that_rank():
    rules = ruleset("cruel")
    step = DealStep(pile="foundation", cards=(2,), rank=Rank.ACE)
    with pytest.raises(RulesError, match="the deal step for 'foundation' deals the cards of rank A: it must deal the deck's 4 such cards, not 8"):
        Ruleset(game="x", deck=rules.deck, piles=rules.piles, deal=(step,),
                scoring=rules.scoring, end=rules.end, stock=rules.stock)


def test_deal_step_words_round_trip_through_json():
    rules = ruleset("cruel")
    again = ruleset_from_data(ruleset_to_data(rules))
    assert again == rules
    assert again.deal[0].rank is Rank.ACE and again.deal[1].source is DealFrom.BOTTOM


# -- the stock that redeals the tableau (Cruel) --------------------------------------------------

def test_cruel_redeal_is_refused_right_after_the_deal():
    p = Position.initial(ruleset("cruel"), deal_order(ruleset("cruel"), 1))
    assert code(p, "stock") == "redeal-changes-nothing"
    assert Move.stock() not in p.legal_moves


def test_cruel_redeal_gathers_the_piles_in_order_and_deals_four_to_each():
    p = position("cruel", {**ACES, "tableau1": "Kc Qd 5h 9s 8s", "tableau2": "2c 3c", "tableau3": "4c"})
    assert code(p, "stock") is None
    q = p.apply("stock")
    assert [cards(q, f"tableau{n}") for n in (1, 2, 3)] == ["Kc Qd 5h 9s", "8s 2c 3c 4c", ""]
    assert code(q, "stock") == "redeal-changes-nothing"


def test_cruel_redeal_leaves_the_last_piles_empty():
    p = position("cruel", {**ACES, "tableau1": "Kc", "tableau5": "Qc", "tableau12": "Jc"})
    q = p.apply("stock")
    assert cards(q, "tableau1") == "Kc Qc Jc"
    assert all(cards(q, f"tableau{n}") == "" for n in range(2, 13))


def test_redeal_tableau_redeals_without_a_limit():
    with pytest.raises(RulesError, match="redeals without a limit"):
        StockPolicy(pile="stock", action=StockAction.REDEAL_TABLEAU, target="tableau", cards=4, redeals=0)


# -- the lost hook no-move-or-redeal-loop (Cruel) ------------------------------------------------

def test_cruel_lost_when_only_the_lone_last_card_fits_the_pile_before_it():
    # As a redeal leaves it: the 5 of spades alone in the second pile fits on the 6 of spades.
    p = position("cruel", {**ACES, "tableau1": "Kh 9d Qc 6s", "tableau2": "5s"})
    assert [str(m) for m in p.legal_moves] == ["tableau2>tableau1"]
    assert p.is_lost()


def test_cruel_not_lost_when_the_lone_card_can_also_go_to_a_foundation():
    p = position("cruel", {"foundation1": "Ac", "foundation2": "Ad", "foundation3": "Ah",
                           "foundation4": "As 2s 3s 4s", "tableau1": "Kh 9d Qc 6s", "tableau2": "5s"})
    assert not p.is_lost()


def test_cruel_not_lost_while_a_redeal_changes_the_tableau():
    p = position("cruel", {**ACES, "tableau1": "Kh 9d Qc", "tableau2": "Jh 5d"})
    assert list(p.legal_moves) == [Move.stock()]
    assert not p.is_lost()


def test_cruel_lost_when_nothing_moves_right_after_a_redeal():
    p = position("cruel", {**ACES, "tableau1": "Kh 9d Qc 7s", "tableau2": "Jh 5d"})
    assert list(p.legal_moves) == [] and p.is_lost()


def test_cruel_score_leaves_out_the_aces_dealt_to_the_foundations():
    p = position("cruel", {"foundation1": "Ac 2c 3c", "foundation2": "Ad", "foundation3": "Ah",
                           "foundation4": "As"})
    assert p.score == 2


# -- Giant: the reserve, foundation cards in play, autoplay through the reserve -----------------

def test_giant_reserve_takes_one_card_and_gives_it_back():
    p = position("giant", {"tableau1": "Qc", "tableau2": "Th"})
    q = p.apply("tableau1>reserve")
    assert cards(q, "reserve") == "Qc"
    assert code(q, "tableau2>reserve") == "pile-full"
    assert cards(q.apply("reserve>tableau1"), "tableau1") == "Qc"


def test_giant_foundation_top_card_goes_back_to_the_tableau_or_the_reserve_but_not_to_a_foundation():
    p = position("giant", {"foundation1": "As 2s", "foundation2": "As", "tableau1": "3h"})
    assert code(p, "foundation1>tableau1") is None
    assert code(p, "foundation1>reserve") is None
    assert code(p, "foundation1>foundation2") == "foundation-to-foundation"
    assert p.apply("foundation1>tableau1").score == 2


def test_giant_autoplay_tries_the_tableau_from_the_left_and_then_the_reserve():
    p = position("giant", {"foundation1": "Ac", "tableau3": "2c", "reserve": "3c", "tableau1": "4c"})
    q = p.apply("dbl:foundation2")
    assert cards(q, "foundation1") == "Ac 2c 3c 4c"
    assert cards(q, "reserve") == "" and q.score == 4


def test_giant_same_suit_variant_sends_a_run_to_a_foundation_in_reverse():
    same = load_document(RULES_DIR).page("giant").variants["same-suit"]
    p = Position.from_piles(same, {"foundation1": [parse_card("Ac")],
                                   "tableau1": [parse_card(t) for t in "4c 3c 2c".split()]})
    assert cards(p.apply("tableau1:3>foundation1"), "foundation1") == "Ac 2c 3c 4c"
    alternate = ruleset("giant")
    q = Position.from_piles(alternate, {"foundation1": [parse_card("Ac")],
                                        "tableau1": [parse_card(t) for t in "4c 3h 2c".split()]})
    assert code(q, "tableau1:2>foundation1") == "one-at-a-time"



def test_deal_step_words_at_their_defaults_leave_the_data_and_so_the_rules_digest_as_it_was():
    steps = ruleset_to_data(ruleset("giant"))["deal"]
    assert all("rank" not in step and "source" not in step for step in steps)
    cruel = ruleset_to_data(ruleset("cruel"))["deal"]
    assert (cruel[0]["rank"], "source" in cruel[0]) == ("A", False)
    assert ("rank" in cruel[1], cruel[1]["source"]) == (False, "bottom")
