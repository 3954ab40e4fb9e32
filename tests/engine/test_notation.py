"""Notation: cards, moves, positions (text and JSON) and saved games round-trip; bad input is a
NotationError that says what is wrong and on which line."""

from __future__ import annotations

import json

import pytest

from patiencebook.engine.cards import Card
from patiencebook.engine.errors import EngineError, IllegalMove, NotationError
from patiencebook.engine.game import Game
from patiencebook.engine.moves import Move
from patiencebook.engine.notation import (SavedGame, card_text, parse_card, parse_move, parse_position,
                                          parse_saved_game, position_from_dict, position_from_json, position_to_dict,
                                          position_to_json, position_to_text)
from patiencebook.engine.position import Position

from .test_position import ruleset, shuffled

GAMES = ["hamilton", "agnes", "eagle_wing"]


def played(game: str, seed: int, steps: int = 25) -> Position:
    """A position some moves into a game: always the first hint."""
    p = Position.initial(ruleset(game), shuffled(game, seed))
    for _ in range(steps):
        hints = p.hints()
        if not hints:
            break
        p = p.apply(hints[0])
    return p


def test_card_text_marks_face_down_cards_with_a_hash():
    assert card_text(Card.parse("7h")) == "7h"
    assert card_text(Card.parse("Qs"), face_up=False) == "#Qs"
    assert parse_card("#Qs") == (Card.parse("Qs"), False)
    assert parse_card("Td") == (Card.parse("Td"), True)


@pytest.mark.parametrize("text", ["#", "##Qs", "7x", "Q"])
def test_parse_card_refuses_non_cards(text):
    with pytest.raises(NotationError, match="bad card"):
        parse_card(text)


def test_parse_move_reads_every_form():
    assert parse_move("tableau3:3>tableau5") == Move.drag("tableau3", "tableau5", 3)
    assert parse_move(" stock ") == Move.stock()


def test_position_text_has_state_lines_then_one_line_per_pile():
    p = Position.initial(ruleset("agnes"), shuffled("agnes", 1))
    lines = position_to_text(p).splitlines()
    assert lines[:5] == ["game: agnes", f"base: {p.base_rank.letter}", "redeals: 0", "offers: 0", "score: 1"]
    assert lines[5].startswith("stock: #") and len(lines[5].split()) == 24
    assert lines[7] == "foundation2:"
    tableau3 = lines[-5].split()
    assert tableau3[0] == "tableau3:" and tableau3[1].startswith("#") and not tableau3[3].startswith("#")
    assert str(p) == position_to_text(p)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_position_text_and_json_round_trip(game, seed):
    for p in (Position.initial(ruleset(game), shuffled(game, seed)), played(game, seed)):
        assert parse_position(position_to_text(p), ruleset(game)) == p
        assert position_from_json(position_to_json(p), ruleset(game)) == p
        assert position_from_dict(json.loads(json.dumps(position_to_dict(p))), ruleset(game)) == p


def test_position_json_lists_piles_with_id_role_and_cards():
    p = Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 4))
    data = position_to_dict(p)
    assert data["game"] == "eagle_wing" and data["score"] == 1 and data["redeals"] == 0
    reserve = data["piles"][2]
    assert reserve["id"] == "reserve" and reserve["role"] == "reserve"
    assert not reserve["cards"][0].startswith("#") and all(c.startswith("#") for c in reserve["cards"][1:])
    assert len(reserve["cards"]) == 13


def _text(game: str = "agnes", seed: int = 5) -> str:
    return position_to_text(Position.initial(ruleset(game), shuffled(game, seed)))


def test_parse_position_names_the_line_of_an_unknown_pile():
    text = _text().replace("tableau7:", "tableau9:")
    with pytest.raises(NotationError, match=r"line 17: unknown line 'tableau9'"):
        parse_position(text, ruleset("agnes"))


