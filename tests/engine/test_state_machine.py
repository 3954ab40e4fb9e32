"""No sequence of calls to the Game and Position API corrupts a position (hypothesis state machine):
legal moves, any drag from any pile to any pile, clicks, move texts, undo, redo, saving and
reloading as text and JSON. After every step the deck is whole, the position passes the rules
validator and round-trips through text and JSON; a refused call changes nothing."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from patiencebook.engine.errors import EngineError, IllegalMove
from patiencebook.engine.game import Game
from patiencebook.engine.moves import Move, MoveKind, legal_moves
from patiencebook.engine.notation import (SavedGame, parse_position, parse_saved_game, position_from_json,
                                          position_to_json, position_to_text)

from .test_position import ruleset, shuffled
from .test_properties import check_invariants

GAMES = ("hamilton", "agnes", "eagle_wing")


class GameMachine(RuleBasedStateMachine):
    """One game driven by random API calls; ``self.game`` is the game under test."""

    game: Game

    @initialize(name=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=10**6))
    def deal(self, name: str, seed: int) -> None:
        self.game = Game(ruleset(name), shuffled(name, seed), seed=seed)

    # -- helpers -----------------------------------------------------------------------------------

    def _snapshot(self) -> tuple:
        g = self.game
        return position_to_text(g.position), g.moves, g.can_undo, g.can_redo

    def _attempt(self, move: Move | str) -> None:
        """Play ``move``: it is played when the position says it is legal, else refused with
        IllegalMove (or NotationError for unreadable text) and nothing changes."""
        before = self._snapshot()
        position = self.game.position
        legal = isinstance(move, Move) and position.is_legal(move)
        try:
            after = self.game.push(move)
        except IllegalMove as err:
            assert not legal, (str(move), str(err))
            assert self._snapshot() == before
            if isinstance(move, Move):
                assert position.reason(move) == str(err)
            return
        except EngineError:
            assert not isinstance(move, Move)
            assert self._snapshot() == before
            return
        assert after is self.game.position and self.game.moves[-1] == (move if isinstance(move, Move) else
                                                                       Move.parse(move))
        assert not self.game.can_redo

    # -- rules -------------------------------------------------------------------------------------

    @rule(choice=st.integers(min_value=0, max_value=10**4))
    def play_a_legal_move(self, choice: int) -> None:
        moves = list(legal_moves(self.game.position, double_clicks=True))
        if moves:
            self._attempt(moves[choice % len(moves)])

    @rule()
    def play_the_best_hint(self) -> None:
        hints = self.game.hints()
        if hints:
            self._attempt(hints[0])

    @rule(source=st.integers(min_value=0, max_value=30), to=st.integers(min_value=0, max_value=30),
          count=st.integers(min_value=-1, max_value=15))
    def drag_from_any_pile_to_any_pile(self, source: int, to: int, count: int) -> None:
        ids = self.game.position.pile_ids
        self._attempt(Move.drag(ids[source % len(ids)], ids[to % len(ids)], count))

    @rule(kind=st.sampled_from([MoveKind.FLIP, MoveKind.DOUBLE_CLICK]), pile=st.integers(min_value=0, max_value=30))
    def click_any_pile(self, kind: MoveKind, pile: int) -> None:
        ids = self.game.position.pile_ids
        self._attempt(Move(kind, ids[pile % len(ids)]))

    @rule()
    def click_the_stock(self) -> None:
        self._attempt(Move.stock())

    @rule(text=st.one_of(st.text(max_size=30), st.sampled_from(
        ["stock", "dbl:waste", "flip:tableau1", "tableau1>foundation1", "chooser>foundation2", "waste>tableau3",
         "tableau2:3>tableau5", "tableau9>tableau1", "stock>waste", "reserve>tableau1", "foundation1>tableau1"])))
    def play_a_move_text(self, text: str) -> None:
        self._attempt(text)

    @rule()
    def undo(self) -> None:
        before = self._snapshot()
        if self.game.can_undo:
            move = self.game.undo()
            assert self.game.can_redo and self.game.moves == before[1][:-1] and move == before[1][-1]
        else:
            try:
                self.game.undo()
            except IllegalMove:
                assert self._snapshot() == before
            else:  # pragma: no cover - the assertion explains
                raise AssertionError("undo without a move was accepted")

    @rule()
    def redo(self) -> None:
        before = self._snapshot()
        if self.game.can_redo:
            self.game.redo()
            assert len(self.game.moves) == len(before[1]) + 1
        else:
            try:
                self.game.redo()
            except IllegalMove:
                assert self._snapshot() == before
            else:  # pragma: no cover
                raise AssertionError("redo without an undone move was accepted")

    @precondition(lambda self: len(self.game.moves) < 200)
    @rule(as_json=st.booleans())
    def save_and_reload(self, as_json: bool) -> None:
        saved = self.game.saved()
        again = SavedGame.from_json(saved.to_json()) if as_json else parse_saved_game(saved.to_text())
        assert again == saved
        reloaded = again.replay(self.game.ruleset)
        assert reloaded.position == self.game.position and reloaded.moves == self.game.moves
        self.game = reloaded

    # -- invariants --------------------------------------------------------------------------------

    @invariant()
    def the_deck_is_whole_and_the_rules_hold(self) -> None:
        position = self.game.position
        assert Counter(position.cards()) == Counter(position.ruleset.cards())
        position.validate()
        check_invariants(position)

    @invariant()
    def the_position_round_trips_as_text_and_json(self) -> None:
        position = self.game.position
        assert parse_position(position_to_text(position), position.ruleset) == position
        assert position_from_json(position_to_json(position), position.ruleset) == position


GameMachine.TestCase.settings = settings(max_examples=50, stateful_step_count=50, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_no_sequence_of_api_calls_corrupts_a_position = GameMachine.TestCase
