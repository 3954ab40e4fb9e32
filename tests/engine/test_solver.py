"""The thoughtful solver: wins it finds replay with the engine's own rules, a deal whose every
reachable position it searched is unsolvable, and the budget makes the answer unknown."""

from __future__ import annotations

import pytest

from patiencebook.engine import Game
from patiencebook.engine.moves import MoveKind
from patiencebook.engine.rules import Role
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, _SafeMoves, solve

from .test_position import ruleset, shuffled


def test_a_win_found_replays_move_by_move_to_a_won_position():
    game = Game.deal(ruleset("eagle_wing"), 1)
    result = solve(game.position, budget=5_000)
    assert result.status == SOLVED and 0 < result.nodes < 5_000
    for move in result.moves:
        game.push(move)  # raises IllegalMove if the solver played a move the rules refuse
    assert game.position.is_won() and game.position.score == game.position.max_score


def test_a_deal_searched_to_the_end_without_a_win_is_unsolvable():
    result = solve(Game.deal(ruleset("agnes"), 4).position, budget=100_000)
    assert result.status == UNSOLVABLE and result.moves == ()
    assert 1_000 < result.nodes < 100_000  # the whole reachable space, within the budget


def test_the_budget_makes_the_answer_unknown():
    result = solve(Game.deal(ruleset("agnes"), 4).position, budget=500)
    assert (result.status, result.nodes, result.moves) == (UNKNOWN, 500, ())
    with pytest.raises(ValueError, match="at least one position"):
        solve(Game.deal(ruleset("agnes"), 4).position, budget=0)


@pytest.mark.parametrize("budget", [1, 2, 3, 4, 5, 11])
def test_no_more_positions_are_searched_than_the_budget(budget):
    result = solve(Game.deal(ruleset("agnes"), 4).position, budget=budget)
    assert (result.status, result.nodes) == (UNKNOWN, budget)


def test_safe_moves_send_up_only_cards_nothing_could_still_be_built_on():
    # Eagle Wing builds down in suit: the card one rank lower of the same suit is already on the
    # foundation when a card goes up, so every foundation move is safe.
    position = Game.deal(ruleset("eagle_wing"), 1).position
    after, moves = _SafeMoves(position).advance(position)
    assert all(position.role(m.target) is Role.FOUNDATION and m.kind is MoveKind.DRAG for m in moves)
    # What is left for the foundations is only base-rank cards: with wrap, a King of their suit
    # could still go on them, and it is not on a foundation yet.
    left = [after.pile(m.source)[-1][0] for m in after.legal_moves if m.kind is MoveKind.DRAG
            and after.role(m.target) is Role.FOUNDATION and after.role(m.source) is not Role.FOUNDATION]
    assert all(card.rank == after.base_rank for card in left)
    # Agnes builds down in colour: a card may go up only when the other suit of its colour has its
    # card one rank lower on the foundation too.
    safe = _SafeMoves(Game.deal(ruleset("agnes"), 1).position)
    agnes = Game.deal(ruleset("agnes"), 1).position
    from patiencebook.engine.cards import Card
    held = safe._could_hold(Card.parse("7h"), agnes)
    assert sorted(map(str, held)) == ["6d", "6h"]


def _swapped(position, a: str, b: str):
    from patiencebook.engine import Position

    piles = dict(position.piles)
    piles[a], piles[b] = piles[b], piles[a]
    return Position.from_piles(position.ruleset, piles, base_rank=position.base_rank,
                               redeals_used=position.redeals_used, offers_used=position.offers_used)


def test_piles_that_play_alike_are_one_entry_of_the_transposition_table():
    from patiencebook.engine.solver import _Keys

    eagle = Game.deal(ruleset("eagle_wing"), 1).position
    keys = _Keys(eagle)
    assert keys(_swapped(eagle, "tableau1", "tableau3")) == keys(eagle)
    assert keys(_swapped(eagle, "stock", "waste")) != keys(eagle)
    # Agnes's stock deals one card to each tableau pile in turn: while it holds cards, the order
    # of the tableau piles matters.
    agnes = Game.deal(ruleset("agnes"), 1).position
    assert _Keys(agnes)(_swapped(agnes, "tableau2", "tableau5")) != _Keys(agnes)(agnes)


def test_the_distance_counts_the_cards_on_the_next_card_each_foundation_wants():
    from patiencebook.engine.cards import Card, Rank, Suit
    from patiencebook.engine.solver import _Distance

    position = Game.deal(ruleset("freecell"), 1).position
    for move in solve(position, 20_000).moves[:30]:
        position = position.apply(move)
    depth: dict = {}
    for pid in position.pile_ids:
        if position.role(pid) is not Role.FOUNDATION:
            cards = position.pile(pid)
            for n, (card, _) in enumerate(cards):
                depth[card] = min(depth.get(card, 99), len(cards) - 1 - n)
    foundations = [position.pile(pid) for pid in position.pile_ids if position.role(pid) is Role.FOUNDATION]
    expected = 0
    for cards in foundations:
        if not cards:
            expected += min(depth.get(Card(Rank.ACE, suit), 99) for suit in Suit)
        elif len(cards) < 13:
            top = cards[-1][0]
            expected += depth[Card(Rank(int(top.rank) + 1), top.suit)]
    assert any(foundations) and not all(foundations)  # both kinds of foundation are met
    assert expected > 0
    assert _Distance(position)._covering(position) == expected
    # Klondike counts it too (Aces up in suit); Agnes, whose base rank is chosen in play, does not.
    assert _Distance(Game.deal(ruleset("klondike"), 1).position).wanting
    assert not _Distance(Game.deal(ruleset("agnes"), 1).position).wanting


ALL_GAMES = ("klondike", "freecell", "spider", "yukon", "golf", "canfield", "scorpion", "forty_thieves",
             "bakers_dozen", "gypsy", "agnes", "eagle_wing", "hamilton",
             "bakers_game", "eight_off", "beleaguered_castle", "spiderette",
             "whitehead",
             "easthaven", "seahaven", "triple_peaks",
             "streets_and_alleys", "fortress", "westhaven", "king_albert", "giant", "cruel", "chessboard", "thumb_and_pouch", "jumbo",
             "will_o_the_wisp", "spider_three_decks")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_the_cards_a_pile_accepts_next_cover_every_legal_single_card_drag(game):
    # _accepted_codes is the solver's first cut before _drag_reason: it may name too many cards
    # but never too few, or a safe foundation move would be missed.
    import random

    from patiencebook.engine.position import Position
    from patiencebook.engine.tables import UP as _UP

    rules = ruleset(game)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        position = Position.initial(rules, shuffled(game, seed))
        for _ in range(120):
            R = position._rules
            for i, j, k in position._drag_keys():
                if k != 1:
                    continue
                codes = position._accepted_codes(j)
                card = position._piles[i][-1]
                assert card & _UP
                assert codes is None or (card & 63) in codes, (game, R.ids[i], R.ids[j])
                checked += 1
            moves = list(position.legal_moves)
            if not moves:
                break
            position = position.apply(rng.choice(moves))
    assert checked > 20