def test_parse_position_refuses_a_duplicated_card_and_lists_the_missing_one():
    lines = _text().splitlines()
    first = lines[-7].split()[1]
    lines[-1] = lines[-1].rsplit(" ", 1)[0] + " " + first.lstrip("#")
    with pytest.raises(NotationError, match="not the agnes deck of 52 cards .*missing"):
        parse_position("\n".join(lines), ruleset("agnes"))


def test_parse_position_refuses_another_game():
    with pytest.raises(NotationError, match="of game 'agnes', not 'hamilton'"):
        parse_position(_text(), ruleset("hamilton"))


def test_parse_position_refuses_a_score_that_does_not_match_the_foundations():
    with pytest.raises(NotationError, match=r"line 5: 'score: 7' does not match the foundations, which give 1"):
        parse_position(_text().replace("score: 1", "score: 7"), ruleset("agnes"))


def test_parse_position_needs_every_pile_and_the_base_of_a_base_card_game():
    text = "\n".join(line for line in _text().splitlines() if not line.startswith("foundation2"))
    with pytest.raises(NotationError, match="missing pile line.*foundation2"):
        parse_position(text, ruleset("agnes"))
    with pytest.raises(NotationError, match="needs 'base:'"):
        text = "\n".join("base: -" if line.startswith("base:") else line for line in _text().splitlines())
        parse_position(text, ruleset("agnes"))
    with pytest.raises(NotationError, match="line 2: 'base:' needs a rank"):
        parse_position(_text().replace("base: ", "base: X"), ruleset("agnes"))


def test_parse_position_skips_comments_and_blank_lines():
    text = "; a comment\n\n" + _text()
    assert parse_position(text, ruleset("agnes")) == Position.initial(ruleset("agnes"), shuffled("agnes", 5))


def test_notation_errors_are_engine_errors_and_value_errors():
    with pytest.raises(EngineError):
        parse_position("nonsense", ruleset("agnes"))
    assert issubclass(NotationError, ValueError)


def test_saved_game_replays_to_the_same_position():
    rs = ruleset("hamilton")
    game = Game(rs, shuffled("hamilton", 6), seed=6)
    for move in ("stock", "stock", "chooser>foundation2"):
        game.push(move)
    for _ in range(15):
        game.push(game.hints()[0])
    saved = game.saved()
    text = saved.to_text()
    assert text.startswith("game: hamilton\nseed: 6\ndeal: ")
    assert "moves: stock stock chooser>foundation2 " in text
    again = parse_saved_game(text)
    assert again == saved
    assert again.replay(rs).position == game.position
    assert SavedGame.from_json(saved.to_json()) == saved
    assert SavedGame.from_json(saved.to_json()).replay(rs).position == game.position


def test_saved_game_with_an_illegal_move_names_the_move_number():
    rs = ruleset("hamilton")
    saved = SavedGame("hamilton", tuple(shuffled("hamilton", 7)), None, (Move.stock(), Move.parse("tableau1>tableau2")))
    with pytest.raises(IllegalMove, match=r"move 2 \(tableau1>tableau2\): no card can move before"):
        saved.replay(rs)


def test_parse_saved_game_names_the_line_at_fault():
    with pytest.raises(NotationError, match="line 2: bad move 'tableau1>'"):
        parse_saved_game("game: agnes\nmoves: stock tableau1>\n")
    with pytest.raises(NotationError, match="line 2: a deal lists cards without '#'"):
        parse_saved_game("game: agnes\ndeal: #7h\n")
    with pytest.raises(NotationError, match="missing 'game:'"):
        parse_saved_game("moves: stock\n")


def test_saved_game_of_another_game_or_without_a_deal_is_refused():
    with pytest.raises(NotationError, match="of 'agnes', not 'hamilton'"):
        SavedGame("agnes", tuple(shuffled("agnes", 1))).replay(ruleset("hamilton"))
    with pytest.raises(NotationError, match="needs 'deal:'"):
        SavedGame("agnes", None).replay(ruleset("agnes"))


def test_position_reads_and_writes_its_own_notation():
    p = played("eagle_wing", 8)
    assert Position.from_text(p.text(), p.ruleset) == p
    assert Position.from_json(p.to_json(), p.ruleset) == p
