"""The engine's JSON-facing game for boards: states as position_to_dict plus score and status,
moves accepted or refused with the reason in the page's language, undo, redo, hints, new deals,
a chosen deal of a chosen rule variant, restart, the solver's winning moves and the legal targets
of a picked-up card; everything survives JSON text (the browser's channel)."""

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
from patiencebook.engine.solver import solve
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
    assert answer["words"] == "Legen Sie die 2♦ von Tableau 7 auf Tableau 2, und zwar auf die 3♦."
    assert answer["message"] == "Die 2♦ wurde von Tableau 7 auf Tableau 2 gelegt."
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
    assert answer["reason"] == "tableau1 to tableau2 cannot be read as a move"
    assert answer["message"] == "Not allowed: tableau1 to tableau2 cannot be read as a move."


def test_undo_and_redo_walk_the_history_and_refuse_past_its_ends():
    game = board("hamilton", 12)
    start = game.state()
    assert game.undo()["code"] == "no-undo"
    assert game.undo()["message"] == "Nicht erlaubt: Es gibt keinen Zug, der zurückgenommen werden kann."
    dealt = game.play("stock")["state"]
    undone = game.undo()
    assert undone["accepted"] is True and undone["move"] == "stock"
    assert undone["message"] == "Der Klick auf den Talon ist zurückgenommen."
    assert undone["state"] == {**start, "can_redo": True}
    redone = game.redo()
    assert redone["accepted"] is True and redone["state"] == dealt
    assert redone["message"] == "Der Zug wurde wiederholt. Vom Talon wurde die 8♥ auf den Auswahlstapel gelegt."
    assert game.redo()["code"] == "no-redo"


def test_hint_is_the_engines_best_move_with_the_piles_to_highlight():
    game = board("hamilton", 12)
    hint = game.hint()
    best = Game.deal(ruleset("hamilton"), 12).hints()[0]
    assert hint["move"] == str(best) == "stock"
    assert hint["source"] == "stock" and hint["target"] is None
    assert hint["message"] == "Klicken Sie auf den Talon, um die oberste Karte auf den Auswahlstapel zu legen."
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
    assert answer["accepted"] is True
    assert answer["message"] == "The stock dealt 7 cards onto the tableau, one per pile."
    assert json.loads(game.call("targets", '["tableau1", 0]')) == game.targets("tableau1", 0)
    with pytest.raises(ValueError, match="unknown board command"):
        game.call("__init__")
    with pytest.raises(ValueError, match="deal number"):
        BoardGame.from_data({**data, "deal": "5"})


# -- variants, chosen deals, restart and the solution ----------------------------------------------

@lru_cache(maxsize=None)
def variants(game: str) -> dict[str, Ruleset]:
    return load_document(RULES_DIR).page(game).variants


def klondike_board(deal: int = 1, lang: str = "de") -> BoardGame:
    r = ruleset("klondike")
    return BoardGame(r, deal, ui_strings(lang), pile_names(r, lang),
                     {vid: ruleset_to_data(v) for vid, v in variants("klondike").items()})


def test_new_game_deals_the_number_and_variant_chosen():
    game = klondike_board(1)
    assert game.state()["variant"] == "single-card-deals"
    game.play("stock")
    answer = game.new_game(7, "three-card-deals")
    assert answer["accepted"] is True and (answer["deal"], answer["variant"]) == (7, "three-card-deals")
    assert answer["message"] == "Neues Spiel: Drei Karten geben, Nr. 7."
    three = variants("klondike")["three-card-deals"]
    assert position_part(answer["state"]) == position_to_dict(Game.deal(three, 7).position)
    assert (answer["state"]["deal"], answer["state"]["variant"], answer["state"]["moves"]) == (7, "three-card-deals", 0)
    # A stock click now turns three cards; a new deal number keeps the variant.
    assert len(next(p for p in game.play("stock")["state"]["piles"] if p["id"] == "waste")["cards"]) == 3
    again = game.new_game(8)
    assert again["variant"] == "three-card-deals" and again["message"] == "Neues Spiel: Drei Karten geben, Nr. 8."
    assert game.new_deal()["state"]["variant"] == "three-card-deals"


def test_new_game_refuses_a_variant_or_deal_the_game_does_not_have_and_changes_nothing():
    game = klondike_board(5)
    game.play("stock")
    before = game.state()
    wrong = game.new_game(7, "three-cards")
    assert wrong["accepted"] is False and wrong["code"] == "bad-variant"
    assert wrong["reason"] == ("dieses Spiel hat keine Variante three-cards; seine Varianten: single-card-deals, "
                               "three-card-deals, no-redeals, unlimited-redeals")
    assert wrong["message"] == "Nicht erlaubt: " + wrong["reason"] + "." and wrong["state"] == before
    for deal in (2**32, "7", True, None, -1):
        refused = game.new_game(deal, "no-redeals")
        assert refused["code"] == "bad-deal" and refused["state"] == before
    assert refused["reason"] == "Eine Spielnummer ist eine ganze Zahl von 0 bis 4294967295, nicht -1"
    assert board("hamilton", 3, "en").new_game(4, "one-suit")["reason"] == \
        "this game has no variant one-suit; its variants: -"


def test_a_game_without_variants_says_new_game_as_a_new_deal():
    answer = board("hamilton", 3, "en").new_game(12)
    assert answer["message"] == "New game: deal 12." and answer["variant"] is None
    assert position_part(answer["state"]) == position_to_dict(Game.deal(ruleset("hamilton"), 12).position)


