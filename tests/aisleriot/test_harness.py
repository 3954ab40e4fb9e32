"""The reference harness plays AisleRiot's Hamilton by AisleRiot's drag and click protocol.

Expected values are those of AisleRiot 3.22.23's Hamilton, deal 1: the stock's top card is 4c,
the tableau holds 28 cards, and a stock click before the start card is chosen offers a card.
"""

from __future__ import annotations

import pytest

from patiencebook.engine.cards import Card

from .harness import AisleRiotGame

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
