"""The reference harness plays AisleRiot's Hamilton by AisleRiot's drag and click protocol.

Expected values are those of AisleRiot 3.22.23's Hamilton, deal 1: the stock's top card is 4c,
the tableau holds 28 cards, and a stock click before the start card is chosen offers a card.
The action listing, the slot-to-pile mapping (Eagle Wing's reserve sits among its tableau slots)
and the timed playouts in guile are checked here too, and for the other games of conftest.GAMES:
game options (Klondike, Spider), automatic moves made in delayed calls (FreeCell, Klondike, Gypsy),
slots without a type (Golf), double decks, and dealing from a foundation slot (Yukon).
"""

from __future__ import annotations

from collections import Counter

import pytest

from patiencebook.engine.cards import Card

from .conftest import CASES, GAMES, case_id
from .harness import AisleRiotGame, pile_map, slot_pile_map

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


# --- Options, automatic moves, slots without a type, double decks (AisleRiot 3.22.23). ---------


def test_klondike_options_menu_is_one_radio_group_with_single_card_deals_on(aisleriot_dir):
    with AisleRiotGame("klondike", 1) as game:
        menu = game.options()
    assert [(o.name, o.bit, o.group, o.set) for o in menu] == [
        ("Three card deals", 1, 1, False), ("Single card deals", 2, 1, True),
        ("No redeals", 4, 1, False), ("Unlimited redeals", 8, 1, False)]


def test_three_card_deals_option_turns_three_stock_cards_onto_the_waste(aisleriot_dir):
    with AisleRiotGame("klondike", 1, options=("Three card deals",)) as game:
        assert [o.name for o in game.options() if o.set] == ["Three card deals"]
        look = game.step(("click", 0))
    waste = dict((sid, cards) for sid, _, cards in look.slots)[1]
    assert waste == [(Card.parse(t), True) for t in ("4c", "5d", "5c")]


def test_options_stay_set_for_the_next_deal_in_the_same_process(aisleriot_dir):
    with AisleRiotGame("klondike", 1, options=("Three card deals",)) as game:
        game.new_game(2)
        game.click(0)
        assert len(dict(game.slots())[1]) == 3


def test_no_redeals_option_leaves_the_empty_stock_dead(aisleriot_dir):
    with AisleRiotGame("klondike", 1, options=("No redeals",)) as game:
        for _ in range(24):
            assert game.click(0) is True
        assert game.click(0) is False
        assert ("click", 0) not in game.actions()


def test_unknown_or_conflicting_options_are_refused_with_the_menu(aisleriot_dir):
    with AisleRiotGame("klondike", 1) as game:
        with pytest.raises(ValueError, match="has no option 'Two Suits'; its options: 'Three card deals'"):
            game.set_options(["Two Suits"])
        with pytest.raises(ValueError, match="choose exactly one of"):
            game.set_options(["Three card deals", "No redeals"])


def test_spider_one_suit_deals_eight_runs_of_spades(aisleriot_dir):
    with AisleRiotGame("spider", 1, options=("One Suit",)) as game:
        cards = [card for _, pile in game.slots() for card, _ in pile]
    assert len(cards) == 104
    assert {card.suit.letter for card in cards} == {"s"}


def test_spider_two_suits_deals_hearts_and_spades_four_times_each(aisleriot_dir):
    with AisleRiotGame("spider", 1, options=("Two Suits",)) as game:
        cards = Counter(str(card) for _, pile in game.slots() for card, _ in pile)
    assert set(cards.values()) == {4}
    assert {text[1] for text in cards} == {"h", "s"}


def test_forty_thieves_double_deck_holds_every_card_twice(aisleriot_dir):
    with AisleRiotGame("forty-thieves", 1) as game:
        cards = Counter(str(card) for _, pile in game.slots() for card, _ in pile)
    assert len(cards) == 52
    assert set(cards.values()) == {2}


