"""Fuzz tests of the notation readers (hypothesis): arbitrary text, valid texts with lines and
characters mutated, and arbitrary JSON values never raise anything but the engine's own errors;
what is accepted is a position the rules can produce, and it reads back the same."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencebook.engine.errors import EngineError
from patiencebook.engine.game import Game
from patiencebook.engine.notation import (SavedGame, parse_card, parse_move, parse_position, parse_saved_game,
                                          position_from_dict, position_from_json, position_to_dict, position_to_text)
from patiencebook.engine.position import Position

from .test_position import ruleset, shuffled

GAMES = ("hamilton", "agnes", "eagle_wing")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _played(game: str, seed: int, steps: int) -> Game:
    g = Game(ruleset(game), shuffled(game, seed), seed=seed)
    for _ in range(steps):
        hints = g.hints()
        if not hints:
            break
        g.push(hints[0] if steps % 3 else list(g.legal_moves)[-1])
    return g


SAMPLES = {game: [_played(game, seed, steps) for seed, steps in ((1, 0), (2, 12), (3, 40))] for game in GAMES}

games = st.sampled_from(GAMES)
samples = st.integers(min_value=0, max_value=2)
# Characters of the notation, plus some that are not: digits, '#', ':', '>', newlines, NUL, a BOM.
notation_chars = st.sampled_from(list("AKQJT98765432cdhs#:>- ;\n\r\t0x") + ["\x00", "\ufeff", "\u2028", "é"])


def _accepted(position: Position) -> None:
    """What a reader accepts is a position the rules can produce, and it round-trips."""
    position.validate()
    assert parse_position(position_to_text(position), position.ruleset) == position


def _reads_or_refuses(read) -> None:
    try:
        result = read()
    except EngineError:
        return
    if isinstance(result, Position):
        _accepted(result)


@FUZZ
@given(games, st.text(max_size=300))
def test_arbitrary_text_is_a_position_or_an_engine_error(game, text):
    _reads_or_refuses(lambda: parse_position(text, ruleset(game)))
    _reads_or_refuses(lambda: parse_saved_game(text))
    _reads_or_refuses(lambda: parse_card(text))
    _reads_or_refuses(lambda: parse_move(text))


@st.composite
def mutated_lines(draw, game: str, text: str) -> str:
    """``text`` with a few lines dropped, doubled, swapped or edited character by character."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        n = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        action = draw(st.sampled_from(["drop", "double", "swap", "insert", "delete", "replace", "token"]))
        line = lines[n]
        at = draw(st.integers(min_value=0, max_value=len(line)))
        if action == "drop":
            del lines[n]
        elif action == "double":
            lines.insert(n, line)
        elif action == "swap" and n + 1 < len(lines):
            lines[n], lines[n + 1] = lines[n + 1], lines[n]
        elif action == "insert":
            lines[n] = line[:at] + draw(notation_chars) + line[at:]
        elif action == "delete":
            lines[n] = line[:at] + line[at + 1:]
        elif action == "replace":
            lines[n] = line[:at] + draw(notation_chars) + line[at + 1:]
        elif action == "token":
            tokens = line.split(" ")
            k = draw(st.integers(min_value=0, max_value=len(tokens) - 1))
            tokens[k] = draw(st.sampled_from(["#" + tokens[k], tokens[k].lstrip("#"), "", "99999999999999999999",
                                              "-1", "Jk", "#Jk", tokens[k] * 2, "tableau9", "foundation1:"]))
            lines[n] = " ".join(tokens)
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


@FUZZ
@given(st.data(), games, samples)
def test_mutated_position_text_is_a_position_or_an_engine_error(data, game, sample):
    position = SAMPLES[game][sample].position
    text = data.draw(mutated_lines(game, position_to_text(position)))
    _reads_or_refuses(lambda: parse_position(text, position.ruleset))


@FUZZ
@given(st.data(), games, samples)
def test_mutated_saved_game_is_a_game_or_an_engine_error(data, game, sample):
    played = SAMPLES[game][sample]
    text = data.draw(mutated_lines(game, played.saved().to_text()))
    try:
        replayed = parse_saved_game(text).replay(played.ruleset)
    except EngineError:
        return
    _accepted(replayed.position)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


@FUZZ
@given(games, json_values)
def test_arbitrary_json_values_are_a_position_or_an_engine_error(game, value):
    _reads_or_refuses(lambda: position_from_dict(value, ruleset(game)))
    _reads_or_refuses(lambda: position_from_json(json.dumps(value), ruleset(game)))
    _reads_or_refuses(lambda: SavedGame.from_dict(value))


@st.composite
def mutated_position_dict(draw, data: dict) -> dict:
    """A position's JSON data with one key or one pile entry replaced by an arbitrary value."""
    data = json.loads(json.dumps(data))
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data) + ["extra"]))
        data[key] = draw(json_values)
    else:
        n = draw(st.integers(min_value=0, max_value=len(data["piles"]) - 1))
        field = draw(st.sampled_from(["id", "role", "cards", "cards-item", "extra"]))
        entry = data["piles"][n]
        if field == "cards-item" and entry["cards"]:
            k = draw(st.integers(min_value=0, max_value=len(entry["cards"]) - 1))
            entry["cards"][k] = draw(json_values | st.sampled_from(["#Ah", "Ah", "Jk", "#" + entry["cards"][k]]))
        else:
            entry[field] = draw(json_values)
    return data


@FUZZ
@given(st.data(), games, samples)
def test_mutated_position_json_is_a_position_or_an_engine_error(data, game, sample):
    position = SAMPLES[game][sample].position
    value = data.draw(mutated_position_dict(position_to_dict(position)))
    _reads_or_refuses(lambda: position_from_dict(value, position.ruleset))
    _reads_or_refuses(lambda: position_from_json(json.dumps(value), position.ruleset))


@FUZZ
@given(st.binary(max_size=200))
def test_arbitrary_bytes_as_json_are_an_engine_error_or_a_value(raw):
    _reads_or_refuses(lambda: position_from_json(raw, ruleset("agnes")))
    _reads_or_refuses(lambda: SavedGame.from_json(raw))