def test_restart_deals_the_same_deal_and_variant_again():
    game = klondike_board(1)
    game.new_game(7, "no-redeals")
    start = game.state()
    game.play("stock")
    game.play("stock")
    answer = game.restart()
    assert answer["accepted"] is True and answer["message"] == "Spiel Nr. 7 beginnt wieder von vorn."
    assert answer["state"] == start and (answer["deal"], answer["variant"]) == (7, "no-redeals")
    assert answer["state"]["can_undo"] is False and answer["state"]["can_redo"] is False


def test_solution_gives_the_solvers_winning_moves_in_notation_and_words():
    game = board("freecell", 5)
    answer = game.solution()
    assert (answer["status"], answer["found"], answer["nodes"], answer["budget"]) == ("solved", True, 257, 5_000)
    assert answer["message"] == "Eine Lösung in 29 Zügen: Spielen Sie sie mit „Nächster Zug“ Zug für Zug nach."
    assert answer["moves"][:2] == [
        {"move": "tableau1>foundation1", "words": 'Legen Sie das A♦ von Tableau 1 auf Zielstapel 1.'},
        {"move": "tableau2>freecell1", "words": 'Legen Sie die 2♣ von Tableau 2 in die freie Zelle 1.'}]
    assert answer["moves"][-1] == {"move": "tableau4>foundation4", "words": 'Legen Sie die D♥ von Tableau 4 auf Zielstapel 4.'}
    assert [m["move"] for m in answer["moves"]] == [str(m) for m in solve(Game.deal(ruleset("freecell"), 5).position,
                                                                          5_000).moves]
    assert answer["state"]["moves"] == 0  # nothing is played
    for step in answer["moves"]:
        assert game.play(step["move"])["accepted"] is True
    assert game.state()["status"] == "won"


def test_solution_starts_from_the_position_on_the_board():
    game = board("freecell", 5)
    game.play("tableau1>foundation1")
    answer = game.solution()
    assert len(answer["moves"]) == 28 and answer["moves"][0]["move"] == "tableau2>freecell1"


def test_solution_says_when_none_was_found_within_the_budget_or_none_exists():
    unknown = board("klondike", 1).solution(50)
    assert (unknown["status"], unknown["found"], unknown["nodes"], unknown["moves"]) == ("unknown", False, 50, [])
    assert unknown["message"] == "Innerhalb von 50 untersuchten Stellungen wurde keine Lösung gefunden."
    assert board("klondike", 1, "en").solution(50)["message"] == "No solution found within 50 positions searched."
    lost = board("hamilton", 4, "en").solution()
    assert (lost["status"], lost["found"], lost["moves"]) == ("unsolvable", False, [])
    assert lost["message"] == ("This position cannot be won: every position that can be reached from it was "
                               "searched.")
    assert board("hamilton", 4).solution(0)["code"] == "bad-budget"


def test_board_json_with_variants_plays_them_through_json_text():
    from patiencebook.generator.languages import get_language
    from patiencebook.generator.pages.board import board_payload

    r = ruleset("spider")
    payload = board_payload(r, get_language("en"), pile_names(r, "en"), deal=3, variants=variants("spider"))
    game = BoardGame.from_json(json.dumps(payload))
    answer = json.loads(game.call("new_game", '[3, "one-suit"]'))
    assert answer["message"] == "New game: One suit, deal 3." and answer["state"]["variant"] == "one-suit"
    spades = {card.lstrip("#")[1] for pile in answer["state"]["piles"] for card in pile["cards"]}
    assert spades == {"s"}
    assert json.loads(game.call("restart"))["message"] == "Deal 3 started again from the beginning."
    game.call("new_game", "[5]")
    found = json.loads(game.call("solution", "[5000]"))
    assert (found["budget"], found["status"], found["nodes"], len(found["moves"])) == (5000, "solved", 2268, 167)
    assert found["message"] == "A solution in 167 moves: play it move by move with “Next move”."
    with pytest.raises(ValueError, match="board variants"):
        BoardGame.from_data({**payload, "variants": [{"ruleset": {}}]})

def test_a_double_click_says_where_its_cards_went():
    game = board("freecell", 36)
    answer = game.play("dbl:tableau1")
    assert answer["accepted"] is True and answer["move"] == "dbl:tableau1"
    assert answer["drags"] == [{"source": "tableau1", "target": "freecell1", "count": 1, "card": "9s"}]
    assert answer["message"] == "Die 9♠ wurde von Tableau 1 in die freie Zelle 1 gelegt."
    hamilton = board("hamilton", 1, "el")
    hamilton.play("stock")
    assert hamilton.play("dbl:chooser")["message"] == "Το 4♣ μετακινήθηκε από τον Επιλογέα στη Βάση 1."
    # Agnes's foundation double-click sends every card that fits, in turn; the drags say which went where.
    agnes = board("agnes", 7, "en")
    before = agnes.game.position
    answer = agnes.play("dbl:foundation1")
    cards = [str(before.pile("tableau4")[-1][0]), str(before.pile("tableau4")[-2][0])]
    assert [d["target"] for d in answer["drags"]] == ["foundation2", "foundation3"]
    assert [d["card"] for d in answer["drags"]] == cards
    assert answer["message"] == "2 cards moved onto the foundations."
    assert agnes.undo()["message"] == "The 2 cards that moved onto the foundations are back where they were."
