"""Broken and hostile positions and saved games (tests/data/hostile/engine/, outcomes in expected.json):
each is refused with the engine's own error, its line and what is wrong; positions the rules cannot
produce are refused, and every position reached by play is accepted; API calls with garbage raise
engine errors and leave the game as it was."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from patiencebook.engine import errors
from patiencebook.engine.cards import Card, Rank
from patiencebook.engine.errors import EngineError, IllegalMove, NotationError, PositionError
from patiencebook.engine.game import Game
from patiencebook.engine.moves import Move, MoveKind, legal_moves
from patiencebook.engine.notation import (MAX_MOVES, SavedGame, parse_card, parse_move, parse_position,
                                          parse_saved_game, position_from_dict, position_from_json)
from patiencebook.engine.position import Position

from .test_position import ruleset, shuffled

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile" / "engine"
EXPECTED = json.loads((HOSTILE / "expected.json").read_text(encoding="utf-8"))
GAMES = ("hamilton", "agnes", "eagle_wing")


def _read(case: str) -> None:
    """Read the hostile file ``case`` as its table entry says (a saved game is replayed too)."""
    entry = EXPECTED[case]
    text = (HOSTILE / case).read_text(encoding="utf-8")
    rules = ruleset(entry["game"])
    reader = entry["reader"]
    if reader == "position-text":
        parse_position(text, rules)
    elif reader == "position-json":
        position_from_json(text, rules)
    elif reader == "saved-text":
        parse_saved_game(text).replay(rules)
    elif reader == "saved-json":
        SavedGame.from_json(text).replay(rules)
    else:  # pragma: no cover - a typo in expected.json
        raise AssertionError(f"unknown reader {reader!r}")


def test_every_hostile_engine_file_has_an_expected_refusal():
    files = {p.name for p in HOSTILE.iterdir() if p.name != "expected.json"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_hostile_engine_file_is_refused_with_its_line_and_reason(case):
    entry = EXPECTED[case]
    with pytest.raises(EngineError) as info:
        _read(case)
    err = info.value
    assert type(err) is getattr(errors, entry["error"])
    assert getattr(err, "line", None) == entry["line"]
    assert str(err) == entry["message"]


def test_positions_the_rules_cannot_produce_are_position_errors_naming_the_pile():
    rules = ruleset("agnes")
    start = Position.initial(rules, shuffled("agnes", 2))
    piles = {pid: list(cards) for pid, cards in start.piles.items()}
    card, _ = piles["foundation1"][0]
    piles["foundation1"] = [(card, False)]
    bad = Position.from_piles(rules, piles, start.base_rank)
    with pytest.raises(PositionError, match="foundation1: .* lies face down") as info:
        bad.validate()
    assert info.value.where == "foundation1" and isinstance(info.value, NotationError)
    with pytest.raises(PositionError, match="2 redeals used, but agnes allows no redeals"):
        Position.from_piles(rules, start.piles, start.base_rank, redeals_used=2).validate()
    with pytest.raises(PositionError, match="not the agnes deck of 52 cards"):
        Position.from_piles(rules, {"tableau1": [(Card.parse("7h"), True)]}, Rank.SEVEN).validate()


# -- every position reached by play passes ------------------------------------------------------

def _playout(game: str, seed: int, steps: int, rng: random.Random):
    """Positions of one game played by hints and random moves (double-clicks, undo and redo
    included), start first."""
    g = Game(ruleset(game), shuffled(game, seed))
    yield g.position
    for _ in range(steps):
        moves = list(legal_moves(g.position, double_clicks=True))
        if not moves:
            break
        roll = rng.random()
        if roll < 0.05 and g.can_undo:
            g.undo()
        elif roll < 0.08 and g.can_redo:
            g.redo()
        else:
            g.push(g.hints()[0] if roll < 0.6 else rng.choice(moves))
        yield g.position


@pytest.mark.parametrize("game", GAMES)
def test_every_position_reached_by_play_passes_the_validator_and_reads_back(game):
    rng = random.Random(game)
    reached = 0
    for seed in range(12):
        for position in _playout(game, seed, 250, rng):
            position.validate()
            reached += 1
        assert parse_position(position.text(), position.ruleset) == position
        assert position_from_json(position.to_json(), position.ruleset) == position
    assert reached > 1000


def test_redeals_and_offers_up_to_their_limits_are_accepted():
    # Eagle Wing: turn the stock through three times (two redeals).
    g = Game(ruleset("eagle_wing"), shuffled("eagle_wing", 5))
    while g.position.is_legal(Move.stock()):
        g.push("stock")
    assert g.position.redeals_used == 2
    g.position.validate()
    # Hamilton: three offers, the last accepted.
    h = Game(ruleset("hamilton"), shuffled("hamilton", 5))
    for move in ("stock", "stock", "stock", "chooser>foundation4"):
        h.push(move)
        h.position.validate()
    assert h.position.offers_used == 3 and h.position.base_rank is not None


# -- garbage through the API -------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, 5, 2.5, b"stock", ["stock"], {"move": "stock"}])
def test_push_refuses_what_is_not_a_move_and_leaves_the_game_as_it_was(value):
    g = Game(ruleset("agnes"), shuffled("agnes", 1))
    before = g.position
    with pytest.raises(NotationError, match="a move is a Move or its text"):
        g.push(value)
    assert g.position is before and g.moves == ()
    with pytest.raises(NotationError):
        before.apply(value)
    assert before.reason(value) is not None and not before.is_legal(value)


@pytest.mark.parametrize("move", [
    Move(MoveKind.DRAG, "tableau1", "tableau2", 0),
    Move(MoveKind.DRAG, "tableau1", "tableau2", -3),
    Move(MoveKind.DRAG, "tableau1", "tableau2", 10**30),
    Move(MoveKind.DRAG, "tableau1", "tableau2", 1.5),
    Move(MoveKind.DRAG, "tableau1", "tableau2", "2"),
    Move(MoveKind.DRAG, ["tableau1"], "tableau2", 1),
    Move(MoveKind.DRAG, None, None, 1),
    Move("drag", "tableau1", "tableau2", 1),
    Move("teleport", "tableau1"),
    Move(MoveKind.FLIP, {"x": 1}),
    Move(MoveKind.DOUBLE_CLICK, "x" * 10_000),
])
def test_moves_built_with_garbage_are_illegal_and_change_nothing(move):
    g = Game(ruleset("agnes"), shuffled("agnes", 1))
    before = g.position
    with pytest.raises(IllegalMove):
        g.push(move)
    assert g.position is before and g.moves == ()
    assert before.reason(move) is not None


@pytest.mark.parametrize("seed", [-1, 2**32, "7", 1.0, True])
def test_game_refuses_a_seed_that_is_not_a_deal_number(seed):
    with pytest.raises(NotationError, match="deal number"):
        Game(ruleset("agnes"), shuffled("agnes", 1), seed=seed)


@pytest.mark.parametrize("cards", [None, 52, "AcAd", [["Ac"]] * 52, list(range(52))])
def test_game_refuses_cards_that_are_not_the_deck(cards):
    with pytest.raises(EngineError):
        Game(ruleset("agnes"), cards)


@pytest.mark.parametrize("value", [None, 7, b"game: agnes", ["game: agnes"]])
def test_readers_refuse_what_is_not_text(value):
    rules = ruleset("agnes")
    for read in (lambda: parse_position(value, rules), lambda: parse_saved_game(value),
                 lambda: parse_card(value), lambda: parse_move(value)):
        with pytest.raises(NotationError):
            read()
    if not isinstance(value, bytes):
        with pytest.raises(NotationError):
            position_from_json(value, rules)


def test_json_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(NotationError, match="not UTF-8"):
        position_from_json(b'{"game": "\xff"}', ruleset("agnes"))


def test_position_dict_with_keys_that_are_not_text_is_refused():
    with pytest.raises(NotationError, match="unknown key"):
        position_from_dict({1: 2, (3,): None, "game": "agnes"}, ruleset("agnes"))
    with pytest.raises(NotationError, match="'redeals' is too large"):
        position_from_dict({"game": "agnes", "redeals": 10**5000, "piles": []}, ruleset("agnes"))


def test_a_deeply_nested_value_built_in_code_is_refused_without_recursion():
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(NotationError, match="a list of 1 item"):
        position_from_dict(nested, ruleset("agnes"))
    with pytest.raises(NotationError, match="'piles' must be a list"):
        position_from_dict({"game": "agnes", "piles": {"x": nested}}, ruleset("agnes"))


def test_saved_game_built_in_code_with_garbage_is_refused():
    rules = ruleset("agnes")
    cards = tuple(shuffled("agnes", 1))
    for saved in (SavedGame(7, cards), SavedGame("agnes", cards, seed="3"), SavedGame("agnes", cards, seed=-1),
                  SavedGame("agnes", ("Ac",) * 52), SavedGame("agnes", cards, None, ("stock",)),
                  SavedGame("agnes", None, 10**5000)):
        with pytest.raises(NotationError):
            saved.replay(rules)


def test_a_saved_game_with_too_many_moves_is_refused_before_replay():
    text = "game: agnes\nseed: 1\n" + ("moves: " + " ".join(["stock"] * 1000) + "\n") * (MAX_MOVES // 1000 + 1)
    with pytest.raises(NotationError, match=f"at most {MAX_MOVES} moves"):
        parse_saved_game(text)


def test_a_refused_move_of_a_saved_text_names_its_line():
    text = "game: agnes\nseed: 3\nmoves: stock\n; a comment\nmoves: stock tableau1>tableau1\n"
    refusal = r"^line 5: move 3 \(tableau1>tableau1\): tableau1 cannot be dragged onto itself"
    with pytest.raises(IllegalMove, match=refusal):
        parse_saved_game(text).replay(ruleset("agnes"))


@pytest.mark.parametrize("piles, base, redeals, offers", [
    ([("tableau1", [])], None, 0, 0),
    ({"tableau1": 7}, None, 0, 0),
    ({"tableau1": ["7h"]}, None, 0, 0),
    ({"tableau1": [(Card.parse("7h"),)]}, None, 0, 0),
    ({("tableau1",): []}, None, 0, 0),
    ({}, 7, 0, 0),
    ({}, "7", 0, 0),
    ({}, None, -1, 0),
    ({}, None, 0, 1.0),
    ({}, None, True, 0),
])
def test_from_piles_refuses_values_of_the_wrong_kind(piles, base, redeals, offers):
    with pytest.raises(EngineError):
        Position.from_piles(ruleset("agnes"), piles, base, redeals, offers)


@pytest.mark.parametrize("game, opening", [("hamilton", ["stock", "chooser>foundation1"]), ("agnes", []),
                                           ("eagle_wing", [])])
def test_a_card_that_does_not_fit_the_foundation_sequence_is_refused_in_every_game(game, opening):
    g = Game(ruleset(game), shuffled(game, 9))
    for move in opening:
        g.push(move)
    piles = {pid: list(cards) for pid, cards in g.position.piles.items()}
    (base_card, _), = piles["foundation1"]
    misfit = next(card for card, _ in piles["stock"] if card.suit != base_card.suit)
    piles["stock"].remove((misfit, False))
    piles["foundation1"].append((misfit, True))
    bad = Position.from_piles(ruleset(game), piles, g.position.base_rank, 0, g.position.offers_used)
    with pytest.raises(PositionError, match="foundation1: .* cannot lie on .*: the foundation builds up in suit"):
        bad.validate()
