"""Positions: pile ids, the opening deal of each game (counts, face flags, order) and value behaviour."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine.cards import Card, Rank
from patiencebook.engine.errors import EngineError
from patiencebook.engine.position import Position, pile_ids
from patiencebook.engine.rules import Role, Ruleset
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def shuffled(game: str, seed: int) -> list[Card]:
    cards = list(ruleset(game).cards())
    random.Random(seed).shuffle(cards)
    return cards


def faces(position: Position, pile: str) -> list[bool]:
    return [up for _, up in position.pile(pile)]


def test_pile_ids_number_the_piles_of_a_group_from_one_in_layout_order():
    assert pile_ids(ruleset("hamilton")) == (
        "stock", "chooser", "foundation1", "foundation2", "foundation3", "foundation4",
        "tableau1", "tableau2", "tableau3", "tableau4", "tableau5", "tableau6", "tableau7")
    assert pile_ids(ruleset("eagle_wing"))[:4] == ("stock", "waste", "reserve", "foundation1")
    assert pile_ids(ruleset("eagle_wing"))[-1] == "tableau8"


def test_hamilton_deals_28_face_up_cards_one_to_seven_per_pile_and_24_to_the_stock():
    p = Position.initial(ruleset("hamilton"), shuffled("hamilton", 1))
    assert [len(p.pile(f"tableau{n}")) for n in range(1, 8)] == [1, 2, 3, 4, 5, 6, 7]
    assert all(all(faces(p, f"tableau{n}")) for n in range(1, 8))
    assert len(p.pile("stock")) == 24 and not any(faces(p, "stock"))
    assert p.pile("chooser") == () and all(p.pile(f"foundation{n}") == () for n in range(1, 5))
    assert p.base_rank is None and p.choosing and p.score == 0


def test_agnes_deals_only_the_top_card_of_each_tableau_pile_face_up_and_a_base_card():
    cards = shuffled("agnes", 2)
    p = Position.initial(ruleset("agnes"), cards)
    for n in range(1, 8):
        assert faces(p, f"tableau{n}") == [False] * (n - 1) + [True]
    assert p.pile("foundation1") == ((cards[28], True),)
    assert p.base_rank == cards[28].rank
    assert len(p.pile("stock")) == 23 and not any(faces(p, "stock"))
    assert p.score == 1


def test_agnes_deal_goes_round_the_piles_in_rows_and_the_next_card_is_the_stock_top():
    cards = shuffled("agnes", 3)
    p = Position.initial(ruleset("agnes"), cards)
    assert p.pile("tableau1")[0][0] == cards[0]
    assert [c for c, _ in p.pile("tableau2")] == [cards[1], cards[7]]
    assert p.pile("tableau7")[-1][0] == cards[27]
    assert p.pile("stock")[-1][0] == cards[29]
    assert p.pile("stock")[0][0] == cards[51]


def test_eagle_wing_reserve_has_13_cards_with_only_the_bottom_card_face_up():
    cards = shuffled("eagle_wing", 4)
    p = Position.initial(ruleset("eagle_wing"), cards)
    assert faces(p, "reserve") == [True] + [False] * 12
    assert p.pile("reserve")[0][0] == cards[0]
    assert [len(p.pile(f"tableau{n}")) for n in range(1, 9)] == [1] * 8
    assert all(faces(p, f"tableau{n}") == [True] for n in range(1, 9))
    assert p.pile("foundation1") == ((cards[21], True),)
    assert p.base_rank == cards[21].rank
    assert len(p.pile("stock")) == 30 and p.pile("waste") == ()
    assert p.score == 1 and p.max_score == 52


@pytest.mark.parametrize("game", ["hamilton", "agnes", "eagle_wing"])
def test_the_deal_holds_every_card_of_the_deck_once(game):
    p = Position.initial(ruleset(game), shuffled(game, 5))
    assert Counter(p.cards()) == Counter(ruleset(game).cards())


def test_initial_refuses_cards_that_are_not_the_deck():
    cards = shuffled("agnes", 6)
    with pytest.raises(EngineError, match="not the agnes deck of 52 cards"):
        Position.initial(ruleset("agnes"), cards[:-1] + [cards[0]])


def test_positions_are_values_equal_and_hashed_by_piles_and_state():
    a = Position.initial(ruleset("agnes"), shuffled("agnes", 7))
    b = Position.initial(ruleset("agnes"), shuffled("agnes", 7))
    c = Position.initial(ruleset("agnes"), shuffled("agnes", 8))
    assert a == b and hash(a) == hash(b) and a != c
    assert len({a, b, c}) == 2
    assert a.copy() == a


def test_applying_a_move_leaves_the_position_unchanged():
    p = Position.initial(ruleset("agnes"), shuffled("agnes", 9))
    before = p.piles
    q = p.apply("stock")
    assert p.piles == before and q != p
    with pytest.raises(AttributeError):
        p.redeals_used = 3  # type: ignore[misc]


def test_roles_and_piles_in_layout_order():
    p = Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 10))
    assert p.role("reserve") is Role.RESERVE and p.role("tableau8") is Role.TABLEAU
    assert list(p.piles) == list(p.pile_ids)


def test_from_piles_refuses_an_unknown_pile():
    with pytest.raises(EngineError, match="no pile 'tableau9'"):
        Position.from_piles(ruleset("agnes"), {"tableau9": [(Card.parse("7h"), True)]}, Rank.SEVEN)
