"""Moves: small frozen values with a text form, and the lazy collection of a position's legal moves.

A move is what a player does with the mouse: drag cards from one pile to another, click the stock,
double-click a pile, or click a face-down card to turn it. The text forms (grammar in
:mod:`patiencebook.engine.notation`) are ``tableau3>foundation1``, ``tableau3:3>tableau5``,
``stock``, ``dbl:tableau2`` and ``flip:tableau4``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from .errors import NotationError, describe

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position

__all__ = ["MoveKind", "Move", "LegalMoves", "legal_moves", "MAX_MOVE_TEXT"]

#: The longest text :meth:`Move.parse` reads (the longest pile ids are far shorter).
MAX_MOVE_TEXT = 200


class MoveKind(str, enum.Enum):
    """The four things a player can do: drag, click the stock, double-click a pile, turn a card."""

    DRAG = "drag"
    STOCK = "stock"
    DOUBLE_CLICK = "dbl"
    FLIP = "flip"


_PILE = r"[A-Za-z_][A-Za-z0-9_-]*"
_DRAG_RE = re.compile(rf"^({_PILE})(?::([0-9]+))?>({_PILE})$")
_PILE_RE = re.compile(rf"^{_PILE}$")


@dataclass(frozen=True, slots=True)
class Move:
    """One player action; frozen and hashable.

    Attributes:
        kind: :class:`MoveKind`.
        source: the pile id dragged from, double-clicked or turned (``None`` for a stock click).
        target: the pile id dragged to (drags only).
        count: how many cards are dragged, the top card and those under it (drags only; 1 otherwise).

    ``str(move)`` is the text form and :meth:`parse` reads it back.
    """

    kind: MoveKind
    source: str | None = None
    target: str | None = None
    count: int = 1

    @classmethod
    def drag(cls, source: str, target: str, count: int = 1) -> "Move":
        """A drag of the top ``count`` cards of pile ``source`` onto pile ``target``."""
        return cls(MoveKind.DRAG, source, target, count)

    @classmethod
    def stock(cls) -> "Move":
        """A click on the stock (deal, redeal, or offer a card to the chooser)."""
        return _STOCK

    @classmethod
    def double_click(cls, pile: str) -> "Move":
        """A double-click on pile ``pile``."""
        return cls(MoveKind.DOUBLE_CLICK, pile)

    @classmethod
    def flip(cls, pile: str) -> "Move":
        """A click on the face-down top card of ``pile`` (only where the pile's reveal is ``click``)."""
        return cls(MoveKind.FLIP, pile)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """The move for its text form; raises :class:`NotationError` naming the text otherwise.

        Forms: ``stock``; ``dbl:PILE``; ``flip:PILE``; ``PILE>PILE``; ``PILE:COUNT>PILE`` (COUNT ≥ 1).
        Pile ids are checked against a game only when the move is applied. Any value is accepted
        as input: one that is not text, text longer than :data:`MAX_MOVE_TEXT` characters and a
        count of cards too long to read are refused with a :class:`NotationError` too.
        """
        if not isinstance(text, str):
            raise NotationError(f"bad move {describe(text)}: a move is text like \"tableau3>foundation1\"")
        if len(text) > MAX_MOVE_TEXT:
            raise NotationError(f"bad move {describe(text)}: too long for a move")
        try:
            return cls._parse(text)
        except NotationError:
            raise
        except ValueError:  # a count of thousands of digits, which int() refuses
            raise NotationError(f"bad move {describe(text)}: the count of cards is too large") from None

    @classmethod
    def _parse(cls, text: str) -> "Move":
        t = text.strip()
        if t == "stock":
            return _STOCK
        for prefix, kind in (("dbl:", MoveKind.DOUBLE_CLICK), ("flip:", MoveKind.FLIP)):
            if t.startswith(prefix):
                pile = t[len(prefix):]
                if not _PILE_RE.match(pile):
                    raise NotationError(f"bad move {text!r}: {prefix!r} must be followed by a pile id, "
                                        "e.g. dbl:tableau2")
                return cls(kind, pile)
        m = _DRAG_RE.match(t)
        if not m:
            raise NotationError(f"bad move {text!r}: expected 'stock', 'dbl:PILE', 'flip:PILE', "
                                "'PILE>PILE' or 'PILE:COUNT>PILE', e.g. tableau3:2>tableau5")
        if m.group(2) is not None and len(m.group(2)) > 6:
            raise NotationError(f"bad move {text[:60]!r}: the count of cards is too large")
        count = int(m.group(2)) if m.group(2) is not None else 1
        if count < 1:
            raise NotationError(f"bad move {text!r}: the count of cards must be at least 1")
        return cls(MoveKind.DRAG, m.group(1), m.group(3), count)

    @property
    def is_drag(self) -> bool:
        """True for a drag from one pile to another."""
        return self.kind is MoveKind.DRAG

    def __str__(self) -> str:
        k = self.kind
        if k is MoveKind.DRAG:
            return f"{self.source}>{self.target}" if self.count == 1 else f"{self.source}:{self.count}>{self.target}"
        if k is MoveKind.STOCK:
            return "stock"
        return f"{k.value}:{self.source}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


_STOCK = Move(MoveKind.STOCK)


class LegalMoves:
    """The legal moves of a position: lazy, iterable, countable and searchable, like python-chess's.

    Iteration gives the moves in a fixed order (drags grouped by target pile in layout order;
    then turns; then the stock click; then double-clicks when asked). Iteration and ``len()``
    generate them all once and keep them; ``bool()`` stops at the first; ``in`` checks the one
    move against the rules.
    """

    __slots__ = ("_position", "_double_clicks", "_all")

    def __init__(self, position: "Position", double_clicks: bool = False):
        self._position = position
        self._double_clicks = double_clicks
        self._all: tuple[Move, ...] | None = None

    def _moves(self) -> tuple[Move, ...]:
        moves = self._all
        if moves is None:
            moves = self._all = tuple(self._position.generate_moves(self._double_clicks))
        return moves

    def __iter__(self) -> Iterator[Move]:
        # list(legal_moves) asks for an iterator, then for the length: both read the one tuple.
        return iter(self._moves())

    def __len__(self) -> int:
        return len(self._moves())

    def __bool__(self) -> bool:
        if self._all is not None:
            return bool(self._all)
        return any(True for _ in self._position.generate_moves(self._double_clicks))

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        if move.kind is MoveKind.DOUBLE_CLICK and not self._double_clicks:
            return False
        return self._position.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


def legal_moves(position: "Position", double_clicks: bool = False) -> LegalMoves:
    """The legal moves of ``position`` (a :class:`LegalMoves`, generated lazily).

    Double-clicks are shortcuts for a drag or a series of drags, so they are left out unless
    ``double_clicks`` is true.
    """
    return LegalMoves(position, double_clicks)