def test_freecell_moves_to_the_foundations_after_a_drag_run_to_their_end(aisleriot_dir):
    # Deal 1: Ah and 2h lie on top of tableau slots 9 and 10; moving 7c into a free cell sends
    # Ah up at once and 2h in the delayed call that follows.
    with AisleRiotGame("freecell", 1) as game:
        look = game.step(("drag", 8, 1, 0))
        assert game.pending_call() is False
    slots = {sid: cards for sid, _, cards in look.slots}
    assert look.result == "moved droppable=t"
    assert slots[4] == [(Card.parse("Ah"), True), (Card.parse("2h"), True)]
    assert look.score == 2


def test_klondike_double_click_on_a_foundation_plays_every_card_that_fits(aisleriot_dir):
    with AisleRiotGame("klondike", 1) as game:
        look = game.step(("dclick", 2))
        assert game.pending_call() is False
    slots = {sid: cards for sid, _, cards in look.slots}
    assert slots[2] == [(Card.parse("As"), True)]
    assert look.score == 1
    assert not any(a[0] == "dclick" for a in look.actions)


def test_probing_double_clicks_with_delayed_calls_leaves_the_game_as_it_was(aisleriot_dir):
    with AisleRiotGame("gypsy", 1) as game:
        before = game.look()
        assert ("dclick", 1) in before.actions
        after = game.look()
        assert game.pending_call() is False
    assert (after.slots, after.score, after.state, after.actions) == (
        before.slots, before.score, before.state, before.actions)


def test_golf_slots_have_no_type_and_map_by_slot_number(aisleriot_dir):
    order = ("stock", "waste", *(f"tableau{n}" for n in range(1, 8)))
    with AisleRiotGame("golf", 1) as game:
        slots = game.typed_slots()
    assert {kind for _, kind, _ in slots} == {"unknown"}
    mapping = slot_pile_map(slots, order)
    assert mapping[0] == "stock" and mapping[1] == "waste" and mapping[8] == "tableau7"
    with pytest.raises(ValueError, match="AisleRiot has 9 slots, our ruleset 8 piles"):
        slot_pile_map(slots, order[:-1])


def test_golf_plays_a_fitting_tableau_card_on_a_single_click(aisleriot_dir):
    # The first deal of 1-19 whose first stock card has a tableau top card one rank away.
    with AisleRiotGame("golf", 1) as game:
        for seed in range(1, 20):
            game.new_game(seed)
            look = game.step(("click", 0))
            clicks = sorted(a[1] for a in look.actions if a[0] == "click" and a[1] > 1)
            if clicks:
                break
        assert clicks, "no deal of 1-19 offers a tableau card after the first stock click"
        assert ("dclick", clicks[0]) in look.actions
        after = game.step(("click", clicks[0]))
    assert after.result == "t"
    assert after.score == 1
    assert len(dict((sid, c) for sid, _, c in after.slots)[1]) == 2


def test_yukon_deals_from_a_foundation_slot_that_ends_empty(aisleriot_dir):
    with AisleRiotGame("yukon", 1) as game:
        slots = game.typed_slots()
    assert [(sid, kind, len(cards)) for sid, kind, cards in slots] == [
        (0, "foundation", 0), (1, "tableau", 1), (2, "tableau", 6), (3, "tableau", 7), (4, "tableau", 8),
        (5, "tableau", 9), (6, "tableau", 10), (7, "tableau", 11), (8, "foundation", 0),
        (9, "foundation", 0), (10, "foundation", 0)]


def test_every_reference_game_and_variant_starts_and_lists_actions(aisleriot_dir):
    for page_id, variant in CASES:
        reference = GAMES[page_id]
        with AisleRiotGame(reference.module, 3, options=reference.options(variant)) as game:
            look = game.look()
            menu = {o.name for o in game.options()}
        assert set(reference.options(variant) or ()) <= menu, case_id((page_id, variant))
        assert look.actions, case_id((page_id, variant))
        assert look.state == "begin"
