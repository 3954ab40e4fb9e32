"""Microsoft FreeCell's numbered deals: the 52 cards that deal number N lays out.

FreeCell players name a layout by its number ("game #11982"); Freecell Solver, PySolFC and
KPatience share Microsoft's numbering, so a number names the same layout everywhere. Pure standard library.
"""

from __future__ import annotations

import re

from .cards import Card, Rank, Suit
from .errors import EngineError

__all__ = ["MS_DEAL_MIN", "MS_DEAL_MAX", "MS_COLUMNS", "MsDealError", "ms_deal_cards", "ms_deal_columns",
           "parse_ms_deal", "format_ms_deal"]

#: Smallest deal number: Microsoft's games are numbered from 1.
MS_DEAL_MIN = 1
#: Largest deal number served here, ``2**31 - 1``: the generator's state is 31 bits wide, and the numbers
#: above it that some programs offer (Freecell Pro's extension up to ``2**33 - 1``) deal by other rules.
MS_DEAL_MAX = 2**31 - 1
#: Columns of the FreeCell tableau that the deal fills.
MS_COLUMNS = 8

# The generator is the linear congruential one of Microsoft's C library ``rand()``: each step
# sets ``state = (state * 214013 + 2531011) mod 2**31`` and yields bits 16 to 30 of the new state.
_MULTIPLIER = 214013
_INCREMENT = 2531011
_STATE_MASK = 2**31 - 1

# The unshuffled deck, index ``(rank - 1) * 4 + suit`` with suits clubs, diamonds, hearts, spades:
# A♣ A♦ A♥ A♠ 2♣ … K♠. This is not make_deck()'s suit-by-suit order.
_MS_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_MS_DECK = tuple(Card(rank, suit) for rank in Rank for suit in _MS_SUITS)

# "ms" then decimal digits (ASCII only: str.isdigit would also take other scripts' digits).
_MS_TEXT = re.compile(r"ms([0-9]+)", re.IGNORECASE | re.ASCII)


class MsDealError(EngineError, ValueError):
    """A Microsoft deal number, or its text, is not valid (``str()`` says what is allowed)."""


def _check_number(number: object) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise MsDealError(f"a Microsoft FreeCell deal number is an integer from {MS_DEAL_MIN} to {MS_DEAL_MAX}, "
                          f"not {number!r}")
    if not MS_DEAL_MIN <= number <= MS_DEAL_MAX:
        raise MsDealError(f"Microsoft FreeCell deal {number} does not exist: deals are numbered "
                          f"{MS_DEAL_MIN} to {MS_DEAL_MAX} (2**31 - 1)")
    return number


def ms_deal_cards(number: int) -> tuple[Card, ...]:
    """The 52 cards of Microsoft FreeCell deal ``number``, in the order they are dealt.

    The cards are dealt row by row across the 8 columns: card 0 goes to column 1, card 1 to
    column 2, …, card 7 to column 8, card 8 to column 1 again, and so on; columns 1 to 4 get
    7 cards, columns 5 to 8 get 6. Within a column, the first card dealt is the one every later
    card covers, and the last is the exposed card. Deal 1 starts ``Jd 2d 9h Jc 5d 7h 7c 5h``.

    How a number becomes a layout (the numbering of Microsoft's FreeCell, as documented by
    Freecell Solver and PySolFC): the generator state starts as the deal number; the deck
    starts ordered A♣ A♦ A♥ A♠ 2♣ … K♠ (card index ``rank * 4 + suit``, rank 0 for the Ace,
    suits clubs, diamonds, hearts, spades). For each card dealt, with ``n`` cards left in the deck,
    the next generator value modulo ``n`` picks the card; the deck's last card then takes the
    picked card's place, and the deck is one card shorter.

    ``number`` is an int from :data:`MS_DEAL_MIN` (1) to :data:`MS_DEAL_MAX` (``2**31 - 1``);
    anything else raises :class:`MsDealError` (a ``ValueError``) naming that range.
    """
    state = _check_number(number)
    deck = list(_MS_DECK)
    dealt: list[Card] = []
    for left in range(len(deck), 0, -1):
        state = (state * _MULTIPLIER + _INCREMENT) & _STATE_MASK
        pick = (state >> 16) % left
        dealt.append(deck[pick])
        deck[pick] = deck[left - 1]
    return tuple(dealt)


def ms_deal_columns(number: int) -> tuple[tuple[Card, ...], ...]:
    """The 8 tableau columns of Microsoft FreeCell deal ``number``, each listed from the first card
    dealt to it (the covered end) to the last (the exposed card).

    Column ``c`` (0-based) holds cards ``c, c + 8, c + 16, …`` of :func:`ms_deal_cards`; raises
    :class:`MsDealError` as that function does.
    """
    cards = ms_deal_cards(number)
    return tuple(cards[column::MS_COLUMNS] for column in range(MS_COLUMNS))


def parse_ms_deal(text: str) -> int:
    """The deal number in a text such as ``"ms123"`` (the prefix in any letter case: ``"MS123"``).

    The form is ``ms`` followed by decimal digits, with nothing between them (surrounding
    whitespace is ignored; leading zeros are read as usual, ``"ms007"`` is 7). Raises
    :class:`MsDealError` (a ``ValueError``) when the text has another form, or when the number is
    outside :data:`MS_DEAL_MIN` .. :data:`MS_DEAL_MAX`.
    """
    if not isinstance(text, str):
        raise MsDealError(f"a Microsoft FreeCell deal is written as text such as 'ms123', not {text!r}")
    match = _MS_TEXT.fullmatch(text.strip())
    if match is None:
        raise MsDealError(f"not a Microsoft FreeCell deal {text!r}: expected 'ms' followed by a number, "
                          f"e.g. 'ms123'")
    return _check_number(int(match.group(1)))


def format_ms_deal(number: int) -> str:
    """The text form of deal ``number`` that :func:`parse_ms_deal` reads: ``"ms"`` then the number, no
    leading zeros. Raises :class:`MsDealError` for a number outside the allowed range."""
    return f"ms{_check_number(number)}"
