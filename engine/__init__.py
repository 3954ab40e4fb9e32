"""The reference rules engine: standard-library Python only (it also runs in Pyodide).

The names most callers need are re-exported here: ``Game``, ``Position``, ``Move``,
``legal_moves``, ``SavedGame``, the card types and the error classes.
"""

from __future__ import annotations

import importlib

#: Each re-exported name and the module that defines it. The modules are imported when a name is
#: first asked for, so that a caller needing one part (the rules model, to read a rules block) does
#: not import the whole engine.
_EXPORTS = {
    "Card": "cards", "Colour": "cards", "Rank": "cards", "Suit": "cards",
    "EngineError": "errors", "IllegalMove": "errors", "NotationError": "errors", "PositionError": "errors",
    "Reason": "errors", "RulesError": "errors",
    "Game": "game", "SavedGame": "game",
    "LegalMoves": "moves", "Move": "moves", "MoveKind": "moves", "legal_moves": "moves",
    "parse_saved_game": "notation", "Position": "position", "Ruleset": "rules",
}

__all__ = [
    "Card", "Colour", "Rank", "Suit",
    "EngineError", "IllegalMove", "NotationError", "PositionError", "Reason", "RulesError",
    "Game", "LegalMoves", "Move", "MoveKind", "legal_moves",
    "SavedGame", "parse_saved_game", "Position", "Ruleset",
]


def __getattr__(name: str):
    """A re-exported name (see :data:`_EXPORTS`), imported from its module on first use.

    Raises:
        AttributeError: ``name`` is neither re-exported nor a module of the engine already imported.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
