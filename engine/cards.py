"""Playing cards: suits, ranks, cards and decks, with a short text form that round-trips.

A card's text is its rank letter (``A23456789TJQK``) followed by its suit letter (``cdhs``):
``"7h"`` is the Seven of Hearts, ``"Ts"`` the Ten of Spades; a joker is ``"Jk"``. Pure standard library.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable

from .errors import EngineError

__all__ = ["Colour", "Suit", "Rank", "Card", "CardError", "JOKER", "JOKER_TEXT", "MAX_JOKERS", "standard_deck",
           "make_deck"]

#: Text form of a joker (``"#Jk"`` face down in the notation).
JOKER_TEXT = "Jk"
#: Most jokers a deck may hold, all copies of the deck together (packs print two, some four).
MAX_JOKERS = 4


class CardError(EngineError, ValueError):
    """A card, rank or suit text could not be read (``str()`` names the text and the allowed forms)."""


class Colour(enum.Enum):
    """The colour of a suit in a standard deck."""

    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    """The four suits of a standard deck, in AisleRiot's order (clubs, diamonds, hearts, spades),
    which is also their sort order (``Suit.CLUBS < Suit.SPADES``).

    ``value`` is the one-letter text form; ``colour`` gives :class:`Colour`.
    """

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def colour(self) -> Colour:
        """Red for diamonds and hearts, black for clubs and spades."""
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK

    @property
    def letter(self) -> str:
        """The one-letter text form (``"c"``, ``"d"``, ``"h"`` or ``"s"``)."""
        return self.value

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """The suit for a letter (``c d h s``, case-insensitive); raises :class:`CardError` otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise CardError(f"unknown suit {text!r}: expected one of c, d, h, s") from None

    def __str__(self) -> str:
        return self.value

    # Suits are ordered as listed (AisleRiot's deck order), so cards of equal rank sort too.
    def _order(self) -> int:
        return _SUIT_ORDER[self]

    def __lt__(self, other: object) -> bool:
        return self._order() < other._order() if isinstance(other, Suit) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._order() <= other._order() if isinstance(other, Suit) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._order() > other._order() if isinstance(other, Suit) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._order() >= other._order() if isinstance(other, Suit) else NotImplemented


_SUIT_ORDER = {suit: n for n, suit in enumerate(Suit)}

_RANK_LETTERS = "A23456789TJQK"
_RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")


class Rank(enum.IntEnum):
    """Card ranks, Ace low: ``ACE == 1`` up to ``KING == 13`` (AisleRiot's ``set-ace-low``)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The one-letter text form: ``A``, ``2`` … ``9``, ``T``, ``J``, ``Q``, ``K``."""
        return _RANK_LETTERS[self.value - 1]

    def next(self, wrap: bool = False) -> "Rank | None":
        """The rank one higher; after King, Ace when ``wrap`` is true, else ``None``."""
        if self is Rank.KING:
            return Rank.ACE if wrap else None
        return Rank(self.value + 1)

    def previous(self, wrap: bool = False) -> "Rank | None":
        """The rank one lower; below Ace, King when ``wrap`` is true, else ``None``."""
        if self is Rank.ACE:
            return Rank.KING if wrap else None
        return Rank(self.value - 1)

    @classmethod
    def parse(cls, text: str) -> "Rank":
        """The rank for a letter (``A23456789TJQK``), a number ``1``–``13`` or a word (``ace``, ``10``,
        ``king``), case-insensitive; raises :class:`CardError` otherwise."""
        t = text.strip().upper()
        if len(t) == 1 and t in _RANK_LETTERS:
            return cls(_RANK_LETTERS.index(t) + 1)
        if t.isdigit() and 1 <= int(t) <= 13:
            return cls(int(t))
        if t.lower() in _RANK_WORDS:
            return cls(_RANK_WORDS.index(t.lower()) + 1)
        raise CardError(f"unknown rank {text!r}: expected one of A 2 3 4 5 6 7 8 9 T J Q K or 1-13")

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card; frozen and hashable, ordered by rank then suit, jokers after every other card.

    Two cards of a double deck with the same rank and suit are equal: a position tells them apart
    by where they lie, not by identity. A joker (:meth:`joker`, :data:`JOKER`) has neither rank nor
    suit (both ``None``) and no colour; all jokers of a deck are equal, so they are alike in play.
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) is not (self.suit is None):
            raise CardError("a card has both a rank and a suit, or neither (a joker)")

    @classmethod
    def joker(cls) -> "Card":
        """The joker card (text ``"Jk"``); every call gives an equal value."""
        return JOKER

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank is None

    @property
    def colour(self) -> Colour | None:
        """The card's colour, from its suit; ``None`` for a joker, which matches no colour."""
        return None if self.suit is None else self.suit.colour

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card from its two-letter text (``"7h"``, ``"Qs"``, ``"Td"``; ``"10d"`` is accepted too),
        or a joker from ``"Jk"`` (any letter case).

        Raises :class:`CardError` naming the text when it is not a card.
        """
        t = text.strip()
        if t.lower() == "jk":
            return JOKER
        rank = t[:-1]
        if not ((len(rank) == 1 and rank.upper() in _RANK_LETTERS) or rank == "10"):
            raise CardError(f"not a card {text!r}: expected rank A23456789TJQK then suit cdhs, e.g. 7h, "
                            f"or {JOKER_TEXT} for a joker")
        try:
            return cls(Rank.parse(t[:-1]), Suit.parse(t[-1]))
        except CardError as err:
            raise CardError(f"not a card {text!r}: {err}") from None

    # Sort key: rank, then suit in AisleRiot's order; jokers (no rank) after the Kings.
    def _key(self) -> tuple[int, int]:
        if self.rank is None:
            return (14, 0)
        return (self.rank.value, _SUIT_ORDER[self.suit])

    def __lt__(self, other: object) -> bool:
        return self._key() < other._key() if isinstance(other, Card) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._key() <= other._key() if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._key() > other._key() if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._key() >= other._key() if isinstance(other, Card) else NotImplemented

    def __str__(self) -> str:
        if self.rank is None:
            return JOKER_TEXT
        return f"{self.rank.letter}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


#: The joker: no rank, no suit, no colour (see :class:`Card`).
JOKER = Card(None, None)


def make_deck(decks: int = 1, suits: Iterable[Suit] = tuple(Suit),
              ranks: Iterable[Rank] = tuple(Rank), jokers: int = 0) -> tuple[Card, ...]:
    """The cards of ``decks`` copies of a deck holding every rank of every suit, then ``jokers`` jokers,
    in a fixed order.

    The order is AisleRiot's ``make-standard-deck`` order (per deck, suit by suit in
    :class:`Suit` order, each suit Ace to King), so a shuffle from the same seed can give the same
    layout. AisleRiot's decks hold no jokers, so ours go after every other card: a deck without
    jokers keeps AisleRiot's order and its numbered deals. Raises :class:`CardError` when ``decks``
    is below 1, a list is empty, or ``jokers`` is not ``0`` .. :data:`MAX_JOKERS`.
    """
    suits, ranks = tuple(suits), tuple(ranks)
    if decks < 1:
        raise CardError(f"a deck needs at least one copy, not {decks}")
    if not suits or not ranks:
        raise CardError("a deck needs at least one suit and one rank")
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= MAX_JOKERS:
        raise CardError(f"a deck holds 0 to {MAX_JOKERS} jokers, not {jokers!r}")
    return tuple(Card(rank, suit) for _ in range(decks) for suit in suits for rank in ranks) + (JOKER,) * jokers


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards of one standard deck, in :func:`make_deck` order."""
    return make_deck(1)
