"""The reference harness plays AisleRiot's Hamilton by AisleRiot's drag and click protocol.

Expected values are those of AisleRiot 3.22.23's Hamilton, deal 1: the stock's top card is 4c,
the tableau holds 28 cards, and a stock click before the start card is chosen offers a card.
The action listing, the slot-to-pile mapping (Eagle Wing's reserve sits among its tableau slots)
and the timed playouts in guile are checked here too.
"""

from __future__ import annotations

import pytest

from patiencebook.engine.cards import Card

from .harness import AisleRiotGame, pile_map

pytestmark = pytest.mark.aisleriot

STOCK, CHOOSER, FOUNDATION, TABLEAU = 0, 1, 2, 6


@pytest.fixture
def hamilton(aisleriot_dir):
    with AisleRiotGame("hamilton", 1) as game:
        yield game


def sizes(game: AisleRiotGame) -> list[int]:
    return [len(cards) for _, cards in game.slots()]


def test_stock_click_offers_its_top_card_face_up_in_the_chooser(hamilton):
    assert hamilton.click(STOCK) is True
    slots = dict(hamilton.slots())
    assert slots[CHOOSER] == [(Card.parse("4c"), True)]
    assert len(slots[STOCK]) == 23


def test_offered_card_refused_by_tableau_and_accepted_by_foundation_scores_one(hamilton):
    hamilton.click(STOCK)
    assert hamilton.drag(CHOOSER, 1, TABLEAU) is False
    assert hamilton.last_droppable is False
    assert dict(hamilton.slots())[CHOOSER] == [(Card.parse("4c"), True)]
    assert hamilton.drag(CHOOSER, 1, FOUNDATION) is True
    assert hamilton.last_droppable is True
    assert dict(hamilton.slots())[FOUNDATION] == [(Card.parse("4c"), True)]
    assert hamilton.score() == 1
    assert hamilton.state() == "running"


def test_stock_cards_cannot_be_lifted(hamilton):
    assert hamilton.drag(STOCK, 1, FOUNDATION) is False
    assert hamilton.last_droppable is None
    assert sizes(hamilton)[STOCK] == 24


def test_stock_click_after_the_start_card_deals_one_card_to_each_tableau_pile(hamilton):
    hamilton.click(STOCK)
    hamilton.drag(CHOOSER, 1, FOUNDATION)
    assert hamilton.click(STOCK) is True
    assert sizes(hamilton) == [16, 0, 1, 0, 0, 0, 2, 3, 4, 5, 6, 7, 8]
    hamilton.deal()
    assert sizes(hamilton) == [9, 0, 1, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9]


def test_new_game_in_the_same_process_restores_the_opening_deal(hamilton):
    opening = hamilton.slots()
    hamilton.click(STOCK)
    hamilton.new_game(1)
    assert hamilton.slots() == opening
    assert hamilton.score() == 0


def test_actions_before_the_first_click_are_only_the_stock_click(hamilton):
    assert hamilton.actions() == {("click", STOCK)}


def test_actions_with_an_offered_card_are_its_four_foundations_the_stock_and_its_double_click(hamilton):
    look = hamilton.step(("click", STOCK))
    assert look.result == "t"
    expected = {("drag", CHOOSER, 1, f) for f in (2, 3, 4, 5)} | {("click", STOCK), ("dclick", CHOOSER)}
    assert look.actions == expected


def test_listing_actions_tries_clicks_without_changing_the_game(hamilton):
    hamilton.step(("click", STOCK))
    before = hamilton.look()
    hamilton.actions()
    after = hamilton.look()
    assert (after.slots, after.score, after.state) == (before.slots, before.score, before.state)
    assert hamilton.score() == 0


def test_step_drags_by_the_board_protocol_and_reports_the_new_score(hamilton):
    hamilton.step(("click", STOCK))
    look = hamilton.step(("drag", CHOOSER, 1, FOUNDATION))
    assert look.result == "moved droppable=t"
    assert look.score == 1
    assert look.state == "running"
    assert dict((sid, cards) for sid, _, cards in look.slots)[FOUNDATION] == [(Card.parse("4c"), True)]


def test_slots_map_to_our_piles_by_role_in_layout_order(aisleriot_dir):
    ids = ("stock", "waste", "reserve", *(f"foundation{n}" for n in range(1, 5)),
           *(f"tableau{n}" for n in range(1, 9)))
    roles = ("stock", "waste", "reserve", *["foundation"] * 4, *["tableau"] * 8)
    with AisleRiotGame("eagle-wing", 1) as game:
        mapping = pile_map(game.typed_slots(), ids, roles)
    assert mapping[1] == "waste"
    assert mapping[2] == "foundation1"
    assert mapping[9] == "tableau4"
    assert mapping[10] == "reserve"
    assert mapping[11] == "tableau5"
    assert mapping[14] == "tableau8"


def test_playouts_in_guile_count_actions_and_time(aisleriot_dir):
    with AisleRiotGame("agnes", 1) as game:
        actions, seconds = game.playouts([1, 2], 20)
    assert 0 < actions <= 40
    assert seconds > 0
