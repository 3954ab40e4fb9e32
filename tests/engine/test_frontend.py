"""The engine's JSON-facing game for boards: states as position_to_dict plus score and status,
moves accepted or refused with the reason in the page's language, undo, redo, hints, new deals
and the legal targets of a picked-up card; everything survives JSON text (the browser's channel)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine import Game, IllegalMove, Move
from patiencebook.engine.frontend import BoardGame
from patiencebook.engine.notation import position_to_dict
from patiencebook.engine.rules import Ruleset
from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.engine.wording import Wording
from patiencebook.generator.languages import get_language, ui_strings
from patiencebook.generator.play import player_pile_names
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def pile_names(ruleset, lang: str) -> dict[str, str]:
    """The player's pile names in the language of gettext code ``lang``."""
    return player_pile_names(ruleset, get_language(lang))


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def board(game: str, deal: int = 1, lang: str = "de") -> BoardGame:
    r = ruleset(game)
    return BoardGame(r, deal, ui_strings(lang), pile_names(r, lang))


def position_part(state: dict) -> dict:
    return {key: state[key] for key in ("game", "base", "redeals", "offers", "score", "piles")}


def test_state_is_the_engine_position_plus_score_status_and_history():
    state = board("eagle_wing", 1).state()
    assert position_part(state) == position_to_dict(Game.deal(ruleset("eagle_wing"), 1).position)
    assert state["max"] == 52 and state["status"] == "playing" and state["deal"] == 1
    assert (state["can_undo"], state["can_redo"], state["moves"]) == (False, False, 0)
    assert state["score_text"] == "Punkte: 1 von 52"


def test_accepted_move_changes_the_state_as_the_engine_does_and_says_it_in_words():
    game = board("eagle_wing", 1)
    answer = game.play("tableau7>tableau2")
    reference = Game.deal(ruleset("eagle_wing"), 1)
    reference.push("tableau7>tableau2")
    assert answer["accepted"] is True and answer["move"] == "tableau7>tableau2"
    assert answer["words"] == "2♦ von Tableau 7 auf Tableau 2 legen"
    assert position_part(answer["state"]) == position_to_dict(reference.position)
    assert answer["state"]["can_undo"] is True and answer["state"]["moves"] == 1


def test_refused_move_gives_the_reason_in_the_page_language_and_keeps_the_position():
    game = board("eagle_wing", 1)
    before = game.state()
    answer = game.play("tableau1>tableau3")
    r = ruleset("eagle_wing")
    wording = Wording(r, ui_strings("de"), pile_names(r, "de"))
    with pytest.raises(IllegalMove) as caught:
        Game.deal(r, 1).push("tableau1>tableau3")
    expected = wording.reason(caught.value.code, str(caught.value), caught.value.params)
    assert answer["accepted"] is False and answer["code"] == "does-not-fit"
    assert answer["reason"] == expected and "9♦" in expected and "5♠" in expected
    assert answer["message"] == wording.msg("play_refused", reason=expected)
    assert answer["state"] == before


def test_text_that_is_no_move_is_refused_as_bad_move():
    answer = board("agnes", 3, lang="en").play("tableau1 to tableau2")
    assert answer["accepted"] is False and answer["code"] == "bad-move"
    assert answer["reason"] == "cannot read tableau1 to tableau2"


def test_undo_and_redo_walk_the_history_and_refuse_past_its_ends():
    game = board("hamilton", 12)
    start = game.state()
    assert game.undo()["code"] == "no-undo"
    assert game.undo()["reason"] == "es gibt keinen Zug zum Zurücknehmen"
    dealt = game.play("stock")["state"]
    undone = game.undo()
    assert undone["accepted"] is True and undone["move"] == "stock"
    assert undone["state"] == {**start, "can_redo": True}
    redone = game.redo()
    assert redone["accepted"] is True and redone["state"] == dealt
    assert game.redo()["code"] == "no-redo"


