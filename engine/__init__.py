"""The reference rules engine: standard-library Python only (it also runs in Pyodide).

The names most callers need are re-exported here: ``Game``, ``Position``, ``Move``,
``legal_moves``, ``SavedGame``, the card types and the error classes.
"""

from .cards import Card, Colour, Rank, Suit
from .errors import EngineError, IllegalMove, NotationError, PositionError, Reason, RulesError
from .game import Game, SavedGame
from .moves import LegalMoves, Move, MoveKind, legal_moves
from .notation import parse_saved_game
from .position import Position
from .rules import Ruleset

__all__ = [
    "Card", "Colour", "Rank", "Suit",
    "EngineError", "IllegalMove", "NotationError", "PositionError", "Reason", "RulesError",
    "Game", "LegalMoves", "Move", "MoveKind", "legal_moves",
    "SavedGame", "parse_saved_game", "Position", "Ruleset",
]
