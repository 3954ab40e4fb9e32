"""A game in progress, and a game as it is stored.

:class:`Game` is a deal, the moves played, undo and redo, like python-chess's ``Board`` stack: it
keeps every position reached (positions are values, so undo is a step back along the list) and the
moves undone since, for redo. :class:`SavedGame` is the game name, the deal and the moves as data,
with their text and JSON forms (grammar in :mod:`patiencebook.engine.notation`); it is made from a
game (:meth:`SavedGame.of`) and replays into one (:meth:`SavedGame.replay`) through the public API
of :class:`Game`, which knows nothing of how games are stored (:meth:`Game.saved` only hands over).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from .cards import Card
from .deals import SEED_MAX, deal_order
from .errors import EngineError, IllegalMove, NotationError, describe
from .moves import LegalMoves, Move
from .position import Position
from .rules import Ruleset
from .syntax import MAX_DEAL_CARDS, MAX_MOVES, check_deck, check_seed, face_up_card, fields, load_json, parse_int

__all__ = ["Game", "SavedGame"]


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
            move = Move.parse(move)
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
        """True when a move has been played (:meth:`pop` has something to take back)."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """True when a move undone can be played again (:meth:`redo`)."""
        return bool(self._redo)

    def hints(self) -> list[Move]:
        """The current position's legal moves, best first (:meth:`Position.hints`)."""
        return self.position.hints()

    def is_won(self) -> bool:
        """True when the current position is won (:meth:`Position.is_won`)."""
        return self.position.is_won()

    def is_lost(self) -> bool:
        """True when the current position is lost (:meth:`Position.is_lost`)."""
        return self.position.is_lost()

    @property
    def score(self) -> int:
        """The current position's score (:attr:`Position.score`)."""
        return self.position.score

    def saved(self) -> SavedGame:
        """The game as a :class:`SavedGame` (deal, seed and moves): :meth:`SavedGame.of` of it."""
        return SavedGame.of(self)

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.game} moves={len(self._moves)} score={self.score}>"


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as it can be stored: the game name, the deal (card order and/or seed) and the moves.

    Attributes:
        game: the ruleset's game name.
        cards: the cards in the order the deal takes them (``Position.initial``), or ``None`` when
            only ``seed`` is known.
        seed: the deal number, or ``None``. With ``cards`` it is only a label: the cards are dealt.
        moves: the moves played, first to last.
        lines: the text line of each move when read by :meth:`from_text` (else empty), so
            that a refused move can be shown at its line; not compared.

    Text and JSON forms: :meth:`to_text` and :meth:`from_text`
    (:func:`~patiencebook.engine.notation.parse_saved_game`), :meth:`to_dict`/:meth:`from_dict`,
    :meth:`to_json`/:meth:`from_json`.
    """

    game: str
    cards: tuple[Card, ...] | None
    seed: int | None = None
    moves: tuple[Move, ...] = field(default_factory=tuple)
    lines: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, game: Game) -> "SavedGame":
        """The saved form of ``game``: its game name, deal (card order and seed) and moves played."""
        return cls(game.ruleset.game, game.cards, game.seed, game.moves)

    def deal(self, ruleset: Ruleset) -> tuple[Card, ...]:
        """The card order of the deal: ``cards``, or AisleRiot's deal number ``seed``
        (:func:`patiencebook.engine.deals.deal_order`).

        Raises :class:`NotationError` when neither can give it.
        """
        if self.cards is not None:
            return self.cards
        if self.seed is None:
            raise NotationError("a saved game needs 'deal:' (the card order) or 'seed:'")
        check_seed(self.seed, None)
        try:
            return tuple(deal_order(ruleset, self.seed))
        except ValueError as err:
            raise NotationError(f"bad seed: {err}") from None

    def replay(self, ruleset: Ruleset) -> Game:
        """A :class:`Game` of ``ruleset`` with the deal dealt and every move played.

        Raises :class:`NotationError` when the game name does not match, a field has the wrong type,
        or the cards are not the deck, and :class:`IllegalMove` naming the move number (and its line,
        when read from text) when a move is refused.
        """
        if self.game != ruleset.game:
            raise NotationError(f"the saved game is of {describe(self.game)}, not {ruleset.game!r}")
        if self.seed is not None:
            check_seed(self.seed, None)
        cards = self.deal(ruleset)
        if not isinstance(cards, (tuple, list)) or not all(isinstance(c, Card) for c in cards):
            raise NotationError("the deal of a saved game must be a list of cards")
        if not isinstance(self.moves, (tuple, list)) or not all(isinstance(m, Move) for m in self.moves):
            raise NotationError("the moves of a saved game must be a list of moves")
        check_deck(ruleset, cards)
        game = Game(ruleset, cards, seed=self.seed)
        for n, move in enumerate(self.moves, 1):
            try:
                game.push(move)
            except IllegalMove as err:
                at = f"line {self.lines[n - 1]}: " if len(self.lines) == len(self.moves) else ""
                raise IllegalMove(f"{at}move {n} ({move}): {err}", err.code, err.params) from None
        return game

    def to_text(self) -> str:
        """The text form (grammar in :mod:`patiencebook.engine.notation`); :meth:`from_text` reads it back."""
        lines = [f"game: {self.game}"]
        if self.seed is not None:
            lines.append(f"seed: {self.seed}")
        if self.cards is not None:
            lines.append("deal: " + " ".join(str(c) for c in self.cards))
        lines.append(("moves: " + " ".join(str(m) for m in self.moves)).rstrip())
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``{"game", "seed", "deal": [...] | null, "moves": [...]}``."""
        return {"game": self.game, "seed": self.seed,
                "deal": [str(c) for c in self.cards] if self.cards is not None else None,
                "moves": [str(m) for m in self.moves]}

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> "SavedGame":
        """A saved game from :meth:`to_dict` data (any JSON value is accepted as input).

        Raises :class:`NotationError` for anything but an object with a non-empty ``game`` string,
        ``seed`` a deal number (0 .. 2**32 - 1) or ``null``, ``deal`` a list of face-up cards or
        ``null``, ``moves`` a list of move texts (at most
        :data:`~patiencebook.engine.syntax.MAX_MOVES`), and no other key.
        """
        if not isinstance(data, dict) or not isinstance(data.get("game"), str) or not data["game"].strip():
            raise NotationError("a saved game in JSON must be an object with a 'game' name")
        unknown = [k for k in data if k not in ("game", "seed", "deal", "moves")]
        if unknown:
            raise NotationError(f"unknown key(s) in saved game JSON: {', '.join(describe(k) for k in unknown[:5])}")
        seed = data.get("seed")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise NotationError(f"'seed' must be a whole number of at least 0, not {describe(seed)}")
            check_seed(seed, None)
        deal = data.get("deal")
        cards = None
        if deal is not None:
            if not isinstance(deal, list) or not all(isinstance(t, str) for t in deal):
                raise NotationError("'deal' must be a list of cards like \"7h\"")
            if len(deal) > MAX_DEAL_CARDS:
                raise NotationError(f"'deal' lists {len(deal)} cards, more than any deck holds")
            cards = tuple(face_up_card(t) for t in deal)
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise NotationError("'moves' must be a list of moves like \"tableau3>foundation1\"")
        if len(moves) > MAX_MOVES:
            raise NotationError(f"'moves' lists {len(moves)} moves; a saved game holds at most {MAX_MOVES}")
        return cls(data["game"].strip(), cards, seed, tuple(Move.parse(t) for t in moves))

    @classmethod
    def from_json(cls, text: str) -> "SavedGame":
        """A saved game from :meth:`to_json` text; raises :class:`NotationError`."""
        return cls.from_dict(load_json(text))

    @classmethod
    def from_text(cls, text: str) -> "SavedGame":
        """A saved game from its text form (:meth:`to_text`); raises :class:`NotationError` with the
        line at fault.

        ``game:`` and ``seed:`` may be given once each (a seed is a deal number, 0 .. 2**32 - 1);
        ``deal:`` and ``moves:`` may repeat, each continuing the one before. At most
        :data:`~patiencebook.engine.syntax.MAX_MOVES` moves and
        :data:`~patiencebook.engine.syntax.MAX_DEAL_CARDS` cards are read.
        """
        game: str | None = None
        seed: int | None = None
        seed_line: int | None = None
        cards: list[Card] | None = None
        moves: list[Move] = []
        lines: list[int] = []
        for n, key, value in fields(text):
            if key == "game":
                if game is not None:
                    raise NotationError("'game:' is given twice", n)
                game = value.strip()
            elif key == "seed":
                if seed_line is not None:
                    raise NotationError(f"'seed:' is given twice (first on line {seed_line})", n)
                seed, seed_line = parse_int(value, "seed", n), n
                check_seed(seed, n)
            elif key == "deal":
                tokens = value.split()
                if len(cards or ()) + len(tokens) > MAX_DEAL_CARDS:
                    raise NotationError(f"'deal:' lists more than {MAX_DEAL_CARDS} cards, more than any deck holds", n)
                cards = (cards or []) + [face_up_card(t, n) for t in tokens]
            elif key == "moves":
                tokens = value.split()
                if len(moves) + len(tokens) > MAX_MOVES:
                    raise NotationError(f"a saved game holds at most {MAX_MOVES} moves", n)
                for t in tokens:
                    try:
                        moves.append(Move.parse(t))
                    except NotationError as err:
                        raise NotationError(err.message, n) from None
                    lines.append(n)
            else:
                raise NotationError(f"unknown line {describe(key)}: expected game, seed, deal or moves", n)
        if not game:
            raise NotationError("missing 'game:' (the game name)")
        return cls(game, tuple(cards) if cards is not None else None, seed, tuple(moves), tuple(lines))