def test_hint_is_the_engines_best_move_with_the_piles_to_highlight():
    game = board("hamilton", 12)
    hint = game.hint()
    best = Game.deal(ruleset("hamilton"), 12).hints()[0]
    assert hint["move"] == str(best) == "stock"
    assert hint["source"] == "stock" and hint["target"] is None
    assert hint["message"] == "Tipp: stock (auf den Talon klicken)"
    assert game.state()["moves"] == 0  # a hint plays nothing
    drag = board("eagle_wing", 1).hint()
    assert (drag["source"], drag["target"], drag["count"]) == ("tableau4", "foundation2", 1)


def test_targets_are_the_piles_a_picked_up_card_may_go_to():
    game = board("eagle_wing", 1)
    assert game.targets("tableau4", 0) == ["foundation2", "foundation3", "foundation4"]
    assert game.targets("tableau7", 0) == ["tableau2"]
    assert game.targets("tableau1", 0) == []
    assert game.targets("tableau1", 5) == [] and game.targets("nowhere", 0) == []
    assert game.targets("reserve", 0) == []  # face-down cards under the top cannot move


def test_new_deal_takes_the_next_number_or_the_one_given():
    game = board("agnes", 41)
    game.play("stock")
    answer = game.new_deal()
    assert answer["accepted"] is True and answer["deal"] == 42
    assert position_part(answer["state"]) == position_to_dict(Game.deal(ruleset("agnes"), 42).position)
    assert answer["state"]["can_undo"] is False
    assert game.new_deal(7)["state"]["deal"] == 7
    refused = game.new_deal(-1)
    assert refused["accepted"] is False and refused["code"] == "bad-deal" and refused["state"]["deal"] == 7


def test_board_json_builds_the_game_and_commands_answer_in_json_text():
    r = ruleset("agnes")
    data = {"ruleset": ruleset_to_data(r), "deal": 5, "ui": ui_strings("en"), "names": pile_names(r, "en"),
            "layout": {}, "lang": "en"}
    game = BoardGame.from_json(json.dumps(data))
    assert game.ruleset == r and game.deal == 5
    answer = json.loads(game.call("play", '["stock"]'))
    assert answer["accepted"] is True and answer["message"] == "Done: click the Stock"
    assert json.loads(game.call("targets", '["tableau1", 0]')) == game.targets("tableau1", 0)
    with pytest.raises(ValueError, match="unknown board command"):
        game.call("__init__")
    with pytest.raises(ValueError, match="deal number"):
        BoardGame.from_data({**data, "deal": "5"})


def test_a_double_click_says_where_its_cards_went():
    game = board("freecell", 36)
    answer = game.play("dbl:tableau1")
    assert answer["accepted"] is True and answer["move"] == "dbl:tableau1"
    assert answer["drags"] == [{"source": "tableau1", "target": "freecell1", "count": 1, "card": "9s"}]
    assert answer["message"] == "9♠ liegt jetzt auf Freie Zelle 1."
    hamilton = board("hamilton", 1, "el")
    hamilton.play("stock")
    assert hamilton.play("dbl:chooser")["message"] == "Το 4♣ μεταφέρθηκε σε Βάση 1."
    # Agnes's foundation double-click sends every card that fits, one sentence each, in turn.
    agnes = board("agnes", 7, "en")
    before = agnes.game.position
    answer = agnes.play("dbl:foundation1")
    cards = [str(before.pile("tableau4")[-1][0]), str(before.pile("tableau4")[-2][0])]
    assert [d["target"] for d in answer["drags"]] == ["foundation2", "foundation3"]
    assert [d["card"] for d in answer["drags"]] == cards
    assert answer["message"] == " ".join(
        f"{Wording(ruleset('agnes'), ui_strings('en'), {}).card(card)} went to Foundation {n}."
        for card, n in zip(cards, (2, 3)))
    # Undone, it is the double-click again that is named, as the terminal names it.
    wording = Wording(ruleset("agnes"), ui_strings("en"), pile_names(ruleset("agnes"), "en"))
    assert agnes.undo()["message"] == wording.msg(
        "play_undone", move=wording.describe(Move.double_click("foundation1"), before))
