"""Properties over random games of each ruleset (hypothesis): cards are conserved, the score stays
within 0..max, undo then redo gives the same position, replays are deterministic, and every legal
move is allowed by the rules and leaves piles that obey them; every drag the rules allow is listed."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencebook.engine.game import Game
from patiencebook.engine.moves import Move, MoveKind
from patiencebook.engine.notation import SavedGame, parse_position, position_to_text
from patiencebook.engine.position import Position
from patiencebook.engine.rules import Role

from .test_position import ruleset, shuffled

GAMES = ("hamilton", "agnes", "eagle_wing")
RUN = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(p: Position) -> None:
    """The rule invariants of every pile of ``p``."""
    rs = p.ruleset
    assert Counter(p.cards()) == Counter(rs.cards())
    on_foundations = sum(len(p.pile(pid)) for pid in p.pile_ids if p.role(pid) is Role.FOUNDATION)
    assert p.score == rs.scoring.per_card * on_foundations
    assert 0 <= p.score <= rs.scoring.maximum
    base = p.base_rank
    reserve_left = any(p.pile(pid) for pid in p.pile_ids if p.role(pid) is Role.RESERVE)
    for pid in p.pile_ids:
        role = p.role(pid)
        cards = p.pile(pid)
        group = rs.pile(pid.rstrip("0123456789"))
        faces = [up for _, up in cards]
        if group.capacity is not None:
            assert len(cards) <= group.capacity, pid
        if role is Role.STOCK:
            assert not any(faces), pid
        elif role in (Role.WASTE, Role.CHOOSER, Role.FOUNDATION):
            assert all(faces), pid
        if role is Role.FOUNDATION and cards:
            assert base is not None and cards[0][0].rank == base, pid
            for (lower, _), (upper, _) in zip(cards, cards[1:]):
                assert group.build.allows(lower, upper, base), (pid, str(lower), str(upper))
            assert len(cards) <= 13
        if role is Role.TABLEAU:
            # face-down cards only at the bottom; an uncovered card is turned at once
            assert faces == sorted(faces), pid
            if cards and group.reveal.value == "auto":
                assert faces[-1], pid
            if rs.pile(pid.rstrip("0123456789")).fill.rule.value == "auto" and reserve_left:
                assert cards, f"{pid} is empty while the reserve holds cards"
        if role is Role.RESERVE and cards:
            assert faces[1:] == [False] * (len(faces) - 1)


def every_drag(p: Position):
    for src in p.pile_ids:
        for dst in p.pile_ids:
            for k in range(1, len(p.pile(src)) + 1):
                yield Move.drag(src, dst, k)


def random_game(game: str, seed: int, choices: list[int]) -> Game:
    g = Game(ruleset(game), shuffled(game, seed), seed=seed)
    for c in choices:
        moves = list(g.legal_moves)
        if not moves or g.is_won():
            break
        g.push(moves[c % len(moves)])
    return g


games = st.sampled_from(GAMES)
seeds = st.integers(min_value=0, max_value=10**6)
# Move choices: a length and a seed, so that games run deep (up to 150 moves) and still shrink.
def _choices(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(10**4) for _ in range(n)]


choice_lists = st.builds(_choices, st.integers(min_value=0, max_value=150), st.integers(min_value=0, max_value=10**6))


@RUN
@given(games, seeds, choice_lists)
def test_every_legal_move_is_allowed_and_leaves_piles_that_obey_the_rules(game, seed, choices):
    g = Game(ruleset(game), shuffled(game, seed))
    check_invariants(g.position)
    for c in choices[:60]:
        p = g.position
        moves = list(p.legal_moves)
        assert len(moves) == len(set(moves))
        for m in moves:
            assert p.reason(m) is None, (str(m), p.reason(m))
            check_invariants(p.apply(m))
        if not moves:
            break
        g.push(moves[c % len(moves)])


@RUN
@given(games, seeds, choice_lists)
def test_every_drag_the_rules_allow_is_in_legal_moves(game, seed, choices):
    g = random_game(game, seed, choices[:30])
    p = g.position
    listed = set(p.legal_moves)
    allowed = {m for m in every_drag(p) if p.reason(m) is None}
    assert allowed == {m for m in listed if m.kind is MoveKind.DRAG}
    assert (Move.stock() in listed) == p.is_legal(Move.stock())


@RUN
@given(games, seeds, choice_lists)
def test_cards_are_conserved_and_the_score_stays_in_range(game, seed, choices):
    g = random_game(game, seed, choices)
    check_invariants(g.position)
    assert g.position.score <= g.position.max_score


@RUN
@given(games, seeds, choice_lists, st.integers(min_value=1, max_value=20))
def test_undo_then_redo_gives_the_same_position(game, seed, choices, back):
    g = random_game(game, seed, choices)
    history = [g.initial]
    replay = Game(g.ruleset, g.cards)
    for m in g.moves:
        history.append(replay.push(m))
    end = g.position
    n = min(back, len(g.moves))
    for i in range(n):
        g.undo()
        assert g.position == history[len(history) - 2 - i]
    for _ in range(n):
        g.redo()
    assert g.position == end and hash(g.position) == hash(end)


@RUN
@given(games, seeds, choice_lists)
def test_replays_are_deterministic_and_positions_round_trip_as_text(game, seed, choices):
    g = random_game(game, seed, choices)
    saved = g.saved()
    assert saved.replay(g.ruleset).position == g.position
    assert SavedGame.from_json(saved.to_json()).replay(g.ruleset).position == g.position
    assert parse_position(position_to_text(g.position), g.ruleset) == g.position
