"""Refusal reasons carry a code and parameters besides the English sentence, so front ends can
translate them; cards sort by rank then suit; AisleRiot's slot order is data of the rules block."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from patiencebook.engine import Card, Game, IllegalMove, Move, Reason, RulesError, Suit

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def document():
    from patiencebook.generator.docbook.sources import load_document
    return load_document(RULES_DIR)


def test_refused_drag_carries_code_and_card_params_with_the_english_sentence(document):
    game = Game.deal(document.page("eagle_wing").rules, 1)
    with pytest.raises(IllegalMove) as caught:
        game.push("tableau1>tableau3")
    err = caught.value
    assert str(err) == "a 9 of diamonds cannot go on the 5 of spades: the tableau builds down in suit"
    assert err.code == "does-not-fit"
    assert err.params == {"card": "9d", "onto": "5s", "target": "tableau3", "direction": "down",
                          "match": "same-suit"}


def test_reason_of_an_illegal_move_is_a_string_with_its_code(document):
    position = Game.deal(document.page("hamilton").rules, 1).position
    reason = position.reason(Move.parse("tableau1>tableau2"))
    assert isinstance(reason, Reason) and reason.code == "choose-first"
    assert reason.startswith("no card can move before the start card is chosen")
    assert position.reason(Move.parse("nowhere>tableau2")).params == {"pile": "nowhere"}


def test_undo_and_redo_with_nothing_to_do_have_their_own_codes(document):
    game = Game.deal(document.page("agnes").rules, 1)
    with pytest.raises(IllegalMove) as undo:
        game.undo()
    with pytest.raises(IllegalMove) as redo:
        game.redo()
    assert (undo.value.code, redo.value.code) == ("no-undo", "no-redo")


def test_illegal_move_from_a_plain_sentence_has_the_generic_code():
    err = IllegalMove("not now")
    assert (str(err), err.code, err.params) == ("not now", "refused", {})


def test_replayed_saved_game_keeps_the_code_of_a_refused_move(document):
    from patiencebook.engine import SavedGame
    saved = SavedGame("hamilton", None, 1, (Move.parse("tableau1>tableau2"),))
    with pytest.raises(IllegalMove) as caught:
        saved.replay(document.page("hamilton").rules)
    assert str(caught.value).startswith("move 1 (tableau1>tableau2): no card can move")
    assert caught.value.code == "choose-first"


def test_cards_of_equal_rank_sort_by_suit_in_aisleriot_order():
    cards = [Card.parse(t) for t in ("7s", "7h", "2d", "7c", "7d")]
    assert [str(c) for c in sorted(cards)] == ["2d", "7c", "7d", "7h", "7s"]
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES


def test_slot_order_is_layout_order_unless_the_piles_give_slot_numbers(document):
    assert document.page("agnes").rules.slot_order()[:6] == (
        "stock", "foundation1", "foundation2", "foundation3", "foundation4", "tableau1")
    eagle = document.page("eagle_wing").rules.slot_order()
    assert eagle.index("reserve") == 10 and eagle[9] == "tableau4" and eagle[11] == "tableau5"


def test_slot_numbers_must_be_one_per_pile_and_cover_every_slot_once(document):
    rules = document.page("eagle_wing").rules
    piles = {g.id: g for g in rules.piles}
    with pytest.raises(RulesError, match="gives 3 slot numbers for 4 piles"):
        replace(piles["foundation"], slots=(2, 3, 4))
    with pytest.raises(RulesError, match="pile 'reserve' gives no slot numbers"):
        replace(rules, piles=tuple(replace(g, slots=None) if g.id == "reserve" else g for g in rules.piles))
    with pytest.raises(RulesError, match="must be 0 to 14, each once"):
        replace(rules, piles=tuple(replace(g, slots=(1,)) if g.id == "reserve" else g for g in rules.piles))
