"""The engine's text and JSON notation for cards, moves, positions and saved games; all round-trip.

Grammar (``#`` starts nothing but a face-down card; a line whose first character is ``;`` is a
comment; blank lines are ignored)::

    card      = ["#"] (rank suit | "Jk")   ; "#" = face down.  rank: A 2-9 T J Q K  suit: c d h s
                                         ; "Jk" = a joker (all jokers of a deck are alike)
    move      = "stock" | "dbl:" pile | "flip:" pile | pile [":" count] ">" pile
    pile      = a pile id: the group id, numbered from 1 when the group has several piles
                ("stock", "waste", "tableau3", "foundation1")
    position  = line*  with lines  "game: NAME"  "base: RANK|-"  "redeals: N"  "offers: N"
                "score: N" (checked, optional)  and one "PILE: card*" line per pile (bottom to top)
    saved     = "game: NAME"  ["seed: N"]  ["deal: card*" (the order the deal takes the cards)]
                "moves: move*" (may repeat; the moves follow on)

Example position line: ``tableau3: #Qs #2d 7h``. JSON forms: :func:`position_to_json` and
:meth:`SavedGame.to_json`. Every reading error is a :class:`NotationError` saying what is wrong
(and, for text, on which line), whatever the input: text or JSON of any shape, size or nesting.
A position must also be one the rules can produce (:meth:`Position.validate`), else it is a
:class:`~patiencebook.engine.errors.PositionError`; a saved game's moves are checked by replaying.

This module is where the notation's names are found. Each form is read and written beside the value
it describes: cards and the syntax in :mod:`~patiencebook.engine.syntax`, moves in
:meth:`Move.parse <patiencebook.engine.moves.Move.parse>`, positions by
:class:`~patiencebook.engine.position.Position` (``from_text``, ``text``, ``from_dict``, ``to_dict``,
``from_json``, ``to_json``), saved games by :class:`~patiencebook.engine.game.SavedGame`.
"""

from __future__ import annotations

from typing import Any

from .errors import MAX_DIGITS
from .game import SavedGame
from .moves import Move
from .position import Position
from .rules import Ruleset
from .syntax import MAX_DEAL_CARDS, MAX_MOVES, card_text, parse_card, position_to_dict, position_to_text

__all__ = [
    "card_text", "parse_card", "move_text", "parse_move", "position_to_text", "parse_position",
    "position_to_dict", "position_from_dict", "position_to_json", "position_from_json",
    "SavedGame", "parse_saved_game", "MAX_DIGITS", "MAX_MOVES", "MAX_DEAL_CARDS",
]


def move_text(move: Move) -> str:
    """The text form of ``move`` (``str(move)``)."""
    return str(move)


def parse_move(text: str) -> Move:
    """The :class:`Move` for its text form (:meth:`Move.parse`); raises :class:`NotationError`, also
    for a value that is not text, text too long for a move and a count of cards too long to read."""
    return Move.parse(text)


def parse_position(text: str, ruleset: Ruleset) -> Position:
    """The position written in ``text`` (grammar above) for a game of ``ruleset``
    (:meth:`Position.from_text`).

    Checks that the game name matches, that every pile is listed once, that the cards are exactly
    the ruleset's deck, that the rules can produce the position (:meth:`Position.validate`) and
    that a ``score:`` line agrees with the foundations. Raises :class:`NotationError` (a
    :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce)
    with the line number and what is wrong.
    """
    return Position.from_text(text, ruleset)


def position_from_dict(data: Any, ruleset: Ruleset) -> Position:
    """The position from :func:`position_to_dict` data (any JSON value is accepted as input;
    :meth:`Position.from_dict`).

    Checks what :func:`parse_position` checks, plus the types: ``game`` a string, ``base`` a rank
    letter or ``null``, counters whole numbers, ``piles`` a list of ``{"id", "role", "cards"}``
    objects (``role`` optional, and then it must be the pile's). Raises :class:`NotationError`
    (a :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce).
    """
    return Position.from_dict(data, ruleset)


def position_to_json(position: Position, indent: int | None = None) -> str:
    """:func:`position_to_dict` as a JSON string (:meth:`Position.to_json`)."""
    return position.to_json(indent)


def position_from_json(text: str, ruleset: Ruleset) -> Position:
    """The position from :func:`position_to_json` text (:meth:`Position.from_json`); raises
    :class:`NotationError`."""
    return Position.from_json(text, ruleset)


def parse_saved_game(text: str) -> SavedGame:
    """A :class:`SavedGame` from its text form (:meth:`SavedGame.from_text`); raises
    :class:`NotationError` with the line at fault.

    ``game:`` and ``seed:`` may be given once each (a seed is a deal number, 0 .. 2**32 - 1);
    ``deal:`` and ``moves:`` may repeat, each continuing the one before. At most
    :data:`MAX_MOVES` moves and :data:`MAX_DEAL_CARDS` cards are read.
    """
    return SavedGame.from_text(text)
