"""A game in progress: a deal, the moves played, undo and redo, like python-chess's ``Board`` stack.

:class:`Game` keeps every position reached (positions are values, so undo is a step back along the
list) and the moves undone since, for redo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .cards import Card
from .errors import EngineError, IllegalMove, NotationError
from .moves import LegalMoves, Move
from .position import Position
from .rules import Ruleset

if TYPE_CHECKING:
    from .notation import SavedGame

__all__ = ["Game"]


class Game:
    """A game of ``ruleset`` from the deal ``cards`` (the order the deal takes them; see
    :meth:`Position.initial`), with its moves.

    ``push(move)`` plays a move (raising :class:`IllegalMove` with the reason when refused),
    ``pop()``/``undo()`` take the last one back, ``redo()`` plays an undone move again.
    ``seed`` is kept for the saved game only (a deal number, 0 .. 2**32 - 1, or ``None``).

    Raises :class:`NotationError` for a seed that is not a deal number and
    :class:`EngineError` when ``cards`` is not the ruleset's deck in some order.
    """

    def __init__(self, ruleset: Ruleset, cards: Sequence[Card], seed: int | None = None):
        from .deals import SEED_MAX
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX):
            raise NotationError(f"a deal number is a whole number from 0 to {SEED_MAX}, not {seed!r:.40}")
        if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
            raise EngineError(f"the cards to deal are a list of cards, not a {type(cards).__name__}")
        self.ruleset = ruleset
        self.cards = tuple(cards)
        self.seed = seed
        self._positions: list[Position] = [Position.initial(ruleset, self.cards)]
        self._moves: list[Move] = []
        self._redo: list[Move] = []

    @classmethod
    def deal(cls, ruleset: Ruleset, seed: int) -> "Game":
        """A new game of AisleRiot's deal number ``seed`` (:func:`patiencebook.engine.deals.deal_order`).

        As AisleRiot does, a shuffle whose layout is already lost is dealt again from the same
        generator, so the game always starts playable. Raises ``ValueError`` for a seed outside
        ``0 .. 2**32 - 1``.
        """
        from .deals import deal_order

        def playable(order: list) -> bool:
            return not Position.initial(ruleset, order).is_lost()

        return cls(ruleset, deal_order(ruleset, seed, playable=playable), seed=seed)

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def initial(self) -> Position:
        """The position after the deal."""
        return self._positions[0]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, first to last."""
        return tuple(self._moves)

    @property
    def legal_moves(self) -> LegalMoves:
        """The current position's legal moves."""
        return self.position.legal_moves

    def push(self, move: Move | str) -> Position:
        """Play ``move`` (a :class:`Move` or its text); returns the new position and clears redo.

        Raises :class:`IllegalMove` with the reason, or :class:`NotationError` for something that is
        not a move or move text, leaving the game unchanged.
        """
        if not isinstance(move, Move):
            if not isinstance(move, str):
                raise NotationError(f"a move is a Move or its text, not a {type(move).__name__}")
            from .notation import parse_move
            move = parse_move(move)
        self._positions.append(self.position.apply(move))
        self._moves.append(move)
        self._redo.clear()
        return self.position

    def pop(self) -> Move:
        """Take back the last move and return it (it can be redone). Raises :class:`IllegalMove`
        when no move has been played."""
        if not self._moves:
            raise IllegalMove("there is no move to undo", "no-undo")
        self._positions.pop()
        move = self._moves.pop()
        self._redo.append(move)
        return move

    def undo(self) -> Move:
        """Same as :meth:`pop`."""
        return self.pop()

    def redo(self) -> Move:
        """Play again the last move undone and return it. Raises :class:`IllegalMove` when none."""
        if not self._redo:
            raise IllegalMove("there is no move to redo", "no-redo")
        move = self._redo.pop()
        self._positions.append(self.position.apply(move))
        self._moves.append(move)
        return move

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def hints(self) -> list[Move]:
        """The current position's legal moves, best first (:meth:`Position.hints`)."""
        return self.position.hints()

    def is_won(self) -> bool:
        return self.position.is_won()

    def is_lost(self) -> bool:
        return self.position.is_lost()

    @property
    def score(self) -> int:
        return self.position.score

    def saved(self) -> SavedGame:
        """The game as a :class:`~patiencebook.engine.notation.SavedGame` (deal, seed and moves)."""
        from .notation import SavedGame
        return SavedGame(self.ruleset.game, self.cards, self.seed, tuple(self._moves))

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.game} moves={len(self._moves)} score={self.score}>"
